//===- CallgrindReader.cpp - The callgrind format family
//-------------------===//
//
// Reads the callgrind format as its reference describes it and as real tools
// write it: valgrind's callgrind (every option mix) and cachegrind, Xdebug 2
// and 3 (one block per call, appended runs), pprof (calls=0). The input is
// streamed one line at a time; the hot path (cost lines) allocates nothing.
//
// Dialect facts this relies on (see docs/Formats.md):
//  - name-compression ids live in three tables shared across keywords
//    (objects: ob cob; files: fl fi fe cfi cfl jfi; functions: fn cfn jfn)
//    and are reset at each new part;
//  - relative positions are relative to the last cost line, never to a
//    calls=/jump= target;
//  - jcnd= comes as `followed/executed target` (valgrind) or as
//    `executed followed target` (the format reference).
//
//===----------------------------------------------------------------------===//

#include "profkit/Formats/Format.h"
#include "profkit/IR/Profile.h"
#include "profkit/Support/InputStream.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include <deque>
#include <thread>

using namespace profkit;
using namespace llvm;

// '\r' counts as a blank: fuzzing (roundtrip) found names and event names
// ending in '\r' (before a tab), which a callgrind file cannot hold at the
// end of a line, where the '\r's are dropped.
static bool isBlank(char C) { return C == ' ' || C == '\t' || C == '\r'; }

/// Does a line starting with C hold a position (and costs)?
static bool startsCostLine(char C) {
  return (C >= '0' && C <= '9') || C == '+' || C == '-' || C == '*';
}

/// Drops blanks at both ends (inline: StringRef::trim is out of line).
static StringRef trim(StringRef S) {
  const char *B = S.begin(), *E = S.end();
  while (B != E && isBlank(*B))
    ++B;
  while (E != B && isBlank(E[-1]))
    --E;
  return StringRef(B, E - B);
}

/// Is Line a `key: value` header line? Keys are words that may contain
/// spaces and parentheses, as in `timeframe (BB):`.
static bool splitHeader(StringRef Line, StringRef &Key, StringRef &Value) {
  if (Line.empty() || !isAlpha(Line[0]))
    return false;
  for (size_t I = 1; I < Line.size(); ++I) {
    char C = Line[I];
    if (C == ':') {
      // Values are kept as written (callgrind writes `cmd:  ./prog` and
      // `desc: I1 cache: `), less the one blank after the colon.
      Key = trim(Line.take_front(I));
      Value = Line.drop_front(I + 1);
      if (!Value.empty() && isBlank(Value[0]))
        Value = Value.drop_front();
      return true;
    }
    if (!isAlnum(C) && C != '_' && C != ' ' && C != '(' && C != ')' &&
        C != '-' && C != '.')
      return false;
  }
  return false;
}

bool profkit::detectCallgrind(StringRef Head) {
  if (Head.contains('\0'))
    return false;
  // Judge by the first line that is neither blank nor a comment.
  while (!Head.empty()) {
    auto [Line, Rest] = Head.split('\n');
    Line = trim(Line.rtrim('\r'));
    Head = Rest;
    if (Line.starts_with("# callgrind format"))
      return true;
    // Xdebug with profiler_append=1 starts every run, the first one too,
    // with this separator.
    if (Line.empty() || Line[0] == '#' ||
        Line.starts_with("==== NEW PROFILING FILE"))
      continue;
    StringRef Key, Value;
    if (splitHeader(Line, Key, Value))
      return is_contained({"version", "creator", "cmd", "pid", "thread", "part",
                           "desc", "positions", "events", "event", "summary"},
                          Key);
    return Line.starts_with("fl=") || Line.starts_with("fn=") ||
           Line.starts_with("ob=");
  }
  return false;
}

namespace {

enum class Pending : uint8_t { None, Call, Jump };
/// The tables of a function, as indices of CallgrindReader::Batches.
enum RowKind : unsigned { SelfRows, CallRows, JumpRows, NumRowKinds };
enum class Scan { Ok, Bad, TooLarge };

/// The names of a part's compressed ids, `(id) name`. Writers number them
/// from 1 up: ids below a bound index an array, found without hashing (name
/// lines are a tenth of a profile); others, from odd or hostile files, go to
/// a map. The array outlives a part: a new part only starts a new
/// generation of its entries, so that a file of many parts with large ids
/// does not fill the array again for each.
class CompressedIds {
public:
  /// Sets Out to the name of Id if it has one.
  bool find(uint64_t Id, StrId &Out) const {
    if (Id < Dense.size()) {
      if (Dense[Id].Generation != Generation)
        return false;
      Out = Dense[Id].Name;
      return true;
    }
    auto It = Sparse.find(Id);
    if (It == Sparse.end())
      return false;
    Out = It->second;
    return true;
  }
  /// Gives Id the name S if it has none; returns the name it has then.
  StrId define(uint64_t Id, StrId S) {
    if (Id >= MaxDense)
      return Sparse.try_emplace(Id, S).first->second;
    if (Id >= Dense.size())
      Dense.resize(std::max<size_t>(Id + 1, 2 * Dense.size()));
    Entry &E = Dense[Id];
    if (E.Generation != Generation)
      E = {Generation, S};
    return E.Name;
  }
  /// Forgets every id (a new part).
  void clear() {
    Sparse.clear();
    if (++Generation == 0) { // After 2^32 parts: forget the old ones too.
      std::fill(Dense.begin(), Dense.end(), Entry());
      Generation = 1;
    }
  }

private:
  struct Entry {
    uint32_t Generation = 0; // The part's generation if defined in it.
    StrId Name = 0;
  };
  static constexpr uint64_t MaxDense = 1 << 20; // 8 MB of array at most.
  std::vector<Entry> Dense;
  uint32_t Generation = 1;
  DenseMap<uint64_t, StrId> Sparse;
};

/// A file read in two pieces on two threads (readInPieces()) has a head
/// and a tail reader; a file read in one piece has a whole one.
enum class Role : uint8_t { Whole, Head, Tail };

/// The rows the tail reader read for functions that have rows in the head
/// too, batch by batch as they would have gone into their tables. The merge
/// hands each batch to the head's table, as reading the file in one piece
/// would have, so the tables come out the same. A batch is its function,
/// kind, key width and byte length, then its rows encoded as in a table.
class RowLog {
public:
  /// Logs batch B of a function's table, sorted by B.sortAndSum(); returns
  /// the bytes it took.
  size_t append(unsigned FunctionIndex, RowKind Kind, const RowBatch &B) {
    unsigned KW = B.keyWidth(), VW = B.valueWidth();
    size_t Need = 40 + B.order().size() * (2 + 10 * (KW + VW + 1));
    if (Blocks.empty() ||
        Blocks.back().capacity() - Blocks.back().size() < Need) {
      Blocks.emplace_back();
      Blocks.back().reserve(std::max<size_t>(Need, 1 << 20));
    }
    SmallVector<uint8_t, 0> &Block = Blocks.back();
    size_t Start = Block.size();
    Block.resize_for_overwrite(Start + Need); // Within the capacity.
    uint8_t *Out = Block.data() + Start;
    for (uint64_t V : {uint64_t(FunctionIndex), uint64_t(Kind), uint64_t(KW)})
      Out = writeVarint(Out, V);
    uint8_t *Length = Out;
    Out += sizeof(uint64_t);
    uint64_t Last[RowTable::MaxKeyWidth] = {};
    for (uint32_t I : B.order()) {
      const uint64_t *R = B.row(I);
      Out = encodeValues(encodeKey(Out, R, Last, KW), R + KW, VW);
    }
    uint64_t Bytes = Out - (Length + sizeof(uint64_t));
    memcpy(Length, &Bytes, sizeof(Bytes));
    Block.truncate(Out - Block.data());
    return Block.size() - Start;
  }

