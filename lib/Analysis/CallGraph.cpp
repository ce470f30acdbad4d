//===- CallGraph.cpp - The call-graph analysis ----------------------------===//

#include "profkit/Analysis/CallGraph.h"
#include "llvm/ADT/STLExtras.h"

using namespace profkit;
using namespace llvm;

AnalysisKey CallGraphAnalysis::Key;

CallGraphAnalysis::Result CallGraphAnalysis::compute(const Profile &P) {
  Result R;
  size_t N = P.numFunctions();
  R.Callees.resize(N);
  R.Callers.resize(N);
  R.HasData.resize(N);
  for (const auto &Pt : P.parts()) {
    RowLayout L = Pt->layout();
    for (const FunctionData &FD : Pt->functions()) {
      R.HasData[FD.Id] = true;
      for (const Row &Rw : FD.calls()) {
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

std::vector<bool> CallGraphAnalysis::Result::reachable(ArrayRef<FuncId> Seeds,
                                                       bool Forward) const {
  std::vector<bool> Seen(Callees.size());
  std::vector<FuncId> Work;
  for (FuncId F : Seeds)
    if (!Seen[F]) {
      Seen[F] = true;
      Work.push_back(F);
    }
  while (!Work.empty()) {
    FuncId F = Work.back();
    Work.pop_back();
    for (FuncId G : Forward ? Callees[F] : Callers[F])
      if (!Seen[G]) {
        Seen[G] = true;
        Work.push_back(G);
      }
  }
  return Seen;
}
