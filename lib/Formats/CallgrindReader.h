//===- CallgrindReader.h - The callgrind reader's class ---------*- C++ -*-===//
//
// Private to lib/Formats: the reader of the callgrind format family, which
// CallgrindReader.cpp (header and name lines, parts), CallgrindScan.cpp
// (cost lines, numbers and positions) and CallgrindReaderThreads.cpp
// (reading a file in pieces on several threads) implement together.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_LIB_FORMATS_CALLGRINDREADER_H
#define PROFKIT_LIB_FORMATS_CALLGRINDREADER_H

#include "CallgrindScan.h"
#include "CompressedIds.h"
#include "profkit/Formats/Format.h"
#include "profkit/IR/Profile.h"
#include "profkit/IR/ProfileSlice.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/InputStream.h"
#include "profkit/Support/TouchedList.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Allocator.h"
#include <array>
#include <atomic>
#include <cassert>
#include <deque>
#include <optional>

namespace profkit::callgrind {

enum class Pending : uint8_t { None, Call, Jump };
/// The tables of a function, as indices of CallgrindReader::Batches.
enum RowKind : unsigned {
  SelfRows = PlainRows::Self,
  CallRows = PlainRows::Calls,
  JumpRows = PlainRows::Jumps,
  NumRowKinds = PlainRows::NumKinds
};
/// The table of FD that holds rows of kind K (its call table made in Arena,
/// its jump table made, if missing).
inline RowTable &tableOf(FunctionData &FD, RowKind K, RowArena *Arena) {
  return K == SelfRows   ? FD.Self
         : K == CallRows ? FD.makeCalls(Arena)
                         : FD.jumps();
}
/// The table of FD that holds rows of kind K, or an empty one.
inline const RowTable &tableOf(const FunctionData &FD, RowKind K) {
  return K == SelfRows ? FD.Self : K == CallRows ? FD.calls() : FD.jumps();
}

/// A set of function ids, a bit each (ids are dense): a tail puts the
/// functions of the head's last part in it, hundreds of thousands in a
/// cachegrind file. A new part empties it.
class FunctionIdSet {
public:
  void insert(FuncId F) {
    if (F >= Bits.size())
      Bits.resize(F + 1);
    if (Bits.test(F))
      return;
    Bits.set(F);
    Set.note(F);
  }
  bool contains(FuncId F) const { return F < Bits.size() && Bits.test(F); }
  void clear() {
    Set.empty([&](uint32_t F) { Bits.reset(F); }, [&] { Bits.reset(); });
  }

private:
  llvm::BitVector Bits;
  TouchedList Set;
};

class LiveSplit;
class SplitFinder;
class CallgrindReader;

/// What skimming one piece of a file does to a tail's names, functions and
/// compressed ids, found by a reader that knows nothing of the pieces
/// before it (digestPiece()): each piece is digested on a thread of its
/// own, all at once, and a tail replays the digests of the pieces before
/// its own (replayDigest()) instead of skimming them in turn. A tail's work
/// before its piece then no longer grows with the pieces before it, as
/// sixteen cores need. The digest numbers names and functions in the order
/// the piece meets them; what it cannot know (the names of ids defined
/// before, the object and file in force) it names by placeholders the
/// replay resolves. Header lines it keeps as they are, each distinct one
/// once, for the replay to skim.
struct PieceDigest {
  struct Definition {
    char Table; // 'o', 'f' or 'n': ob=, fl=/fi=/fe=/cfi=/jfi=, fn= ids.
    uint32_t Id;
    StrId Name;
  };
  /// The name lines of the body up to the next header lines, then those.
  /// Its definitions, functions and header lines start at its First*
  /// in the digest's and end where the next segment's start.
  struct Segment {
    bool HasBody = false;
    /// The digest's names and functions met by the segment's end.
    StrId EndString = 0;
    FuncId EndFunction = 0;
    /// In force at the body's end.
    StrId Object = 0, File = 0, SourceFile = 0;
    size_t FirstDefinition = 0, FirstFunction = 0, FirstHeaderLine = 0;
  };
  // One of each for all segments: a run of many dumps has a segment a
  // dump, and three containers a segment took (c) in three pieces from
  // 116 MB to 130 MB.
  std::vector<Segment> Segments;
  std::vector<Definition> Definitions;
  std::vector<FuncId> Functions; // Those the bodies name by `fn=`.
  /// The header lines, by their index in LineTexts, which holds each once:
  /// a run of dumps repeats most of them in every dump, and line by line
  /// they could take more memory than the piece's text.
  std::vector<uint32_t> HeaderLines;
  std::vector<llvm::StringRef> LineTexts; // The keys of LineIds.
  // Entries in slabs: a file of header lines that all differ would
  // otherwise take a heap block a line.
  llvm::StringMap<uint32_t, llvm::BumpPtrAllocator> LineIds;
  bool Ok = false;