  /// Refills B with each logged batch in turn and calls
  /// Deliver(FunctionIndex, Kind, B); frees the log as it goes.
  template <typename DeliverFn> void replay(RowBatch &B, DeliverFn Deliver) {
    for (; !Blocks.empty(); Blocks.pop_front()) {
      const uint8_t *P = Blocks.front().data();
      const uint8_t *E = P + Blocks.front().size();
      while (P != E) {
        unsigned FunctionIndex = readVarint(P);
        RowKind Kind = RowKind(readVarint(P));
        unsigned KW = readVarint(P);
        uint64_t Bytes;
        memcpy(&Bytes, P, sizeof(Bytes));
        P += sizeof(Bytes);
        B.clear();
        B.setKeyWidth(KW);
        RowTable::iterator End(P + Bytes, P + Bytes, KW);
        for (RowTable::iterator It(P, P + Bytes, KW); It != End; ++It) {
          uint64_t *R = B.appendRow(It->Values.size());
          llvm::copy(It->Key, R);
          llvm::copy(It->Values, R + KW);
        }
        P += Bytes;
        Deliver(FunctionIndex, Kind, B);
      }
    }
  }

private:
  std::deque<SmallVector<uint8_t, 0>> Blocks;
};

class CallgrindReader {
public:
  CallgrindReader(InputStream &In, const ReadOptions &Opts,
                  Role R = Role::Whole)
      : In(In), Opts(Opts), Result(std::make_unique<Profile>()), P(*Result),
        MyRole(R) {}
  Expected<std::unique_ptr<Profile>> read();

  // Reading in two pieces (readInPieces()).
  /// Head: reads its piece, leaving the part it ends in open.
  Error readLines();
  /// Tail: skims the head's piece from HeadIn for its names and functions,
  /// which it interns as the head does, then reads its own piece. What
  /// stops the merge (an error: only reading in one piece gives its line)
  /// is kept in TailFailure; warnings wait in TailWarnings.
  void readTail(InputStream &HeadIn);
  /// Head: checks that the two pieces agree at the split and moves the
  /// head's parts into the tail's profile, which has the names of both.
  /// Returns why it cannot ("" if it did).
  StringRef merge(CallgrindReader &Tail);
  /// Head, after merge(): reports the warnings held back, ends the part
  /// that spans the split and returns the profile.
  Expected<std::unique_ptr<Profile>> finishMerged(CallgrindReader &Tail);
  /// Head: reports the warnings held back (before an error of the head).
  void releaseWarnings();

private:
  Error error(const Twine &Msg) const {
    return createStringError(inconvertibleErrorCode(),
                             In.name() + ":" + Twine(In.lineNumber()) + ": " +
                                 Msg);
  }
  /// Warns about the current line. OnceKey names a warning given once per
  /// file ("" for none), for the merge of two pieces.
  void warn(const Twine &Msg, StringRef OnceKey = "") {
    report(In.lineNumber(), Msg, OnceKey);
  }
  /// Reports a warning about line Line: at once, or held back until the
  /// pieces of a file merge (head, tail).
  void report(uint64_t Line, const Twine &Msg, StringRef OnceKey = "");
  /// The function a calls= line calls, from the cob=, cfi= and cfn= lines
  /// before it.
  FuncId callee() {
    return P.getOrAddFunction(HaveCalleeObject ? CalleeObject : Object,
                              HaveCalleeFile ? CalleeFile : SourceFile,
                              CalleeName);
  }
  StrId jumpTargetFile() const { return HaveJumpFile ? JumpFile : SourceFile; }
  Error checkPartEnd(Part &Pt, std::vector<uint64_t> &SelfSum, bool Overflow,
                     std::optional<uint64_t> TotalsAt, uint64_t EndLine);
  Expected<std::unique_ptr<Profile>> finishProfile();

  Error parseLine(StringRef Line);
  Error parseHeader(StringRef Key, StringRef Value);
  Error parseSpec(StringRef Key, StringRef Value);
  Error parseCostLine(StringRef Line);
  bool tryFastCostLine(StringRef Line);
  template <unsigned NP, bool Self> bool tryFastCostLineOf(StringRef Line);
  template <unsigned NP>
  bool scanPositions(const char *&Ptr, const char *End, uint64_t *Out) const;
  bool tryFastCallOrJumpLine(StringRef Line);
  template <unsigned NP> bool tryFastCallOrJumpLineOf(StringRef Line);
  void expectCallCost(uint64_t Count);
  void expectJumpCost(bool Cond, uint64_t Followed, uint64_t Executed);

  Error startPart();
  Error endPart();
  void needNewPartFor(StringRef Key);

  Error parseName(StringRef Value, CompressedIds &Table, StrId &Out);
  Error parseNumber(StringRef Tok, uint64_t &Out) const;
  Error numberError(Scan S, StringRef Tok) const;
  Error parsePosition(StringRef &Line, unsigned Column, uint64_t &Out,
                      bool Update);
  Error parsePositions(StringRef &Line, MutableArrayRef<uint64_t> Out);
  Error parseCosts(StringRef Line, SmallVectorImpl<uint64_t> &Out,
                   size_t Offset);
  Error parseEvents(StringRef Value);
  void parseEventDecl(StringRef Value);
  Error requireFunction(StringRef What);
  StrId intern(StringRef Name);
  bool addRow(RowKind K, ArrayRef<uint64_t> Key, ArrayRef<uint64_t> Values);
  // Once per cost line: inlined into the fast path.
  LLVM_ATTRIBUTE_ALWAYS_INLINE bool noteRow(RowKind K,
                                            ArrayRef<uint64_t> Values);
  bool flushRows();
  void noteFirstLine(FunctionData &FD);
  uint64_t irBytes() const;

  InputStream &In;
  const ReadOptions &Opts;
  std::unique_ptr<Profile> Result;
  Profile &P;

  // The part being read.
  Part *Cur = nullptr;
  bool PartHasBody = false;
  bool NewPartWanted = false;
  SmallVector<PositionKind, 3> Positions{PositionKind::Line};
  SmallVector<unsigned, 16> ColumnToEvent; // events: column -> profile event
  bool HaveEvents = false;
  std::optional<uint64_t> TotalsLine;
  // The rows of the current function not yet in its tables, and the running
  // sums of the part's rows of each kind (saturated on overflow).
  RowBatch Batches[NumRowKinds];
  std::vector<uint64_t> Sums[NumRowKinds];
  bool SelfSumOverflow = false;
  bool RowOverflow = false; // A row's sum overflowed on the fast path.
  CompressedIds ObjectIds, FileIds, FunctionIds;

  // Current context.
  StrId Object = 0, File = 0, SourceFile = 0;
  int CurFunction = -1; // Index into Cur->functions().
  SmallVector<uint64_t, 3> LastPos;

  // Callee of the next calls= and target of the next jump=.
  StrId CalleeObject = 0, CalleeFile = 0, CalleeName = 0;
  bool HaveCalleeObject = false, HaveCalleeFile = false, HaveCallee = false;
  StrId JumpFile = 0, JumpFunction = 0;
  bool HaveJumpFile = false, HaveJumpFunction = false;

  // A calls=/jump=/jcnd= line waiting for its position line.
  Pending Waiting = Pending::None;
  uint64_t WaitingLine = 0;
  // The keyword of that line, for diagnostics: a jcnd= is named jcnd=, not
  // jump=.
  StringRef WaitingKey;
  SmallVector<uint64_t, 16> PendingKey; // Key words after the source file.
  SmallVector<uint64_t, 16> PendingValues;

  // Scratch for cost lines.
  SmallVector<uint64_t, 16> Key, Values;

  bool WarnedNegative = false;
  StringSet<> WarnedKeys;
  StringMap<size_t> EventDeclIndex; // Name -> index in P.EventDecls.

  // What the IR holds so far, for the memory limit (irBytes()).
  uint64_t StringBytes = 0, RowBytes = 0, HeaderBytes = 0;
  uint64_t FunctionDatas = 0; // Of the parts before Cur.

