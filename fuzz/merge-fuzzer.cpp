//===- merge-fuzzer.cpp - merge a profile with itself ---------------------===//
//
// Reads the input (callgrind, webgrind, gmon.out) twice and merges the two
// (-passes=merge), and merges it once more alone with weight 2
// (-passes=merge<weights=2>): both must give the same profile, every row,
// arc, block and histogram bin once with its values doubled. Merge adds the
// second input's rows of a function to the first's table in one pass where it
// can (RowTable::mergeBatch) and as a run of their own where it cannot, while
// the weighted merge copies into empty tables: the rows must come out the
// same. Rows within a function are compared in key order, which the two may
// differ in, and header lines are left out; a sum that saturates is no
// finding.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"
#include "profkit/IR/PassManager.h"
#include "profkit/Passes/PassBuilder.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <vector>

using namespace profkit;

/// The IR text of P after `-passes=Pipeline`, with the inputs after P as
/// Ctx gives them; "" if a pass fails or warns (a weight that saturates).
static std::string mergedText(std::unique_ptr<Profile> P, PassContext Ctx,
                              llvm::StringRef Pipeline) {
  bool Warned = false;
  Ctx.Warn = [&](const llvm::Twine &) { Warned = true; };
  ProfilePassManager PM;
  if (llvm::Error E = parsePassPipeline(PM, Pipeline, Ctx))
    abort(); // The pipelines are fixed.
  ProfileAnalysisManager AM;
  llvm::Expected<PreservedAnalyses> Ran = PM.run(*P, AM, nullptr);
  if (!Ran) {
    llvm::consumeError(Ran.takeError());
    return "";
  }
  if (Warned)
    return "";
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  printIR(*P, OS);
  return Text;
}

/// Text with each run of row lines (indented four spaces) sorted, and
/// without header lines: merging two parts drops those that name one part
/// (part:, thread:, ...), which merging one keeps.
static std::string sortRows(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  llvm::erase_if(Lines,
                 [](llvm::StringRef L) { return L.starts_with("  header "); });
  auto IsRow = [](llvm::StringRef L) { return L.starts_with("    "); };
  for (auto I = Lines.begin(); I != Lines.end();) {
    auto E = std::find_if_not(I, Lines.end(), IsRow);
    std::sort(I, E);
    I = E == I ? I + 1 : E;
  }
  return llvm::join(Lines, "\n");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  auto Read = [&]() -> std::unique_ptr<Profile> {
    llvm::Expected<std::unique_ptr<Profile>> P =
        fuzz::read(Bytes, [](InputStream &In, const ReadOptions &Opts) {
          return readProfile(In, Opts);
        });
    if (!P) {
      llvm::consumeError(P.takeError());
      return nullptr;
    }
    return std::move(*P);
  };
  std::unique_ptr<Profile> A = Read();
  if (!A)
    return 0;
  auto Then = [](std::unique_ptr<Profile> Second) {
    PassContext Ctx;
    // Second, then no more (PassContext is copied: the profile is shared).
    Ctx.NextInput =
        [Second = std::make_shared<std::unique_ptr<Profile>>(
             std::move(Second))]() -> llvm::Expected<std::unique_ptr<Profile>> {
      return std::move(*Second);
    };
    return Ctx;
  };
  std::string Twice = mergedText(std::move(A), Then(Read()), "merge");
  PassContext Alone;
  std::string Weighted = mergedText(Read(), Alone, "merge<weights=2>");
  if (Twice.empty() || Weighted.empty())
    return 0;
  if (sortRows(Twice) != sortRows(Weighted))
    fuzz::mismatch("merged with itself and merged with weight 2 differ", Twice,
                   Weighted);
  // The second input in slices, as profkit-opt merges a callgrind input
  // after the first: of a function each, of a few functions (rows of a
  // function met again within a slice; a slice counts the slab its plain
  // rows fill), and one slice (every row handed over with the rest). The
  // same profile, row for row.
  for (size_t SliceBytes :
       {size_t(1), PlainRows::SlabBytes + 1024, size_t(1) << 30}) {
    PassContext Sliced;
    Sliced.NextInputInSlices =
        [&, Done = false](
            llvm::function_ref<llvm::Error(ProfileSlice &)> Take) mutable
        -> llvm::Expected<bool> {
      if (std::exchange(Done, true))
        return false;
      ReadOptions Opts;
      Opts.Slice = Take;
      Opts.SliceBytes = SliceBytes;
      llvm::Expected<std::unique_ptr<Profile>> P = fuzz::read(
          Bytes,
          [](InputStream &In, const ReadOptions &Opts) {
            return readProfile(In, Opts);
          },
          Opts);
      if (!P)
        return P.takeError();
      ProfileSlice Last;
      Last.Rest = std::move(*P);
      if (llvm::Error E = Take(Last))
        return std::move(E);
      return true;
    };
    std::string InSlices = mergedText(Read(), Sliced, "merge");
    if (InSlices != Twice)
      fuzz::mismatch("merged whole and merged in slices differ", Twice,
                     InSlices);
  }
  return 0;
}