  void addHeaderLine(llvm::StringRef Line) {
    auto [It, New] = LineIds.try_emplace(Line, uint32_t(LineTexts.size()));
    if (New)
      LineTexts.push_back(It->first());
    HeaderLines.push_back(It->second);
  }
  /// Segment I's definitions, functions and header lines.
  llvm::ArrayRef<Definition> definitions(size_t I) const {
    return slice(llvm::ArrayRef(Definitions), I, &Segment::FirstDefinition);
  }
  llvm::ArrayRef<FuncId> functions(size_t I) const {
    return slice(llvm::ArrayRef(Functions), I, &Segment::FirstFunction);
  }
  llvm::ArrayRef<uint32_t> headerLines(size_t I) const {
    return slice(llvm::ArrayRef(HeaderLines), I, &Segment::FirstHeaderLine);
  }

private:
  template <typename T>
  llvm::ArrayRef<T> slice(llvm::ArrayRef<T> All, size_t I,
                          size_t Segment::*First) const {
    size_t End = I + 1 != Segments.size() ? Segments[I + 1].*First : All.size();
    return All.slice(Segments[I].*First, End - Segments[I].*First);
  }
};

/// A file read in pieces on several threads (readInPieces()) has a head
/// reader for the first piece and a tail reader for each other; a file read
/// in one piece has a whole one.
enum class Role : uint8_t { Whole, Head, Tail };

class CallgrindReader {
public:
  CallgrindReader(InputStream &In, const ReadOptions &Opts,
                  Role R = Role::Whole)
      : In(In), Opts(Opts), Result(std::make_unique<Profile>()), P(*Result),
        Arena(Opts.Slice ? nullptr : std::make_unique<RowArena>()), MyRole(R) {}
  llvm::Expected<std::unique_ptr<Profile>> read();

