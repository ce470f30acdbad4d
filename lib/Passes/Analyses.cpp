//===- Analyses.cpp - call-graph and totals analyses ----------------------===//

#include "profkit/Passes/Analyses.h"
#include "llvm/ADT/STLExtras.h"

using namespace profkit;
using namespace llvm;

AnalysisKey CallGraphAnalysis::Key;
AnalysisKey TotalsAnalysis::Key;

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

TotalsAnalysis::Result TotalsAnalysis::run(Profile &P,
                                           ProfileAnalysisManager &) {
  Result R;
  R.NumEvents = P.events().size();
  R.Total.assign(R.NumEvents, 0);
  R.Self.assign(P.numFunctions() * R.NumEvents, 0);
  for (const auto &Pt : P.parts())
    for (const FunctionData &FD : Pt->functions())
      for (const Row &Rw : FD.Self)
        for (size_t E = 0; E != Rw.Values.size() && E != R.NumEvents; ++E) {
          addCost(R.Self[size_t(FD.Id) * R.NumEvents + E], Rw.Values[E]);
          addCost(R.Total[E], Rw.Values[E]);
        }
  return R;
}
