//===- CallgrindReaderThreads.cpp - Reading callgrind in two pieces -------===//
//
// A large plain callgrind file is read in two pieces on two threads: a head
// reader reads the first piece as usual, a tail reader skims it for its names
// and then reads the second; merge() joins the two profiles, replaying the
// tail's rows of the functions the head has rows for too, so that the
// profile is the one reading in one piece gives.
//
//===----------------------------------------------------------------------===//

#include "CallgrindReader.h"
#include "CallgrindScan.h"
#include "llvm/ADT/StringExtras.h"
#include <thread>

using namespace profkit;
using namespace profkit::callgrind;
using namespace llvm;

void CallgrindReader::releaseWarnings() {
  MyRole = Role::Whole;
  for (const std::string &W : HeldWarnings)
    Opts.Warn(W);
  HeldWarnings.clear();
}

void CallgrindReader::readTail(InputStream &HeadIn) {
  // Skim the head's piece: header and name lines as the head reads them, so
  // that names, functions and their ids come out the same; cost lines are
  // the head's. The lines that matter hold '=' (`fn=`, `calls=`, ...) or ':'
  // (headers); the others are cost lines, comments and lines the head
  // fails on.
  Skimming = true;
  StringRef Line;
  while (HeadIn.nextLineContaining(Line, '=', ':')) {
    size_t Blanks = 0; // The line holds '=' or ':': it is not all blanks.
    while (isBlank(Line[Blanks]))
      ++Blanks;
    Line = Line.drop_front(Blanks);
    if (startsCostLine(Line[0]))
      continue;
    // A jump without jfi= or jfn= before it names no function: the head
    // reads its counts. That is most jumps, about a quarter of the lines here.
    if (!HaveJumpFile && !HaveJumpFunction &&
        (Line.starts_with("jcnd=") || Line.starts_with("jump=")))
      continue;
    if (Error E = parseLine(Line)) {
      consumeError(std::move(E));
      TailFailure = "an error before the split";
      return;
    }
  }
  if (Error E = HeadIn.takeError()) {
    consumeError(std::move(E));
    TailFailure = "an error before the split";
    return;
  }
  Skimming = false;
  if (!Cur || !HaveEvents) {
    TailFailure = "no 'events:' line before the split";
    return;
  }
  AtSplit = {P.Strings.size(),   P.numFunctions(), P.parts().size(),
             Cur->Header.size(), Object,           File,
             SourceFile,         Positions,        ColumnToEvent};
  // What the part gets after the split.
  Cur->Summary.reset();
  Cur->Totals.reset();
  TotalsLine.reset();
  InFirstPart = true;

  Error E = readLines();
  if (!E)
    E = endPart();
  if (E) {
    consumeError(std::move(E));
    TailFailure = "an error after the split";
  }
}

/// Why the pieces of a file cannot merge (not an error of the file: it is
/// then read in one piece).
static Error cannotMerge(StringRef Why) {
  return makeError(ErrorCode::LimitExceeded, Why);
}

