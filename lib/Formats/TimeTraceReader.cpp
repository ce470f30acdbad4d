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
//===----------------------------------------------------------------------===//

#include "profkit/Formats/Format.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/InputStream.h"
#include "profkit/Support/Saturating.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <queue>
#include <set>
#include <simdjson.h>

using namespace profkit;
using namespace llvm;

bool profkit::detectTimeTrace(StringRef Head) {
  return Head.ltrim().starts_with("{") && Head.contains("\"traceEvents\"");
}

namespace {

struct TraceEvent {
  uint64_t Start, Duration;
  // Into the parser's string buffer, valid while it lives: the profile is
  // built before the parser goes.
  StringRef Name, Detail;
  uint32_t Order; // In the file, for ties (as ClangBuildAnalyzer).
};

class TimeTraceReader {
public:
  TimeTraceReader(StringRef Name) : Name(Name) {}
  Expected<std::unique_ptr<Profile>> read(const MemoryBuffer &Buf);

private:
  Error error(const Twine &Msg) const {
    return makeError(ErrorCode::Malformed, Name + ": " + Msg);
  }
  /// A JSON error, at the byte where the parser stopped.
  Error jsonError(simdjson::error_code EC) const;
  Error readEvents(simdjson::ondemand::array Events);
  std::unique_ptr<Profile> buildProfile(uint64_t Origin);

  std::string Name;
  const char *JsonStart = nullptr;
  simdjson::ondemand::document *Doc = nullptr;
  std::vector<TraceEvent> Events;
};

} // namespace

Error TimeTraceReader::jsonError(simdjson::error_code EC) const {
  const char *At = nullptr;
  if (Doc && !Doc->current_location().get(At) && JsonStart)
    return createOffsetError(Name, At - JsonStart, ErrorCode::Malformed,
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

Error TimeTraceReader::readEvents(simdjson::ondemand::array Array) {
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

std::unique_ptr<Profile> TimeTraceReader::buildProfile(uint64_t Origin) {
  auto P = std::make_unique<Profile>();
  P->SourceName = Name;
  P->getOrAddEvent("us");
  P->setEventLongName(0, "Wall time (microseconds)");
  Part &Pt = P->addPart({PositionKind::Line});
  RowLayout L = Pt.layout();

  // The compilation: the object beside the trace, else the trace.
  SmallString<256> Object(Name);
  if (sys::path::extension(Object) == ".json") {
    sys::path::replace_extension(Object, ".o");
    if (!sys::fs::exists(Object))
      Object = Name;
  }
  StrId ObjectId = P->Strings.intern(Object);

  llvm::sort(Events, [](const TraceEvent &A, const TraceEvent &B) {
    if (A.Start != B.Start)
      return A.Start < B.Start;
    if (A.Duration != B.Duration)
      return A.Duration > B.Duration;
    return A.Order > B.Order;
  });
  std::vector<FuncId> Func(Events.size());
  for (size_t I = 0; I != Events.size(); ++I) {
    const TraceEvent &E = Events[I];
    StrId File = P->Strings.intern(E.Name);
    Func[I] = P->getOrAddFunction(
        ObjectId, File, E.Detail.empty() ? File : P->Strings.intern(E.Detail));
  }

  // Parents by containment (the call rows); a call's inclusive time is
  // the callee event's duration.
  SmallVector<size_t, 64> Stack;
  bool Overflow = false;
  for (size_t I = 0; I != Events.size(); ++I) {
    const TraceEvent &E = Events[I];
    uint64_t End = E.Start + E.Duration;
    while (!Stack.empty()) {
      const TraceEvent &R = Events[Stack.back()];
      if (E.Start >= R.Start && End <= R.Start + R.Duration)
        break;
      Stack.pop_back();
    }
    if (Stack.empty()) {
      Pt.Intervals.push_back({Func[I], 0, Origin + E.Start, E.Duration});
    } else {
      size_t Parent = Stack.back();
      CallKey K(L);
      K.setSourceFile(P->function(Func[Parent]).File);
      K.setCallee(Func[I]);
      uint64_t Values[] = {1, E.Duration};
      Overflow |= !Pt.getOrCreate(Func[Parent]).Calls.add(K.key(), Values);
    }
    Stack.push_back(I);
  }

  // Self time: each moment goes to the innermost event then running, the
  // one last in the sort order (latest start, then shortest). clang 19's
  // Source events overlap the events beside them without nesting; this way
  // overlapped time counts once, and self times add up to the wall time of
  // the roots.
  std::vector<uint64_t> Self(Events.size(), 0);
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
    K.setSourceFile(P->function(Func[I]).File);
    uint64_t Values[] = {Self[I]};
    Overflow |= !Pt.getOrCreate(Func[I]).Self.add(K.key(), Values);
  }
  Overflow |= !Pt.finalize();
  (void)Overflow; // µs sums of one trace stay far below 2^64.
  return P;
}

Expected<std::unique_ptr<Profile>>
TimeTraceReader::read(const MemoryBuffer &Buf) {
  simdjson::padded_string Json(Buf.getBufferStart(), Buf.getBufferSize());
  JsonStart = Json.data();
  simdjson::ondemand::parser Parser;
  simdjson::ondemand::document Document;
  if (auto EC = Parser.iterate(Json).get(Document))
    return jsonError(EC);
  Doc = &Document;
  simdjson::ondemand::object Top;
  if (auto EC = Document.get_object().get(Top))
    return jsonError(EC);
  uint64_t Origin = 0;
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
        return std::move(E);
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
  return buildProfile(Origin);
}

Expected<std::unique_ptr<Profile>> profkit::readTimeTrace(InputStream &In,
                                                          const ReadOptions &) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = In.readAll();
  if (!Buf)
    return Buf.takeError();
  return TimeTraceReader(In.name()).read(**Buf);
}