  // Reading in two pieces.
  Role MyRole;
  std::vector<std::string> HeldWarnings; // Head.
  struct TailWarning {
    uint64_t Line; // In the tail's piece.
    std::string Text;
    std::string OnceKey;
    bool InFirstPart;
  };
  // Tail.
  std::vector<TailWarning> TailWarnings;
  StringRef TailFailure;          // Why it cannot merge.
  bool Skimming = false;          // In the head's piece.
  bool InFirstPart = false;       // In the part that continues the head's.
  DenseSet<FuncId> HeadFunctions; // With data in the head's last part.
  RowLog Log;                     // Rows of those in the first part.
  // The state at the split, which the head's at its end must match.
  struct {
    size_t Strings = 0, Functions = 0, Parts = 0, HeaderLines = 0;
    StrId Object = 0, File = 0, SourceFile = 0;
    SmallVector<PositionKind, 3> Positions;
    SmallVector<unsigned, 16> Columns;
  } AtSplit;
  // The end of its first part, checked by the head when they merge.
  struct {
    bool Ended = false;
    std::vector<uint64_t> SelfSum;
    bool SelfSumOverflow = false;
    std::optional<uint64_t> TotalsLine;
    uint64_t EndLine = 0;
  } FirstPartEnd;
};

} // namespace

void CallgrindReader::needNewPartFor(StringRef Key) {
  // A header key that belongs to a part, seen after the body of the current
  // part, starts the next one (--combine-dumps, concatenated files).
  if (PartHasBody && is_contained({"version", "creator", "cmd", "pid", "thread",
                                   "part", "positions", "events"},
                                  Key))
    NewPartWanted = true;
}

Error CallgrindReader::startPart() {
  if (Cur)
    if (Error E = endPart())
      return E;
  if (Cur)
    FunctionDatas += Cur->functions().size();
  Cur = &P.addPart(Positions);
  InFirstPart = false;
  if (Skimming)
    HeadFunctions.clear();
  PartHasBody = false;
  NewPartWanted = false;
  TotalsLine.reset();
  for (std::vector<uint64_t> &Sum : Sums)
    Sum.clear();
  SelfSumOverflow = false;
  ObjectIds.clear();
  FileIds.clear();
  FunctionIds.clear();
  Object = File = SourceFile = 0;
  CurFunction = -1;
  LastPos.assign(Positions.size(), 0);
  HaveCalleeObject = HaveCalleeFile = HaveCallee = false;
  HaveJumpFile = HaveJumpFunction = false;
  return Error::success();
}

Error CallgrindReader::endPart() {
  if (Waiting != Pending::None)
    return createStringError(inconvertibleErrorCode(),
                             In.name() + ":" + Twine(WaitingLine) + ": " + "'" +
                                 WaitingKey +
                                 "=' line is not followed by its cost line");
  if (!flushRows())
    return error("a cost sum overflows 64 bits");
  if (MyRole == Role::Tail && InFirstPart) {
    // The head's part: the head checks its end once it has the tail's sums.
    FirstPartEnd = {true, Sums[SelfRows], SelfSumOverflow, TotalsLine,
                    In.lineNumber()};
    return Error::success();
  }
  return checkPartEnd(*Cur, Sums[SelfRows], SelfSumOverflow, TotalsLine,
                      In.lineNumber());
}

/// The checks at the end of part Pt, whose self costs sum to SelfSum, which
/// ends at line EndLine.
Error CallgrindReader::checkPartEnd(Part &Pt, std::vector<uint64_t> &SelfSum,
                                    bool Overflow,
                                    std::optional<uint64_t> TotalsAt,
                                    uint64_t EndLine) {
  // Tables keep repeated keys (summed by whoever reads them); the running
  // sum below catches any overflow of a total.
  Pt.shrink();
  if (Overflow)
    return error("the sum of the cost lines overflows 64 bits");
  // callgrind ends every part with totals:, so a part of its without one
  // was cut short: a crash, a full disk, a copy that stopped at a line end.
  if (!Pt.Totals && !Pt.functions().empty() &&
      Pt.header("creator").starts_with("callgrind"))
    report(EndLine, "a callgrind part ends without its 'totals:' line; the "
                    "file may be truncated");
  if (Pt.Totals) {
    SelfSum.resize(P.events().size());
    for (size_t I = 0; I != SelfSum.size(); ++I) {
      uint64_t Stated = I < Pt.Totals->size() ? (*Pt.Totals)[I] : 0;
      if (Stated != SelfSum[I]) {
        report(*TotalsAt, "totals: " + P.events()[I].Name + " is " +
                              Twine(Stated) + " but the cost lines sum to " +
                              Twine(SelfSum[I]));
        break;
      }
    }
  }
  return Error::success();
}

/// The value of hex digit C, or 16 and more if C is none.
static LLVM_ATTRIBUTE_ALWAYS_INLINE unsigned hexDigit(char C) {
  unsigned D = unsigned(C - '0');
  if (D <= 9)
    return D;
  D = unsigned((C | 0x20) - 'a');
  return D <= 5 ? D + 10 : 16;
}

/// Scans a decimal or 0x-hex number starting at P, which must end at E or at
/// a blank. The hot loop of the reader: no allocation, no StringRef.
static Scan scanNumber(const char *&P, const char *E, uint64_t &Out) {
  uint64_t V = 0;
  const char *Digits;
  if (E - P > 2 && P[0] == '0' && (P[1] | 0x20) == 'x') {
    P += 2;
    Digits = P;
    for (unsigned D; P != E && (D = hexDigit(*P)) < 16; ++P) {
      if (V >> 60)
        return Scan::TooLarge;
      V = V << 4 | D;
    }
  } else {
    Digits = P;
    for (; P != E && unsigned(*P - '0') < 10; ++P)
      if (__builtin_mul_overflow(V, 10, &V) ||
          __builtin_add_overflow(V, uint64_t(*P - '0'), &V))
        return Scan::TooLarge;
  }
  if (P == Digits || (P != E && !isBlank(*P)))
    return Scan::Bad;
  Out = V;
  return Scan::Ok;
}

static const char *skipBlanks(const char *P, const char *E) {
  while (P != E && isBlank(*P))
    ++P;
  return P;
}

/// The token starting at P, for diagnostics.
static StringRef tokenAt(const char *P, const char *E) {
  const char *T = P;
  while (T != E && !isBlank(*T))
    ++T;
  return StringRef(P, T - P);
}

Error CallgrindReader::numberError(Scan S, StringRef Tok) const {
  if (Tok.empty())
    return error("missing number");
  if (S == Scan::TooLarge)
    return error("number '" + Tok + "' does not fit in 64 bits");
  return error("bad number '" + Tok + "'");
}

Error CallgrindReader::parseNumber(StringRef Tok, uint64_t &Out) const {
  const char *P = Tok.begin();
  Scan S = scanNumber(P, Tok.end(), Out);
  if (S != Scan::Ok || P != Tok.end())
    return numberError(S == Scan::Ok ? Scan::Bad : S, Tok);
  return Error::success();
}

/// Takes the next blank-separated token off the front of Line.
static StringRef nextToken(StringRef &Line) {
  const char *P = skipBlanks(Line.begin(), Line.end());
  StringRef Tok = tokenAt(P, Line.end());
  Line = StringRef(Tok.end(), Line.end() - Tok.end());
  return Tok;
}

