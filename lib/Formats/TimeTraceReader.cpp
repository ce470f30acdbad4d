//===- TimeTraceReader.cpp - clang -ftime-trace JSON in -------------------===//
//
// Reads one clang time trace (clang 9 to 19) into the IR: one part placed by
// line (always 0), the event `us` (wall µs), one function per event name and
// detail, in the object of the compilation and the "file" of the event name
// (`Source` /usr/include/c++/12/vector, `InstantiateFunction` std::sort<...>,
// `Frontend` Frontend), so that KCachegrind groups by event kind. The nesting
// of the events is the call tree: self time is an event's duration less its
// children's, a call carries count 1 and the child's duration. The roots are
// kept as intervals (start since the trace's beginningOfTime origin).
//
// Events are read as ClangBuildAnalyzer reads them (docs/BuildProfiling.md),
// so that the build report matches its numbers: `X` events, and clang 19's
// `Source` `b`/`e` pairs made one event; `Total ...` summaries and metadata
// left out; all threads in one tree, sorted by start, then longest first; an
// event nests in the nearest event that contains it (both ends inclusive),
// a partial overlap never nests. JSON is parsed with simdjson's ondemand
// API: the traces of a build run to hundreds of megabytes, and a DOM of
// them would cost several times their size.
//
// A directory is read as one build: every `.json` under it that is a time
// trace (others are counted and skipped), one compilation each, parsed on
// every core and added to the profile in path order, so that the result
// does not depend on the number of threads.
//
//===----------------------------------------------------------------------===//

#include "profkit/Formats/Format.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/InputStream.h"
#include "profkit/Support/Saturating.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <queue>
#include <set>
#include <simdjson.h>
#include <thread>

using namespace profkit;
using namespace llvm;

bool profkit::detectTimeTrace(StringRef Head) {
  return Head.ltrim().starts_with("{") && Head.contains("\"traceEvents\"");
}

namespace {

struct TraceEvent {
  uint64_t Start, Duration;
  // Into the parser's string buffer, valid until it parses the next trace.
  StringRef Name, Detail;
  uint32_t Order; // In the file, for ties (as ClangBuildAnalyzer).
};

/// Reads and parses traces into events. One per thread, reused from file to
/// file, so that its buffers are allocated once.
class TraceParser {
public:
  /// Reads the file at Path into the buffer. False (and nothing read past
  /// its head) if it is not a time trace.
  Expected<bool> readFile(StringRef Path, uint64_t MaxMemory);
  /// Takes Data as the trace to parse.
  void setContents(StringRef Data) { Buffer.assign(Data.begin(), Data.end()); }
  /// Parses the trace in the buffer into Events and Origin.
  Error parse(StringRef TraceName);

  std::vector<TraceEvent> Events;
  uint64_t Origin = 0; // beginningOfTime, µs since the epoch.

private:
  Error error(const Twine &Msg) const {
    return makeError(ErrorCode::Malformed, Name + ": " + Msg);
  }
  /// A JSON error, at the byte where the parser stopped.
  Error jsonError(simdjson::error_code EC) const;
  Error readEvents(simdjson::ondemand::array Events);

  std::string Name;
  SmallVector<char, 0> Buffer; // simdjson reads up to SIMDJSON_PADDING past it.
  simdjson::ondemand::parser Parser;
  simdjson::ondemand::document *Doc = nullptr;
};

/// Adds traces to one profile and part, one compilation each.
class TraceBuilder {
public:
  explicit TraceBuilder(Profile &P);
  /// Adds the events of the trace read from TraceName; sorts them.
  /// False if a sum overflowed.
  [[nodiscard]] bool add(StringRef TraceName, std::vector<TraceEvent> &Events,
                         uint64_t Origin);
  [[nodiscard]] bool finish() { return Pt.finalize(); }

private:
  Profile &P;
  Part &Pt;
  RowLayout L;
  // Per event of the trace being added; kept to reuse their memory.
  std::vector<FuncId> Func;
  std::vector<uint64_t> Self;
  std::vector<size_t> Parent, AnalyzedParent, AnalyzedAbove;
  std::vector<bool> Analyzed;
  std::vector<uint32_t> Entry;        // The entry number of a header.
  DenseMap<FuncId, uint32_t> Entries; // Per header: entries, then the next.
  static constexpr size_t NoParent = ~size_t(0);
};

/// The events ClangBuildAnalyzer builds its tree of.
static bool isAnalyzedEvent(StringRef Name) {
  return is_contained({"ExecuteCompiler", "Frontend", "Backend", "Source",
                       "ParseTemplate", "ParseClass", "InstantiateClass",
                       "InstantiateFunction", "OptModule", "OptFunction"},
                      Name);
}

} // namespace

