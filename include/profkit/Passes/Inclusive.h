//===- Inclusive.h - The inclusive-cost analysis and pass -------*- C++ -*-===//
//
// The inclusive-cost analysis wraps the InclusiveCost library
// (profkit/Analysis/InclusiveCost.h: iterative Tarjan SCCs, correct under
// recursion). Its result is cached by the analysis manager, so later passes
// (filter<min-inclusive=...>) and writers reuse it until a pass changes
// costs or calls. The `inclusive` pass computes it, and prints it on request.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_PASSES_INCLUSIVE_H
#define PROFKIT_PASSES_INCLUSIVE_H

#include "profkit/Passes/PassBuilder.h"

#include "profkit/Analysis/InclusiveCost.h"

namespace profkit {

class InclusiveCostAnalysis : public AnalysisInfoMixin<InclusiveCostAnalysis> {
public:
  static constexpr const char *PassName = "inclusive-cost";
  static AnalysisKey Key;
  using Result = InclusiveCost;
  Result run(Profile &P, ProfileAnalysisManager &AM);
};

struct InclusivePass : ParamPassMixin<InclusivePass> {
  static constexpr const char *PassName = "inclusive";
  static llvm::Expected<InclusivePass> create(const PassParams &Params,
                                              PassContext &Ctx);
  llvm::Expected<PreservedAnalyses> run(Profile &P, ProfileAnalysisManager &AM);

private:
  bool Print = false;
};

} // namespace profkit

#endif
