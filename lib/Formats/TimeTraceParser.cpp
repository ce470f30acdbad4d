//===- TimeTraceParser.cpp - clang -ftime-trace JSON into events ----------===//
//
// A trace is one JSON object whose `traceEvents` array holds every event;
// a compilation at granularity 0 writes a hundred megabytes of it. simdjson
// parses a document whole, with an index of four bytes for each structural
// character and a copy of its strings, so the array is parsed in pieces of
// about a megabyte, each made a document of its own (`[` + elements + `]`):
// the parser's memory stays that of a piece. A piece ends after an element
// that clang follows with `},{`; a guess that lands inside a string or a
// nested value makes the piece invalid JSON, which is then cut again by a
// scan that follows strings and nesting byte by byte (also used where no
// `},{` is found, for other writers). The object around the array is
// parsed last, with the array left empty. JSON the pieces cannot be made
// of is parsed whole, for the error message.
//
//===----------------------------------------------------------------------===//

#include "TimeTraceParser.h"
#include "profkit/Formats/Format.h"
#include "profkit/Support/Error.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/xxhash.h"
#include <simdjson.h>

using namespace profkit;
using namespace llvm;

namespace {

/// An event's name and detail, hashed with xxh3: LLVM's StringRef hash is
/// several times slower, and a trace has a million events.
struct NameDetailInfo {
  using Key = std::pair<StringRef, StringRef>;
  static Key getEmptyKey() {
    return {DenseMapInfo<StringRef>::getEmptyKey(), {}};
  }
  static Key getTombstoneKey() {
    return {DenseMapInfo<StringRef>::getTombstoneKey(), {}};
  }
  static unsigned getHashValue(const Key &K) {
    return unsigned(xxh3_64bits(K.first) * 31 + xxh3_64bits(K.second));
  }
  static bool isEqual(const Key &A, const Key &B) {
    return DenseMapInfo<StringRef>::isEqual(A.first, B.first) &&
           A.second == B.second;
  }
};

/// The bytes of a piece of the array, and where they sit in the file.
struct Piece {
  size_t Begin, End; // The elements, without the separators around them.
  size_t Next;       // Where the next piece starts.
  bool Last;         // The array ends after it (at Next).
};

constexpr size_t PieceBytes = 1 << 20;

bool isSpace(char C) { return C == ' ' || C == '\n' || C == '\r' || C == '\t'; }

size_t skipSpace(StringRef S, size_t I) {
  while (I < S.size() && isSpace(S[I]))
    ++I;
  return I;
}

/// Past the JSON value at I, following strings and nesting (not checking
/// scalars: simdjson does), or npos if the text ends first.
size_t skipValue(StringRef S, size_t I) {
  size_t Depth = 0;
  bool InString = false;
  for (; I < S.size(); ++I) {
    char C = S[I];
    if (InString) {
      if (C == '\\')
        ++I;
      else if (C == '"') {
        InString = false;
        if (!Depth)
          return I + 1;
      }
      continue;
    }
    if (C == '"') {
      InString = true;
    } else if (C == '{' || C == '[') {
      ++Depth;
    } else if (C == '}' || C == ']') {
      if (!Depth)
        return I; // The end of a scalar, at its container's end.
      if (!--Depth)
        return I + 1;
    } else if (!Depth && (C == ',' || isSpace(C))) {
      return I;
    }
  }
  return StringRef::npos;
}

} // namespace

/// The text of a trace: a buffer, or a file read forward through a window
/// as parsing moves on (a file of a hundred megabytes is then never held
/// whole), falling back to reading it whole.
class TraceText {
public:
  explicit TraceText(StringRef Whole) : Whole(Whole), Size(Whole.size()) {}
  TraceText(sys::fs::file_t FD, uint64_t Size, uint64_t MaxMemory,
            SmallVectorImpl<char> &Window, SmallVectorImpl<char> &Buffer)
      : FD(FD), Size(Size), MaxMemory(MaxMemory), Window(&Window),
        Buffer(&Buffer) {
    Window.clear();
  }
  size_t size() const { return Size; }
  /// The bytes from Begin to End (clipped to the size). Begin never goes
  /// back before that of an earlier call.
  Expected<StringRef> get(size_t Begin, size_t End);
  /// All of it.
  Expected<StringRef> whole();

private:
  Error read(SmallVectorImpl<char> &To, size_t Offset, size_t N);

  StringRef Whole;
  sys::fs::file_t FD = sys::fs::kInvalidFile;
  size_t Size;
  uint64_t MaxMemory = 0;
  SmallVectorImpl<char> *Window = nullptr, *Buffer = nullptr;
  size_t Base = 0; // The offset of Window's first byte.
};