Error CallgrindReader::merge(CallgrindReader &Tail) {
  if (!Tail.TailFailure.empty())
    return cannotMerge(Tail.TailFailure);
  // The rows of the head's last function.
  if (!flushRows())
    return cannotMerge("a cost sum overflows 64 bits");
  // Callgrind's files carry nothing else across a fn= line.
  if (!Cur || !HaveEvents || NewPartWanted || Waiting != Pending::None ||
      HaveCalleeObject || HaveCalleeFile || HaveCallee || HaveJumpFile ||
      HaveJumpFunction)
    return cannotMerge("state that goes on after the split");
  // The tail skimmed the head's piece as the head read it.
  const auto &A = Tail.AtSplit;
  Profile &T = Tail.P;
  if (P.Strings.size() != A.Strings || P.numFunctions() != A.Functions ||
      P.parts().size() != A.Parts || Cur->Header.size() != A.HeaderLines ||
      Object != A.Object || File != A.File || SourceFile != A.SourceFile ||
      ArrayRef(Positions) != ArrayRef(A.Positions) ||
      ArrayRef(ColumnToEvent) != ArrayRef(A.Columns) ||
      P.events().size() > T.events().size())
    return cannotMerge("the pieces disagree at the split");

  // The part that spans the split: the functions the head has not seen go
  // after the head's, in the order the tail met them; the rows of those it
  // has seen go into its tables batch by batch.
  Part &TailFirst = *T.parts()[A.Parts - 1];
  for (size_t I = A.HeaderLines; I < TailFirst.Header.size(); ++I)
    Cur->Header.push_back(std::move(TailFirst.Header[I]));
  if (TailFirst.Summary)
    Cur->Summary = std::move(TailFirst.Summary);
  if (TailFirst.Totals)
    Cur->Totals = std::move(TailFirst.Totals);
  for (FunctionData &FD : TailFirst.functions()) {
    if (Tail.HeadFunctions.contains(FD.Id))
      continue;
    FunctionData &New = Cur->getOrCreate(FD.Id);
    New.Self = std::move(FD.Self);
    New.Calls = std::move(FD.Calls);
    if (FD.hasJumps())
      New.jumps() = std::move(FD.jumps());
  }
  // The head's values come first in the file.
  for (const FunctionData &FD : TailFirst.functions())
    if (!Cur->getOrCreate(FD.Id).Values.merge(FD.Values))
      return cannotMerge("a cost sum overflows 64 bits");
  bool Ok = true;
  RowBatch B;
  Tail.Log.replay(B, [&](uint64_t Tag, RowBatch &Batch) {
    unsigned FunctionIndex = Tag / NumRowKinds;
    RowKind Kind = RowKind(Tag % NumRowKinds);
    FunctionData &FD =
        Cur->getOrCreate(TailFirst.functions()[FunctionIndex].Id);
    RowTable &Table = Kind == SelfRows   ? FD.Self
                      : Kind == CallRows ? FD.Calls
                                         : FD.jumps();
    Ok &= Table.addBatch(Batch);
  });
  if (!Ok)
    return cannotMerge("a cost sum overflows 64 bits");

  // Its self costs sum over both pieces.
  std::vector<uint64_t> &Sum = Sums[SelfRows];
  const std::vector<uint64_t> &TailSum = Tail.FirstPartEnd.SelfSum;
  if (Sum.size() < TailSum.size())
    Sum.resize(TailSum.size());
  bool Overflow = SelfSumOverflow || Tail.FirstPartEnd.SelfSumOverflow;
  for (size_t I = 0; I != TailSum.size(); ++I)
    Overflow |= !addCost(Sum[I], TailSum[I]);
  if (Overflow || !Tail.FirstPartEnd.Ended)
    return cannotMerge("a cost sum overflows 64 bits");
  if (Opts.MaxMemory && irBytes() + Tail.irBytes() > Opts.MaxMemory)
    return cannotMerge("over the memory limit");

  // The tail's profile has every name and function: it takes the head's
  // parts, then its own later ones.
  std::vector<std::unique_ptr<Part>> Parts = std::move(P.parts());
  for (size_t I = A.Parts; I < T.parts().size(); ++I)
    Parts.push_back(std::move(T.parts()[I]));
  T.parts() = std::move(Parts);
  return Error::success();
}

Expected<std::unique_ptr<Profile>>
CallgrindReader::finishMerged(CallgrindReader &Tail) {
  // The warnings in the order reading in one piece gives them: the head's,
  // the tail's in the part that spans the split, that part's end, the
  // tail's later ones. Line numbers of the tail count from the split; a
  // warning given once per file is the head's if the head gave it.
  releaseWarnings();
  uint64_t Lines = In.lineNumber();
  auto ReportTail = [&](bool FirstPart) {
    for (const TailWarning &W : Tail.TailWarnings)
      if (W.InFirstPart == FirstPart &&
          !(W.OnceKey == "-" ? WarnedNegative : WarnedKeys.contains(W.OnceKey)))
        report(Lines + W.Line, W.Text);
  };
  ReportTail(true);
  std::optional<uint64_t> TotalsAt = TotalsLine;
  if (Tail.FirstPartEnd.TotalsLine)
    TotalsAt = Lines + *Tail.FirstPartEnd.TotalsLine;
  if (Error E = checkPartEnd(*Cur, Sums[SelfRows], false, TotalsAt,
                             Lines + Tail.FirstPartEnd.EndLine))
    return std::move(E);
  ReportTail(false);
  return Tail.finishProfile();
}

