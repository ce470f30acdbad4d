//===- Analyses.h - Derived data cached by the analysis manager -*- C++ -*-===//
//
// call-graph: callers and callees of every function, over all parts.
// totals:     total cost per event, and self cost per function and event.
// (inclusive-cost is in Inclusive.h.)
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_PASSES_ANALYSES_H
#define PROFKIT_PASSES_ANALYSES_H

#include "profkit/Passes/PassManager.h"
#include <vector>

namespace profkit {

class CallGraphAnalysis : public AnalysisInfoMixin<CallGraphAnalysis> {
public:
  static constexpr const char *PassName = "call-graph";
  static AnalysisKey Key;

  struct Result {
    /// Distinct callees and callers of each function (by FuncId), without
    /// duplicates, summed over parts and call sites.
    std::vector<std::vector<FuncId>> Callees, Callers;
    /// Whether the function has rows in some part.
    std::vector<bool> HasData;
  };
  Result run(Profile &P, ProfileAnalysisManager &AM);
};

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