Error CallgrindReader::parsePosition(StringRef &Line, unsigned Column,
                                     uint64_t &Out, bool Update) {
  const char *P = skipBlanks(Line.begin(), Line.end()), *E = Line.end();
  if (P == E)
    return error("expected " + Twine(LastPos.size()) + " position" +
                 (LastPos.size() == 1 ? "" : "s") + " (" +
                 positionKindName(Cur->positions()[Column]) + ")");
  const char *Start = P;
  uint64_t Base = LastPos[Column];
  char C = *P;
  if (C == '*') {
    ++P;
    if (P != E && !isBlank(*P))
      return error("bad position '" + tokenAt(Start, E) + "'");
    Out = Base;
  } else if (C == '+' || C == '-') {
    uint64_t Delta;
    ++P;
    Scan S = scanNumber(P, E, Delta);
    if (S != Scan::Ok)
      return numberError(S, tokenAt(Start, E));
    if (C == '+' ? __builtin_add_overflow(Base, Delta, &Out)
                 : __builtin_sub_overflow(Base, Delta, &Out))
      return error("relative position '" + tokenAt(Start, E) + "' from " +
                   Twine(Base) + " leaves the 64-bit range");
  } else {
    Scan S = scanNumber(P, E, Out);
    if (S != Scan::Ok)
      return numberError(S, tokenAt(Start, E));
  }
  if (Update)
    LastPos[Column] = Out;
  Line = StringRef(P, E - P);
  return Error::success();
}

Error CallgrindReader::parsePositions(StringRef &Line,
                                      MutableArrayRef<uint64_t> Out) {
  for (unsigned I = 0; I != Out.size(); ++I)
    if (Error E = parsePosition(Line, I, Out[I], /*Update=*/true))
      return E;
  return Error::success();
}

Error CallgrindReader::parseCosts(StringRef Line,
                                  SmallVectorImpl<uint64_t> &Out,
                                  size_t Offset) {
  Out.resize(Offset + P.events().size());
  std::fill(Out.begin() + Offset, Out.end(), 0);
  const char *Ptr = Line.begin(), *E = Line.end();
  for (unsigned Col = 0;; ++Col) {
    Ptr = skipBlanks(Ptr, E);
    if (Ptr == E)
      return Error::success();
    if (Col >= ColumnToEvent.size())
      return error("more costs than the " + Twine(ColumnToEvent.size()) +
                   " events of 'events:'");
    const char *Start = Ptr;
    bool Negative = *Ptr == '-';
    Ptr += Negative;
    uint64_t V;
    Scan S = scanNumber(Ptr, E, V);
    if (S != Scan::Ok)
      return numberError(S, tokenAt(Start, E));
    if (Negative) {
      // Xdebug 2 writes negative memory deltas; costs are counters.
      if (!WarnedNegative)
        warn("negative cost '" + tokenAt(Start, E) + "' read as 0", "-");
      WarnedNegative = true;
      V = 0;
    }
    Out[Offset + ColumnToEvent[Col]] = V;
  }
}

Error CallgrindReader::parseName(StringRef Value, CompressedIds &Table,
                                 StrId &Out) {
  // Most name lines refer to a name by its id alone, as in `cfn=(42)`: at
  // most 9 digits, so the id needs no range check.
  if (Value.size() >= 3 && Value.size() <= 11 && Value[0] == '(' &&
      Value.back() == ')') {
    uint64_t Id = 0;
    size_t I = 1;
    for (; isDigit(Value[I]); ++I)
      Id = Id * 10 + (Value[I] - '0');
    if (I == Value.size() - 1 && I > 1 && Table.find(Id, Out))
      return Error::success();
  }
  if (Value.contains('\0'))
    return error("binary data in a text profile");
  // `(id) name` defines, `(id)` refers; other names may start with '(' too,
  // like callgrind's `(below main)`.
  if (Value.size() >= 2 && Value[0] == '(' && isDigit(Value[1])) {
    size_t Close = Value.find(')');
    if (Close == StringRef::npos)
      return error("unterminated compressed name '" + Value + "'");
    uint64_t Id;
    if (Error E = parseNumber(Value.slice(1, Close), Id))
      return E;
    // Real writers number from 1 up; the bound also keeps ids clear of the
    // keys DenseMap reserves for itself.
    if (Id > UINT32_MAX)
      return error("compressed name id (" + Twine(Id) + ") is too large");
    StringRef Name = trim(Value.drop_front(Close + 1));
    if (Name.empty()) {
      if (!Table.find(Id, Out))
        return error("compressed name (" + Twine(Id) + ") is not defined");
      return Error::success();
    }
    StrId S = intern(Name);
    StrId Was = Table.define(Id, S);
    if (Was != S)
      return error("compressed name (" + Twine(Id) + ") redefined as '" + Name +
                   "', was '" + P.Strings.str(Was) + "'");
    Out = S;
    return Error::success();
  }
  Out = intern(Value);
  return Error::success();
}

Error CallgrindReader::parseEvents(StringRef Value) {
  if (PartHasBody)
    return error("'events:' inside the body of a part");
  ColumnToEvent.clear();
  // A set of the events seen, not a search of the list: that was quadratic
  // in the events of one line (a megabyte line of them took minutes).
  BitVector Seen;
  StringRef Rest = Value;
  for (StringRef Tok = nextToken(Rest); !Tok.empty(); Tok = nextToken(Rest)) {
    unsigned E = P.getOrAddEvent(Tok);
    if (E >= Seen.size())
      Seen.resize(std::max<size_t>(E + 1, 2 * Seen.size()));
    if (Seen.test(E))
      return error("event '" + Tok + "' listed twice");
    Seen.set(E);
    ColumnToEvent.push_back(E);
  }
  if (ColumnToEvent.empty())
    return error("'events:' lists no event");
  HaveEvents = true;
  return Error::success();
}

void CallgrindReader::parseEventDecl(StringRef Value) {
  // event: Name [= formula] [: long name]
  size_t NameEnd = Value.find_first_of(" \t=:");
  EventDecl D;
  D.Name = Value.take_front(NameEnd).str();
  StringRef Rest = trim(Value.drop_front(std::min(NameEnd, Value.size())));
  if (Rest.consume_front("=")) {
    auto [Formula, Long] = Rest.split(':');
    D.Formula = trim(Formula).str();
    D.LongName = trim(Long).str();
  } else if (Rest.consume_front(":")) {
    D.LongName = trim(Rest).str();
  }
  // Replace an earlier declaration of the same name. An index, not a search
  // of the list, which was quadratic in the number of `event:` lines.
  auto [It, New] = EventDeclIndex.try_emplace(D.Name, P.EventDecls.size());
  if (!New) {
    P.EventDecls[It->second] = std::move(D);
    return;
  }
  HeaderBytes += Value.size() + sizeof(EventDecl);
  P.EventDecls.push_back(std::move(D));
}

Error CallgrindReader::parseHeader(StringRef Key, StringRef Value) {
  if (Value.contains('\0'))
    return error("binary data in a text profile");
  needNewPartFor(Key);
  if (NewPartWanted || !Cur)
    if (Error E = startPart())
      return E;
  if (Key == "events")
    return parseEvents(Value);
  if (Key == "positions") {
    if (PartHasBody)
      return error("'positions:' inside the body of a part");
    SmallVector<PositionKind, 3> Kinds;
    StringRef Rest = Value;
    for (StringRef Tok = nextToken(Rest); !Tok.empty(); Tok = nextToken(Rest)) {
      std::optional<PositionKind> K = parsePositionKind(Tok);
      if (!K)
        return error("unknown position kind '" + Tok + "'");
      if (is_contained(Kinds, *K))
        return error("position kind '" + Tok + "' listed twice");
      Kinds.push_back(*K);
    }
    if (Kinds.empty())
      return error("'positions:' lists no position kind");
    Positions = Kinds;
    Cur->setPositions(Kinds);
    LastPos.assign(Kinds.size(), 0);
    return Error::success();
  }
  if (Key == "event") {
    parseEventDecl(trim(Value));
    return Error::success();
  }
  if (Key == "summary" || Key == "totals") {
    if (!HaveEvents)
      return error("'" + Key + ":' before 'events:'");
    SmallVector<uint64_t, 16> Costs;
    if (Error E = parseCosts(Value, Costs, 0))
      return E;
    std::vector<uint64_t> V(Costs.begin(), Costs.end());
    if (Key == "summary") {
      Cur->Summary = std::move(V);
    } else {
      Cur->Totals = std::move(V);
      TotalsLine = In.lineNumber();
      // totals: closes a part's body; header lines after it start a new one.
      PartHasBody = true;
    }
    return Error::success();
  }
  HeaderBytes += Key.size() + Value.size() + sizeof(HeaderLine);
  Cur->Header.push_back(HeaderLine{Key.str(), Value.str()});
  return Error::success();
}

