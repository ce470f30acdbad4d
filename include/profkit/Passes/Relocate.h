//===- Relocate.h - The relocate pass ---------------------------*- C++ -*-===//
//
// Wraps the symbol relocation of profkit/Transforms/Relocate.h. See
// PassRegistry.def and docs/Passes.md for what it does.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_PASSES_RELOCATE_H
#define PROFKIT_PASSES_RELOCATE_H

#include "profkit/Passes/PassBuilder.h"

namespace profkit {

struct RelocatePass : ParamPassMixin<RelocatePass> {
  static constexpr const char *PassName = "relocate";
  static llvm::Expected<RelocatePass> create(const PassParams &Params,
                                             PassContext &Ctx);
  llvm::Expected<PreservedAnalyses> run(Profile &P, ProfileAnalysisManager &AM);

private:
  std::string Binary;
  bool Lines = true;
  bool Demangle = true;
  PassContext *Ctx = nullptr;
};

} // namespace profkit

#endif
