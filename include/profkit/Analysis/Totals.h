//===- Totals.h - Run and function totals ----------------------*- C++ -*-===//
//
// The totals analysis: the cost of the whole run per event, and the self
// cost of every function, over all parts. Shares (`min-self=5%`) are shares
// of these totals.
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
    /// Sum of all self costs of all parts, per event.
    std::vector<uint64_t> Total;
    /// Self cost of function F for event E at [F * NumEvents + E].
    std::vector<uint64_t> Self;
    uint64_t self(FuncId F, unsigned E) const {
      return Self[size_t(F) * NumEvents + E];
    }
  };
  Result run(Profile &P, ProfileAnalysisManager &AM);
};

} // namespace profkit

#endif
