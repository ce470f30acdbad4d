//===- CallgrindReaderThreads.cpp - Reading callgrind in pieces -----------===//
//
// A large callgrind file is read in pieces, each on a thread of its
// own: a head reader reads the first piece as usual; a tail reader for each
// other piece takes the names of the pieces before it and then reads its
// own. With two pieces, the tail skims the head's, and where they split is
// chosen while they are read (LiveSplit); with more, the tails digest the
// pieces before theirs, each one piece, and replay the digests
// (CallgrindDigest.cpp).
// The pieces join in file order: merge() moves the profile so far into the
// next tail's, replaying that tail's rows of the functions that have rows
// before the split too, so that the profile is the one reading in one piece
// gives; the tail then becomes the head of the next split.
//
//===----------------------------------------------------------------------===//

#include "CallgrindReader.h"
#include "CallgrindScan.h"
#include "llvm/ADT/StringExtras.h"
#include <condition_variable>
#include <mutex>
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

/// Where the two pieces of a file read on two threads split, chosen while
/// they are read: the head reads from the start; the tail skims from the
/// start and, once the head has as far to go to where the tail stands as
/// the tail has to the end, looks on in its own stream for the next `fn=`
/// line it can start at and cuts the head's stream there. Both then end
/// together, whatever skimming costs against reading in this file and
/// however the machine shares its cores out, where pieces fixed in advance
/// leave one thread waiting for the other. When the head has taken in that
/// line already (it takes its bytes a quarter megabyte ahead) or the tail
/// never gets so far ahead, the head reads the whole file.
class profkit::callgrind::LiveSplit {
public:
  LiveSplit(uint64_t Size) : Size(Size) {}
  enum Verdict { Skim, Split, GiveUp };
  /// The tail has skimmed to offset X: Split once it is time to look for
  /// where its piece starts; GiveUp when the head has taken in the whole
  /// file.
  Verdict skimmedTo(uint64_t X);
  /// The tail's piece starts at At: cuts the head's stream there. False if
  /// the head has taken that line in already.
  bool splitAt(uint64_t Split) {
    if (!Head.cut(Split))
      return false;
    At = Split;
    return true;
  }
  /// Where the tail's piece starts, if the head's stream was cut.
  std::optional<uint64_t> at() const { return At; }
  CutPoint Head;

private:
  /// How often the tail looks at where the head stands.
  static constexpr uint64_t CheckEvery = 256 << 10;
  uint64_t Size, NextCheck = 0;
  std::optional<uint64_t> At;
};

/// Looks, line by line, for a `fn=` line a tail piece can start at: one
/// whose positions, up to its first self cost line, are absolute, as
/// callgrind writes them, so that the tail needs none from the head.
class profkit::callgrind::SplitFinder {
public:
  enum Verdict {
    Pass,      // Nothing decided.
    Candidate, // A `fn=` line, the candidate now (in place of any before).
    Found,     // The line confirms the candidate.
    Rejected,  // The line rules the candidate out.
  };
  /// The next line, which starts at offset At.
  Verdict next(StringRef Line, uint64_t At);
  /// The candidate's offset.
  uint64_t candidate() const { return *Cand; }
  bool pending() const { return Cand.has_value(); }

private:
  std::optional<uint64_t> Cand;
  /// A `calls=` or jump line came last: the cost line after it gives the
  /// call's or jump's position and leaves the last self cost line's, which
  /// may lie before the candidate, the base of relative positions.
  bool AfterCallOrJump = false;
};

bool CallgrindReader::skimLine(StringRef Line) {
  size_t Blanks = 0; // The line holds '=' or ':': it is not all blanks.
  while (isBlank(Line[Blanks]))
    ++Blanks;
  Line = Line.drop_front(Blanks);
  if (startsCostLine(Line[0]) || skimPassesOver(Line))
    return true;
  // `calls=`, names defined before (`cfn=(12)`, `fn=(12)`) and plain ones
  // (`fl=a.c`): most of the lines a skim parses.
  if ((Line[0] == 'c' || Line[0] == 'f' || Line[0] == 'o') &&
      skimFastLine(Line))
    return true;
  if (Error E = parseLine(Line)) {
    consumeError(std::move(E));
    TailFailure = "an error before the split";
    return false;
  }
  return true;
}