  // Reading in pieces (readInPieces()).
  /// Head: reads its piece, leaving the part it ends in open.
  llvm::Error readLines();
  /// Tail: skims the pieces before its own from Before for their names and
  /// functions, which it interns as the readers of those pieces do, then
  /// reads its own piece; the part it ends in stays open unless Last. What
  /// stops the merge (an error: only reading in one piece gives its line)
  /// is kept in TailFailure; warnings wait in TailWarnings. With Live, the
  /// last tail chooses where its piece starts as it skims (skimToSplit()),
  /// and Before is its own stream too: the whole file. Replayed is called
  /// once the tail is done with Digests.
  void readTail(InputStream &Before, bool Last, LiveSplit *Live = nullptr,
                llvm::ArrayRef<const CallgrindReader *> Digests = {},
                llvm::function_ref<void()> Replayed = {});
  /// Head, tail: counts its IR in Sum, that of all the pieces of the file,
  /// against the memory limit.
  void countIRIn(std::atomic<uint64_t> &Sum) {
    PiecesIR = &Sum;
    if (MyRole == Role::Head) // A tail's piece starts at the split.
      PublishIRAt = 0;
  }
  /// Stopped because the pieces together went over the memory limit.
  bool piecesOverLimit() const { return PiecesOverLimit; }
  /// Digests its stream, a piece of a file before a tail's (PieceDigest).
  /// digested() tells whether it could: a piece it cannot digest (an error,
  /// a call's callee named before a header line) a tail skims.
  void digestPiece();
  bool digested() const { return Digest.Ok; }
  /// Why a digest, a tail or a merge failed.
  llvm::StringRef failure() const { return TailFailure; }
  /// Tail: skims a line of the pieces before its own; false, with
  /// TailFailure set, on an error.
  bool skimLine(llvm::StringRef Line);
  /// A jump without jfi= or jfn= before it names no function: the head
  /// reads its counts, a skim passes over it. That is most jumps, about a
  /// quarter of the lines of an instruction-level profile.
  bool skimPassesOver(llvm::StringRef Line) const {
    // The first byte first: the line is seldom a jump, and starts_with()
    // is a call of memcmp (two a line skimmed, 2 % of a skim's work).
    return Line[0] == 'j' && !HaveJumpFile && !HaveJumpFunction &&
           (Line.starts_with("jcnd=") || Line.starts_with("jump="));
  }
  /// The lines a skim meets most (`calls=`, and `fn=(12)`, `cfn=(12)` and
  /// the like naming a name defined before), skimmed without the general
  /// path: false for any other line, or when a part is to start first.
  bool skimFastLine(llvm::StringRef Line);
  /// What a skim takes of a `fn=` line naming Name: the function, among
  /// the head's, and its file.
  void skimFunction(StrId Name) {
    FuncId F = P.getOrAddFunction(Object, File, Name);
    if (Digesting && !HeadFunctions.contains(F))
      Digest.Functions.push_back(F);
    HeadFunctions.insert(F);
    SourceFile = File;
  }
  /// What a skim takes of a `calls=` line: only the callee, a function of
  /// the profile; its costs are the head's.
  void skimCall() {
    if (HaveCallee)
      callee();
    HaveCalleeObject = HaveCalleeFile = HaveCallee = false;
  }
  /// Tail: does what skimming the piece D digested does; false, with
  /// TailFailure set, where skimming it would fail.
  bool replayDigest(const CallgrindReader &D);
  /// Digest: ends the body of the current segment; starts the next one.
  bool endDigestBody();
  void startDigestSegment();
  /// Digest: a name standing for what only the replay knows, Id of Table
  /// ('o', 'f', 'n'; 'O', 'F', 'S' for the object, file and source file
  /// in force when the segment starts).
  StrId placeholder(char Table, uint64_t Id);
  /// Tail: the name a placeholder of D stands for, given the object, file
  /// and source file in force when its segment started.
  std::optional<StrId> resolvePlaceholder(llvm::StringRef Name,
                                          const StrId (&Start)[3]) const;
  CompressedIds &idTable(char Table) {
    return Table == 'o' ? ObjectIds : Table == 'f' ? FileIds : FunctionIds;
  }
  const CompressedIds &idTable(char Table) const {
    return const_cast<CallgrindReader *>(this)->idTable(Table);
  }
  char tableName(const CompressedIds &Table) const {
    return &Table == &ObjectIds ? 'o' : &Table == &FileIds ? 'f' : 'n';
  }
  /// Live tail: skims on, line by line, to the first line its piece can
  /// start at, and cuts the head's stream there; Before then stands at it.
  /// If there is none or the head has passed it, the head reads the whole
  /// file. False, with TailFailure set, on an error.
  bool skimToSplit(InputStream &Before, LiveSplit &Live);
  /// Head: checks that its piece and the tail's agree at the split and
  /// moves the head's parts into the tail's profile, which has the names of
  /// both. Fails, saying why, when it cannot; the file is then read in one
  /// piece.
  llvm::Error merge(CallgrindReader &Tail);
  /// Head, after merge(): holds back the tail's warnings after its own, in
  /// the order reading in one piece gives them, and ends the part that
  /// spans the split if the tail's piece ends it.
  llvm::Error absorb(CallgrindReader &Tail);
  /// Head, after absorb(): the tail becomes the head, of the next split or,
  /// after the last, the reader that reports the warnings held back and
  /// returns the profile. It takes those warnings and the line count.
  void handOver(CallgrindReader &Tail);
  /// Head: reports the warnings held back (at the end, or before an error
  /// of the head).
  void releaseWarnings();
  /// Whole, or a head that read the whole file: the profile read.
  llvm::Expected<std::unique_ptr<Profile>> finishWhole();
  /// Frees the names of the compressed ids, once reading is done: the
  /// pieces of a file then join, all of them in memory at once.
  void releaseIds() {
    for (CompressedIds *Ids : {&ObjectIds, &FileIds, &FunctionIds})
      *Ids = CompressedIds();
  }
  /// Tail, after merge() and absorb(): the profile of every piece.
  llvm::Expected<std::unique_ptr<Profile>> finishProfile();

private:
  llvm::Error error(const llvm::Twine &Msg) const {
    return createFileError(In.name(), In.lineNumber(), ErrorCode::Malformed,
                           Msg);
  }
  /// Warns about the current line. OnceKey names a warning given once per
  /// file ("" for none), for the merge of the pieces.
  void warn(const llvm::Twine &Msg, llvm::StringRef OnceKey = "") {
    report(In.lineNumber(), Msg, OnceKey);
  }
  /// Reports a warning about line Line: at once, or held back until the
  /// pieces of a file merge (head, tail).
  void report(uint64_t Line, const llvm::Twine &Msg,
              llvm::StringRef OnceKey = "");
  /// The function a calls= line calls, from the cob=, cfi= and cfn= lines
  /// before it.
  FuncId callee() {
    return P.getOrAddFunction(HaveCalleeObject ? CalleeObject : Object,
                              HaveCalleeFile ? CalleeFile : SourceFile,
                              CalleeName);
  }
  StrId jumpTargetFile() const { return HaveJumpFile ? JumpFile : SourceFile; }
  llvm::Error checkPartEnd(Part &Pt, std::vector<uint64_t> &SelfSum,
                           bool Overflow, std::optional<uint64_t> TotalsAt,
                           uint64_t EndLine);
  /// The lines of the file up to where this reader stands.
  uint64_t linesRead() const { return LineBase + In.lineNumber(); }