Error TraceText::read(SmallVectorImpl<char> &To, size_t Offset, size_t N) {
  size_t Old = To.size();
  To.resize_for_overwrite(Old + N);
  size_t Got = 0;
  while (Got != N) {
    Expected<size_t> R = sys::fs::readNativeFileSlice(
        FD, MutableArrayRef<char>(To.data() + Old + Got, N - Got),
        Offset + Got);
    if (!R)
      return R.takeError();
    if (!*R)
      break; // The file shrank.
    Got += *R;
  }
  To.truncate(Old + Got);
  return Error::success();
}

Expected<StringRef> TraceText::get(size_t Begin, size_t End) {
  End = std::min(End, Size);
  if (!Window)
    return Whole.slice(Begin, End);
  assert(Begin >= Base && "the window only moves forward");
  size_t Have = Base + Window->size();
  if (End > Have) {
    // Keep [Begin, Have), read on to End in blocks.
    size_t Keep = Begin < Have ? Have - Begin : 0;
    if (Keep)
      std::memmove(Window->data(), Window->data() + (Begin - Base), Keep);
    Window->truncate(Keep);
    Base = Begin;
    size_t From = Base + Keep;
    size_t Want = std::min(Size, std::max(End, From + (4u << 20))) - From;
    if (Error E = read(*Window, From, Want))
      return std::move(E);
  }
  return StringRef(Window->data() + (Begin - Base),
                   std::min(End, Base + Window->size()) - Begin);
}

Expected<StringRef> TraceText::whole() {
  if (!Window)
    return Whole;
  if (MaxMemory && Size > MaxMemory)
    return makeError(ErrorCode::LimitExceeded,
                     Twine(Size) +
                         " bytes, over the memory limit (-max-memory)");
  Buffer->clear();
  if (Error E = read(*Buffer, 0, Size))
    return std::move(E);
  return StringRef(Buffer->data(), Buffer->size());
}

class TraceParser::Impl {
public:
  Error parse(StringRef TraceName, TraceText &Text, ParsedTrace &Out);

private:
  Error error(const Twine &Msg) const {
    return makeError(ErrorCode::Malformed, Name + ": " + Msg);
  }
  /// A JSON error, at the byte of the file where the parser stopped.
  Error jsonError(simdjson::error_code EC) const;
  /// Parses Text (copied with padding) as a document: the object of the
  /// trace (readTopLevel) or a piece of the array (readEvents). Offsets in
  /// it map to the file's as fileOffset() says.
  Error parseDocument(StringRef Text, bool TopLevel);
  Error readTopLevel(simdjson::ondemand::document &Document);
  Error readEvents(simdjson::ondemand::array Array);
  /// The piece starting at Begin, cut by the byte scan; false if the array
  /// is not well formed.
  bool scanPiece(StringRef Json, size_t Begin, Piece &P) const;
  /// Where the `traceEvents` array opens, found by the byte scan; npos if
  /// the object is not plain enough.
  size_t findArray(StringRef Json) const;
  size_t fileOffset(size_t InDocument) const {
    return InDocument + (InDocument < SplitAt ? DeltaLow : DeltaHigh);
  }
  uint32_t functionOf(std::string_view EventName, std::string_view Detail);
  StringRef save(StringRef S);

  /// Cuts the piece at Begin by a guess (see the file comment), Remaining
  /// bytes before the end of the file; false if there is nothing to guess
  /// by.
  bool guessPiece(StringRef Json, size_t Begin, size_t Remaining,
                  Piece &P) const;

  std::string Name;
  ParsedTrace *Out = nullptr;
  mutable bool JsonFailed = false; // The last error was a JSON error.
  simdjson::ondemand::parser Parser;
  simdjson::ondemand::document *Doc = nullptr;
  SmallVector<char, 0> Text; // The document being parsed, padded.
  size_t SplitAt = 0, DeltaLow = 0, DeltaHigh = 0;
  bool OpenSource = false; // The last event is a `b` waiting for its `e`.
  bool HaveEvents = false;
  DenseMap<std::pair<StringRef, StringRef>, uint32_t, NameDetailInfo>
      FunctionIndex;
};

Error TraceParser::Impl::jsonError(simdjson::error_code EC) const {
  JsonFailed = true;
  const char *At = nullptr;
  if (Doc && !Doc->current_location().get(At))
    return createOffsetError(Name, fileOffset(At - Text.data()),
                             ErrorCode::Malformed,
                             Twine("bad JSON: ") + simdjson::error_message(EC));
  return makeError(ErrorCode::Malformed,
                   Name + ": bad JSON: " + simdjson::error_message(EC));
}

