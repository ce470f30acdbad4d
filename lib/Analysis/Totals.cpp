//===- Totals.cpp - The totals analysis -----------------------------------===//

#include "profkit/Analysis/Totals.h"

using namespace profkit;
using namespace llvm;

AnalysisKey TotalsAnalysis::Key;

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
