//===- ExamplePlugin.cpp - A profkit pass plugin
//---------------------------===//
//
// Adds two passes and an output format to profkit-opt:
//   scale<factor=N>   multiplies every cost (self and inclusive) by N
//   crash             crashes, to show which pass a crash report names
//   -output-format=totals   writes `EVENT TOTAL` lines
//
//   profkit-opt -load-pass-plugin=ProfkitExamplePlugin.so \
//       -passes='scale<factor=3>' in.callgrind -output-format=totals
//
//===----------------------------------------------------------------------===//

#include "profkit/Formats/Format.h"
#include "profkit/Passes/PassPlugin.h"
#include "profkit/Transforms/Utils/Rewrite.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

using namespace profkit;
using namespace llvm;

namespace {
struct ScalePass : ParamPassMixin<ScalePass> {
  static constexpr const char *PassName = "scale";
  uint64_t Factor = 1;

  static Expected<ScalePass> create(const PassParams &Params, PassContext &) {
    ScalePass S;
    S.Params = Params;
    if (Params.get("factor").getAsInteger(10, S.Factor))
      return Params.invalid("factor", "expected a whole number");
    return S;
  }

  Expected<PreservedAnalyses> run(Profile &P, ProfileAnalysisManager &) {
    RowMap M;
    for (FuncId F = 0, E = P.numFunctions(); F != E; ++F)
      M.Func.push_back(F);
    uint64_t K = Factor;
    M.Costs = [K](ArrayRef<uint64_t> In, SmallVectorImpl<uint64_t> &Out) {
      for (uint64_t V : In)
        Out.push_back(V * K);
      return true;
    };
    // Costs maps cost columns only: call counts and jumps stay as they are.
    if (!rewriteProfile(P, M, /*DropTotals=*/true))
      return overflowError(name());
    return PreservedAnalyses::none();
  }
};

struct CrashPass : profkit::PassInfoMixin<CrashPass> {
  static constexpr const char *PassName = "crash";
  static Expected<CrashPass> create(const PassParams &, PassContext &) {
    return CrashPass();
  }
  Expected<PreservedAnalyses> run(Profile &, ProfileAnalysisManager &) {
    abort();
  }
};

Error writeTotals(const Profile &P, raw_ostream &OS, const PassParams &,
                  const WriteContext &) {
  std::vector<uint64_t> Sum(P.events().size());
  for (const auto &Pt : P.parts()) {
    bool Overflow = false;
    std::vector<uint64_t> S = Pt->computeTotals(Sum.size(), Overflow);
    for (size_t I = 0; I != Sum.size(); ++I)
      Sum[I] += S[I];
  }
  for (size_t I = 0; I != Sum.size(); ++I)
    OS << P.events()[I].Name << ' ' << Sum[I] << '\n';
  return Error::success();
}

void registerAll(PassRegistry &R) {
  cantFail(R.registerPass<ScalePass>(
      "Multiply every cost by a factor (example plugin).",
      {{"factor", "N", "1", "the factor"}}));
  cantFail(R.registerPass<CrashPass>("Crash (example plugin)."));
  registerFormat(FormatInfo{"totals", "total per event (example plugin)",
                            nullptr, nullptr, writeTotals});
}
} // namespace

extern "C" PROFKIT_PLUGIN_EXPORT PassPluginLibraryInfo
profkitGetPassPluginInfo() {
  return {PROFKIT_PLUGIN_API_VERSION, "ProfkitExamplePlugin", "1.0",
          registerAll};
}