/// A trace's times: integers, or (in some writers) numbers with a fraction.
static simdjson::error_code readTime(simdjson::ondemand::value V,
                                     int64_t &Out) {
  simdjson::ondemand::number_type Type;
  if (auto EC = V.get_number_type().get(Type))
    return EC;
  if (Type == simdjson::ondemand::number_type::floating_point_number) {
    double D;
    if (auto EC = V.get_double().get(D))
      return EC;
    if (!(D > -9.2e18 && D < 9.2e18))
      return simdjson::NUMBER_OUT_OF_RANGE;
    Out = int64_t(D);
    return simdjson::SUCCESS;
  }
  return V.get_int64().get(Out);
}

/// A copy of S in the trace's memory. (Not StringSaver: its code is in
/// libLLVM, which does not unpoison what Reset() poisoned under ASan.)
StringRef TraceParser::Impl::save(StringRef S) {
  if (S.empty())
    return {};
  char *P = Out->NameMemory.Allocate<char>(S.size());
  std::memcpy(P, S.data(), S.size());
  return StringRef(P, S.size());
}

uint32_t TraceParser::Impl::functionOf(std::string_view EventName,
                                       std::string_view Detail) {
  // A pass is one function, whatever it ran on (most of a trace at
  // granularity 0 is passes on each function).
  if (looksLikeIRUnit(Detail) && !isAnalyzedEvent(EventName))
    Detail = {};
  // The parser's strings last until the next piece: a new function keeps
  // copies.
  auto It = FunctionIndex.find({StringRef(EventName), StringRef(Detail)});
  if (It != FunctionIndex.end())
    return It->second;
  std::pair<StringRef, StringRef> Key(save(StringRef(EventName)),
                                      save(StringRef(Detail)));
  uint32_t F = Out->Functions.size();
  Out->Functions.push_back(Key);
  FunctionIndex.try_emplace(Key, F);
  return F;
}

Error TraceParser::Impl::readEvents(simdjson::ondemand::array Array) {
  std::vector<TraceEvent> &Events = Out->Events;
  for (auto Element : Array) {
    simdjson::ondemand::object Obj;
    if (auto EC = Element.get_object().get(Obj))
      return jsonError(EC);
    std::string_view Ph, EventName, Detail;
    int64_t Ts = 0, Dur = 0;
    for (auto Field : Obj) {
      // Compared as written: clang's keys have no escapes.
      simdjson::ondemand::raw_json_string Key;
      if (auto EC = Field.key().get(Key))
        return jsonError(EC);
      simdjson::ondemand::value V;
      simdjson::error_code EC = Field.value().get(V);
      if (EC)
        return jsonError(EC);
      if (Key == "ph")
        EC = V.get_string().get(Ph);
      else if (Key == "name")
        EC = V.get_string().get(EventName);
      else if (Key == "ts")
        EC = readTime(V, Ts);
      else if (Key == "dur")
        EC = readTime(V, Dur);
      else if (Key == "args") {
        // The detail: the first string member (clang writes only `detail`).
        simdjson::ondemand::object Args;
        if (!V.get_object().get(Args))
          for (auto Arg : Args) {
            std::string_view S;
            if (Detail.empty() && !Arg.value().get_string().get(S))
              Detail = S;
          }
      }
      if (EC)
        return jsonError(EC);
    }
    if (Ph == "X" && Dur < 0)
      return error("event '" + StringRef(EventName) + "' at " + Twine(Ts) +
                   " us has a negative duration");
    if (Ts < 0)
      return error("event '" + StringRef(EventName) +
                   "' starts before the trace");
    bool Kept = (Ph == "X" || Ph == "b" || Ph == "e") &&
                !StringRef(EventName).starts_with("Total ");
    if (!Kept)
      continue;
    // clang 19 writes a `Source` as a `b` right before its `e`.
    if (Ph == "e") {
      if (OpenSource) {
        TraceEvent &B = Events.back();
        if (uint64_t(Ts) < B.Start)
          return error("event '" + Out->Functions[B.Function].first +
                       "' ends before it starts");
        B.Duration = uint64_t(Ts) - B.Start;
        OpenSource = false;
      }
      continue;
    }
    if (OpenSource) // A `b` not followed by its `e`: dropped.
      Events.pop_back();
    OpenSource = Ph == "b";
    Events.push_back({uint64_t(Ts), uint64_t(Dur),
                      functionOf(EventName, Detail), uint32_t(Events.size())});
  }
  return Error::success();
}