bool CallgrindReader::skimToSplit(InputStream &Before, LiveSplit &Live) {
  // Every line now, for SplitFinder; those after a candidate are skimmed
  // only once it is ruled out (they are the tail's own if it is not).
  SplitFinder Finder;
  StringRef Line;
  // Skims the lines from the mark up to offset To (or through the line
  // that starts there).
  auto SkimFromMark = [&](uint64_t To, bool Through) {
    Before.rewind();
    while (Before.tell() < To + Through && Before.nextLine(Line))
      if (Line.find_first_of("=:") != StringRef::npos && !skimLine(Line))
        return false;
    return true;
  };
  for (;;) {
    uint64_t At = Before.tell();
    if (!Finder.pending())
      Before.mark();
    if (!Before.nextLine(Line))
      return true; // No line to start at: the head reads the whole file.
    bool WasPending = Finder.pending();
    switch (Finder.next(Line, At)) {
    case SplitFinder::Candidate:
      if (WasPending) { // The lines from the one before are the head's.
        if (!SkimFromMark(At, false))
          return false;
        Before.mark();
        Before.nextLine(Line);
      }
      continue;
    case SplitFinder::Found:
      Before.rewind(); // Its own piece; lines count from the split.
      // If the head has passed it, it reads the whole file.
      Live.splitAt(Finder.candidate());
      return true;
    case SplitFinder::Rejected:
      if (!SkimFromMark(At, true))
        return false;
      continue;
    case SplitFinder::Pass:
      if (!WasPending && Line.find_first_of("=:") != StringRef::npos &&
          !skimLine(Line))
        return false;
      continue;
    }
  }
}

void CallgrindReader::readTail(InputStream &Before, bool Last, LiveSplit *Live,
                               ArrayRef<const CallgrindReader *> Digests,
                               function_ref<void()> Replayed) {
  // Skim the pieces before: header and name lines as their readers read
  // them, so that names, functions and their ids come out the same; cost
  // lines are theirs. The lines that matter hold '=' (`fn=`, `calls=`, ...)
  // or ':' (headers); the others are cost lines, comments and lines those
  // readers fail on. With their digests, replay those.
  Skimming = true;
  bool Replay = !Digests.empty() &&
                all_of(Digests, [](const auto *D) { return D->digested(); });
  bool Failed = false;
  for (size_t I = 0; Replay && !Failed && I != Digests.size(); ++I)
    Failed = !replayDigest(*Digests[I]);
  if (Replayed)
    Replayed();
  if (Failed)
    return;
  bool TimeToSplit = false;
  if (!Replay)
    Before.forEachLineContaining('=', ':', [&](StringRef Line) {
      if (Live) {
        LiveSplit::Verdict V = Live->skimmedTo(Before.tell());
        if (V == LiveSplit::GiveUp) {
          TailFailure = "the head read the whole file";
          return !(Failed = true);
        }
        TimeToSplit = V == LiveSplit::Split;
      }
      if (!skimLine(Line))
        return !(Failed = true);
      return !TimeToSplit;
    });
  if (Failed)
    return;
  if (TimeToSplit && !skimToSplit(Before, *Live))
    return;
  if (Error E = Before.takeError()) {
    consumeError(std::move(E));
    TailFailure = "an error before the split";
    return;
  }
  if (Live && !Live->at()) {
    TailFailure = "the head read the whole file";
    return;
  }
  Skimming = false;
  if (!Cur || !HaveEvents) {
    TailFailure = "no 'events:' line before the split";
    return;
  }
  AtSplit = {
      P.Strings.size(),   P.numFunctions(), SkimmedParts + P.parts().size(),
      SkimmedHeaderLines, Object,           File,
      SourceFile,         Positions,        ColumnToEvent};
  // The head counts the header lines before the split (irBytes()), and
  // the names and functions.
  HeaderBytes = 0;
  IRAtSplit = irBytes();
  if (PiecesIR)
    PublishIRAt = IRAtSplit;
  // What the part gets after the split.
  Cur->Summary.reset();
  Cur->Totals.reset();
  TotalsLine.reset();
  InFirstPart = true;

  Error E = readLines();
  if (!E && Last)
    E = endPart();
  if (E) {
    consumeError(std::move(E));
    TailFailure =
        PiecesOverLimit ? "over the memory limit" : "an error after the split";
    return;
  }
  if (Last)
    return;
  // The next piece starts at a `fn=` line: this function's block is whole.
  if (!flushRows()) {
    TailFailure = "a cost sum overflows 64 bits";
    return;
  }
  CurFunction = -1;
  if (InFirstPart)
    noteFirstPartEnd(false);
}