/// Do all blank-separated words of Words start with a digit: no relative
/// position (`+N`, `-N`, `*`) among them?
static bool allAbsolute(StringRef Words) {
  for (StringRef W = nextToken(Words); !W.empty(); W = nextToken(Words))
    if (!isDigit(W[0]))
      return false;
  return true;
}

/// The offset of a line at or after Target where the tail piece can start:
/// a `fn=` line whose positions, up to its first cost line, are absolute,
/// as callgrind writes them, so that the tail needs none from the head.
/// 0 if there is none in the next few megabytes.
static uint64_t findSplit(const InputStream &In, uint64_t Target,
                          uint64_t Size) {
  std::unique_ptr<InputStream> W =
      In.range(Target, std::min<uint64_t>(Size - Target, 4 << 20));
  StringRef Line;
  if (!W->nextLine(Line)) // Most likely a part of a line.
    return 0;
  uint64_t Candidate = 0;
  for (;;) {
    uint64_t At = Target + W->tell();
    if (!W->nextLine(Line))
      return 0;
    if (Line.starts_with("fn=")) {
      Candidate = At;
      continue;
    }
    if (!Candidate || Line.empty() || Line[0] == '#')
      continue;
    if (isDigit(Line[0])) {
      if (allAbsolute(Line))
        return Candidate;
      Candidate = 0;
      continue;
    }
    size_t Eq = Line.find('=');
    StringRef Key = Line.take_front(Eq);
    if (Eq == StringRef::npos || Key.empty() ||
        !all_of(Key, [](char C) { return isLower(C); }) ||
        (is_contained({"calls", "jump", "jcnd"}, Key) &&
         !allAbsolute(Line.drop_front(Eq + 1))))
      Candidate = 0; // A relative position, a header line, ...
  }
}

/// Where the tail starts, in percent of the file. Skimming the head's piece
/// costs the tail a little of the work of reading it, so an even share of
/// the work gives the head more than half the file. Measured on callgrind's
/// output of clang, the threads end together at 56 %: the tail's skimming
/// takes more time than its instructions say, as it waits on memory more
/// (it interns every name again).
static constexpr uint64_t SplitPercent = 56;

/// Reads a plain callgrind file of Size bytes in two pieces on two threads:
/// the head, up to a `fn=` line near the middle, as usual; the tail skims
/// the head's text for its names (a fraction of the work of reading it), so
/// that they get the same ids, then reads its own. The pieces' parts then
/// go together without copying a row, and the profile is the one reading
/// in one piece gives. Returns null, with the reason in Why, when the file
/// cannot be read so: an error in the tail (only reading in one piece gives
/// its line) or pieces that disagree at the split send the file there.
Expected<std::unique_ptr<Profile>>
callgrind::readInPieces(InputStream &In, uint64_t Size, const ReadOptions &Opts,
                        std::string &Why) {
  uint64_t Split = findSplit(In, Size / 100 * SplitPercent, Size);
  if (!Split) {
    Why = "no 'fn=' line near the middle to start a second piece at";
    return nullptr;
  }
  std::unique_ptr<InputStream> HeadIn = In.range(0, Split);
  std::unique_ptr<InputStream> TailIn = In.range(Split, Size - Split);
  std::unique_ptr<InputStream> SkimIn = In.range(0, Split);
  for (InputStream *S : {HeadIn.get(), TailIn.get(), SkimIn.get()})
    S->setMemoryLimit(Opts.MaxMemory);
  CallgrindReader Head(*HeadIn, Opts, Role::Head);
  CallgrindReader Tail(*TailIn, Opts, Role::Tail);
  std::thread TailThread([&] { Tail.readTail(*SkimIn); });
  Error HeadError = Head.readLines();
  TailThread.join();
  if (HeadError) {
    // The head is the file's beginning: its error is the file's first.
    Head.releaseWarnings();
    return std::move(HeadError);
  }
  if (Error E = Head.merge(Tail)) {
    Why = toString(std::move(E));
    return nullptr;
  }
  return Head.finishMerged(Tail);
}