Expected<bool> TraceParser::readFile(StringRef Path, uint64_t MaxMemory) {
  Name = Path.str();
  Expected<sys::fs::file_t> FD = sys::fs::openNativeFileForRead(Path);
  if (!FD)
    return createFileError(Path, FD.takeError());
  auto Close = make_scope_exit([&] { sys::fs::closeFile(*FD); });
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(*FD, Status))
    return createFileError(Path, EC);
  uint64_t Size = Status.getSize();
  if (MaxMemory && Size > MaxMemory)
    return makeError(ErrorCode::LimitExceeded,
                     Name + ": " + Twine(Size) +
                         " bytes, over the memory limit (-max-memory)");
  // The head first: most other JSON files are skipped without reading them.
  Buffer.clear();
  Buffer.reserve(Size + simdjson::SIMDJSON_PADDING);
  Buffer.resize_for_overwrite(std::min<uint64_t>(Size, 4096));
  Expected<size_t> Got = sys::fs::readNativeFile(*FD, Buffer);
  if (!Got)
    return createFileError(Path, Got.takeError());
  Buffer.truncate(*Got);
  if (!detectTimeTrace(StringRef(Buffer.data(), Buffer.size())))
    return false;
  if (Error E = sys::fs::readNativeFileToEOF(*FD, Buffer))
    return createFileError(Path, std::move(E));
  return true;
}

