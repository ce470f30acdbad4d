//===- WebgrindReader.cpp - Reading webgrind's preprocessed format --------===//
//
// Reads versions 4 to 7 of the binary file webgrind's preprocessor writes
// (docs/Webgrind.md has the layouts). Every offset and count is checked
// against the bytes that remain before it is used, so a hostile file gets an
// error naming the byte offset, never an out-of-bounds read or a huge
// allocation.
//
// IR mapping: one part with line positions and one event (the first word of
// the `events:` header). A record becomes a function (no object, its file,
// its name) with one self row at its line (v4-v6 have none: line 0). Calls
// become call rows in the caller, at the call line: from the sub-call records
// (v6, v7), from the called-from records (v5, which has no sub calls) or from
// the per-invocation sub calls (v4). Inclusive cost and invocation count are
// not stored: they follow from the rows (InclusiveCost); a file whose numbers
// disagree gets a warning.
//
//===----------------------------------------------------------------------===//

#include "profkit/Analysis/InclusiveCost.h"
#include "profkit/Formats/Format.h"
#include "profkit/IR/Profile.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/InputStream.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"
#include <tuple>

using namespace profkit;
using namespace llvm;

bool profkit::detectWebgrind(StringRef Head) {
  return Head.size() >= 4 && Head[0] >= 4 && Head[0] <= 7 && Head[1] == 0 &&
         Head[2] == 0 && Head[3] == 0;
}

namespace {

struct Record {
  uint64_t Line = 0, Self = 0, Inclusive = 0, Invocations = 0;
  StringRef File, Name, Object;
};

/// A call: caller and callee are record numbers.
struct Call {
  uint32_t Caller, Callee, Line, Count, Cost;
  bool operator<(const Call &O) const {
    return std::tie(Caller, Callee, Line, Count, Cost) <
           std::tie(O.Caller, O.Callee, O.Line, O.Count, O.Cost);
  }
  bool operator==(const Call &O) const {
    return std::tie(Caller, Callee, Line, Count, Cost) ==
           std::tie(O.Caller, O.Callee, O.Line, O.Count, O.Cost);
  }
};

class WebgrindReader {
public:
  WebgrindReader(StringRef Data, StringRef Name, const ReadOptions &Opts)
      : Data(Data), Name(Name), Opts(Opts) {}
  Expected<std::unique_ptr<Profile>> read();

private:
  Error error(uint64_t Offset, const Twine &Msg) const {
    return createOffsetError(Name, Offset, ErrorCode::Malformed, Msg);
  }
  /// Checks that N bytes at Offset are in the file.
  Error need(uint64_t Offset, uint64_t N, const Twine &What) const {
    if (Offset <= Data.size() && N <= Data.size() - Offset)
      return Error::success();
    return error(Offset, What + ": " + Twine(N) +
                             " bytes needed, but the file ends at " +
                             Twine(Data.size()));
  }
  uint32_t word(uint64_t Offset) const {
    return support::endian::read32le(Data.data() + Offset);
  }
  /// Records may share bytes (addresses are free), so each call record is
  /// checked against the bytes left, and all of them together against the
  /// file's size: one 16-byte record each, or the file is hostile (many
  /// functions pointing at one record with many calls would otherwise
  /// allocate their product).
  Error checkCallTotal(uint64_t Offset, uint64_t N) const {
    uint64_t Total = SubCalls.size() + CalledFrom.size() + N;
    if (Total <= Data.size() / 16)
      return Error::success();
    return error(Offset, Twine(Total) + " call records in all, but a file of " +
                             Twine(Data.size()) + " bytes holds at most " +
                             Twine(Data.size() / 16) + " (records overlap)");
  }
  Error readString(uint64_t &Offset, StringRef &Out, const Twine &What) const;
  Error readCalls(uint64_t &Offset, uint32_t Count, uint32_t Self, bool From,
                  unsigned Fn);
  Error readRecord(unsigned Fn, uint64_t Offset);
  Error readV4Record(unsigned Fn, uint64_t Offset);
  void readHeaders(Profile &P, Part &Pt);
  void check(const Profile &P, const std::vector<FuncId> &Ids);

  StringRef Data;
  std::string Name;
  const ReadOptions &Opts;
  uint32_t Version = 0, HeaderAddress = 0, Count = 0;
  std::vector<Record> Records;
  std::vector<Call> SubCalls, CalledFrom;
};

} // namespace

