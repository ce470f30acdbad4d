//===- StripLines.cpp - Function granularity ------------------------------===//

#include "profkit/Transforms/StripLines.h"
#include "profkit/Transforms/Utils/Rewrite.h"

using namespace profkit;
using namespace llvm;

Expected<StripLinesPass> StripLinesPass::create(const PassParams &,
                                                PassContext &) {
  return StripLinesPass();
}

Expected<PreservedAnalyses> StripLinesPass::run(Profile &P,
                                                ProfileAnalysisManager &) {
  RowMap M;
  M.Func.resize(P.numFunctions());
  for (FuncId F = 0; F != M.Func.size(); ++F)
    M.Func[F] = F;
  M.UseFunctionFile = true;
  // Every row moves to line 0 of its function's own file.
  PositionKind Line[] = {PositionKind::Line};
  if (!rewriteProfile(P, M, /*DropTotals=*/false, Line))
    return overflowError(name());
  // Self costs per function are unchanged, and so are the call graph and
  // every analysis built on them.
  return PreservedAnalyses::all();
}