StrId CallgrindReader::intern(StringRef Name) {
  size_t Before = P.Strings.size();
  StrId S = P.Strings.intern(Name);
  if (P.Strings.size() != Before)
    StringBytes += Name.size();
  return S;
}

/// Adds Values to Sum, saturating; returns false if a column overflowed.
static LLVM_ATTRIBUTE_ALWAYS_INLINE bool addToSum(std::vector<uint64_t> &Sum,
                                                  ArrayRef<uint64_t> Values) {
  if (LLVM_UNLIKELY(Sum.size() < Values.size()))
    Sum.resize(Values.size());
  uint64_t *S = Sum.data();
  bool Overflow = false;
  for (size_t I = 0, E = Values.size(); I != E; ++I)
    Overflow |= __builtin_add_overflow(S[I], Values[I], &S[I]);
  if (LLVM_LIKELY(!Overflow))
    return true;
  // Saturate the columns that wrapped: a wrapped sum is below its addend.
  for (size_t I = 0, E = Values.size(); I != E; ++I)
    if (S[I] < Values[I])
      S[I] = UINT64_MAX;
  return false;
}

/// Batches a row of the current function. Returns false if the sum of its
/// key overflowed 64 bits.
bool CallgrindReader::addRow(RowKind K, ArrayRef<uint64_t> Key,
                             ArrayRef<uint64_t> Values) {
  Batches[K].add(Key, Values);
  return noteRow(K, Values);
}

/// Keeps the running sums for a row just batched, and flushes the batch
/// when due. Returns false if the sum of the row's key overflowed.
bool CallgrindReader::noteRow(RowKind K, ArrayRef<uint64_t> Values) {
  bool SumOk = addToSum(Sums[K], Values);
  if (LLVM_LIKELY(SumOk && !Batches[K].full()))
    return true;
  if (K == SelfRows)
    SelfSumOverflow |= !SumOk;
  // While the running sum of a kind fits, no key's sum can overflow; once it
  // does not, the row just added is checked at once, so an error names its
  // line.
  return flushRows();
}

/// Keeps the line of FD's first self row in its own file while the batch
/// still has the rows in file order (FunctionValueKind::FirstLine).
void CallgrindReader::noteFirstLine(FunctionData &FD) {
  const RowBatch &B = Batches[SelfRows];
  if (B.empty() || FD.Values.get(FunctionValueKind::FirstLine))
    return;
  std::optional<unsigned> LineIdx = Cur->positionIndex(PositionKind::Line);
  if (!LineIdx)
    return;
  unsigned FileIdx = Cur->layout().P;
  StrId Own = P.function(FD.Id).File;
  for (size_t I = 0; I != B.size(); ++I)
    if (B.row(I)[FileIdx] == Own) {
      FD.Values.set(FunctionValueKind::FirstLine, B.row(I)[*LineIdx]);
      return;
    }
}

/// Moves the batched rows into the current function's tables. Returns false
/// if a sum overflowed.
bool CallgrindReader::flushRows() {
  if (CurFunction < 0)
    return true;
  FunctionData &FD = Cur->functions()[CurFunction];
  noteFirstLine(FD);
  if (InFirstPart && HeadFunctions.contains(FD.Id)) {
    // The head's table has rows already: the merge adds these to it.
    bool Ok = true;
    for (unsigned K = 0; K != NumRowKinds; ++K) {
      if (Batches[K].empty())
        continue;
      Ok &= Batches[K].sortAndSum();
      RowBytes += Log.append(CurFunction, RowKind(K), Batches[K]);
      Batches[K].clear();
    }
    return Ok;
  }
  RowTable *Tables[NumRowKinds] = {&FD.Self, &FD.Calls, &FD.Jumps};
  bool Ok = true;
  for (unsigned K = 0; K != NumRowKinds; ++K) {
    if (Batches[K].empty())
      continue;
    size_t Before = Tables[K]->encodedBytes();
    Ok &= Tables[K]->addBatch(Batches[K]);
    size_t After = Tables[K]->encodedBytes();
    // A compaction may give bytes back.
    RowBytes = After >= Before
                   ? RowBytes + (After - Before)
                   : RowBytes - std::min<uint64_t>(RowBytes, Before - After);
  }
  return Ok;
}

/// An estimate of the bytes the IR holds, from what the reader added to it:
/// string, row and header bytes plus a fixed cost per string, event,
/// function, per-part function data and part. It leaves out hash table
/// slack, so it errs low; the memory limit is a guard against pathological
/// inputs (a million events, a million parts), not an exact budget.
uint64_t CallgrindReader::irBytes() const {
  uint64_t FDs = FunctionDatas + (Cur ? Cur->functions().size() : 0);
  return StringBytes + RowBytes + HeaderBytes + P.Strings.size() * 48 +
         P.events().size() * (sizeof(EventType) + 48) +
         P.numFunctions() * (sizeof(Function) + 48) +
         FDs * (sizeof(FunctionData) + 16) + P.parts().size() * sizeof(Part);
}

Error CallgrindReader::requireFunction(StringRef What) {
  if (CurFunction < 0)
    return error(What + " before any 'fn='");
  return Error::success();
}

