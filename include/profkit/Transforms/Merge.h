//===- Merge.h - The merge pass --------------------------------*- C++ -*-===//
//
// See PassRegistry.def and docs/Passes.md for what it does.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_TRANSFORMS_MERGE_H
#define PROFKIT_TRANSFORMS_MERGE_H

#include "profkit/IR/PassParams.h"
#include "profkit/Support/PathNormalizer.h"
#include <vector>

namespace profkit {

struct MergePass : ParamPassMixin<MergePass> {
  static constexpr const char *PassName = "merge";
  static llvm::Expected<MergePass> create(const PassParams &Params,
                                          PassContext &Ctx);
  llvm::Expected<PreservedAnalyses> run(Profile &P, ProfileAnalysisManager &AM);

private:
  PathNormalizer Paths;
  bool FoldParts = true;
  /// The weight of each input, in order; inputs past the list weigh 1.
  std::vector<uint64_t> Weights;
  PassContext *Ctx = nullptr;
};

} // namespace profkit

#endif
