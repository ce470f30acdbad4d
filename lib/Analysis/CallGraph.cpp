//===- CallGraph.cpp - The call-graph analysis ----------------------------===//

#include "profkit/Analysis/CallGraph.h"
#include "llvm/ADT/STLExtras.h"

using namespace profkit;
using namespace llvm;

AnalysisKey CallGraphAnalysis::Key;

CallGraphAnalysis::Result CallGraphAnalysis::run(Profile &P,
                                                 ProfileAnalysisManager &) {
  Result R;
  size_t N = P.numFunctions();
  R.Callees.resize(N);
  R.Callers.resize(N);
  R.HasData.resize(N);
  for (const auto &Pt : P.parts()) {
    RowLayout L = Pt->layout();
    for (const FunctionData &FD : Pt->functions()) {
      R.HasData[FD.Id] = true;
      for (const Row &Rw : FD.Calls) {
        FuncId C = L.callee(Rw);
        R.Callees[FD.Id].push_back(C);
        R.Callers[C].push_back(FD.Id);
      }
    }
  }
  for (auto *Lists : {&R.Callees, &R.Callers})
    for (std::vector<FuncId> &V : *Lists) {
      llvm::sort(V);
      V.erase(std::unique(V.begin(), V.end()), V.end());
    }
  return R;
}