Error WebgrindReader::readString(uint64_t &Offset, StringRef &Out,
                                 const Twine &What) const {
  size_t End = Offset < Data.size() ? Data.find('\n', Offset) : StringRef::npos;
  if (End == StringRef::npos)
    return error(Offset, What + " has no terminating newline");
  // Fuzzing (roundtrip) found names that no callgrind file can hold: with
  // a NUL byte (the callgrind reader refuses binary data) and with blanks
  // around them (callgrind readers trim them). The preprocessor copies
  // callgrind names, so a NUL is corruption and blanks are not part of the
  // name.
  Out = Data.slice(Offset, End).rtrim('\r').trim(" \t\r");
  if (size_t Nul = Out.find('\0'); Nul != StringRef::npos)
    return error(Out.data() + Nul - Data.data(), What + " contains a NUL byte");
  Offset = End + 1;
  return Error::success();
}

Error WebgrindReader::readCalls(uint64_t &Offset, uint32_t N, uint32_t Self,
                                bool From, unsigned Fn) {
  const char *Kind = From ? "called-from" : "sub-call";
  if (Error E = need(Offset, 16 * uint64_t(N),
                     "function " + Twine(Fn) + ": " + Twine(N) + " " + Kind +
                         " records"))
    return E;
  if (Error E = checkCallTotal(Offset, N))
    return E;
  std::vector<Call> &Out = From ? CalledFrom : SubCalls;
  for (uint32_t I = 0; I != N; ++I, Offset += 16) {
    uint32_t Other = word(Offset);
    if (Other >= Count)
      return error(Offset, "function " + Twine(Fn) + ": " + Kind +
                               " record names function " + Twine(Other) +
                               ", but there are " + Twine(Count));
    Call C{From ? Other : Self, From ? Self : Other, word(Offset + 4),
           word(Offset + 8), word(Offset + 12)};
    Out.push_back(C);
  }
  return Error::success();
}

Error WebgrindReader::readRecord(unsigned Fn, uint64_t Offset) {
  unsigned Fixed = Version == 7 ? 6 : Version == 6 ? 5 : 4;
  if (Error E = need(Offset, 4 * Fixed, "function " + Twine(Fn) + "'s record"))
    return E;
  Record &R = Records[Fn];
  uint64_t O = Offset;
  if (Version == 7)
    R.Line = word(O), O += 4;
  R.Self = word(O);
  R.Inclusive = word(O + 4);
  R.Invocations = word(O + 8);
  uint32_t From = word(O + 12);
  uint32_t Sub = Version == 5 ? 0 : word(O + 16);
  O = Offset + 4 * Fixed;
  if (Error E =
          need(O, 16 * (uint64_t(From) + Sub),
               "function " + Twine(Fn) + ": " + Twine(From) +
                   " called-from and " + Twine(Sub) + " sub-call records"))
    return E;
  if (Error E = readCalls(O, From, Fn, true, Fn))
    return E;
  if (Error E = readCalls(O, Sub, Fn, false, Fn))
    return E;
  if (Error E = readString(O, R.File, "function " + Twine(Fn) + "'s file"))
    return E;
  return readString(O, R.Name, "function " + Twine(Fn) + "'s name");
}

Error WebgrindReader::readV4Record(unsigned Fn, uint64_t Offset) {
  if (Error E = need(Offset, 16, "function " + Twine(Fn) + "'s record"))
    return E;
  Record &R = Records[Fn];
  R.Self = word(Offset);
  R.Inclusive = word(Offset + 4);
  R.Invocations = word(Offset + 12);
  uint64_t O = Offset + 16;
  if (Error E = need(O, 32 * R.Invocations,
                     "function " + Twine(Fn) + ": " + Twine(R.Invocations) +
                         " invocation records"))
    return E;
  for (uint64_t I = 0; I != R.Invocations; ++I, O += 32) {
    uint32_t Caller = word(O + 12);
    if (Caller != UINT32_MAX && Caller >= Count)
      return error(O + 12, "function " + Twine(Fn) + ": invocation " +
                               Twine(I) + " is called from function " +
                               Twine(Caller) + ", but there are " +
                               Twine(Count));
    uint32_t Subs = word(O + 24), At = word(O + 28);
    if (Subs == 0)
      continue;
    if (Error E = checkCallTotal(O + 24, Subs))
      return E;
    if (At > Data.size() || 16 * uint64_t(Subs) > Data.size() - At)
      return error(O + 28, "function " + Twine(Fn) + ": invocation " +
                               Twine(I) + "'s " + Twine(Subs) +
                               " sub calls at address " + Twine(At) + ": " +
                               Twine(16 * uint64_t(Subs)) +
                               " bytes needed, but the file ends at " +
                               Twine(Data.size()));
    for (uint32_t S = 0; S != Subs; ++S, At += 16) {
      uint32_t Callee = word(At);
      if (Callee >= Count)
        return error(At, "sub call of function " + Twine(Fn) +
                             " names function " + Twine(Callee) +
                             ", but there are " + Twine(Count));
      SubCalls.push_back({Fn, Callee, word(At + 8), 1, word(At + 12)});
    }
  }
  if (Error E = readString(O, R.File, "function " + Twine(Fn) + "'s file"))
    return E;
  return readString(O, R.Name, "function " + Twine(Fn) + "'s name");
}

