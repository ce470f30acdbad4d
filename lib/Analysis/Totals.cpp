//===- Totals.cpp - The totals analysis -----------------------------------===//

#include "profkit/Analysis/Totals.h"
#include <algorithm>

using namespace profkit;
using namespace llvm;

AnalysisKey TotalsAnalysis::Key;

TotalsAnalysis::Result TotalsAnalysis::run(Profile &P,
                                           ProfileAnalysisManager &) {
  Result R;
  R.NumEvents = P.events().size();
  R.Total.assign(R.NumEvents, 0);
  R.Self.assign(P.numFunctions() * R.NumEvents, 0);
  for (const auto &Pt : P.parts()) {
    std::vector<uint64_t> PartSelf(R.NumEvents);
    for (const FunctionData &FD : Pt->functions())
      for (const Row &Rw : FD.Self)
        for (size_t E = 0; E != Rw.Values.size() && E != R.NumEvents; ++E) {
          addCost(R.Self[size_t(FD.Id) * R.NumEvents + E], Rw.Values[E]);
          addCost(PartSelf[E], Rw.Values[E]);
        }
    std::vector<uint64_t> PartTotal = partRunTotal(*Pt, std::move(PartSelf));
    for (size_t E = 0; E != R.NumEvents; ++E)
      addCost(R.Total[E], PartTotal[E]);
  }
  return R;
}

std::vector<uint64_t> profkit::partRunTotal(const Part &Pt, size_t NumEvents) {
  bool Overflow = false; // The sums saturate.
  return partRunTotal(Pt, Pt.computeTotals(NumEvents, Overflow));
}

std::vector<uint64_t> profkit::partRunTotal(const Part &Pt,
                                            std::vector<uint64_t> T) {
  if (Pt.Summary)
    for (size_t E = 0; E != T.size() && E != Pt.Summary->size(); ++E)
      T[E] = std::max(T[E], (*Pt.Summary)[E]);
  return T;
}
