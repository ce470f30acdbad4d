//===- CallgrindScan.cpp - Cost lines of the callgrind format -------------===//
//
// The cost lines of a callgrind file, nine lines in ten: the fast path that
// reads them as profilers write them, the general path that reads the rest
// and diagnoses errors, and the loop that hands each line to them. Both
// paths follow the rules of CallgrindScan.h.
//
//===----------------------------------------------------------------------===//

#include "CallgrindScan.h"
#include "CallgrindReader.h"

using namespace profkit;
using namespace profkit::callgrind;
using namespace llvm;

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

Error CallgrindReader::parsePosition(StringRef &Line, unsigned Column,
                                     uint64_t &Out, bool Update) {
  const char *P = skipBlanks(Line.begin(), Line.end()), *E = Line.end();
  if (P == E)
    return error("expected " + Twine(LastPos.size()) + " position" +
                 (LastPos.size() == 1 ? "" : "s") + " (" +
                 positionKindName(Cur->positions()[Column]) + ")");
  const char *Start = P;
  uint64_t Base = LastPos[Column];
  Scan S = scanPosition<GeneralRules>(P, E, Base, Out);
  switch (S) {
  case Scan::Ok:
    break;
  case Scan::OutOfRange:
    return error("relative position '" + tokenAt(Start, E) + "' from " +
                 Twine(Base) + " leaves the 64-bit range");
  case Scan::Bad:
    if (*Start == '*')
      return error("bad position '" + tokenAt(Start, E) + "'");
    [[fallthrough]];
  case Scan::TooLarge:
    return numberError(S, tokenAt(Start, E));
  }
  if (Update)
    LastPos[Column] = Out;
  Line = StringRef(P, E - P);
  return Error::success();
}