/// Would `Key: Value` read back from a callgrind file as this header line?
/// Keys are words (letters, digits, blanks inside, `_()-.`) starting with a
/// letter; `event` declares an event.
static bool isCallgrindHeader(StringRef Key, StringRef Value) {
  if (Key.empty() || !isAlpha(Key[0]) || Key.back() == ' ' || Key == "event")
    return false;
  for (char C : Key)
    if (!isAlnum(C) && !StringRef(" _()-.").contains(C))
      return false;
  // The callgrind reader refuses NULs.
  return !Value.contains('\0');
}

void WebgrindReader::readHeaders(Profile &P, Part &Pt) {
  StringRef Rest = Data.drop_front(HeaderAddress);
  std::optional<uint64_t> Summary, Totals;
  bool HaveEvents = false;
  while (!Rest.empty()) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    Line = Line.rtrim('\r');
    // webgrind's Reader stops at the first empty line.
    if (Line.empty())
      break;
    auto [Key, Value] = Line.split(": ");
    if (Key == "events") {
      if (!HaveEvents) {
        // The first word, as a callgrind reader splits words (blanks, tabs);
        // fuzzing (roundtrip) found a word with NULs, which no callgrind
        // file can hold: the event is then "Cost".
        StringRef Rest = Value.ltrim(" \t\r");
        StringRef First = Rest.take_until(
            [](char C) { return C == ' ' || C == '\t' || C == '\r'; });
        if (First.contains('\0')) {
          Opts.Warn(Name + ": the event name in the 'events:' header line "
                           "contains a NUL byte; using 'Cost'");
          First = "";
        }
        P.getOrAddEvent(First.empty() ? "Cost" : First);
        // The line as it was, for the webgrind writer (isFieldHeader).
        if (!First.empty() && isCallgrindHeader(Key, Value))
          Pt.Header.push_back(HeaderLine{Key, Value});
      }
      HaveEvents = true;
    } else if (Key == "summary" || Key == "totals") {
      uint64_t V = 0;
      to_integer(Value.trim().split(' ').first, V, 10);
      std::optional<uint64_t> &S = Key == "summary" ? Summary : Totals;
      if (!S && Key == "summary" && isCallgrindHeader(Key, Value))
        Pt.Header.push_back(HeaderLine{Key, Value});
      S = S.value_or(0) + V;
    } else if (Key == "object") {
      // Written by profkit: `object: N name` for functions that share their
      // file and name with another one.
      auto [Nr, Object] = Value.split(' ');
      // As for names (readString), found by fuzzing (roundtrip): a NUL in
      // the object and blanks around it do not survive a callgrind file.
      Object = Object.trim(" \t\r");
      unsigned Fn;
      if (!to_integer(Nr, Fn, 10) || Fn >= Records.size())
        Opts.Warn(Name + ": ignoring header line 'object: " + Value +
                  "' (no such function)");
      else if (Object.contains('\0'))
        Opts.Warn(Name + ": ignoring header line 'object: " + Nr +
                  " ...' (the name contains a NUL byte)");
      else
        Records[Fn].Object = Object;
    } else if (Key != "positions") {
      // Fuzzing (roundtrip) found header lines that the callgrind writer
      // writes as they are but that read back as something else ("e!vents",
      // "fl=x", "event"). The preprocessor copies callgrind header lines, so
      // keep only those that are one.
      if (!isCallgrindHeader(Key, Value)) {
        SmallString<64> Shown;
        for (char C : Line.take_front(40))
          Shown.push_back(isPrint(C) ? C : '?');
        Opts.Warn(Name + ": ignoring header line '" + Shown +
                  (Line.size() > 40 ? "...'" : "'") +
                  " (not a callgrind header line)");
        continue;
      }
      Pt.Header.push_back(HeaderLine{Key, Value});
    }
  }
  if (!HaveEvents)
    P.getOrAddEvent("Cost");
  if (Summary)
    Pt.Summary = Part::CostLine{*Summary};
  if (Totals)
    Pt.Totals = Part::CostLine{*Totals};
}