Error CallgrindReader::parseSpec(StringRef Key, StringRef Value) {
  if (NewPartWanted || !Cur)
    if (Error E = startPart())
      return E;
  PartHasBody = true;
  Value = trim(Value);
  switch (Key.size() ? Key[0] : 0) {
  case 'o':
    if (Key == "ob")
      return parseName(Value, ObjectIds, Object);
    break;
  case 'f':
    if (Key == "fl") {
      if (Error E = parseName(Value, FileIds, File))
        return E;
      SourceFile = File;
      return Error::success();
    }
    if (Key == "fi" || Key == "fe")
      return parseName(Value, FileIds, SourceFile);
    if (Key == "fn") {
      StrId Name;
      if (Error E = parseName(Value, FunctionIds, Name))
        return E;
      FuncId F = P.getOrAddFunction(Object, File, Name);
      if (Skimming) {
        HeadFunctions.insert(F);
        SourceFile = File;
        return Error::success();
      }
      if (!flushRows())
        return error("a cost sum overflows 64 bits");
      FunctionData &FD = Cur->getOrCreate(F);
      CurFunction = &FD - Cur->functions().data();
      RowLayout L = Cur->layout();
      Batches[SelfRows].setKeyWidth(L.selfWidth());
      Batches[CallRows].setKeyWidth(L.callWidth());
      Batches[JumpRows].setKeyWidth(L.jumpWidth());
      SourceFile = File;
      return Error::success();
    }
    break;
  case 'c':
    if (Key == "cob") {
      HaveCalleeObject = true;
      return parseName(Value, ObjectIds, CalleeObject);
    }
    if (Key == "cfi" || Key == "cfl") {
      HaveCalleeFile = true;
      return parseName(Value, FileIds, CalleeFile);
    }
    if (Key == "cfn") {
      HaveCallee = true;
      return parseName(Value, FunctionIds, CalleeName);
    }
    if (Key == "calls") {
      if (Skimming) {
        // Only the callee, a function of the profile; its costs are the
        // head's.
        if (HaveCallee)
          callee();
        HaveCalleeObject = HaveCalleeFile = HaveCallee = false;
        return Error::success();
      }
      if (Error E = requireFunction("'calls='"))
        return E;
      if (!HaveCallee)
        return error("'calls=' without a 'cfn=' before it");
      StringRef Rest = Value;
      uint64_t Count;
      if (Error E = parseNumber(nextToken(Rest), Count))
        return E;
      RowLayout L = Cur->layout();
      PendingKey.assign(1 + L.P, 0);
      // The target position; readers ignore it and writers differ on it
      // (Xdebug writes two numbers for one position), so a missing or extra
      // number is not an error.
      for (unsigned I = 0; I != L.P; ++I) {
        if (Rest.ltrim(" \t").empty())
          break;
        if (Error E = parsePosition(Rest, I, PendingKey[1 + I],
                                    /*Update=*/false))
          return E;
      }
      expectCallCost(Count);
      return Error::success();
    }
    break;
  case 'j':
    if (Key == "jfi")
      return HaveJumpFile = true, parseName(Value, FileIds, JumpFile);
    if (Key == "jfn")
      return HaveJumpFunction = true,
             parseName(Value, FunctionIds, JumpFunction);
    if (Key == "jump" || Key == "jcnd") {
      if (Skimming) {
        if (HaveJumpFunction)
          P.getOrAddFunction(Object, jumpTargetFile(), JumpFunction);
        HaveJumpFile = HaveJumpFunction = false;
        return Error::success();
      }
      if (Error E = requireFunction(Key == "jump" ? "'jump='" : "'jcnd='"))
        return E;
      StringRef Rest = Value;
      uint64_t Followed, Executed = 0;
      StringRef First = nextToken(Rest);
      bool Cond = Key == "jcnd";
      if (Cond) {
        auto [A, B] = First.split('/');
        if (!B.empty() || First.ends_with("/")) {
          // valgrind: followed/executed
          if (Error E = parseNumber(A, Followed))
            return E;
          if (Error E = parseNumber(B, Executed))
            return E;
        } else {
          // The format reference: executed followed
          if (Error E = parseNumber(First, Executed))
            return E;
          if (Error E = parseNumber(nextToken(Rest), Followed))
            return E;
        }
      } else if (Error E = parseNumber(First, Followed)) {
        return E;
      }
      RowLayout L = Cur->layout();
      PendingKey.assign(3 + L.P, 0);
      for (unsigned I = 0; I != L.P; ++I)
        if (Error E = parsePosition(Rest, I, PendingKey[3 + I],
                                    /*Update=*/false))
          return E;
      expectJumpCost(Cond, Followed, Executed);
      return Error::success();
    }
    break;
  default:
    break;
  }
  // frfn=, rec=, bb=, ln= come from callgrind's undocumented debug options.
  if (WarnedKeys.insert(Key).second)
    warn("ignoring '" + Key + "=' lines (not part of the callgrind format)",
         Key);
  return Error::success();
}

/// Reads 1 to 18 decimal digits (so no overflow check is needed) at P, in a
/// line from InputStream::nextLine(): the byte after the line ends the
/// digits. Stops at the first byte that is not a digit.
static LLVM_ATTRIBUTE_ALWAYS_INLINE bool scanDigits(const char *&P,
                                                    uint64_t &Out) {
  const char *Start = P;
  uint64_t V = unsigned(*P - '0');
  if (V > 9)
    return false;
  ++P;
  for (unsigned D; (D = unsigned(*P - '0')) < 10; ++P)
    V = V * 10 + D; // Wraps past 19 digits, but those are refused below.
  Out = V;
  return P - Start <= 18;
}

/// As scanDigits(), for a number that must end at E, a space or a tab.
static LLVM_ATTRIBUTE_ALWAYS_INLINE bool
scanShortDecimal(const char *&P, const char *E, uint64_t &Out) {
  uint64_t V;
  if (!scanDigits(P, V) || (P != E && *P != ' ' && *P != '\t'))
    return false;
  Out = V;
  return true;
}

/// Reads `0x` (or `0X`) and up to 15 hex digits (so no overflow check is
/// needed) at P, as scanShortDecimal() reads decimal digits.
static LLVM_ATTRIBUTE_ALWAYS_INLINE bool
scanShortHex(const char *&P, const char *E, uint64_t &Out) {
  const char *Start = P + 2, *Q = Start;
  uint64_t V = 0;
  for (unsigned D; (D = hexDigit(*Q)) < 16; ++Q)
    V = V << 4 | D;
  if (Q == Start || Q - Start > 15 || (Q != E && *Q != ' ' && *Q != '\t'))
    return false;
  P = Q;
  Out = V;
  return true;
}

/// Skips spaces and tabs; stops at the byte after the line ('\n' or '\r').
static LLVM_ATTRIBUTE_ALWAYS_INLINE const char *skipSpaces(const char *P) {
  while (*P == ' ' || *P == '\t')
    ++P;
  return P;
}

/// After a `calls=` line whose target position is in PendingKey from index
/// 1 on: its callee and count, and the wait for its cost line.
void CallgrindReader::expectCallCost(uint64_t Count) {
  PendingKey[0] = callee();
  PendingValues.assign(1, Count);
  HaveCalleeObject = HaveCalleeFile = HaveCallee = false;
  Waiting = Pending::Call;
  WaitingLine = In.lineNumber();
  WaitingKey = "calls";
}

/// After a `jump=` or `jcnd=` line whose target position is in PendingKey
/// from index 3 on: its kind, target and counts, and the wait for the line
/// of its position.
void CallgrindReader::expectJumpCost(bool Cond, uint64_t Followed,
                                     uint64_t Executed) {
  StrId TargetFile = jumpTargetFile();
  PendingKey[0] = uint64_t(Cond ? JumpKind::Conditional : JumpKind::Jump);
  PendingKey[1] = HaveJumpFunction
                      ? P.getOrAddFunction(Object, TargetFile, JumpFunction)
                      : Cur->functions()[CurFunction].Id;
  PendingKey[2] = TargetFile;
  PendingValues.assign({Followed, Executed});
  if (!Cond)
    PendingValues.pop_back();
  HaveJumpFile = HaveJumpFunction = false;
  Waiting = Pending::Jump;
  WaitingLine = In.lineNumber();
  WaitingKey = Cond ? "jcnd" : "jump";
}

/// Scans NP positions (0: as many as the part has) at Ptr as profilers write
/// them (`*`, `+N`, `-N`, decimal or 0x hex, after blanks) into Out, relative
/// to the last cost line's. Returns false for anything else, which the slow
/// path parses and diagnoses.
template <unsigned NP>
LLVM_ATTRIBUTE_ALWAYS_INLINE bool
CallgrindReader::scanPositions(const char *&Ptr, const char *End,
                               uint64_t *Out) const {
  const uint64_t *Last = LastPos.data();
  const unsigned NumPos = NP ? NP : LastPos.size();
  for (unsigned I = 0; I != NumPos; ++I) {
    Ptr = skipSpaces(Ptr);
    uint64_t V, Delta;
    char C = *Ptr;
    if (C == '*') {
      ++Ptr;
      if (Ptr != End && *Ptr != ' ' && *Ptr != '\t')
        return false;
      V = Last[I];
    } else if (C == '+' || C == '-') {
      ++Ptr;
      if (!scanShortDecimal(Ptr, End, Delta))
        return false;
      if (C == '+' ? __builtin_add_overflow(Last[I], Delta, &V)
                   : __builtin_sub_overflow(Last[I], Delta, &V))
        return false;
    } else if (C == '0' && (Ptr[1] | 0x20) == 'x') {
      if (!scanShortHex(Ptr, End, V))
        return false;
    } else if (Ptr == End || !scanShortDecimal(Ptr, End, V)) {
      return false;
    }
    Out[I] = V;
  }
  return true;
}