Error TraceParser::jsonError(simdjson::error_code EC) const {
  const char *At = nullptr;
  if (Doc && !Doc->current_location().get(At))
    return createOffsetError(Name, At - Buffer.data(), ErrorCode::Malformed,
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

Error TraceParser::readEvents(simdjson::ondemand::array Array) {
  bool OpenSource = false; // The last event is a `b` waiting for its `e`.
  for (auto Element : Array) {
    simdjson::ondemand::object Obj;
    if (auto EC = Element.get_object().get(Obj))
      return jsonError(EC);
    std::string_view Ph, EventName, Detail;
    int64_t Ts = 0, Dur = 0;
    for (auto Field : Obj) {
      std::string_view Key;
      if (auto EC = Field.unescaped_key().get(Key))
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
          return error("event '" + B.Name + "' ends before it starts");
        B.Duration = uint64_t(Ts) - B.Start;
        OpenSource = false;
      }
      continue;
    }
    if (OpenSource) // A `b` not followed by its `e`: dropped.
      Events.pop_back();
    OpenSource = Ph == "b";
    Events.push_back({uint64_t(Ts), uint64_t(Dur), EventName, Detail,
                      uint32_t(Events.size())});
  }
  if (OpenSource)
    Events.pop_back();
  return Error::success();
}

static Error sumOverflow(StringRef Name) {
  return makeError(ErrorCode::LimitExceeded,
                   Name + ": a sum of times is over 2^64-1 us");
}

/// The profile the traces go into: the event `us`, one part by line.
static std::unique_ptr<Profile> makeTraceProfile(StringRef SourceName) {
  auto P = std::make_unique<Profile>();
  P->SourceName = SourceName.str();
  P->getOrAddEvent("us");
  P->setEventLongName(0, "Wall time (microseconds)");
  P->addPart({PositionKind::Line});
  return P;
}

TraceBuilder::TraceBuilder(Profile &P)
    : P(P), Pt(*P.parts().front()), L(Pt.layout()) {}

bool TraceBuilder::add(StringRef TraceName, std::vector<TraceEvent> &Events,
                       uint64_t Origin) {
  // The compilation: the object beside the trace, else the trace.
  SmallString<256> Object(TraceName);
  if (sys::path::extension(Object) == ".json") {
    sys::path::replace_extension(Object, ".o");
    if (!sys::fs::exists(Object))
      Object = TraceName;
  }
  sys::path::remove_dots(Object, /*remove_dot_dot=*/true);
  StrId ObjectId = P.Strings.intern(Object);

  llvm::sort(Events, [](const TraceEvent &A, const TraceEvent &B) {
    if (A.Start != B.Start)
      return A.Start < B.Start;
    if (A.Duration != B.Duration)
      return A.Duration > B.Duration;
    return A.Order > B.Order;
  });
  Func.resize(Events.size());
  for (size_t I = 0; I != Events.size(); ++I) {
    const TraceEvent &E = Events[I];
    StrId File = P.Strings.intern(E.Name);
    Func[I] = P.getOrAddFunction(
        ObjectId, File, E.Detail.empty() ? File : P.Strings.intern(E.Detail));
  }

  // Parents by containment: the nearest event that contains each one, on
  // the chain above the event before it. ClangBuildAnalyzer builds its
  // tree of ten kinds of events only. Where another event overlaps one of
  // those without nesting in it (the parse of a declaration that begins in
  // a header and ends after it), containment alone would put an event it
  // reads under a different one of its kinds than it does: such an event
  // takes ClangBuildAnalyzer's parent, so that the report agrees with it.
  auto FindParents = [&](bool OnlyAnalyzed, std::vector<size_t> &Parent) {
    Parent.assign(Events.size(), NoParent);
    SmallVector<size_t, 64> Stack;
    for (size_t I = 0; I != Events.size(); ++I) {
      if (OnlyAnalyzed && !Analyzed[I])
        continue;
      const TraceEvent &E = Events[I];
      uint64_t End = E.Start + E.Duration;
      while (!Stack.empty()) {
        const TraceEvent &R = Events[Stack.back()];
        if (E.Start >= R.Start && End <= R.Start + R.Duration)
          break;
        Stack.pop_back();
      }
      if (!Stack.empty())
        Parent[I] = Stack.back();
      Stack.push_back(I);
    }
  };
  Analyzed.resize(Events.size());
  for (size_t I = 0; I != Events.size(); ++I)
    Analyzed[I] = isAnalyzedEvent(Events[I].Name);
  FindParents(false, Parent);
  FindParents(true, AnalyzedParent);
  // The nearest analyzed event above each, by containment; parents come
  // before their children in the sort order.
  AnalyzedAbove.assign(Events.size(), NoParent);
  for (size_t I = 0; I != Events.size(); ++I)
    if (size_t Up = Parent[I]; Up != NoParent)
      AnalyzedAbove[I] = Analyzed[Up] ? Up : AnalyzedAbove[Up];
  for (size_t I = 0; I != Events.size(); ++I)
    if (Analyzed[I] && AnalyzedAbove[I] != AnalyzedParent[I])
      Parent[I] = AnalyzedParent[I];

  // A header entered more than once in the compilation (clang's stddef.h
  // has no include guard; a guarded one is entered again and left at once)
  // numbers its entries 1, 2, ... in the lines of the calls into it and out
  // of it, so that the include chain of each entry stays known (the report
  // needs it); any other event is at line 0.
  Entry.assign(Events.size(), 0);
  Entries.clear();
  for (size_t I = 0; I != Events.size(); ++I)
    if (Events[I].Name == "Source")
      ++Entries[Func[I]];
  for (auto &[F, N] : Entries)
    N = N > 1 ? 1 : 0;
  for (size_t I = 0; I != Events.size(); ++I)
    if (Events[I].Name == "Source")
      if (uint32_t &N = Entries[Func[I]])
        Entry[I] = N++;

  // The call rows; a call's inclusive time is the callee event's duration.
  bool Ok = true;
  for (size_t I = 0; I != Events.size(); ++I) {
    const TraceEvent &E = Events[I];
    if (Parent[I] == NoParent) {
      Pt.Intervals.push_back({Func[I], 0, Origin + E.Start, E.Duration});
      continue;
    }
    CallKey K(L);
    K.position()[0] = Entry[Parent[I]];
    K.setSourceFile(P.function(Func[Parent[I]]).File);
    K.setCallee(Func[I]);
    K.target()[0] = Entry[I];
    uint64_t Values[] = {1, E.Duration};
    Ok &= Pt.getOrCreate(Func[Parent[I]]).Calls.add(K.key(), Values);
  }

  // Self time: each moment goes to the innermost event then running, the
  // one last in the sort order (latest start, then shortest). clang 19's
  // Source events overlap the events beside them without nesting; this way
  // overlapped time counts once, and self times add up to the wall time of
  // the roots.
  Self.assign(Events.size(), 0);
  std::set<size_t> Running;
  std::priority_queue<std::pair<uint64_t, size_t>,
                      std::vector<std::pair<uint64_t, size_t>>, std::greater<>>
      Ends;
  uint64_t Now = Events.empty() ? 0 : Events.front().Start;
  auto RunUntil = [&](uint64_t Until) {
    while (!Ends.empty() && Ends.top().first <= Until) {
      auto [End, J] = Ends.top();
      Ends.pop();
      if (End > Now) {
        Self[*Running.rbegin()] += End - Now;
        Now = End;
      }
      Running.erase(J);
    }
    if (!Running.empty() && Until > Now)
      Self[*Running.rbegin()] += Until - Now;
    Now = std::max(Now, Until);
  };
  for (size_t I = 0; I != Events.size(); ++I) {
    RunUntil(Events[I].Start);
    Running.insert(I);
    Ends.push({Events[I].Start + Events[I].Duration, I});
  }
  RunUntil(UINT64_MAX);
  for (size_t I = 0; I != Events.size(); ++I) {
    SelfKey K(L);
    K.setSourceFile(P.function(Func[I]).File);
    uint64_t Values[] = {Self[I]};
    Ok &= Pt.getOrCreate(Func[I]).Self.add(K.key(), Values);
  }
  return Ok;
}

Error TraceParser::parse(StringRef TraceName) {
  Name = TraceName.str();
  Events.clear();
  Origin = 0;
  Doc = nullptr;
  size_t Size = Buffer.size();
  Buffer.reserve(Size + simdjson::SIMDJSON_PADDING);
  simdjson::padded_string_view Json(Buffer.data(), Size, Buffer.capacity());
  simdjson::ondemand::document Document;
  if (auto EC = Parser.iterate(Json).get(Document))
    return jsonError(EC);
  Doc = &Document;
  auto Forget = make_scope_exit([&] { Doc = nullptr; });
  simdjson::ondemand::object Top;
  if (auto EC = Document.get_object().get(Top))
    return jsonError(EC);
  bool HaveEvents = false;
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
        Origin = uint64_t(T);
    }
  }
  if (!HaveEvents)
    return error("not a clang time trace: no \"traceEvents\" array");
  return Error::success();
}