Error TraceParser::Impl::readTopLevel(simdjson::ondemand::document &Document) {
  simdjson::ondemand::object Top;
  if (auto EC = Document.get_object().get(Top))
    return jsonError(EC);
  for (auto Field : Top) {
    std::string_view Key;
    if (auto EC = Field.unescaped_key().get(Key))
      return jsonError(EC);
    if (Key == "traceEvents") {
      simdjson::ondemand::array Array;
      if (auto EC = Field.value().get_array().get(Array))
        return jsonError(EC);
      if (Error E = readEvents(Array))
        return E;
      HaveEvents = true;
    } else if (Key == "beginningOfTime") {
      simdjson::ondemand::value V;
      int64_t T;
      if (!Field.value().get(V) && !readTime(V, T) && T > 0)
        Out->Origin = uint64_t(T);
    }
  }
  return Error::success();
}

Error TraceParser::Impl::parseDocument(StringRef Body, bool TopLevel) {
  Text.clear();
  Text.reserve(Body.size() + 2 + simdjson::SIMDJSON_PADDING);
  if (!TopLevel)
    Text.push_back('[');
  Text.append(Body.begin(), Body.end());
  if (!TopLevel)
    Text.push_back(']');
  simdjson::padded_string_view Json(Text.data(), Text.size(), Text.capacity());
  simdjson::ondemand::document Document;
  Doc = nullptr;
  if (auto EC = Parser.iterate(Json).get(Document))
    return jsonError(EC);
  Doc = &Document;
  auto Forget = make_scope_exit([&] { Doc = nullptr; });
  if (TopLevel) {
    if (Error E = readTopLevel(Document))
      return E;
  } else {
    simdjson::ondemand::array Array;
    if (auto EC = Document.get_array().get(Array))
      return jsonError(EC);
    if (Error E = readEvents(Array))
      return E;
  }
  // Past the value, a location in the text is text after it.
  const char *After;
  if (!Document.current_location().get(After))
    return jsonError(simdjson::TRAILING_CONTENT);
  return Error::success();
}

size_t TraceParser::Impl::findArray(StringRef Json) const {
  size_t I = skipSpace(Json, 0);
  if (I == Json.size() || Json[I] != '{')
    return StringRef::npos;
  for (I = skipSpace(Json, I + 1); I < Json.size() && Json[I] == '"';) {
    size_t KeyEnd = skipValue(Json, I);
    if (KeyEnd == StringRef::npos)
      return StringRef::npos;
    StringRef Key = Json.slice(I, KeyEnd);
    I = skipSpace(Json, KeyEnd);
    if (I == Json.size() || Json[I] != ':')
      return StringRef::npos;
    I = skipSpace(Json, I + 1);
    if (Key == "\"traceEvents\"")
      return I < Json.size() && Json[I] == '[' ? I : StringRef::npos;
    I = skipSpace(Json, skipValue(Json, I));
    if (I >= Json.size() || Json[I] != ',')
      return StringRef::npos;
    I = skipSpace(Json, I + 1);
  }
  return StringRef::npos;
}

bool TraceParser::Impl::scanPiece(StringRef Json, size_t Begin,
                                  Piece &P) const {
  for (size_t I = Begin;;) {
    size_t End = skipValue(Json, I);
    if (End == StringRef::npos)
      return false;
    size_t After = skipSpace(Json, End);
    if (After == Json.size())
      return false;
    if (Json[After] == ']') {
      P = {Begin, End, After, true};
      return true;
    }
    if (Json[After] != ',')
      return false;
    if (End - Begin >= PieceBytes) {
      P = {Begin, End, skipSpace(Json, After + 1), false};
      return true;
    }
    I = skipSpace(Json, After + 1);
  }
}

