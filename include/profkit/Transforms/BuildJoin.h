//===- BuildJoin.h - The build-join pass -----------------------*- C++ -*-===//
//
// See PassRegistry.def and docs/Passes.md for what it does.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_TRANSFORMS_BUILDJOIN_H
#define PROFKIT_TRANSFORMS_BUILDJOIN_H

#include "profkit/IR/PassParams.h"

namespace profkit {

struct BuildJoinPass : PassInfoMixin<BuildJoinPass> {
  static constexpr const char *PassName = "build-join";
  static llvm::Expected<BuildJoinPass> create(const PassParams &Params,
                                              PassContext &Ctx);
  llvm::Expected<PreservedAnalyses> run(Profile &P, ProfileAnalysisManager &AM);

private:
  PassContext *Ctx = nullptr;
};

} // namespace profkit

#endif
