//===- Filter.h - The filter pass ------------------------------*- C++ -*-===//
//
// See PassRegistry.def and docs/Passes.md for what it does.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_TRANSFORMS_FILTER_H
#define PROFKIT_TRANSFORMS_FILTER_H

#include "profkit/IR/PassParams.h"

namespace profkit {

struct FilterPass : ParamPassMixin<FilterPass> {
  static constexpr const char *PassName = "filter";
  static llvm::Expected<FilterPass> create(const PassParams &Params,
                                           PassContext &Ctx);
  llvm::Expected<PreservedAnalyses> run(Profile &P, ProfileAnalysisManager &AM);

  struct Options;

private:
  std::shared_ptr<Options> Opts;
};

} // namespace profkit

#endif
