//===- Demangle.h - The demangle pass --------------------------*- C++ -*-===//
//
// See PassRegistry.def and docs/Passes.md for what it does.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_TRANSFORMS_DEMANGLE_H
#define PROFKIT_TRANSFORMS_DEMANGLE_H

#include "profkit/IR/PassParams.h"

namespace profkit {

struct DemanglePass : PassInfoMixin<DemanglePass> {
  static constexpr const char *PassName = "demangle";
  static llvm::Expected<DemanglePass> create(const PassParams &Params,
                                             PassContext &Ctx);
  llvm::Expected<PreservedAnalyses> run(Profile &P, ProfileAnalysisManager &AM);
};

} // namespace profkit

#endif