  llvm::Error parseLine(llvm::StringRef Line);
  llvm::Error parseHeader(llvm::StringRef Key, llvm::StringRef Value);
  llvm::Error parseSpec(llvm::StringRef Key, llvm::StringRef Value);
  llvm::Error parseCostLine(llvm::StringRef Line);
  // The fast path, inlined into readLines(): the reader's class has external
  // linkage, so the compiler does not inline these on its own as functions
  // called once. Its lines need fastLinesOk(), which only parseLine()
  // changes, as it does the number of positions (NumPos): readLines() asks
  // after each line that goes the general way.
  bool fastLinesOk() const {
    return Cur && !NewPartWanted && HaveEvents && CurFunction >= 0 && !Skimming;
  }
  template <typename Rules>
  LLVM_ATTRIBUTE_ALWAYS_INLINE const char *
  tryFastLine(const char *Ptr, const char *End, size_t NumPos);
  template <typename Rules>
  LLVM_ATTRIBUTE_ALWAYS_INLINE const char *
  tryFastCostLine(const char *Ptr, const char *End, size_t NumPos);
  template <typename Rules, unsigned NP, bool Self>
  LLVM_ATTRIBUTE_ALWAYS_INLINE const char *tryFastCostLineOf(const char *Ptr,
                                                             const char *End);
  template <typename Rules, unsigned NP>
  LLVM_ATTRIBUTE_ALWAYS_INLINE bool
  scanPositions(const char *&Ptr, const char *End, uint64_t *Out) const;
  template <typename Rules>
  LLVM_ATTRIBUTE_ALWAYS_INLINE const char *
  tryFastCallOrJumpLine(const char *Ptr, const char *End, size_t NumPos);
  template <typename Rules, unsigned NP>
  const char *tryFastCallOrJumpLineOf(const char *Ptr, const char *End);
  template <typename Rules>
  LLVM_ATTRIBUTE_ALWAYS_INLINE const char *tryFastNameLine(const char *Ptr,
                                                           const char *End);
  template <typename Rules>
  const char *tryFastFunctionLine(const char *Ptr, const char *End);
  template <typename Rules>
  LLVM_ATTRIBUTE_ALWAYS_INLINE const char *
  scanName(const char *Ptr, const char *End, CompressedIds &Table, StrId &Name);
  template <typename Rules>
  const char *scanPlainName(const char *Ptr, const char *End, StrId &Name);
  /// Gives Id of Table the name S if this part has not named it; returns
  /// the name it has then. A digest notes the definition.
  StrId define(CompressedIds &Table, uint64_t Id, StrId S);
  /// Makes F, a function of the current object and file, the one whose
  /// rows the lines after give (its rows before flushed).
  void enterFunction(FuncId F);
  /// The fast path's enterFunction() of a `fn=` line, the rows before
  /// flushed: fails the line where parseSpec() and readLines() would.
  void switchFunction(FuncId F);
  void expectCallCost(uint64_t Count);
  void expectJumpCost(bool Cond, uint64_t Followed, uint64_t Executed);

