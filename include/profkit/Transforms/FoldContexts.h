//===- FoldContexts.h - The fold-contexts pass -----------------*- C++ -*-===//
//
// See PassRegistry.def and docs/Passes.md for what it does.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_TRANSFORMS_FOLDCONTEXTS_H
#define PROFKIT_TRANSFORMS_FOLDCONTEXTS_H

#include "profkit/IR/PassParams.h"

namespace profkit {

struct FoldContextsPass : PassInfoMixin<FoldContextsPass> {
  static constexpr const char *PassName = "fold-contexts";
  static llvm::Expected<FoldContextsPass> create(const PassParams &Params,
                                                 PassContext &Ctx);
  llvm::Expected<PreservedAnalyses> run(Profile &P, ProfileAnalysisManager &AM);
};

} // namespace profkit

#endif