Error TraceParser::Impl::parse(StringRef TraceName, TraceText &Text,
                               ParsedTrace &Trace) {
  Name = TraceName.str();
  Out = &Trace;
  Trace.Events.clear();
  Trace.Functions.clear();
  Trace.NameMemory.Reset();
  Trace.Origin = 0;
  FunctionIndex.clear();
  OpenSource = HaveEvents = false;
  auto Finish = [&]() -> Error {
    if (OpenSource)
      Trace.Events.pop_back();
    if (!HaveEvents)
      return error("not a clang time trace: no \"traceEvents\" array");
    return Error::success();
  };
  auto ParseWhole = [&]() -> Error {
    Trace.Events.clear();
    Trace.Functions.clear();
    Trace.NameMemory.Reset();
    FunctionIndex.clear();
    OpenSource = HaveEvents = false;
    SplitAt = SIZE_MAX;
    DeltaLow = 0;
    Expected<StringRef> Json = Text.whole();
    if (!Json)
      return createFileError(Name, Json.takeError());
    if (Error E = parseDocument(*Json, /*TopLevel=*/true))
      return E;
    return Finish();
  };
  auto Get = [&](size_t Begin, size_t End) -> StringRef {
    Expected<StringRef> S = Text.get(Begin, End);
    if (S)
      return *S;
    consumeError(S.takeError()); // Read again, whole, for the error.
    return StringRef();
  };

  // clang writes the array first.
  StringRef Head = Get(0, 1 << 16);
  size_t Open = findArray(Head);
  if (Open == StringRef::npos)
    return ParseWhole();
  std::string Outside = Head.take_front(Open + 1).str();
  size_t Close = Open + 1;
  for (size_t Begin = Close;;) {
    StringRef Json = Get(Begin, Begin + 2 * PieceBytes + 4096);
    size_t Lead = skipSpace(Json, 0);
    if (Lead == Json.size())
      return ParseWhole();
    if (Json[Lead] == ']' && Begin == Open + 1) { // No events.
      Close = Begin + Lead;
      break;
    }
    Piece P;
    bool Guessed = guessPiece(Json, Lead, Text.size() - Begin, P);
    size_t Kept = Trace.Events.size();
    bool WasOpen = OpenSource;
    while (true) {
      if (!Guessed && !scanPiece(Json, Lead, P))
        return ParseWhole();
      SplitAt = SIZE_MAX;
      DeltaLow = Begin + P.Begin - 1;
      JsonFailed = false;
      Error E = parseDocument(Json.slice(P.Begin, P.End), /*TopLevel=*/false);
      if (!E)
        break;
      if (!Guessed || !JsonFailed)
        return E;
      // A guess that cut JSON apart: cut again, by the scan.
      consumeError(std::move(E));
      Trace.Events.resize(Kept);
      OpenSource = WasOpen;
      Guessed = false;
    }
    if (P.Last) {
      Close = Begin + P.Next;
      break;
    }
    Begin += P.Next;
  }
  // The object around the array, with the array left empty.
  SplitAt = Open + 1;
  DeltaLow = 0;
  DeltaHigh = Close - (Open + 1);
  Outside += Get(Close, Text.size());
  if (Error E = parseDocument(Outside, /*TopLevel=*/true))
    return E;
  return Finish();
}

bool TraceParser::Impl::guessPiece(StringRef Json, size_t Begin,
                                   size_t Remaining, Piece &P) const {
  if (Remaining > 2 * PieceBytes) {
    // Up to the last `},{` of the next megabyte.
    size_t Cut = Json.slice(Begin, Begin + PieceBytes).rfind("},{");
    if (Cut == StringRef::npos || !Cut)
      return false;
    P = {Begin, Begin + Cut + 1, Begin + Cut + 2, false};
    return true;
  }
  // The rest of the array, all in Json: up to the file's last `]`.
  size_t Last = Json.rfind(']');
  if (Last == StringRef::npos || Last <= Begin)
    return false;
  size_t End = Last;
  while (End > Begin && isSpace(Json[End - 1]))
    --End;
  P = {Begin, End, Last, true};
  return true;
}

TraceParser::TraceParser() : I(std::make_unique<Impl>()) {}
TraceParser::~TraceParser() = default;

Error TraceParser::parse(StringRef TraceName, ParsedTrace &Out) {
  TraceText Text(StringRef(Buffer.data(), Buffer.size()));
  return I->parse(TraceName, Text, Out);
}

Expected<bool> TraceParser::parseFile(StringRef Path, uint64_t MaxMemory,
                                      ParsedTrace &Out) {
  Expected<sys::fs::file_t> FD = sys::fs::openNativeFileForRead(Path);
  if (!FD)
    return createFileError(Path, FD.takeError());
  auto Close = make_scope_exit([&] { sys::fs::closeFile(*FD); });
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(*FD, Status))
    return createFileError(Path, EC);
  TraceText Text(*FD, Status.getSize(), MaxMemory, Window, Buffer);
  // Most other JSON files are told by their head.
  Expected<StringRef> Head = Text.get(0, 4096);
  if (!Head)
    return createFileError(Path, Head.takeError());
  if (!detectTimeTrace(*Head))
    return false;
  if (Error E = I->parse(Path, Text, Out))
    return std::move(E);
  return true;
}
