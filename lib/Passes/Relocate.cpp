//===- Relocate.cpp - The relocate pass -----------------------------------===//

#include "profkit/Passes/Relocate.h"
#include "profkit/Transforms/Relocate.h"

using namespace profkit;
using namespace llvm;

Expected<RelocatePass> RelocatePass::create(const PassParams &Params,
                                            PassContext &Ctx) {
  RelocatePass R;
  R.Params = Params;
  R.Ctx = &Ctx;
  // Without binary=, the program of -binary; spelled out, so that
  // -print-pipeline-passes reproduces the run.
  if (!R.Params.has("binary") && !Ctx.Read.Binary.empty())
    R.Params.setValue("binary", Ctx.Read.Binary);
  R.Binary = R.Params.get("binary").str();
  if (R.Binary.empty())
    return createStringError(inconvertibleErrorCode(),
                             "pass 'relocate' needs the program: "
                             "relocate<binary=PROG> or -binary=PROG");
  R.Lines = R.Params.getFlag("lines");
  R.Demangle = R.Params.getFlag("demangle");
  return R;
}

Expected<PreservedAnalyses> RelocatePass::run(Profile &P,
                                              ProfileAnalysisManager &) {
  RelocateOptions Opts;
  Opts.Lines = Lines;
  Opts.Demangle = Demangle;
  Opts.Warn = Ctx->Warn;
  Opts.Note = Ctx->Note;
  if (Error E = relocate(P, Binary, Opts))
    return std::move(E);
  return PreservedAnalyses::none();
}