void WebgrindReader::check(const Profile &P, const std::vector<FuncId> &Ids) {
  // v6 and v7 hold every call twice; the IR keeps the sub calls.
  if (Version >= 6) {
    llvm::sort(SubCalls);
    llvm::sort(CalledFrom);
    if (SubCalls != CalledFrom)
      Opts.Warn(Name + ": the called-from records do not match the sub-call "
                       "records; the sub-call records are used");
  }
  if (Version == 4)
    return;
  InclusiveCost IC = InclusiveCost::compute(P);
  bool WarnedIncl = false, WarnedCalls = false;
  for (unsigned Fn = 0; Fn != Records.size(); ++Fn) {
    const Record &R = Records[Fn];
    FuncId F = Ids[Fn];
    uint64_t Incl = IC.inclusive(F)[0];
    if (!WarnedIncl && Incl != R.Inclusive) {
      Opts.Warn(Name + ": function " + Twine(Fn) + " '" + R.Name +
                "': inclusive cost " + Twine(R.Inclusive) +
                " in the file, but its calls give " + Twine(Incl) +
                (IC.isRecursive(F) ? " (it is recursive)" : "") +
                "; inclusive costs are recomputed");
      WarnedIncl = true;
    }
    uint64_t Inv = IC.calls(F) + (IC.hasCallers(F) ? 0 : IC.partsWithData(F));
    if (!WarnedCalls && Inv != R.Invocations) {
      Opts.Warn(Name + ": function " + Twine(Fn) + " '" + R.Name +
                "': invocation count " + Twine(R.Invocations) +
                " in the file, but its calls give " + Twine(Inv) +
                "; the IR keeps the calls");
      WarnedCalls = true;
    }
  }
}

Expected<std::unique_ptr<Profile>> WebgrindReader::read() {
  if (Error E = need(0, 12, "the webgrind header"))
    return std::move(E);
  Version = word(0);
  HeaderAddress = word(4);
  Count = word(8);
  if (Version < 4 || Version > 7)
    return error(0, "webgrind format version " + Twine(Version) +
                        " is not supported (4 to 7)");
  if (Error E = need(12, 4 * uint64_t(Count),
                     "the address table of " + Twine(Count) + " functions"))
    return std::move(E);
  uint64_t TableEnd = 12 + 4 * uint64_t(Count);
  if (HeaderAddress > Data.size())
    return error(4, "header address " + Twine(HeaderAddress) +
                        " is past the end of the file (" + Twine(Data.size()) +
                        " bytes)");
  if (HeaderAddress < TableEnd)
    return error(4, "header address " + Twine(HeaderAddress) +
                        " points into the function address table (which "
                        "ends at " +
                        Twine(TableEnd) + ")");
  Records.resize(Count);
  for (uint32_t Fn = 0; Fn != Count; ++Fn) {
    uint32_t Address = word(12 + 4 * uint64_t(Fn));
    if (Address < TableEnd || Address >= Data.size())
      return error(12 + 4 * uint64_t(Fn),
                   "function " + Twine(Fn) + "'s address " + Twine(Address) +
                       " is outside the function records (" + Twine(TableEnd) +
                       " to " + Twine(Data.size()) + ")");
    if (Error E =
            Version == 4 ? readV4Record(Fn, Address) : readRecord(Fn, Address))
      return std::move(E);
  }

  auto Result = std::make_unique<Profile>();
  Profile &P = *Result;
  Part &Pt = P.addPart({PositionKind::Line});
  readHeaders(P, Pt);

  std::vector<FuncId> Ids(Count);
  for (uint32_t Fn = 0; Fn != Count; ++Fn)
    Ids[Fn] = P.getOrAddFunction(P.Strings.intern(Records[Fn].Object),
                                 P.Strings.intern(Records[Fn].File),
                                 P.Strings.intern(Records[Fn].Name));
  for (uint32_t Fn = 0; Fn != Count; ++Fn) {
    const Record &R = Records[Fn];
    // A function that was never run and has no line needs no row.
    if (R.Self || R.Line || R.Invocations) {
      SelfKey Key(Pt.layout());
      Key.position()[0] = R.Line;
      Key.setSourceFile(P.function(Ids[Fn]).File);
      uint64_t Value[] = {R.Self};
      FunctionData &FD = Pt.getOrCreate(Ids[Fn]);
      FD.values().set(FunctionValueKind::FirstLine, R.Line);
      if (!FD.Self.add(Key.key(), Value))
        return error(0, "a self cost sum overflows 64 bits");
    }
  }
  for (const Call &C : Version == 5 ? CalledFrom : SubCalls) {
    FuncId Caller = Ids[C.Caller];
    CallKey Key(Pt.layout());
    Key.position()[0] = C.Line;
    Key.setSourceFile(P.function(Caller).File);
    Key.setCallee(Ids[C.Callee]);
    uint64_t Value[] = {C.Count, C.Cost};
    if (!Pt.getOrCreate(Caller).makeCalls().add(Key.key(), Value))
      return error(0, "a call cost sum overflows 64 bits");
  }
  if (!Pt.finalize())
    return error(0, "a cost sum overflows 64 bits");
  check(P, Ids);
  return std::move(Result);
}

Expected<std::unique_ptr<Profile>>
profkit::readWebgrind(InputStream &In, const ReadOptions &Opts) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = In.readAll();
  if (!Buf)
    return Buf.takeError();
  return WebgrindReader((*Buf)->getBuffer(), In.name(), Opts).read();
}