Expected<std::unique_ptr<Profile>> profkit::readTimeTrace(InputStream &In,
                                                          const ReadOptions &) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = In.readAll();
  if (!Buf)
    return Buf.takeError();
  TraceParser Parser;
  Parser.setContents((*Buf)->getBuffer());
  Buf->reset();
  if (Error E = Parser.parse(In.name()))
    return std::move(E);
  std::unique_ptr<Profile> P = makeTraceProfile(In.name());
  TraceBuilder Builder(*P);
  if (!Builder.add(In.name(), Parser.Events, Parser.Origin) ||
      !Builder.finish())
    return sumOverflow(In.name());
  return P;
}

/// The `.json` files under Dir, recursively, in bytewise path order;
/// directories whose names start with '.' are left out, as
/// ClangBuildAnalyzer leaves them out.
static Expected<std::vector<std::string>> findJsonFiles(StringRef Dir) {
  std::vector<std::string> Files;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Dir, EC, /*follow=*/false), End;
       It != End && !EC; It.increment(EC)) {
    StringRef Path = It->path();
    StringRef Base = sys::path::filename(Path);
    sys::fs::file_type Type = It->type();
    if (Type == sys::fs::file_type::symlink_file) {
      ErrorOr<sys::fs::basic_file_status> St = It->status();
      Type = St ? St->type() : sys::fs::file_type::status_error;
    } else if (Type == sys::fs::file_type::directory_file &&
               Base.starts_with(".")) {
      It.no_push();
    }
    if (Type == sys::fs::file_type::regular_file && Base.ends_with(".json"))
      Files.push_back(Path.str());
  }
  if (EC)
    return createFileError(Dir, EC);
  llvm::sort(Files);
  return Files;
}