  llvm::Error startPart();
  llvm::Error endPart();
  void needNewPartFor(llvm::StringRef Key);

  llvm::Error parseName(llvm::StringRef Value, CompressedIds &Table,
                        StrId &Out);
  llvm::Error parseNumber(llvm::StringRef Tok, uint64_t &Out) const;
  llvm::Error numberError(Scan S, llvm::StringRef Tok) const;
  llvm::Error parsePosition(llvm::StringRef &Line, unsigned Column,
                            uint64_t &Out, bool Update);
  /// The positions of a cost line, relative to those of the last self
  /// cost line; Update: this is one.
  llvm::Error parsePositions(llvm::StringRef &Line,
                             llvm::MutableArrayRef<uint64_t> Out, bool Update);
  llvm::Error parseCosts(llvm::StringRef Line,
                         llvm::SmallVectorImpl<uint64_t> &Out, size_t Offset);
  llvm::Error parseEvents(llvm::StringRef Value);
  void parseEventDecl(llvm::StringRef Value);
  llvm::Error requireFunction(llvm::StringRef What);
  /// Interns Name into Out. A new name must hold no NUL byte (binary data);
  /// only a new one is searched for it: one met before was then (a
  /// cachegrind file names a function again at each of its blocks).
  llvm::Error intern(llvm::StringRef Name, StrId &Out);
  /// Interns Name, counting the bytes of a new one: true if it is new.
  bool internCounted(llvm::StringRef Name, StrId &Out);
  bool addRow(RowKind K, llvm::ArrayRef<uint64_t> Key,
              llvm::ArrayRef<uint64_t> Values);
  // Once per cost line: inlined into the fast path.
  LLVM_ATTRIBUTE_ALWAYS_INLINE bool
  noteRow(RowKind K, llvm::ArrayRef<uint64_t> Values, size_t Given);
  bool flushRows();
  /// In slices: keeps the batch of kind K plain when the current function
  /// has no rows of that kind yet (false: the table takes it).
  bool keepPlain(FunctionData &FD, RowKind K, bool &Ok);
  /// Encodes the plain rows of the parts not handed over into their tables.
  [[nodiscard]] bool encodePlainRows();
  void noteFirstLine(FunctionData &FD);
  uint64_t irBytes() const;
  /// Hands what the profile gained since the last slice to
  /// ReadOptions::Slice, between two functions' rows.
  llvm::Error handOverSlice();

  InputStream &In;
  const ReadOptions &Opts;
  std::unique_ptr<Profile> Result;
  Profile &P;

