//===- FlattenSamples.h - The flatten-samples pass -------------*- C++ -*-===//
//
// See PassRegistry.def and docs/Passes.md for what it does.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_TRANSFORMS_FLATTENSAMPLES_H
#define PROFKIT_TRANSFORMS_FLATTENSAMPLES_H

#include "profkit/IR/PassParams.h"

namespace profkit {

/// Turns a sample-profile-shaped profile into one placed by line, which
/// every writer holds; other profiles are left as they are. Returns false
/// if a sum overflowed 64 bits (it then saturates). Note is told what the
/// lines are.
[[nodiscard]] bool
flattenSamples(Profile &P,
               const std::function<void(const llvm::Twine &)> &Note);

struct FlattenSamplesPass : PassInfoMixin<FlattenSamplesPass> {
  static constexpr const char *PassName = "flatten-samples";
  static llvm::Expected<FlattenSamplesPass> create(const PassParams &Params,
                                                   PassContext &Ctx);
  llvm::Expected<PreservedAnalyses> run(Profile &P, ProfileAnalysisManager &AM);

private:
  PassContext *Ctx = nullptr;
};

} // namespace profkit

#endif