Expected<std::unique_ptr<Profile>>
profkit::readTimeTraceDirectory(StringRef Dir, const ReadOptions &Opts) {
  Expected<std::vector<std::string>> Files = findJsonFiles(Dir);
  if (!Files)
    return Files.takeError();
  std::unique_ptr<Profile> P = makeTraceProfile(Dir);
  TraceBuilder Builder(*P);

  // Files are parsed on every thread, and added to the profile one at a
  // time in path order, each by the thread that parsed it.
  std::mutex Lock;
  std::condition_variable Turn;
  std::atomic<size_t> NextToParse{0};
  size_t NextToAdd = 0, Skipped = 0;
  Error FirstError = Error::success();
  bool Failed = false, Ok = true;
  auto Work = [&] {
    TraceParser Parser;
    while (true) {
      size_t I = NextToParse++;
      if (I >= Files->size())
        return;
      const std::string &Path = (*Files)[I];
      Expected<bool> IsTrace = Parser.readFile(Path, Opts.MaxMemory);
      Error ParseError = Error::success();
      if (IsTrace && *IsTrace)
        ParseError = Parser.parse(Path);
      std::unique_lock<std::mutex> Hold(Lock);
      Turn.wait(Hold, [&] { return NextToAdd == I || Failed; });
      if (!Failed && (!IsTrace || ParseError)) {
        FirstError = IsTrace ? std::move(ParseError) : IsTrace.takeError();
        Failed = true;
      }
      if (Failed) {
        consumeError(IsTrace.takeError());
        consumeError(std::move(ParseError));
        Turn.notify_all();
        return;
      }
      if (*IsTrace)
        Ok &= Builder.add(Path, Parser.Events, Parser.Origin);
      else
        ++Skipped;
      ++NextToAdd;
      Turn.notify_all();
    }
  };
  unsigned Threads =
      Opts.Threads ? Opts.Threads : std::thread::hardware_concurrency();
  Threads = std::max<size_t>(1, std::min<size_t>(Threads, Files->size()));
  std::vector<std::thread> Workers;
  for (unsigned T = 1; T < Threads; ++T)
    Workers.emplace_back(Work);
  Work();
  for (std::thread &W : Workers)
    W.join();
  if (Failed)
    return std::move(FirstError);
  if (!Builder.finish() || !Ok)
    return sumOverflow(Dir);
  size_t Traces = Files->size() - Skipped;
  if (!Traces)
    return makeError(
        ErrorCode::UnrecognizedFormat,
        Dir + ": is a directory without a clang time trace under it" +
            (Skipped ? " (" + Twine(Skipped) + " other .json files)" : ""));
  if (Skipped)
    Opts.Note(Dir + ": " + Twine(Traces) + " time traces read, " +
              Twine(Skipped) +
              " .json files skipped that are not clang time traces");
  return P;
}