  // The part being read.
  Part *Cur = nullptr;
  /// The header lines of the reader's parts.
  llvm::IntrusiveRefCntPtr<HeaderLinePool> HeaderLines{new HeaderLinePool};
  bool PartHasBody = false;
  bool NewPartWanted = false;
  llvm::SmallVector<PositionKind, 3> Positions{PositionKind::Line};
  llvm::SmallVector<unsigned, 16>
      ColumnToEvent; // events: column -> profile event
  bool HaveEvents = false;
  // Column I is event I: the costs a line gives are the first values of its
  // row, and the values after them are zeros.
  bool ColumnsInOrder = false;
  std::optional<uint64_t> TotalsLine;
  // The rows of the current function not yet in its tables, and the running
  // sums of the part's rows of each kind (saturated on overflow).
  RowBatch Batches[NumRowKinds];
  /// Where a new table's rows go: none when the profile is handed over in
  /// slices, whose tables a merge frees or keeps one by one.
  std::unique_ptr<RowArena> Arena;
  std::vector<uint64_t> Sums[NumRowKinds];
  bool SelfSumOverflow = false;
  /// A running sum of calls or jumps saturated in some part the reader
  /// read: only then can a key's sum in such a table overflow, which
  /// finishProfile() looks through every function for.
  bool CallOrJumpSumOverflow = false;
  /// Why a line the fast path took failed, for readLines() to report with
  /// its number; the first reason a line gives stands, as the general path
  /// reports the first error of a line.
  enum class FastFailure : uint8_t { None, Overflow, OverMemory, BinaryName };
  FastFailure FastLineFailed = FastFailure::None;
  void failFastLine(FastFailure Why) {
    if (FastLineFailed == FastFailure::None)
      FastLineFailed = Why;
  }
  llvm::Error fastLineError() const;
  llvm::Error memoryLimitError() const;
  /// Over -max-memory: this reader's IR, or the IR of all the pieces of the
  /// file read so far (PiecesIR).
  bool overMemoryLimit() {
    if (!Opts.MaxMemory)
      return false;
    uint64_t Mine = irBytes();
    return Mine > Opts.MaxMemory || (Mine >= PublishIRAt && publishIR(Mine));
  }
  /// Adds what the IR gained since it last did to PiecesIR; true if the
  /// pieces are over the limit.
  bool publishIR(uint64_t Mine);
  CompressedIds ObjectIds, FileIds, FunctionIds;

  // Current context.
  StrId Object = 0, File = 0, SourceFile = 0;
  int CurFunction = -1; // Index into Cur->functions().
  llvm::SmallVector<uint64_t, 3> LastPos;

  // Callee of the next calls= and target of the next jump=.
  StrId CalleeObject = 0, CalleeFile = 0, CalleeName = 0;
  bool HaveCalleeObject = false, HaveCalleeFile = false, HaveCallee = false;
  StrId JumpFile = 0, JumpFunction = 0;
  bool HaveJumpFile = false, HaveJumpFunction = false;

  // A calls=/jump=/jcnd= line waiting for its position line.
  Pending Waiting = Pending::None;
  uint64_t WaitingLine = 0;
  /// The file's lines end in "\r\n": readLines() takes them from
  /// nextLine(), not in place.
  bool CRLF = false;
  // The keyword of that line, for diagnostics: a jcnd= is named jcnd=, not
  // jump=.
  llvm::StringRef WaitingKey;
  // The key of the row that line starts, but for the place (position,
  // file) its position line gives.
  CallKey PendingCall{RowLayout{1}};
  JumpKey PendingJump{RowLayout{1}};
  llvm::SmallVector<uint64_t, 16> PendingValues;

  // Scratch for cost lines.
  llvm::SmallVector<uint64_t, 16> Values;

  bool WarnedNegative = false;
  llvm::StringSet<> WarnedKeys;
  llvm::StringMap<size_t> EventDeclIndex; // Name -> index in P.EventDecls.

  // What the IR holds so far, for the memory limit (irBytes()).
  uint64_t StringBytes = 0, RowBytes = 0, HeaderBytes = 0;
  uint64_t FunctionDatas = 0; // Of the parts before Cur.

  // Handing over in slices: what the slices so far held.
  StrId SlicedStrings = 0;
  FuncId SlicedFunctions = 0;
  size_t SlicedParts = 0; // Parts complete and handed over.
  // The plain rows of each part from SlicedParts on.
  std::vector<PlainRows> Plain;
  RowBatch PlainScratch;