bool CallgrindReader::publishIR(uint64_t Mine) {
  uint64_t Own = Mine - std::min(Mine, IRAtSplit);
  // Modulo 2^64, as the sum: the IR may have shrunk since (a compaction).
  uint64_t Sum = PiecesIR->fetch_add(Own - PublishedIR) + (Own - PublishedIR);
  PublishedIR = Own;
  PublishIRAt = Mine + std::max<uint64_t>(Opts.MaxMemory / 64, 1);
  // Every reader stops then, and the file is read in one piece, which
  // fails at the line that goes over the limit, if any does.
  PiecesOverLimit = Sum > Opts.MaxMemory;
  return PiecesOverLimit;
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

  // The tail has every name and function the head has: the head's copies,
  // which the skim doubled, go (a cachegrind piece's are 13 MB).
  P.releaseNames();
  StringBytes = 0;

  // The part that spans the split: the functions the head has not seen go
  // after the head's, in the order the tail met them; the rows of those it
  // has seen go into its tables batch by batch.
  // The tail's parts: the one it skimmed up to the split, then its own.
  size_t SplitPart = A.Parts - 1 - Tail.SkimmedParts;
  Part &TailFirst = *T.parts()[SplitPart];
  // A tail still in that part goes on in the head's, which takes its data.
  if (Tail.Cur == &TailFirst)
    Tail.Cur = Cur;
  // Its header lines after the split (the skim kept none before it).
  for (const HeaderLine &H : TailFirst.Header)
    Cur->Header.push_back(H);
  if (TailFirst.Summary)
    Cur->Summary = std::move(TailFirst.Summary);
  if (TailFirst.Totals)
    Cur->Totals = std::move(TailFirst.Totals);
  // A cachegrind file's piece holds hundreds of thousands of functions,
  // each chunk of which the head's part fills again once taken: fresh
  // memory cost a page fault a page, a third of the join. Where each went
  // in the head's part, by its position in the tail's: the log tags rows
  // so.
  std::vector<uint32_t> Taken;
  Taken.reserve(TailFirst.functions().size());
  bool Ok = true;
  TailFirst.functions().consume(
      [&](FunctionData &FD) {
        // A function new to the head's part (most of a cachegrind file's)
        // moves in whole, its call block left in the tail's arena.
        if (!Tail.HeadFunctions.contains(FD.Id)) {
          Taken.push_back(Cur->add(std::move(FD)));
          return;
        }
        // One the head has takes the tail's values after its own; its
        // rows are in the log.
        Taken.push_back(Cur->getOrCreateAt(FD.Id));
        FunctionData &To = Cur->functions()[Taken.back()];
        if (To.values().empty())
          To.values() = std::move(FD.values());
        else
          Ok &= To.values().merge(FD.values());
      },
      &Cur->functions());
  RowBatch B;
  Tail.Log.replay(B, [&](uint64_t Tag, RowBatch &Batch) {
    FunctionData &FD = Cur->functions()[Taken[Tag / NumRowKinds]];
    Ok &= tableOf(FD, RowKind(Tag % NumRowKinds), Arena.get())
              .addBatch(Batch, Arena.get());
  });
  if (!Ok)
    return cannotMerge("a cost sum overflows 64 bits");

  // The part's running sums over both pieces: of self costs, for its
  // totals; of calls and jumps, in which no key's sum overflows while they
  // fit. Once one does not, reading in one piece checks every row it adds
  // and names the line of an overflow (found by callgrind-reader-fuzzer: a
  // jump's count in both pieces, read in two as an error without a line).
  bool Overflow = SelfSumOverflow || Tail.FirstPartEnd.SelfSumOverflow;
  for (unsigned K = 0; K != NumRowKinds; ++K) {
    std::vector<uint64_t> &Sum = Sums[K];
    const std::vector<uint64_t> &TailSum = Tail.FirstPartEnd.Sums[K];
    if (Sum.size() < TailSum.size())
      Sum.resize(TailSum.size());
    for (size_t I = 0; I != TailSum.size(); ++I)
      Overflow |= !addCost(Sum[I], TailSum[I]);
  }
  if (Overflow)
    return cannotMerge("a cost sum overflows 64 bits");
  if (Opts.MaxMemory && irBytes() + Tail.irBytes() > Opts.MaxMemory)
    return cannotMerge("over the memory limit");

  // The tail's profile has every name and function: it takes the head's
  // parts, then its own later ones.
  std::vector<std::unique_ptr<Part>> Parts = std::move(P.parts());
  for (size_t I = SplitPart + 1; I < T.parts().size(); ++I)
    Parts.push_back(std::move(T.parts()[I]));
  T.parts() = std::move(Parts);
  return Error::success();
}

