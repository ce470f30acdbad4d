//===- EvalEvents.h - The eval-events pass ---------------------*- C++ -*-===//
//
// See PassRegistry.def and docs/Passes.md for what it does.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_TRANSFORMS_EVALEVENTS_H
#define PROFKIT_TRANSFORMS_EVALEVENTS_H

#include "profkit/IR/PassParams.h"

namespace profkit {

struct EvalEventsPass : ParamPassMixin<EvalEventsPass> {
  static constexpr const char *PassName = "eval-events";
  static llvm::Expected<EvalEventsPass> create(const PassParams &Params,
                                               PassContext &Ctx);
  llvm::Expected<PreservedAnalyses> run(Profile &P, ProfileAnalysisManager &AM);

private:
  llvm::SmallVector<std::string, 4> Events;
};

} // namespace profkit

#endif