/// `calls=`, `jump=` and `jcnd=` lines as callgrind writes them (a count or
/// `followed/executed`, then the target position), about one line in six.
/// Anything else returns false and goes through parseSpec().
bool CallgrindReader::tryFastCallOrJumpLine(StringRef Line) {
  if ((Line[0] != 'c' && Line[0] != 'j') || !Cur || NewPartWanted ||
      CurFunction < 0 || Waiting != Pending::None || Skimming)
    return false;
  switch (LastPos.size()) {
  case 1:
    return tryFastCallOrJumpLineOf<1>(Line);
  case 2:
    return tryFastCallOrJumpLineOf<2>(Line);
  default:
    return tryFastCallOrJumpLineOf<0>(Line);
  }
}

template <unsigned NP>
bool CallgrindReader::tryFastCallOrJumpLineOf(StringRef Line) {
  const char *Ptr = Line.begin(), *End = Line.end();
  const unsigned NumPos = NP ? NP : LastPos.size();
  unsigned KeyStart;
  uint64_t First, Second = 0;
  bool Call = Line.starts_with("calls="), Cond = Line.starts_with("jcnd=");
  if (Call) {
    if (!HaveCallee)
      return false;
    Ptr += 6;
    KeyStart = 1;
  } else if (Cond || Line.starts_with("jump=")) {
    Ptr += 5;
    KeyStart = 3;
  } else {
    return false;
  }
  // valgrind's `jcnd=followed/executed`; the reference's two numbers go
  // the slow way.
  if (!scanDigits(Ptr, First) ||
      (Cond && (*Ptr++ != '/' || !scanDigits(Ptr, Second))) ||
      (*Ptr != ' ' && *Ptr != '\t'))
    return false;
  PendingKey.resize_for_overwrite(KeyStart + NumPos);
  if (!scanPositions<NP>(Ptr, End, PendingKey.data() + KeyStart) ||
      skipSpaces(Ptr) != End)
    return false;
  PartHasBody = true;
  if (Call)
    expectCallCost(First);
  else
    expectJumpCost(Cond, First, Second);
  return true;
}

/// The cost line as profilers write it millions of times: positions (`*`,
/// `+N`, `-N`, decimal or 0x hex) and decimal costs, for self cost, a call or
/// a jump, separated by spaces or tabs. Anything unusual (hex or negative
/// costs, long numbers, other blanks, errors) returns false and goes through
/// parseCostLine(), which also writes the diagnostics.
bool CallgrindReader::tryFastCostLine(StringRef Line) {
  if (!startsCostLine(Line[0]) || !Cur || NewPartWanted || !HaveEvents ||
      CurFunction < 0)
    return false;
  bool Self = Waiting == Pending::None;
  switch (LastPos.size()) {
  case 1:
    return Self ? tryFastCostLineOf<1, true>(Line)
                : tryFastCostLineOf<1, false>(Line);
  case 2:
    return Self ? tryFastCostLineOf<2, true>(Line)
                : tryFastCostLineOf<2, false>(Line);
  default:
    return Self ? tryFastCostLineOf<0, true>(Line)
                : tryFastCostLineOf<0, false>(Line);
  }
}

/// tryFastCostLine() for NP positions (0: any number), so that the loops
/// over the positions of the common layouts (`line`, `instr line`) unroll;
/// and for self costs (Self) or the line after a `calls=` or jump, so that
/// the code for the others drops out of the common case.
template <unsigned NP, bool Self>
LLVM_ATTRIBUTE_ALWAYS_INLINE bool
CallgrindReader::tryFastCostLineOf(StringRef Line) {
  // The row is parsed in place, into the batch of its kind.
  RowKind Kind = Self                       ? SelfRows
                 : Waiting == Pending::Call ? CallRows
                                            : JumpRows;
  size_t NumEvents = Result->events().size();
  size_t NumValues = Kind == SelfRows   ? NumEvents
                     : Kind == CallRows ? 1 + NumEvents
                                        : PendingValues.size();
  RowBatch &B = Batches[Kind];
  // When the columns of `events:` are all the profile's events, every value
  // is written below: the costs given, the missing ones as zeros.
  unsigned NumColumns = Kind == JumpRows ? 0 : ColumnToEvent.size();
  bool WritesAll = Kind == JumpRows || NumColumns == NumEvents;
  uint64_t *Row =
      WritesAll ? B.appendRowUninitialized(NumValues) : B.appendRow(NumValues);
  uint64_t *Values = Row + B.keyWidth();
  auto Fail = [&] {
    B.popRow();
    return false;
  };
  const char *Ptr = Line.begin(), *End = Line.end();
  uint64_t *Last = LastPos.data();
  const unsigned NumPos = NP ? NP : LastPos.size();
  if (!scanPositions<NP>(Ptr, End, Row))
    return Fail();

  // Self costs are the values; a call's values are its count, then its
  // inclusive costs; a jump's position line has no costs.
  uint64_t *Costs = Values + (Kind == CallRows);
  const unsigned *Column = ColumnToEvent.data();
  unsigned Col = 0;
  for (;; ++Col) {
    Ptr = skipSpaces(Ptr);
    if (Ptr == End)
      break;
    uint64_t V;
    if (Col == NumColumns || !scanShortDecimal(Ptr, End, V))
      return Fail();
    Costs[Column[Col]] = V;
  }
  if (WritesAll)
    for (; Col < NumColumns; ++Col)
      Costs[Column[Col]] = 0;

  for (unsigned I = 0; I != NumPos; ++I)
    Last[I] = Row[I];
  Row[NumPos] = SourceFile;
  if (Kind != SelfRows) {
    for (size_t I = 0, E = PendingKey.size(); I != E; ++I)
      Row[NumPos + 1 + I] = PendingKey[I];
    if (Kind == CallRows)
      Values[0] = PendingValues[0];
    else
      for (size_t I = 0, E = PendingValues.size(); I != E; ++I)
        Values[I] = PendingValues[I];
  }
  PartHasBody = true;
  Waiting = Pending::None;
  if (!noteRow(Kind, ArrayRef(Values, NumValues)))
    RowOverflow = true;
  return true;
}

Error CallgrindReader::parseCostLine(StringRef Line) {
  if (NewPartWanted || !Cur)
    if (Error E = startPart())
      return E;
  PartHasBody = true;
  if (!HaveEvents)
    return error("cost line before 'events:'");
  if (Error E = requireFunction("cost line"))
    return E;
  RowLayout L = Cur->layout();
  Key.resize(1 + L.P);
  if (Error E = parsePositions(Line, MutableArrayRef(Key).take_front(L.P)))
    return E;
  Key[L.P] = SourceFile;

  bool Ok = true;
  switch (Waiting) {
  case Pending::None:
    if (Error E = parseCosts(Line, Values, 0))
      return E;
    Ok = addRow(SelfRows, Key, Values);
    break;
  case Pending::Call:
    Key.append(PendingKey.begin(), PendingKey.end());
    if (Error E = parseCosts(Line, PendingValues, 1))
      return E;
    Ok = addRow(CallRows, Key, PendingValues);
    break;
  case Pending::Jump:
    if (!trim(Line).empty())
      return error("costs after the position of a jump");
    Key.append(PendingKey.begin(), PendingKey.end());
    Ok = addRow(JumpRows, Key, PendingValues);
    break;
  }
  Waiting = Pending::None;
  if (!Ok)
    return error("a cost sum overflows 64 bits");
  return Error::success();
}

