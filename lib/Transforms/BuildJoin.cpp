//===- BuildJoin.cpp - A .ninja_log joined with its time traces -----------===//
//
// After `merge` of a .ninja_log and the clang time traces of the same build,
// each ninja edge (file `ninja`) whose object is the object of a traced
// compilation (file `ExecuteCompiler`, with intervals) calls that
// compilation: one call per trace, the traces' time as the inclusive time.
// The edge keeps as self time what the compiler's own trace does not cover
// (process start, the driver, writing the object). The traces' intervals go:
// their clock is the epoch's, the log's the build's, and the edge's interval
// stands for them on the build's timeline.
//
//===----------------------------------------------------------------------===//

#include "profkit/Transforms/BuildJoin.h"
#include "profkit/Support/Saturating.h"
#include "profkit/Transforms/Utils/Rewrite.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

using namespace profkit;
using namespace llvm;

Expected<BuildJoinPass> BuildJoinPass::create(const PassParams &,
                                              PassContext &Ctx) {
  BuildJoinPass J;
  J.Ctx = &Ctx;
  return J;
}

namespace {
/// The traces of one compilation in a part.
struct Compilation {
  uint64_t Count = 0, Time = 0;
  bool Joined = false;
};
} // namespace

/// An object path as both readers would give it, were it spelled otherwise
/// (`./a.o`, `x/../a.o`).
static std::string normalized(StringRef Path) {
  SmallString<256> S(Path);
  sys::path::remove_dots(S, /*remove_dot_dot=*/true);
  return std::string(S);
}

Expected<PreservedAnalyses> BuildJoinPass::run(Profile &P,
                                               ProfileAnalysisManager &) {
  std::optional<StrId> Ninja = P.Strings.lookup("ninja");
  std::optional<StrId> Compiler = P.Strings.lookup("ExecuteCompiler");
  std::optional<unsigned> Us = P.findEvent("us");
  if (!Ninja || !Compiler || !Us) {
    Ctx->Note("build-join: nothing to join: the profile needs the edges of a "
              ".ninja_log and clang time traces (merge them first)");
    return PreservedAnalyses::all();
  }
  size_t NumEvents = P.events().size();
  uint64_t Edges = 0, Joined = 0, Unjoined = 0, Clamped = 0;
  std::string FirstClamp;
  bool Ok = true;
  for (auto &PtPtr : P.parts()) {
    Part &Pt = *PtPtr;
    RowLayout L = Pt.layout();
    // The traced compilations of this part, by object.
    DenseMap<FuncId, Compilation> Traces;
    for (const Interval &I : Pt.intervals())
      if (P.function(I.Function).File == *Compiler) {
        Compilation &C = Traces[I.Function];
        ++C.Count;
        Ok &= addCost(C.Time, I.Duration);
      }
    StringMap<SmallVector<FuncId, 1>> ByObject;
    for (const auto &[F, C] : Traces)
      ByObject[normalized(P.Strings.str(P.function(F).Object))].push_back(F);

    for (FunctionData &FD : Pt.functions()) {
      const Function &Fn = P.function(FD.Id);
      if (Fn.File != *Ninja)
        continue;
      ++Edges;
      auto It = ByObject.find(normalized(P.Strings.str(Fn.Object)));
      if (It == ByObject.end())
        continue;
      ++Joined;
      llvm::sort(It->second); // Rows in id order, not the map's.
      uint64_t TraceTime = 0;
      for (FuncId F : It->second) {
        Compilation &C = Traces[F];
        C.Joined = true;
        CallKey K(L);
        K.setSourceFile(Fn.File);
        K.setCallee(F);
        SmallVector<uint64_t, 4> Values(1 + NumEvents, 0);
        Values[0] = C.Count;
        Values[1 + *Us] = C.Time;
        Ok &= FD.makeCalls().add(K.key(), Values);
        Ok &= addCost(TraceTime, C.Time);
      }

      // The self time loses the traces' time, row by row, never below 0.
      uint64_t Self = 0;
      for (const Row &R : FD.Self)
        Ok &= addCost(Self, R.value(*Us));
      if (TraceTime > Self && Clamped++ == 0)
        FirstClamp =
            ("'" + P.Strings.str(Fn.Name) + "': the edge took " + Twine(Self) +
             " us, its trace " + Twine(TraceTime) + " us")
                .str();
      uint64_t Left = TraceTime;
      RowTable NewSelf(L.selfWidth(), L.P);
      SmallVector<uint64_t, 4> Values;
      for (const Row &R : FD.Self) {
        Values.assign(R.Values.begin(), R.Values.end());
        if (*Us < Values.size()) {
          uint64_t Take = std::min(Left, Values[*Us]);
          Values[*Us] -= Take;
          Left -= Take;
        }
        Ok &= NewSelf.add(R.Key, Values);
      }
      FD.Self = std::move(NewSelf);
    }

    for (const auto &[F, C] : Traces)
      if (!C.Joined)
        Unjoined += C.Count;
    erase_if(Pt.makeIntervals(), [&](const Interval &I) {
      auto It = Traces.find(I.Function);
      return It != Traces.end() && It->second.Joined;
    });
    Ok &= Pt.finalize();
  }
  if (!Ok)
    return overflowError(name());
  if (Clamped)
    Ctx->Warn("build-join: " + Twine(Clamped) +
              (Clamped == 1 ? " edge took less time than its trace"
                            : " edges took less time than their traces") +
              " (the log counts whole milliseconds; self time kept at 0): " +
              FirstClamp + (Clamped == 1 ? "" : ", and others"));
  Ctx->Note("build-join: " + Twine(Joined) + " of " + Twine(Edges) +
            " ninja edges joined with their time traces; " + Twine(Unjoined) +
            " time trace" + (Unjoined == 1 ? "" : "s") +
            " found no edge in the log's latest build");
  return Joined ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
