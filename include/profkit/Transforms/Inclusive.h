//===- Inclusive.h - The inclusive pass -------------------------*- C++ -*-===//
//
// The `inclusive` pass computes the inclusive-cost analysis
// (profkit/Analysis/InclusiveCost.h), and prints it on request.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_TRANSFORMS_INCLUSIVE_H
#define PROFKIT_TRANSFORMS_INCLUSIVE_H

#include "profkit/IR/PassParams.h"

#include "profkit/Analysis/InclusiveCost.h"

namespace profkit {

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
