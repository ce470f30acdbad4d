//===- Rename.h - The rename pass ------------------------------*- C++ -*-===//
//
// See PassRegistry.def and docs/Passes.md for what it does.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_TRANSFORMS_RENAME_H
#define PROFKIT_TRANSFORMS_RENAME_H

#include "profkit/IR/PassParams.h"

namespace profkit {

struct RenamePass : ParamPassMixin<RenamePass> {
  static constexpr const char *PassName = "rename";
  static llvm::Expected<RenamePass> create(const PassParams &Params,
                                           PassContext &Ctx);
  llvm::Expected<PreservedAnalyses> run(Profile &P, ProfileAnalysisManager &AM);

private:
  std::shared_ptr<llvm::Regex> Match;
  std::string Replace;
};

} // namespace profkit

#endif