Error CallgrindReader::absorb(CallgrindReader &Tail) {
  // The warnings in the order reading in one piece gives them: the head's,
  // the tail's in the part that spans the split, that part's end, the
  // tail's later ones. Line numbers of the tail count from the split; a
  // warning given once per file is the head's if the head gave it.
  uint64_t Lines = linesRead();
  auto ReportTail = [&](bool FirstPart) {
    for (const TailWarning &W : Tail.TailWarnings) {
      if (W.InFirstPart != FirstPart)
        continue;
      bool Given = W.OnceKey == "-"    ? std::exchange(WarnedNegative, true)
                   : W.OnceKey.empty() ? false
                                       : !WarnedKeys.insert(W.OnceKey).second;
      if (!Given)
        report(Lines + W.Line, W.Text);
    }
  };
  ReportTail(true);
  std::optional<uint64_t> TotalsAt = TotalsLine;
  if (Tail.FirstPartEnd.TotalsLine)
    TotalsAt = Lines + *Tail.FirstPartEnd.TotalsLine;
  if (Tail.FirstPartEnd.Ended) {
    if (Error E = checkPartEnd(*Cur, Sums[SelfRows], false, TotalsAt,
                               Lines + Tail.FirstPartEnd.EndLine))
      return E;
  } else {
    // The part goes on in the next piece, which the tail hands on.
    for (unsigned K = 0; K != NumRowKinds; ++K)
      Tail.Sums[K] = std::move(Sums[K]);
    Tail.SelfSumOverflow = false;
  }
  ReportTail(false);
  // What the tail read after the split now counts from the file's start.
  if (!Tail.FirstPartEnd.Ended)
    Tail.TotalsLine = TotalsAt;
  else if (Tail.TotalsLine)
    Tail.TotalsLine = Lines + *Tail.TotalsLine;
  return Error::success();
}

void CallgrindReader::handOver(CallgrindReader &Tail) {
  Tail.MyRole = Role::Head;
  Tail.HeldWarnings = std::move(HeldWarnings);
  Tail.WarnedNegative |= WarnedNegative;
  Tail.CallOrJumpSumOverflow |= CallOrJumpSumOverflow;
  for (const auto &Key : WarnedKeys)
    Tail.WarnedKeys.insert(Key.getKey());
  Tail.LineBase = linesRead();
  Tail.InFirstPart = false;
  Tail.HeadFunctions.clear();
  Tail.TailWarnings.clear();
  Tail.FirstPartEnd = {};
  // For the memory limit: the tail's strings are every string so far.
  Tail.RowBytes += RowBytes;
  Tail.HeaderBytes += HeaderBytes;
  Tail.FunctionDatas += FunctionDatas;
}

/// Do all blank-separated words of Words start with a digit: no relative
/// position (`+N`, `-N`, `*`) among them?
static bool allAbsolute(StringRef Words) {
  for (StringRef W = nextToken(Words); !W.empty(); W = nextToken(Words))
    if (!isDigit(W[0]))
      return false;
  return true;
}

SplitFinder::Verdict SplitFinder::next(StringRef Line, uint64_t At) {
  if (Line.starts_with("fn=")) {
    Cand = At;
    AfterCallOrJump = false;
    return Candidate;
  }
  if (!Cand || Line.empty() || Line[0] == '#')
    return Pass;
  if (isDigit(Line[0])) {
    if (!allAbsolute(Line)) {
      Cand.reset();
      return Rejected;
    }
    // Only a self cost line sets the position later lines are relative to.
    return std::exchange(AfterCallOrJump, false) ? Pass : Found;
  }
  size_t Eq = Line.find('=');
  StringRef Key = Line.take_front(Eq);
  bool CallOrJump = is_contained({"calls", "jump", "jcnd"}, Key);
  if (Eq == StringRef::npos || Key.empty() ||
      !all_of(Key, [](char C) { return isLower(C); }) ||
      (CallOrJump && !allAbsolute(Line.drop_front(Eq + 1)))) {
    Cand.reset(); // A relative position, a header line, ...
    return Rejected;
  }
  AfterCallOrJump |= CallOrJump;
  return Pass;
}