Error CallgrindReader::parseLine(StringRef Line) {
  char C = Line[0];
  if (startsCostLine(C))
    return parseCostLine(Line);
  // Comments may come anywhere, also between a calls= line and its cost
  // line (as blank lines may).
  if (C == '#')
    return Error::success();
  if (Waiting != Pending::None)
    return createStringError(inconvertibleErrorCode(),
                             In.name() + ":" + Twine(In.lineNumber()) +
                                 ": expected the cost line of the " + "'" +
                                 WaitingKey + "=' at line " +
                                 Twine(WaitingLine));
  // Key=value body lines: lower-case keyword, '='.
  size_t Eq = 0;
  while (Eq < Line.size() && Eq < 8 && isLower(Line[Eq]))
    ++Eq;
  if (Eq && Eq < Line.size() && Line[Eq] == '=')
    return parseSpec(Line.take_front(Eq), Line.drop_front(Eq + 1));
  if (Line.starts_with("==== NEW PROFILING FILE")) {
    // Xdebug's profiler_append=1 separates runs with this line.
    NewPartWanted = true;
    return Error::success();
  }
  StringRef Key, Value;
  if (splitHeader(Line, Key, Value))
    return parseHeader(Key, Value);
  SmallString<64> Shown;
  for (char Ch : Line.take_front(40))
    Shown.push_back(isPrint(Ch) ? Ch : '?');
  return error("unrecognized line '" + Shown.str() +
               (Line.size() > 40 ? "...'" : "'"));
}

Expected<std::unique_ptr<Profile>> CallgrindReader::read() {
  if (Error E = readLines())
    return std::move(E);
  if (!Cur)
    return error("no profile data");
  // Fuzzing (roundtrip) found a file of header lines only (`event: `) read
  // as a profile of no events, which no callgrind file can hold: the
  // format needs an `events:` line.
  if (!HaveEvents)
    return error("no 'events:' line");
  if (Error E = endPart())
    return std::move(E);
  return finishProfile();
}

/// The next line of In that is not blank, without its leading blanks.
static bool nextNonBlankLine(InputStream &In, StringRef &Line) {
  while (In.nextLine(Line)) {
    size_t I = 0;
    while (I < Line.size() && isBlank(Line[I]))
      ++I;
    if (I == Line.size())
      continue;
    if (I)
      Line = Line.drop_front(I);
    return true;
  }
  return false;
}

Error CallgrindReader::readLines() {
  StringRef Line;
  while (nextNonBlankLine(In, Line)) {
    if (tryFastCostLine(Line)) {
      if (RowOverflow)
        return error("a cost sum overflows 64 bits");
      continue;
    }
    if (tryFastCallOrJumpLine(Line))
      continue;
    if (Error E = parseLine(Line))
      return E;
    if (Opts.MaxMemory && irBytes() > Opts.MaxMemory)
      return error("the profile needs more than " + Twine(Opts.MaxMemory) +
                   " bytes of memory: over the memory limit (-max-memory)");
  }
  return In.takeError();
}

Expected<std::unique_ptr<Profile>> CallgrindReader::finishProfile() {
  // `event: X : long name` lines may come before `events:`; attach them to
  // their column now that all columns are known.
  erase_if(P.EventDecls, [&](const EventDecl &D) {
    std::optional<unsigned> Col = P.findEvent(D.Name);
    if (!Col || !D.Formula.empty())
      return false;
    P.setEventLongName(*Col, D.LongName);
    return true;
  });
  return std::move(Result);
}

void CallgrindReader::report(uint64_t Line, const Twine &Msg,
                             StringRef OnceKey) {
  switch (MyRole) {
  case Role::Whole:
    Opts.Warn(In.name() + ":" + Twine(Line) + ": " + Msg);
    return;
  case Role::Head:
    HeldWarnings.push_back((In.name() + ":" + Twine(Line) + ": " + Msg).str());
    return;
  case Role::Tail:
    // Skimming, the head reports it.
    if (!Skimming)
      TailWarnings.push_back({Line, Msg.str(), OnceKey.str(), InFirstPart});
    return;
  }
}

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

StringRef CallgrindReader::merge(CallgrindReader &Tail) {
  if (!Tail.TailFailure.empty())
    return Tail.TailFailure;
  // The rows of the head's last function.
  if (!flushRows())
    return "a cost sum overflows 64 bits";
  // Callgrind's files carry nothing else across a fn= line.
  if (!Cur || !HaveEvents || NewPartWanted || Waiting != Pending::None ||
      HaveCalleeObject || HaveCalleeFile || HaveCallee || HaveJumpFile ||
      HaveJumpFunction)
    return "state that goes on after the split";
  // The tail skimmed the head's piece as the head read it.
  const auto &A = Tail.AtSplit;
  Profile &T = Tail.P;
  if (P.Strings.size() != A.Strings || P.numFunctions() != A.Functions ||
      P.parts().size() != A.Parts || Cur->Header.size() != A.HeaderLines ||
      Object != A.Object || File != A.File || SourceFile != A.SourceFile ||
      ArrayRef(Positions) != ArrayRef(A.Positions) ||
      ArrayRef(ColumnToEvent) != ArrayRef(A.Columns) ||
      P.events().size() > T.events().size())
    return "the pieces disagree at the split";

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
    New.Jumps = std::move(FD.Jumps);
  }
  // The head's values come first in the file.
  for (const FunctionData &FD : TailFirst.functions())
    if (!Cur->getOrCreate(FD.Id).Values.merge(FD.Values))
      return "a cost sum overflows 64 bits";
  bool Ok = true;
  RowBatch B;
  Tail.Log.replay(
      B, [&](unsigned FunctionIndex, RowKind Kind, RowBatch &Batch) {
        FunctionData &FD =
            Cur->getOrCreate(TailFirst.functions()[FunctionIndex].Id);
        RowTable &Table = Kind == SelfRows   ? FD.Self
                          : Kind == CallRows ? FD.Calls
                                             : FD.Jumps;
        Ok &= Table.addBatch(Batch);
      });
  if (!Ok)
    return "a cost sum overflows 64 bits";

  // Its self costs sum over both pieces.
  std::vector<uint64_t> &Sum = Sums[SelfRows];
  const std::vector<uint64_t> &TailSum = Tail.FirstPartEnd.SelfSum;
  if (Sum.size() < TailSum.size())
    Sum.resize(TailSum.size());
  bool Overflow = SelfSumOverflow || Tail.FirstPartEnd.SelfSumOverflow;
  for (size_t I = 0; I != TailSum.size(); ++I)
    Overflow |= __builtin_add_overflow(Sum[I], TailSum[I], &Sum[I]);
  if (Overflow || !Tail.FirstPartEnd.Ended)
    return "a cost sum overflows 64 bits";
  if (Opts.MaxMemory && irBytes() + Tail.irBytes() > Opts.MaxMemory)
    return "over the memory limit";

  // The tail's profile has every name and function: it takes the head's
  // parts, then its own later ones.
  std::vector<std::unique_ptr<Part>> Parts = std::move(P.parts());
  for (size_t I = A.Parts; I < T.parts().size(); ++I)
    Parts.push_back(std::move(T.parts()[I]));
  T.parts() = std::move(Parts);
  return "";
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
static Expected<std::unique_ptr<Profile>> readInPieces(InputStream &In,
                                                       uint64_t Size,
                                                       const ReadOptions &Opts,
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
  StringRef Failure = Head.merge(Tail);
  if (!Failure.empty()) {
    Why = Failure.str();
    return nullptr;
  }
  return Head.finishMerged(Tail);
}

/// Files of this size and more are read in two pieces when the machine has
/// two cores: below it, starting a thread and merging costs more than it
/// saves.
static constexpr uint64_t MinBytesToSplit = 16 << 20;

Expected<std::unique_ptr<Profile>>
profkit::readCallgrind(InputStream &In, const ReadOptions &Opts) {
  std::optional<uint64_t> Size = In.splittableSize();
  bool Split = Opts.Threads > 1 ||
               (Opts.Threads == 0 && Size && *Size >= MinBytesToSplit &&
                std::thread::hardware_concurrency() > 1);
  if (Split) {
    std::string Why = "the input is not a plain file (gzip data or a pipe)";
    if (Size) {
      Expected<std::unique_ptr<Profile>> P = readInPieces(In, *Size, Opts, Why);
      if (!P || *P)
        return P;
    }
    if (Opts.Threads > 1)
      Opts.Note(In.name() + ": read on one thread: " + Why);
  }
  return CallgrindReader(In, Opts).read();
}
