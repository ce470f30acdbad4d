//===- StripLines.h - The strip-lines pass ---------------------*- C++ -*-===//
//
// See PassRegistry.def and docs/Passes.md for what it does.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_TRANSFORMS_STRIPLINES_H
#define PROFKIT_TRANSFORMS_STRIPLINES_H

#include "profkit/IR/PassParams.h"

namespace profkit {

struct StripLinesPass : PassInfoMixin<StripLinesPass> {
  static constexpr const char *PassName = "strip-lines";
  static llvm::Expected<StripLinesPass> create(const PassParams &Params,
                                               PassContext &Ctx);
  llvm::Expected<PreservedAnalyses> run(Profile &P, ProfileAnalysisManager &AM);
};

} // namespace profkit

#endif