  // Reading in pieces.
  Role MyRole;
  /// The IR of the pieces of the file, each reader's as it last added
  /// what it gained (PublishedIR): without it, N pieces could each hold
  /// up to the memory limit until the joins added them up.
  std::atomic<uint64_t> *PiecesIR = nullptr;
  uint64_t PublishedIR = 0;
  /// The IR publishIR() is called at next: it adds what a reader gained in
  /// steps of a 64th of the limit, so that the readers seldom write the
  /// sum's cache line.
  uint64_t PublishIRAt = UINT64_MAX;
  /// A tail's IR when its piece starts: the names and functions of the
  /// pieces before, which the head counts.
  uint64_t IRAtSplit = 0;
  bool PiecesOverLimit = false;
  // The lines of the pieces before this reader's own: known once it becomes
  // a head (handOver()); a tail counts its lines from its piece's start.
  uint64_t LineBase = 0;
  std::vector<std::string> HeldWarnings; // Head.
  struct TailWarning {
    uint64_t Line; // In the tail's piece.
    std::string Text;
    std::string OnceKey;
    bool InFirstPart;
  };
  // Tail.
  std::vector<TailWarning> TailWarnings;
  llvm::StringRef TailFailure; // Why it cannot merge.
  bool Skimming = false;       // In the head's piece.
  bool Digesting = false;      // A digest's reader (digestPiece()).
  PieceDigest Digest;
  bool InFirstPart = false;    // In the part that continues the head's.
  size_t SkimmedParts = 0; // Parts of the head's piece dropped once skimmed.
  /// The header lines the skim met in its part, which it counts but does
  /// not keep (those the head keeps) other than those that set state.
  size_t SkimmedHeaderLines = 0;
  FunctionIdSet HeadFunctions; // With data in the head's last part.
  /// The rows the tail read, in the first part, of functions whose tables
  /// the head holds, batch by batch as they would have gone into their
  /// tables; the merge hands each batch to the head's table, so the tables
  /// come out as reading in one piece makes them. Tag: logTag().
  RowBatchLog Log;
  // The state at the split, which the head's at its end must match.
  struct {
    // Parts counts those skimmed and dropped, as the head's profile has them.
    size_t Strings = 0, Functions = 0, Parts = 0, HeaderLines = 0;
    StrId Object = 0, File = 0, SourceFile = 0;
    llvm::SmallVector<PositionKind, 3> Positions;
    llvm::SmallVector<unsigned, 16> Columns;
  } AtSplit;
  // Its first part where its piece ends it, checked by the head when they
  // merge; or where the piece ends, if that part goes on past it (Ended
  // false: a piece that is not the file's last).
  struct {
    bool Ended = false;
    std::vector<uint64_t> Sums[NumRowKinds]; // The part's running sums.
    bool SelfSumOverflow = false;
    std::optional<uint64_t> TotalsLine;
    uint64_t EndLine = 0;
  } FirstPartEnd;
  /// Tail: notes where its first part ends (Ended), or where its piece
  /// does, and the part's running sums there.
  void noteFirstPartEnd(bool Ended) {
    FirstPartEnd = {Ended, {}, SelfSumOverflow, TotalsLine, In.lineNumber()};
    for (unsigned K = 0; K != NumRowKinds; ++K)
      FirstPartEnd.Sums[K] = Sums[K];
  }
};

/// Reads a callgrind file of Size bytes (inflated) in up to Pieces pieces, each
/// on a thread of its own (CallgrindReaderThreads.cpp). Returns null, with
/// the reason in Why, when the file cannot be read so.
llvm::Expected<std::unique_ptr<Profile>>
readInPieces(InputStream &In, uint64_t Size, unsigned Pieces,
             const ReadOptions &Opts, std::string &Why);

} // namespace profkit::callgrind

#endif // PROFKIT_LIB_FORMATS_CALLGRINDREADER_H
