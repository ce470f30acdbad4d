//===- SampleProfile.h - Instruction counts to a sample profile -*- C++ -*-===//
//
// See PassRegistry.def and docs/SampleProfiles.md for what it does.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_TRANSFORMS_SAMPLEPROFILE_H
#define PROFKIT_TRANSFORMS_SAMPLEPROFILE_H

#include "profkit/IR/PassParams.h"
#include <string>

namespace profkit {

struct SampleProfilePass : ParamPassMixin<SampleProfilePass> {
  static constexpr const char *PassName = "sample-profile";
  static llvm::Expected<SampleProfilePass> create(const PassParams &Params,
                                                  PassContext &Ctx);
  llvm::Expected<PreservedAnalyses> run(Profile &P, ProfileAnalysisManager &AM);

private:
  std::string Binary;
  std::string Event;
  PassContext *Ctx = nullptr;
};

} // namespace profkit

#endif