/// The offset of a line at or after Target where a tail piece can start
/// (SplitFinder); 0 if there is none in the next few megabytes.
static uint64_t findSplit(const InputStream &In, uint64_t Target,
                          uint64_t Size) {
  std::unique_ptr<InputStream> W =
      In.range(Target, std::min<uint64_t>(Size - Target, 4 << 20));
  StringRef Line;
  if (!W->nextLine(Line)) // Most likely a part of a line.
    return 0;
  SplitFinder Finder;
  for (;;) {
    uint64_t At = Target + W->tell();
    if (!W->nextLine(Line))
      return 0;
    if (Finder.next(Line, At) == SplitFinder::Found)
      return Finder.candidate();
  }
}

LiveSplit::Verdict LiveSplit::skimmedTo(uint64_t X) {
  if (X < NextCheck)
    return Skim;
  NextCheck = X + CheckEvery;
  uint64_t HeadAt = Head.takenIn();
  if (HeadAt >= Size)
    return GiveUp;
  return X - std::min(X, HeadAt) < Size - X ? Skim : Split;
}

/// What a tail does beyond reading its piece, as shares of the work of
/// reading: skimming or digesting the text before its piece, by the bytes
/// skimmed, and replaying digests, by the bytes they stand for.
struct TailCosts {
  double Skim, Replay;
};

/// A tail's costs, sampled from the lines at four places in the file. A line
/// the skim parses (a name, a call) costs about what reading it does, any other
/// line a fraction, measured on valgrind's shapes (bench/make-shapes.sh): two
/// pieces ended together at 0.2 of the work of reading for callgrind's
/// instruction-level profiles of clang (a tenth of the lines parsed) and at
/// 0.5 for a cachegrind file (four tenths: a new function each). A replay
/// takes each function a piece names once: counted by instructions, 0.03 of
/// reading for the clang profile, whose parts name a function in a hundred
/// lines, 0.13 for the cachegrind file, 0.07 for a line-level profile of
/// many dumps (a function in twenty lines, named again in each dump, and a
/// header line, which a replay skims, in twenty-five).
static TailCosts tailCosts(const InputStream &In, uint64_t Size) {
  constexpr double PassOver = 0.12; // A line the skim does not parse.
  constexpr uint64_t SampleBytes = 128 << 10;
  uint64_t Lines = 0, Parsed = 0, Functions = 0, Headers = 0;
  for (uint64_t At = 0; At < Size; At += std::max(Size / 4, SampleBytes)) {
    std::unique_ptr<InputStream> Sample =
        In.range(At, std::min(Size - At, SampleBytes));
    StringRef Line;
    if (At && !Sample->nextLine(Line)) // Most likely a part of a line.
      continue;
    while (Sample->nextLine(Line)) {
      ++Lines;
      Line = Line.drop_while(isBlank);
      Parsed += !Line.empty() && isLower(Line[0]) &&
                !Line.starts_with("jump=") && !Line.starts_with("jcnd=");
      Functions += Line.starts_with("fn=");
      size_t Key = 0; // A header's key is lower-case letters, then ':'.
      while (Key < Line.size() && isLower(Line[Key]))
        ++Key;
      Headers += Key && Key < Line.size() && Line[Key] == ':';
    }
    consumeError(Sample->takeError());
  }
  auto Share = [&](uint64_t N) {
    return Lines ? double(N) / double(Lines) : 0;
  };
  return {PassOver + (1 - PassOver) * Share(Parsed),
          0.03 + 0.3 * Share(Functions) + Share(Headers)};
}

/// Where piece K of N starts, as a share of the file, so that every reader
/// has as much work. The head reads its piece, of size 1 here. With two
/// pieces, the tail skims the head's piece, then reads its own. With more,
/// tail 1 digests the head's piece, tail K piece K - 1, no larger, and waits
/// for the head's digest; then tail K replays the digests of the pieces
/// before, up to S(K), and reads its own: from S(1) = 1 on, S(K + 1) = S(K)
/// + 1 - Skim - Replay S(K). The file is S(N).
static double pieceStart(unsigned K, unsigned N, TailCosts C) {
  double Replay = N > 2 ? C.Replay : 0;
  double S = 1, At = 0;
  for (unsigned I = 1; I <= N; ++I) {
    if (I == K)
      At = S;
    if (I < N)
      S += 1 - C.Skim - Replay * S;
  }
  return At / S;
}

