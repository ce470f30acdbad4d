//===- Totals.h - Run and function totals ----------------------*- C++ -*-===//
//
// The totals analysis: the cost of the whole run per event, and the self
// cost of every function, over all parts. Shares (`min-self=5%`) are shares
// of the run's total, which is the one rule of partRunTotal(): what the run
// cost as read, not what passes that drop functions left of it.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_ANALYSIS_TOTALS_H
#define PROFKIT_ANALYSIS_TOTALS_H

#include "profkit/IR/PassManager.h"
#include <vector>

namespace profkit {

class TotalsAnalysis : public AnalysisInfoMixin<TotalsAnalysis> {
public:
  static constexpr const char *PassName = "totals";
  static AnalysisKey Key;

  struct Result {
    size_t NumEvents = 0;
    /// The run's total per event: the sum of every part's partRunTotal().
    std::vector<uint64_t> Total;
    /// Self cost of function F for event E at [F * NumEvents + E].
    std::vector<uint64_t> Self;
    uint64_t self(FuncId F, unsigned E) const {
      return Self[size_t(F) * NumEvents + E];
    }
  };
  Result run(Profile &P, ProfileAnalysisManager &AM);
};

/// A part's share of the run's total per event: its self costs, or its
/// `summary:` where that states more. Xdebug times the run a little above
/// the sum; filter keeps the total it read as the summary of what it drops
/// from.
std::vector<uint64_t> partRunTotal(const Part &Pt, size_t NumEvents);
/// The same for a part whose self rows the caller has summed already
/// (SelfSum, per event): no second pass over its rows.
std::vector<uint64_t> partRunTotal(const Part &Pt,
                                   std::vector<uint64_t> SelfSum);

} // namespace profkit

#endif
