//===- SelectEvents.h - The select-events pass -----------------*- C++ -*-===//
//
// See PassRegistry.def and docs/Passes.md for what it does.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_TRANSFORMS_SELECTEVENTS_H
#define PROFKIT_TRANSFORMS_SELECTEVENTS_H

#include "profkit/IR/PassParams.h"

namespace profkit {

struct SelectEventsPass : ParamPassMixin<SelectEventsPass> {
  static constexpr const char *PassName = "select-events";
  static llvm::Expected<SelectEventsPass> create(const PassParams &Params,
                                                 PassContext &Ctx);
  llvm::Expected<PreservedAnalyses> run(Profile &P, ProfileAnalysisManager &AM);

private:
  llvm::SmallVector<std::string, 4> Events;
};

} // namespace profkit

#endif