/// Where the tails' pieces start, chosen in advance so that every reader
/// has as much work (pieceStart()); fewer than Pieces - 1 when
/// `fn=` lines to start them at are too few (a small file).
static std::vector<uint64_t> fixedSplits(const InputStream &In, uint64_t Size,
                                         unsigned Pieces) {
  std::vector<uint64_t> Splits;
  TailCosts Costs = tailCosts(In, Size);
  for (unsigned K = 1; K < Pieces; ++K) {
    uint64_t Target = uint64_t(pieceStart(K, Pieces, Costs) * double(Size));
    if (!Splits.empty())
      Target = std::max(Target, Splits.back() + 1);
    if (Target >= Size)
      break;
    uint64_t Split = findSplit(In, Target, Size);
    // A small file may have no `fn=` line after the target to start at,
    // but one a little before it.
    if (!Split)
      Split = findSplit(In, ((Splits.empty() ? 0 : Splits.back()) + Target) / 2,
                        Size);
    if (Split && (Splits.empty() || Split > Splits.back()))
      Splits.push_back(Split);
  }
  return Splits;
}

/// Reads a callgrind file of Size bytes (inflated) in up to Pieces pieces, each
/// on a thread of its own: the head, up to a `fn=` line, as usual; each tail
/// skims the text before its piece for its names (a fraction of the work of
/// reading it), or with three pieces and more replays its digests, so that
/// they get the same ids, then reads its own. The
/// pieces' parts then go together without copying a row, and the profile is
/// the one reading in one piece gives. Two pieces, when the threads are
/// left to the reader, split where LiveSplit finds; more, or a number of
/// threads asked for, where fixedSplits() does. Returns null, with the
/// reason in Why, when the file cannot be read so: an error in a tail (only
/// reading in one piece gives its line) or pieces that disagree at a split
/// send the file there.
Expected<std::unique_ptr<Profile>>
callgrind::readInPieces(InputStream &In, uint64_t Size, unsigned Pieces,
                        const ReadOptions &Opts, std::string &Why) {
  std::optional<LiveSplit> Live;
  std::vector<uint64_t> Splits; // Where each tail's piece starts.
  if (Pieces == 2 && !Opts.Threads) {
    Live.emplace(Size);
    Splits.push_back(Size); // The head's stream ends where the tail cuts it.
  } else {
    Splits = fixedSplits(In, Size, Pieces);
  }
  if (Splits.empty()) {
    Why = "no 'fn=' line near the middle to start a second piece at";
    return nullptr;
  }
  if (Opts.Threads && Splits.size() + 1 < Pieces)
    Opts.Note(In.name() + ": read in " + Twine(Splits.size() + 1) +
              " pieces, not " + Twine(Pieces) +
              ": too few 'fn=' lines to start them at");
  std::vector<std::unique_ptr<InputStream>> Streams;
  auto Range = [&](uint64_t From, uint64_t To) -> InputStream & {
    Streams.push_back(In.range(From, To - From));
    Streams.back()->setMemoryLimit(Opts.MaxMemory);
    return *Streams.back();
  };
  // The memory limit holds for all the pieces together.
  std::atomic<uint64_t> PiecesIR{0};
  CallgrindReader Head(Range(0, Splits.front()), Opts, Role::Head);
  Head.countIRIn(PiecesIR);
  std::vector<std::unique_ptr<CallgrindReader>> Tails;
  std::vector<std::thread> Threads;
  if (Live) {
    Streams.back()->setCutPoint(&Live->Head);
    // The tail's skim, which runs ahead of the head, asks for the pages.
    Streams.back()->followAnotherStream();
    InputStream &Tail = Range(0, Size);
    Tails.push_back(std::make_unique<CallgrindReader>(Tail, Opts, Role::Tail));
    Tails.back()->countIRIn(PiecesIR);
    Threads.emplace_back([&Reader = *Tails.back(), &Tail, &Live] {
      Reader.readTail(Tail, /*Last=*/true, &*Live);
    });
  }
  // Three pieces or more: each tail digests the piece before its own, and
  // replays the digests of all the pieces before (CallgrindDigest.cpp).
  bool Digest = !Live && Splits.size() >= 2;
  std::vector<std::unique_ptr<CallgrindReader>> Digesters;
  std::vector<const CallgrindReader *> Digests;
  std::vector<InputStream *> Befores;
  for (size_t K = 0; !Live && K != Splits.size(); ++K) {
    bool Last = K + 1 == Splits.size();
    InputStream &Own = Range(Splits[K], Last ? Size : Splits[K + 1]);
    Befores.push_back(&Range(0, Splits[K]));
    Tails.push_back(std::make_unique<CallgrindReader>(Own, Opts, Role::Tail));
    Tails.back()->countIRIn(PiecesIR);
    if (Digest) {
      InputStream &Piece = Range(K ? Splits[K - 1] : 0, Splits[K]);
      Digesters.push_back(
          std::make_unique<CallgrindReader>(Piece, Opts, Role::Tail));
      Digests.push_back(Digesters.back().get());
    }
  }
  // The digests done, in file order: tail K waits for the first K + 1.
  // Digest K serves tails K to the last, and goes once they replayed it:
  // the read's peak comes at its end, when the profile is largest.
  std::mutex DigestsMutex;
  std::condition_variable DigestDone;
  std::vector<bool> Digested(Digests.size());
  std::vector<size_t> DigestUsers;
  for (size_t K = 0; K != Digests.size(); ++K)
    DigestUsers.push_back(Digests.size() - K);
  std::optional<std::pair<size_t, std::string>> Undigested;
  for (size_t K = 0; !Live && K != Splits.size(); ++K) {
    Threads.emplace_back([&, K] {
      ArrayRef<const CallgrindReader *> Mine;
      if (Digest) {
        Digesters[K]->digestPiece();
        std::unique_lock<std::mutex> Lock(DigestsMutex);
        Digested[K] = true;
        if (!Digesters[K]->digested() && (!Undigested || Undigested->first > K))
          Undigested.emplace(K, Digesters[K]->failure().str());
        DigestDone.notify_all();
        DigestDone.wait(Lock, [&] {
          return std::all_of(Digested.begin(), Digested.begin() + K + 1,
                             [](bool Done) { return Done; });
        });
        Mine = ArrayRef(Digests).take_front(K + 1);
      }
      Tails[K]->readTail(*Befores[K], K + 1 == Splits.size(), nullptr, Mine,
                         [&] {
                           std::lock_guard<std::mutex> Lock(DigestsMutex);
                           for (size_t J = 0; J != Mine.size(); ++J)
                             if (!--DigestUsers[J])
                               Digesters[J].reset();
                         });
    });
  }
  Error HeadError = Head.readLines();
  for (std::thread &T : Threads)
    T.join();
  // Tails after a piece that could not be digested skimmed instead.
  if (Opts.Threads && Undigested)
    Opts.Note(In.name() + ": the pieces before piece " +
              Twine(Undigested->first + 2) +
              " skimmed, not digested: " + Undigested->second);
  Digesters.clear();
  Head.releaseIds();
  for (std::unique_ptr<CallgrindReader> &Tail : Tails)
    Tail->releaseIds();
  if (HeadError && Head.piecesOverLimit()) {
    consumeError(std::move(HeadError));
    Why = "over the memory limit";
    return nullptr;
  }
  if (HeadError) {
    // The head is the file's beginning: its error is the file's first.
    Head.releaseWarnings();
    return std::move(HeadError);
  }
  if (Live && !Live->at()) { // The head read the whole file.
    Head.releaseWarnings();
    return Head.finishWhole();
  }
  // Each split in turn: the profile so far goes into the next tail's, and
  // the tail becomes the head, of the next split or, the last, the reader
  // that reports the warnings and returns the profile.
  CallgrindReader *Before = &Head;
  for (std::unique_ptr<CallgrindReader> &Tail : Tails) {
    if (Error E = Before->merge(*Tail)) {
      Why = toString(std::move(E));
      return nullptr;
    }
    if (Error E = Before->absorb(*Tail)) {
      Before->releaseWarnings();
      return std::move(E);
    }
    Before->handOver(*Tail);
    Before = Tail.get();
  }
  Before->releaseWarnings();
  return Before->finishProfile();
}
