//===- CallgrindReader.cpp - The callgrind format family ------------------===//
//
// Reads the callgrind format as its reference describes it and as real tools
// write it: valgrind's callgrind (every option mix) and cachegrind, Xdebug 2
// and 3 (one block per call, appended runs), pprof (calls=0). The input is
// streamed one line at a time; the hot path (cost lines, CallgrindScan.cpp)
// allocates nothing. This file reads the header, name and call lines and
// keeps the parts; CallgrindReaderThreads.cpp reads large files in two
// pieces.
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

#include "CallgrindReader.h"
#include "CallgrindScan.h"
#include "profkit/Support/Threads.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/StringSaver.h"

using namespace profkit;
using namespace profkit::callgrind;
using namespace llvm;

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
    if (splitHeader(Line, Key, Value)) {
      // A text LLVM sample profile starts NAME:TOTAL:HEAD, and its function
      // may be named like a header key (`version:120:3`).
      auto [Total, HeadSamples] = Value.split(':');
      auto Number = [](StringRef S) {
        return !S.empty() && all_of(S, [](char C) { return isDigit(C); });
      };
      if (Number(Total) && Number(HeadSamples))
        return false;
      return is_contained({"version", "creator", "cmd", "pid", "thread", "part",
                           "desc", "positions", "events", "event", "summary"},
                          Key);
    }
    return Line.starts_with("fl=") || Line.starts_with("fn=") ||
           Line.starts_with("ob=");
  }
  return false;
}

void CallgrindReader::needNewPartFor(StringRef Key) {
  // A header key that belongs to a part, seen after the body of the current
  // part, starts the next one (--combine-dumps, concatenated files).
  if (PartHasBody && is_contained({"version", "creator", "cmd", "pid", "thread",
                                   "part", "positions", "events"},
                                  Key))
    NewPartWanted = true;
}