Error CallgrindReader::parsePositions(StringRef &Line,
                                      MutableArrayRef<uint64_t> Out,
                                      bool Update) {
  for (unsigned I = 0; I != Out.size(); ++I)
    if (Error E = parsePosition(Line, I, Out[I], Update))
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

/// Adds Values to Sum, saturating, where all but the first Given are zeros;
/// returns false if a column overflowed.
static LLVM_ATTRIBUTE_ALWAYS_INLINE bool
addToSum(std::vector<uint64_t> &Sum, ArrayRef<uint64_t> Values, size_t Given) {
  if (LLVM_UNLIKELY(Sum.size() < Values.size()))
    Sum.resize(Values.size());
  uint64_t *S = Sum.data();
  bool Overflow = false;
  for (size_t I = 0; I != Given; ++I)
    Overflow |= !addCost(S[I], Values[I]);
  return !Overflow;
}

/// Batches a row of the current function. Returns false if the sum of its
/// key overflowed 64 bits.
bool CallgrindReader::addRow(RowKind K, ArrayRef<uint64_t> Key,
                             ArrayRef<uint64_t> Values) {
  Batches[K].add(Key, Values);
  return noteRow(K, Values, Values.size());
}

/// Keeps the running sums for a row just batched, whose values after the
/// first Given are zeros, and flushes the batch when due. Returns false if
/// the sum of the row's key overflowed.
bool CallgrindReader::noteRow(RowKind K, ArrayRef<uint64_t> Values,
                              size_t Given) {
  bool SumOk = addToSum(Sums[K], Values, Given);
  if (LLVM_LIKELY(SumOk && !Batches[K].full()))
    return true;
  if (K == SelfRows)
    SelfSumOverflow |= !SumOk;
  else
    CallOrJumpSumOverflow |= !SumOk;
  // While the running sum of a kind fits, no key's sum can overflow; once it
  // does not, the row just added is checked at once, so an error names its
  // line.
  return flushRows();
}

/// A cost, call or jump line between Ptr and End by the fast path's Rules:
/// where its tokens end, or null if it goes the general way.
template <typename Rules>
const char *CallgrindReader::tryFastLine(const char *Ptr, const char *End,
                                         size_t NumPos) {
  if (startsCostLine(*Ptr))
    return tryFastCostLine<Rules>(Ptr, End, NumPos);
  if (const char *Next = tryFastCallOrJumpLine<Rules>(Ptr, End, NumPos))
    return Next;
  return tryFastNameLine<Rules>(Ptr, End);
}

/// Scans NP positions (0: as many as the part has) from the token at Ptr
/// into Out by the rules of the fast path. Returns false for anything else,
/// which the general path parses and diagnoses.
template <typename Rules, unsigned NP>
LLVM_ATTRIBUTE_ALWAYS_INLINE bool
CallgrindReader::scanPositions(const char *&Ptr, const char *End,
                               uint64_t *Out) const {
  const uint64_t *Last = LastPos.data();
  const unsigned NumPos = NP ? NP : LastPos.size();
  for (unsigned I = 0; I != NumPos; ++I)
    if (scanPosition<Rules>(Ptr, End, Last[I], Out[I]) != Scan::Ok)
      return false;
  return true;
}

/// Does the line at P start with Prefix? Compared a byte at a time up to
/// the first that differs: the line's end ('\n' or '\r') differs, so no
/// byte past it is read.
template <size_t N>
LLVM_ATTRIBUTE_ALWAYS_INLINE static bool startsWith(const char *P,
                                                    const char (&Prefix)[N]) {
  for (size_t I = 0; I + 1 < N; ++I)
    if (P[I] != Prefix[I])
      return false;
  return true;
}

/// `calls=`, `jump=` and `jcnd=` lines as callgrind writes them (a count or
/// `followed/executed`, then the target position), about one line in six,
/// between Ptr and End by Rules as tryFastCostLine(). Anything else returns
/// null and goes through parseSpec().
template <typename Rules>
const char *CallgrindReader::tryFastCallOrJumpLine(const char *Ptr,
                                                   const char *End,
                                                   size_t NumPos) {
  if ((*Ptr != 'c' && *Ptr != 'j') || Waiting != Pending::None)
    return nullptr;
  switch (NumPos) {
  case 1:
    return tryFastCallOrJumpLineOf<Rules, 1>(Ptr, End);
  case 2:
    return tryFastCallOrJumpLineOf<Rules, 2>(Ptr, End);
  default:
    return tryFastCallOrJumpLineOf<Rules, 0>(Ptr, End);
  }
}

template <typename Rules, unsigned NP>
const char *CallgrindReader::tryFastCallOrJumpLineOf(const char *Ptr,
                                                     const char *End) {
  const unsigned NumPos = NP ? NP : LastPos.size();
  uint64_t First, Second = 0;
  bool Call = startsWith(Ptr, "calls="), Cond = startsWith(Ptr, "jcnd=");
  if (Call) {
    if (!HaveCallee)
      return nullptr;
    Ptr += 6;
  } else if (Cond || startsWith(Ptr, "jump=")) {
    Ptr += 5;
  } else {
    return nullptr;
  }
  // valgrind's `jcnd=followed/executed`; the reference's two numbers go
  // the slow way.
  if (!scanDigits(Ptr, First) ||
      (Cond && (*Ptr++ != '/' || !scanDigits(Ptr, Second))) ||
      (*Ptr != ' ' && *Ptr != '\t'))
    return nullptr;
  Ptr = skipSpaces(Ptr);
  RowLayout L{NumPos};
  uint64_t *Target;
  if (Call) {
    PendingCall.reset(L);
    Target = PendingCall.target().data();
  } else {
    PendingJump.reset(L);
    Target = PendingJump.target().data();
  }
  if (!scanPositions<Rules, NP>(Ptr, End, Target) || !Rules::atEnd(Ptr, End))
    return nullptr;
  PartHasBody = true;
  if (Call)
    expectCallCost(First);
  else
    expectJumpCost(Cond, First, Second);
  // The stream counts a line parsed in place once it is passed.
  WaitingLine += Rules::InPlace;
  return Ptr;
}

/// The name at Ptr that ends its line, between Ptr and End by Rules: a
/// plain one (scanPlainName()); `(N)`, with an id of up to 9 digits defined
/// before in this part; or `(N) name` where an earlier part gave N that
/// name, as a run that dumped often names its functions again in each
/// part. Returns where the line ends, with the name in Name, or null for
/// anything else (a new compressed name, other blanks, an unknown id),
/// which parseName() takes.
template <typename Rules>
const char *CallgrindReader::scanName(const char *Ptr, const char *End,
                                      CompressedIds &Table, StrId &Name) {
  if (*Ptr != '(')
    return scanPlainName<Rules>(Ptr, End, Name);
  const char *Digits = ++Ptr;
  uint64_t Id = 0;
  for (; unsigned(*Ptr - '0') < 10 && Ptr - Digits < 9; ++Ptr)
    Id = Id * 10 + unsigned(*Ptr - '0');
  if (Ptr == Digits || *Ptr != ')')
    return nullptr;
  if (Rules::atEnd(++Ptr, End))
    return Table.find(Id, Name) ? Ptr : nullptr;
  // One space, then the earlier name up to the line's end: compared, the
  // line's end found where the name ends (a name holds no '\n').
  std::optional<StrId> Earlier = Table.earlier(Id);
  if (*Ptr != ' ' || !Earlier)
    return nullptr;
  StringRef Before = P.Strings.str(*Earlier);
  const char *NameEnd = ++Ptr + Before.size();
  if ((Rules::InPlace ? NameEnd >= End : NameEnd != End) ||
      std::memcmp(Ptr, Before.data(), Before.size()) != 0 ||
      !Rules::atEnd(NameEnd, End))
    return nullptr;
  define(Table, Id, *Earlier);
  Name = *Earlier;
  return NameEnd;
}

/// A name that is not compressed, as cachegrind writes every one
/// (`fn=main`), for scanName(): interned as parseName() does, and as there
/// only a new name is searched for a NUL (the line then fails). Null for
/// one that starts or ends with a blank, which parseName() trims.
template <typename Rules>
const char *CallgrindReader::scanPlainName(const char *Ptr, const char *End,
                                           StrId &Name) {
  const char *NameEnd =
      Rules::InPlace
          ? static_cast<const char *>(std::memchr(Ptr, '\n', End - Ptr))
          : End;
  size_t Size = NameEnd - Ptr;
  if (!Size || isBlank(*Ptr) || isBlank(NameEnd[-1]))
    return nullptr;
  StringRef S(Ptr, Size);
  // A skim's lines are the head's to report.
  if (internCounted(S, Name) && !Skimming && S.contains('\0'))
    failFastLine(FastFailure::BinaryName);
  return NameEnd;
}

/// A line that names the object, the file, the source file or the callee
/// (`cfn=(12)`, `fl=(3) a.c`, `fl=a.c`, ...), one in two lines
/// of a line-level profile of many dumps, between Ptr and End by Rules as
/// tryFastCostLine(): what parseSpec() does with it, where scanName() takes
/// the name. Anything else returns null and goes through parseSpec().
/// `fn=` lines do more there.
template <typename Rules>
const char *CallgrindReader::tryFastNameLine(const char *Ptr, const char *End) {
  if (Waiting != Pending::None)
    return nullptr; // parseLine() reports it.
  CompressedIds *Table = &FileIds;
  StrId *Out = &SourceFile;
  bool *Callee = nullptr; // Which callee's name the line gives, if any.
  const char *P = Ptr;
  // A byte at a time up to the first that differs, which the line's end
  // does: no byte past it is read.
  if (P[0] == 'c') {
    if (P[1] == 'f' && P[2] == 'n')
      Table = &FunctionIds, Out = &CalleeName, Callee = &HaveCallee;
    else if (P[1] == 'f' && (P[2] == 'i' || P[2] == 'l'))
      Out = &CalleeFile, Callee = &HaveCalleeFile;
    else if (P[1] == 'o' && P[2] == 'b')
      Table = &ObjectIds, Out = &CalleeObject, Callee = &HaveCalleeObject;
    else
      return nullptr;
    P += 3;
  } else if (P[0] == 'f' && (P[1] == 'i' || P[1] == 'e' || P[1] == 'l')) {
    if (P[1] == 'l') // The function's file, the source file too.
      Out = &File;
    P += 2;
  } else if (P[0] == 'o' && P[1] == 'b') {
    Table = &ObjectIds, Out = &Object;
    P += 2;
  } else if (P[0] == 'f' && P[1] == 'n') {
    return tryFastFunctionLine<Rules>(P + 2, End);
  } else {
    return nullptr;
  }
  StrId Name;
  size_t Strings = this->P.Strings.size();
  if (*P != '=' || !(P = scanName<Rules>(P + 1, End, *Table, Name)))
    return nullptr;
  // A new name is memory, which the general way checks after each of its
  // lines (a skim's are the head's to check).
  if (this->P.Strings.size() != Strings && !Skimming && overMemoryLimit())
    failFastLine(FastFailure::OverMemory);
  *Out = Name;
  if (Out == &File)
    SourceFile = Name;
  if (Callee)
    *Callee = true;
  PartHasBody = true;
  return P;
}

/// A `fn=` line's name, from its '=' at Ptr, as
/// tryFastNameLine(): the function the rows after give, as parseSpec()
/// makes it. A skim takes the line in skimFastLine(); a slice of a merge
/// input, which may end at the line, goes the general way.
template <typename Rules>
const char *CallgrindReader::tryFastFunctionLine(const char *Ptr,
                                                 const char *End) {
  StrId Name;
  if (Skimming || Opts.Slice || *Ptr != '=' ||
      !(Ptr = scanName<Rules>(Ptr + 1, End, FunctionIds, Name)))
    return nullptr;
  switchFunction(P.getOrAddFunction(Object, File, Name));
  PartHasBody = true;
  return Ptr;
}

bool CallgrindReader::skimFastLine(StringRef Line) {
  if (!Cur || NewPartWanted)
    return false; // parseSpec() starts a part first.
  const char *B = Line.begin(), *E = Line.end();
  if (tryFastNameLine<FastRules>(B, E))
    return true;
  // As parseSpec() takes them while skimming.
  if (startsWith(B, "calls=")) {
    skimCall();
    PartHasBody = true;
    return true;
  }
  StrId Name;
  if (startsWith(B, "fn=") &&
      scanName<FastRules>(B + 3, E, FunctionIds, Name)) {
    skimFunction(Name);
    PartHasBody = true;
    return true;
  }
  return false;
}

/// The cost line that starts at Ptr (a cost line's first byte) and ends at
/// End as profilers write it millions of times: positions and costs by the
/// fast rules (FastRulesOf), for self cost, a call or a jump. Returns where
/// its tokens end (End, or InPlace its '\n'). Anything unusual (negative
/// costs, long numbers, other blanks, errors) returns null and goes through
/// parseCostLine(), which also writes the diagnostics.
template <typename Rules>
const char *CallgrindReader::tryFastCostLine(const char *Ptr, const char *End,
                                             size_t NumPos) {
  bool Self = Waiting == Pending::None;
  switch (NumPos) {
  case 1:
    return Self ? tryFastCostLineOf<Rules, 1, true>(Ptr, End)
                : tryFastCostLineOf<Rules, 1, false>(Ptr, End);
  case 2:
    return Self ? tryFastCostLineOf<Rules, 2, true>(Ptr, End)
                : tryFastCostLineOf<Rules, 2, false>(Ptr, End);
  default:
    return Self ? tryFastCostLineOf<Rules, 0, true>(Ptr, End)
                : tryFastCostLineOf<Rules, 0, false>(Ptr, End);
  }
}

/// tryFastCostLine() for NP positions (0: any number), so that the loops
/// over the positions of the common layouts (`line`, `instr line`) unroll;
/// and for self costs (Self) or the line after a `calls=` or jump, so that
/// the code for the others drops out of the common case.
template <typename Rules, unsigned NP, bool Self>
LLVM_ATTRIBUTE_ALWAYS_INLINE const char *
CallgrindReader::tryFastCostLineOf(const char *Ptr, const char *End) {
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
  auto Fail = [&]() -> const char * {
    B.popRow();
    return nullptr;
  };
  uint64_t *Last = LastPos.data();
  const unsigned NumPos = NP ? NP : LastPos.size();
  if (!scanPositions<Rules, NP>(Ptr, End, Row))
    return Fail();

  // Self costs are the values; a call's values are its count, then its
  // inclusive costs; a jump's position line has no costs.
  uint64_t *Costs = Values + (Kind == CallRows);
  const unsigned *Column = ColumnToEvent.data();
  unsigned Col = 0;
  const char *Scanned = nullptr;
#if defined(__SSE2__)
  if constexpr (Rules::Wide)
    if (NumColumns >= WideRowEvents && End - Ptr >= ShortNumbersReach) {
      unsigned Count; // Not Col, whose address would keep it in memory.
      Scanned =
          scanShortNumbers(Ptr, NumColumns, Count, [&](unsigned I, uint64_t V) {
            Costs[Column[I]] = V;
          });
      if (Scanned) {
        Ptr = Scanned;
        Col = Count;
      }
    }
#endif
  if (!Scanned)
    for (; !Rules::atEnd(Ptr, End); ++Col) {
      uint64_t V;
      if (Col == NumColumns || Rules::number(Ptr, End, V) != Scan::Ok)
        return Fail();
      Costs[Column[Col]] = V;
    }
  // Lines of many events give the first few (valgrind's cache and branch
  // simulation: most give one of 13): the others are zeros, which the
  // running sums need not add.
  size_t Given = NumValues;
  if (WritesAll && Col != NumColumns) {
    if (ColumnsInOrder) {
      std::fill(Costs + Col, Costs + NumColumns, 0);
      Given = (Kind == CallRows) + Col;
    } else {
      for (; Col < NumColumns; ++Col)
        Costs[Column[Col]] = 0;
    }
  }

  if (Self) // As in parseCostLine().
    for (unsigned I = 0; I != NumPos; ++I)
      Last[I] = Row[I];
  // callgrind has no inline sites: inlined code is the function's, in its
  // fi= file.
  const RowLayout L{NumPos};
  L.setPlace(Row, SourceFile, 0);
  if (Kind != SelfRows) {
    // The words after the place: callee and target, or the jump's.
    ArrayRef<uint64_t> Pending =
        (Kind == CallRows ? PendingCall.key() : PendingJump.key())
            .drop_front(L.selfWidth());
    std::copy(Pending.begin(), Pending.end(), Row + L.selfWidth());
    if (Kind == CallRows)
      Values[0] = PendingValues[0];
    else
      for (size_t I = 0, E = PendingValues.size(); I != E; ++I)
        Values[I] = PendingValues[I];
  }
  PartHasBody = true;
  Waiting = Pending::None;
  if (!noteRow(Kind, ArrayRef(Values, NumValues), Given))
    failFastLine(FastFailure::Overflow);
  return Ptr;
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
  SelfKey Self(Cur->layout());
  RowKeyBuilder &K = Waiting == Pending::Call ? PendingCall
                     : Waiting == Pending::Jump
                         ? static_cast<RowKeyBuilder &>(PendingJump)
                         : Self;
  // The position of a call's or a jump's line is not one later lines are
  // relative to: valgrind writes them relative to the last self cost line.
  if (Error E = parsePositions(Line, K.position(), Waiting == Pending::None))
    return E;
  K.setSourceFile(SourceFile); // callgrind has no inline sites.

  bool Ok = true;
  switch (Waiting) {
  case Pending::None:
    if (Error E = parseCosts(Line, Values, 0))
      return E;
    Ok = addRow(SelfRows, K.key(), Values);
    break;
  case Pending::Call:
    if (Error E = parseCosts(Line, PendingValues, 1))
      return E;
    Ok = addRow(CallRows, K.key(), PendingValues);
    break;
  case Pending::Jump:
    if (!trim(Line).empty())
      return error("costs after the position of a jump");
    Ok = addRow(JumpRows, K.key(), PendingValues);
    break;
  }
  Waiting = Pending::None;
  if (!Ok)
    return error("a cost sum overflows 64 bits");
  return Error::success();
}

/// The next line of In that is not blank, without its leading blanks.
static bool nextNonBlankLine(InputStream &In, StringRef &Line) {
  while (In.nextLine(Line)) {
    // Nearly every line starts with a byte above the blanks (an empty line
    // has its '\n' or '\r' there, which is not).
    if (LLVM_LIKELY(static_cast<unsigned char>(*Line.data()) > ' '))
      return true;
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
  // In locals: stores to the rows could otherwise alias LastPos's size.
  bool Fast = fastLinesOk();
  size_t NumPos = LastPos.size();
  bool Wide = ColumnToEvent.size() >= WideRowEvents;
  for (;;) {
    // Most lines are cost lines, parsed where they stand, with no search
    // for their end first (4 % fewer instructions reading (a)).
    const char *Tried = nullptr, *Readable;
    if (Fast && !CRLF && In.wholeLineAhead(Tried, Readable))
      if (const char *NL =
              Wide ? tryFastLine<WideInPlaceRules>(Tried, Readable, NumPos)
                   : tryFastLine<InPlaceRules>(Tried, Readable, NumPos)) {
        In.passLine(NL + 1);
        if (FastLineFailed != FastFailure::None)
          return fastLineError();
        continue;
      }
    // Else the line as nextLine() gives it, tried again unless those very
    // bytes were: one indented, one the stream held only part of, one
    // ending in "\r\n".
    if (!nextNonBlankLine(In, Line))
      break;
    bool Same = Line.begin() == Tried && *Line.end() == '\n';
    if (Fast && !Same &&
        tryFastLine<FastRules>(Line.begin(), Line.end(), NumPos)) {
      // A line that failed in place for its '\r's alone: a file converted
      // to CRLF, whose lines are taken as nextLine() gives them from here.
      CRLF |= Line.begin() == Tried;
      if (FastLineFailed != FastFailure::None)
        return fastLineError();
      continue;
    }
    if (Error E = parseLine(Line))
      return E;
    Fast = fastLinesOk();
    NumPos = LastPos.size();
    Wide = ColumnToEvent.size() >= WideRowEvents;
    if (overMemoryLimit())
      return memoryLimitError();
  }
  return In.takeError();
}

Error CallgrindReader::memoryLimitError() const {
  return error("the profile needs more than " + Twine(Opts.MaxMemory) +
               " bytes of memory: over the memory limit (-max-memory)");
}

Error CallgrindReader::fastLineError() const {
  switch (FastLineFailed) {
  case FastFailure::OverMemory:
    return memoryLimitError();
  case FastFailure::BinaryName:
    return error("binary data in a text profile");
  case FastFailure::Overflow:
  case FastFailure::None:
    break;
  }
  return error("a cost sum overflows 64 bits");
}