Error CallgrindReader::startPart() {
  // A skim needs only the part it is in: the head keeps the ones before,
  // and checks their ends. (A profile of a run that dumped often holds tens
  // of thousands.)
  if (Skimming && Cur) {
    P.parts().pop_back();
    ++SkimmedParts;
  } else if (Cur) {
    if (Error E = endPart())
      return E;
    FunctionDatas += Cur->functions().size();
  }
  Cur = &P.addPart(Positions);
  SkimmedHeaderLines = 0;
  // Room for a header of callgrind's at once (endPart() gives back the
  // rest): growing it a line at a time took ten allocations a part, and a
  // run that dumped often has tens of thousands of parts.
  Cur->Header.usePool(HeaderLines);
  if (!Skimming)
    Cur->Header.reserve(16);
  if (Opts.Slice)
    Plain.emplace_back();
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
    return createFileError(In.name(), WaitingLine, ErrorCode::Malformed,
                           "'" + WaitingKey +
                               "=' line is not followed by its cost line");
  if (!flushRows())
    return error("a cost sum overflows 64 bits");
  if (MyRole == Role::Tail && InFirstPart) {
    // The head's part: the head checks its end once it has the tail's sums.
    noteFirstPartEnd(true);
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

Error CallgrindReader::parseName(StringRef Value, CompressedIds &Table,
                                 StrId &Out) {
  // `(id) name` defines, `(id)` refers; other names may start with '(' too,
  // like callgrind's `(below main)`.
  if (Value.size() < 2 || Value[0] != '(' || !isDigit(Value[1]))
    return intern(Value, Out);
  // Ids of up to 9 digits, as writers number them, are read here with no
  // range check and no search for the ')'; the bytes of a name are only
  // looked at for a new one.
  uint64_t Id = 0;
  size_t Close = 1;
  for (; Close < Value.size() && Close <= 9 && isDigit(Value[Close]); ++Close)
    Id = Id * 10 + (Value[Close] - '0');
  if (Close == Value.size() || Value[Close] != ')') {
    if (Value.contains('\0'))
      return error("binary data in a text profile");
    Close = Value.find(')');
    if (Close == StringRef::npos)
      return error("unterminated compressed name '" + Value + "'");
    if (Error E = parseNumber(Value.slice(1, Close), Id))
      return E;
    // Real writers number from 1 up; the bound also keeps ids clear of the
    // keys DenseMap reserves for itself.
    if (Id > UINT32_MAX)
      return error("compressed name id (" + Twine(Id) + ") is too large");
  }
  StringRef Name = trim(Value.drop_front(Close + 1));
  if (Name.empty()) {
    if (Table.find(Id, Out))
      return Error::success();
    if (Digesting) { // Defined before the piece, if at all.
      Out = placeholder(tableName(Table), Id);
      return Error::success();
    }
    return error("compressed name (" + Twine(Id) + ") is not defined");
  }
  // Most often an earlier part's name for the id (a run that dumped often
  // names its functions again in each part): compared, not hashed.
  std::optional<StrId> Before = Table.earlier(Id);
  StrId S;
  if (Before && P.Strings.str(*Before) == Name)
    S = *Before;
  else if (Error E = intern(Name, S))
    return E;
  if (S > CompressedIds::MaxName)
    return error("more than " + Twine(CompressedIds::MaxName) + " names");
  StrId Was = define(Table, Id, S);
  if (Was != S)
    return error("compressed name (" + Twine(Id) + ") redefined as '" + Name +
                 "', was '" + P.Strings.str(Was) + "'");
  Out = S;
  return Error::success();
}

StrId CallgrindReader::define(CompressedIds &Table, uint64_t Id, StrId S) {
  StrId Was = Table.define(Id, S);
  if (Was == S && Digesting)
    Digest.Definitions.push_back({tableName(Table), uint32_t(Id), S});
  return Was;
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
  ColumnsInOrder = true;
  for (unsigned I = 0, E = ColumnToEvent.size(); I != E; ++I)
    ColumnsInOrder &= ColumnToEvent[I] == I;
  return Error::success();
}

void CallgrindReader::parseEventDecl(StringRef Value) {
  // event: Name [= formula] [: long name]
  size_t NameEnd = Value.find_first_of(" \t\r=:"); // Ends at a blank.
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
      if (!K || !isCallgrindKind(*K))
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
    if (Skimming) { // Its costs are the head's; the split resets both.
      PartHasBody |= Key == "totals";
      return Error::success();
    }
    SmallVector<uint64_t, 16> Costs;
    if (Error E = parseCosts(Value, Costs, 0))
      return E;
    Part::CostLine V(Costs.begin(), Costs.end());
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
  if (Skimming) {
    ++SkimmedHeaderLines;
    return Error::success();
  }
  HeaderBytes += Key.size() + Value.size() + sizeof(HeaderLine);
  Cur->Header.push_back(HeaderLine{Key, Value});
  return Error::success();
}

bool CallgrindReader::internCounted(StringRef Name, StrId &Out) {
  size_t Before = P.Strings.size();
  Out = P.Strings.intern(Name);
  if (P.Strings.size() == Before)
    return false;
  StringBytes += Name.size();
  return true;
}

Error CallgrindReader::intern(StringRef Name, StrId &Out) {
  if (internCounted(Name, Out) && Name.contains('\0'))
    return error("binary data in a text profile");
  return Error::success();
}

/// Keeps the line of FD's first self row in its own file while the batch
/// still has the rows in file order (FunctionValueKind::FirstLine).
void CallgrindReader::noteFirstLine(FunctionData &FD) {
  const RowBatch &B = Batches[SelfRows];
  if (B.empty() || FD.values().get(FunctionValueKind::FirstLine))
    return;
  std::optional<unsigned> LineIdx = Cur->positionIndex(PositionKind::Line);
  if (!LineIdx)
    return;
  unsigned FileIdx = Cur->layout().P;
  StrId Own = P.function(FD.Id).File;
  for (size_t I = 0; I != B.size(); ++I)
    if (B.row(I)[FileIdx] == Own) {
      FD.values().set(FunctionValueKind::FirstLine, B.row(I)[*LineIdx]);
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
      RowBytes +=
          Log.append(uint64_t(CurFunction) * NumRowKinds + K, Batches[K]);
      Batches[K].clear();
    }
    return Ok;
  }
  bool Ok = true;
  for (unsigned K = 0; K != NumRowKinds; ++K) {
    if (Batches[K].empty())
      continue;
    if (Opts.Slice && keepPlain(FD, RowKind(K), Ok))
      continue;
    if (K == CallRows && !FD.hasCalls())
      RowBytes += sizeof(RowTable) + 16; // Its block of calls, made now.
    RowTable &Table = tableOf(FD, RowKind(K), Arena.get());
    size_t Before = Table.encodedBytes();
    Ok &= Table.addBatch(Batches[K], Arena.get());
    size_t After = Table.encodedBytes();
    // A compaction may give bytes back.
    RowBytes = After >= Before
                   ? RowBytes + (After - Before)
                   : RowBytes - std::min<uint64_t>(RowBytes, Before - After);
  }
  return Ok;
}

bool CallgrindReader::keepPlain(FunctionData &FD, RowKind K, bool &Ok) {
  PlainRows &Rows = Plain.back();
  PlainRows::Kind PK = PlainRows::Kind(K);
  // A function met again in the slice: its rows so far go into its table,
  // which then takes these as it would have.
  if (Rows.table(CurFunction, PK).NumRows) {
    Ok &= Rows.moveInto(CurFunction, PK, tableOf(FD, K, Arena.get()),
                        PlainScratch);
    return false;
  }
  if (!tableOf(std::as_const(FD), K).empty())
    return false;
  RowBatch &B = Batches[K];
  Ok &= B.sortAndSum();
  size_t Before = Rows.bytes();
  Rows.keep(CurFunction, PK, B);
  RowBytes += Rows.bytes() - Before;
  B.clear();
  return true;
}

bool CallgrindReader::encodePlainRows() {
  bool Ok = true;
  for (size_t I = 0; I != Plain.size(); ++I) {
    PlainRows &Rows = Plain[I];
    Part &Pt = *P.parts()[SlicedParts + I];
    for (size_t F = 0; F != Rows.Tables.size(); ++F) {
      FunctionData &FD = Pt.functions()[F];
      for (unsigned K = 0; K != NumRowKinds; ++K)
        if (Rows.table(F, PlainRows::Kind(K)).NumRows)
          Ok &=
              Rows.moveInto(F, PlainRows::Kind(K),
                            tableOf(FD, RowKind(K), Arena.get()), PlainScratch);
    }
  }
  Plain.clear();
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

Error CallgrindReader::handOverSlice() {
  ProfileSlice S;
  S.FirstString = SlicedStrings;
  StringSaver Saver(S.Text);
  for (StrId I = SlicedStrings, E = P.Strings.size(); I != E; ++I)
    S.Strings.push_back(Saver.save(P.Strings.str(I)));
  S.FirstFunction = SlicedFunctions;
  for (FuncId F = SlicedFunctions, E = P.numFunctions(); F != E; ++F)
    S.Functions.push_back(P.function(F));
  for (const EventType &E : P.events())
    S.Events.push_back(E.Name);
  for (size_t I = SlicedParts, E = P.parts().size(); I != E; ++I) {
    Part &Pt = *P.parts()[I];
    bool Complete = I + 1 != E;
    auto Data = std::make_unique<Part>(Pt.positions());
    if (Complete)
      copyPartShell(Pt, *Data);
    Data->functions() = Pt.takeFunctions();
    S.Parts.push_back(
        {I, Complete, std::move(Data), std::move(Plain[I - SlicedParts])});
  }
  Plain.clear();
  Plain.emplace_back(); // The last part's, whose functions start anew.
  SlicedStrings = P.Strings.size();
  SlicedFunctions = P.numFunctions();
  SlicedParts = P.parts().size() - 1;
  RowBytes = FunctionDatas = 0; // The profile holds them no more.
  return Opts.Slice(S);
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
      if (Skimming) {
        skimFunction(Name);
        return Error::success();
      }
      FuncId F = P.getOrAddFunction(Object, File, Name);
      if (!flushRows())
        return error("a cost sum overflows 64 bits");
      if (Opts.Slice && RowBytes + (FunctionDatas + Cur->functions().size()) *
                                       sizeof(FunctionData) >=
                            Opts.SliceBytes)
        if (Error E = handOverSlice())
          return E;
      enterFunction(F);
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
        skimCall();
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
      PendingCall.reset(L);
      // The target position; readers ignore it and writers differ on it
      // (Xdebug writes two numbers for one position), so a missing or extra
      // number is not an error.
      for (unsigned I = 0; I != L.P; ++I) {
        if (Rest.ltrim(" \t").empty())
          break;
        if (Error E = parsePosition(Rest, I, PendingCall.target()[I],
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
      PendingJump.reset(L);
      for (unsigned I = 0; I != L.P; ++I)
        if (Error E = parsePosition(Rest, I, PendingJump.target()[I],
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

void CallgrindReader::switchFunction(FuncId F) {
  // An overflow of the rows before is the line's error, as from a cost
  // line; the rows flushed and a new function are memory, which the
  // general way checks after each of its lines.
  if (!flushRows())
    failFastLine(FastFailure::Overflow);
  else if (overMemoryLimit())
    failFastLine(FastFailure::OverMemory);
  enterFunction(F);
}

void CallgrindReader::enterFunction(FuncId F) {
  CurFunction = Cur->getOrCreateAt(F);
  RowLayout L = Cur->layout();
  Batches[SelfRows].setKeyWidth(L.selfWidth());
  Batches[CallRows].setKeyWidth(L.callWidth());
  Batches[JumpRows].setKeyWidth(L.jumpWidth());
  SourceFile = File;
}

/// After a `calls=` line whose target position is in PendingCall: its
/// callee and count, and the wait for its cost line.
void CallgrindReader::expectCallCost(uint64_t Count) {
  PendingCall.setCallee(callee());
  PendingValues.assign(1, Count);
  HaveCalleeObject = HaveCalleeFile = HaveCallee = false;
  Waiting = Pending::Call;
  WaitingLine = In.lineNumber();
  WaitingKey = "calls";
}

/// After a `jump=` or `jcnd=` line whose target position is in PendingJump:
/// its kind, target and counts, and the wait for the line of its position.
void CallgrindReader::expectJumpCost(bool Cond, uint64_t Followed,
                                     uint64_t Executed) {
  StrId TargetFile = jumpTargetFile();
  PendingJump.setKind(Cond ? JumpKind::Conditional : JumpKind::Jump);
  PendingJump.setTargetFunction(
      HaveJumpFunction ? P.getOrAddFunction(Object, TargetFile, JumpFunction)
                       : Cur->functions()[CurFunction].Id);
  PendingJump.setTargetFile(TargetFile);
  PendingValues.assign({Followed, Executed});
  if (!Cond)
    PendingValues.pop_back();
  HaveJumpFile = HaveJumpFunction = false;
  Waiting = Pending::Jump;
  WaitingLine = In.lineNumber();
  WaitingKey = Cond ? "jcnd" : "jump";
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
    return error("expected the cost line of the '" + WaitingKey +
                 "=' at line " + Twine(WaitingLine));
  // Key=value body lines: lower-case keyword, '='.
  if (size_t Eq = bodyKeyLength(Line))
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
  return finishWhole();
}

Expected<std::unique_ptr<Profile>> CallgrindReader::finishWhole() {
  if (!Cur)
    return error("no profile data");
  // Fuzzing (roundtrip) found a file of header lines only (`event: `) read
  // as a profile of no events, which no callgrind file can hold: the
  // format needs an `events:` line.
  if (!HaveEvents)
    return error("no 'events:' line");
  if (Error E = endPart())
    return std::move(E);
  // The rest is handed over as a profile.
  if (!encodePlainRows())
    return error("a cost sum overflows 64 bits");
  return finishProfile();
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
  // Tables keep a key repeated in several blocks of a function (one met
  // again, Xdebug's block per call), summed by whoever reads them. A self
  // cost's sum is within its part's running sum; a call's or a jump's may
  // overflow alone, which is an error, not a cost saturated. While the
  // running sums fit, no key's does: the look through every function cost
  // 5 ms of reading a profile of many dumps.
  if (CallOrJumpSumOverflow)
    for (const std::unique_ptr<Part> &Pt : P.parts())
      for (const FunctionData &FD : Pt->functions())
        if ((FD.hasCalls() && !FD.calls().sumsFit()) ||
            (FD.hasJumps() && !FD.jumps().sumsFit()))
          return makeError(ErrorCode::Malformed,
                           In.name() +
                               ": a cost sum of the calls or jumps of '" +
                               P.Strings.str(P.function(FD.Id).Name) +
                               "' overflows 64 bits");
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

/// By default a piece of a file read on several threads has this many
/// bytes at least: below it, starting a thread and merging costs more than
/// it saves.
static constexpr uint64_t MinBytesPerPiece = 8 << 20;

/// By default a file is read in this many pieces at most. Each tail replays
/// the digests of the pieces before its own and holds a copy of their names
/// and functions, so memory grows with every piece (a cachegrind file of
/// 152 MB: 82 MB in 2 pieces, 165 MB in 8, 267 MB in 16). Counted by
/// instructions, 8 pieces read valgrind's instruction-level profiles 4.6x
/// as fast as one, line-level ones of many dumps 3.5x, cachegrind's 2.7x;
/// 16 pieces 6.7x, 4.9x and 3.1x (docs/Performance.md).
static constexpr unsigned MaxDefaultPieces = 8;

/// The pieces to read a file of Size bytes in: ReadOptions::Threads if
/// given (at most 64), else one for every MinBytesPerPiece bytes, at most
/// one per thread -threads allows, and MaxDefaultPieces.
static unsigned piecesFor(std::optional<uint64_t> Size,
                          const ReadOptions &Opts) {
  if (Opts.Threads)
    return std::min(Opts.Threads, 64u);
  if (!Size)
    return 1;
  return unsigned(std::clamp<uint64_t>(
      *Size / MinBytesPerPiece, 1,
      std::min(availableThreads(Opts.MaxThreads), MaxDefaultPieces)));
}

Expected<std::unique_ptr<Profile>>
profkit::readCallgrind(InputStream &In, const ReadOptions &Opts) {
  std::optional<uint64_t> Size = In.splittableSize();
  // Slices are handed over in file order, by a reader of the whole file.
  unsigned Pieces = Opts.Slice ? 1 : piecesFor(Size, Opts);
  // Each piece of gzip data is inflated from the file's start, and so is
  // each split fixed in advance (more than two pieces): past two pieces,
  // inflating again costs more than the pieces save.
  if (In.isCompressed() && Pieces > 2) {
    if (Opts.Threads)
      Opts.Note(In.name() + ": read in 2 pieces, not " + Twine(Pieces) +
                ": each piece of gzip data is inflated from its start");
    Pieces = 2;
  }
  if (Pieces > 1) {
    std::string Why = "the input is a pipe, not a file";
    if (Size) {
      Expected<std::unique_ptr<Profile>> P =
          readInPieces(In, *Size, Pieces, Opts, Why);
      if (!P || *P)
        return P;
    }
    if (Opts.Threads > 1)
      Opts.Note(In.name() + ": read on one thread: " + Why);
  }
  return CallgrindReader(In, Opts).read();
}
