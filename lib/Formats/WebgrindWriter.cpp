//===- WebgrindWriter.cpp - Writing webgrind's preprocessed format --------===//
//
// Writes the binary file webgrind's Reader loads (format version 7, or 5 and
// 6 on request) from any profile: one record per function (object, file,
// name), in function-id order; its line is its entry's (see functionLines);
// self and inclusive cost of one event (InclusiveCost, so recursion is
// not counted twice); the number of calls into it; called-from and sub-call
// records per (function, call line). See docs/Webgrind.md.
//
// Every number is a little-endian uint32: values over 2^32-1 saturate, or with
// WebgrindScale all costs are divided by a power of ten, never wrapped.
//
//===----------------------------------------------------------------------===//

#include "profkit/Analysis/InclusiveCost.h"
#include "profkit/Analysis/Totals.h"
#include "profkit/Formats/Format.h"
#include "profkit/IR/Profile.h"
#include "profkit/Support/Error.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace profkit;
using namespace llvm;

namespace {

struct CallRecord {
  FuncId Caller, Callee;
  uint64_t Line, Count, Cost;
};

class WebgrindWriter {
public:
  WebgrindWriter(const Profile &P, raw_ostream &OS, const PassParams &Params,
                 const WriteContext &Ctx)
      : P(P), OS(OS), Params(Params), Ctx(Ctx) {}
  Error write();

private:
  void collect();
  void functionLines();
  uint32_t count(uint64_t V, const Twine &What);
  uint32_t cost(uint64_t V, const Twine &What);
  void word(uint32_t V) {
    char B[4];
    support::endian::write32le(B, V);
    OS.write(B, 4);
  }
  std::string clean(StringRef S);
  StringRef name(FuncId F) const { return P.functionName(F); }

  const Profile &P;
  raw_ostream &OS;
  const PassParams &Params;
  const WriteContext &Ctx;

  std::optional<unsigned> Event;
  uint64_t Scale = 1;
  std::vector<uint64_t> Lines;
  std::vector<CallRecord> Calls;  // Sorted by caller, callee, line.
  std::vector<uint32_t> ByCallee; // Indexes into Calls, by callee, caller.
  uint64_t Saturated = 0;
  std::string FirstSaturated;
  bool WarnedNewline = false;
};

} // namespace

uint32_t WebgrindWriter::count(uint64_t V, const Twine &What) {
  if (V <= UINT32_MAX)
    return uint32_t(V);
  if (!Saturated++)
    FirstSaturated = What.str();
  return UINT32_MAX;
}

uint32_t WebgrindWriter::cost(uint64_t V, const Twine &What) {
  if (Scale != 1)
    V = V / Scale + (V % Scale >= (Scale + 1) / 2);
  return count(V, What);
}

std::string WebgrindWriter::clean(StringRef S) {
  std::string R = S.str();
  if (R.find_first_of("\n\r") != std::string::npos) {
    std::replace(R.begin(), R.end(), '\n', ' ');
    std::replace(R.begin(), R.end(), '\r', ' ');
    if (!WarnedNewline)
      Ctx.Warn("webgrind names and headers cannot hold line breaks; written "
               "as blanks in '" +
               R + "'");
    WarnedNewline = true;
  }
  return R;
}

/// A function's line is where it starts, not the lowest line of its rows,
/// which may be code inlined into it (fib's line 14 inside worker at 43):
///  1. the line calls into it target (callgrind writes the callee's entry);
///  2. else, with instruction addresses, the line of its lowest address in
///     its own file;
///  3. else the line of its first row as the profiler wrote them
///     (FunctionValueKind::FirstLine: Xdebug's first call of php::range);
///  4. else the lowest line in its own file, else of any of its rows.
/// A function without self rows (gprof's main, which has no samples) takes
/// rules 2 and 4 from its call rows.
void WebgrindWriter::functionLines() {
  const size_t N = P.numFunctions();
  std::vector<uint64_t> Target(N, UINT64_MAX), Entry(N, UINT64_MAX),
      EntryLine(N, 0), Own(N, UINT64_MAX), Any(N, UINT64_MAX);
  std::vector<std::optional<uint64_t>> First(N);
  std::vector<bool> HasSelf(N, false);
  for (bool CallRows : {false, true})
    for (const auto &Pt : P.parts()) {
      RowLayout L = Pt->layout();
      std::optional<unsigned> LineIdx = Pt->positionIndex(PositionKind::Line);
      if (!LineIdx)
        continue;
      std::optional<unsigned> InstrIdx = Pt->positionIndex(PositionKind::Instr);
      for (const FunctionData &FD : Pt->functions()) {
        StrId OwnFile = P.function(FD.Id).File;
        auto Place = [&](const Row &R) {
          uint64_t Line = L.position(R)[*LineIdx];
          Any[FD.Id] = std::min(Any[FD.Id], Line);
          if (L.sourceFile(R) != OwnFile)
            return;
          Own[FD.Id] = std::min(Own[FD.Id], Line);
          if (InstrIdx && L.position(R)[*InstrIdx] < Entry[FD.Id]) {
            Entry[FD.Id] = L.position(R)[*InstrIdx];
            EntryLine[FD.Id] = Line;
          }
        };
        if (!CallRows) {
          if (!First[FD.Id])
            First[FD.Id] = FD.values().get(FunctionValueKind::FirstLine);
          for (const Row &R : FD.Self)
            Place(R);
          HasSelf[FD.Id] = HasSelf[FD.Id] || !FD.Self.empty();
          continue;
        }
        for (const Row &R : FD.calls()) {
          if (!HasSelf[FD.Id])
            Place(R);
          if (uint64_t Line = L.callTarget(R)[*LineIdx])
            Target[L.callee(R)] = std::min(Target[L.callee(R)], Line);
        }
      }
    }
  Lines.assign(N, 0);
  for (size_t F = 0; F != N; ++F) {
    if (Target[F] != UINT64_MAX)
      Lines[F] = Target[F];
    else if (Entry[F] != UINT64_MAX)
      Lines[F] = EntryLine[F];
    else if (First[F])
      Lines[F] = *First[F];
    else if (Own[F] != UINT64_MAX)
      Lines[F] = Own[F];
    else if (Any[F] != UINT64_MAX)
      Lines[F] = Any[F];
  }
}

void WebgrindWriter::collect() {
  functionLines();
  for (const auto &Pt : P.parts()) {
    RowLayout L = Pt->layout();
    std::optional<unsigned> LineIdx = Pt->positionIndex(PositionKind::Line);
    for (const FunctionData &FD : Pt->functions())
      for (const Row &R : FD.calls())
        Calls.push_back({FD.Id, L.callee(R),
                         LineIdx ? L.position(R)[*LineIdx] : 0, R.value(0),
                         Event ? R.value(1 + *Event) : 0});
  }
  // One record per (caller, callee, call line): merge call rows that differ
  // only in source file, other positions or target.
  llvm::sort(Calls, [](const CallRecord &A, const CallRecord &B) {
    return std::tie(A.Caller, A.Callee, A.Line) <
           std::tie(B.Caller, B.Callee, B.Line);
  });
  size_t Out = 0;
  for (size_t I = 0; I != Calls.size(); ++I) {
    if (Out && Calls[Out - 1].Caller == Calls[I].Caller &&
        Calls[Out - 1].Callee == Calls[I].Callee &&
        Calls[Out - 1].Line == Calls[I].Line) {
      (void)addCost(Calls[Out - 1].Count, Calls[I].Count);
      (void)addCost(Calls[Out - 1].Cost, Calls[I].Cost);
      continue;
    }
    Calls[Out++] = Calls[I];
  }
  Calls.resize(Out);
  ByCallee.resize(Calls.size());
  for (size_t I = 0; I != Calls.size(); ++I)
    ByCallee[I] = I;
  llvm::stable_sort(ByCallee, [&](uint32_t A, uint32_t B) {
    return Calls[A].Callee < Calls[B].Callee;
  });
}

Error WebgrindWriter::write() {
  unsigned Version;
  if (Params.get("version").getAsInteger(10, Version) || Version < 5 ||
      Version > 7)
    return Params.invalid("version", "expected 5, 6 or 7");
  StringRef Wanted = Params.get("event");
  if (!Wanted.empty()) {
    Event = P.findEvent(Wanted);
    if (!Event) {
      std::string Known;
      for (const EventType &E : P.events())
        Known += (Known.empty() ? "" : ", ") + E.Name;
      return Params.invalid("event", "no event '" + Wanted +
                                         "' in the profile (events: " + Known +
                                         ")");
    }
  } else if (!P.events().empty()) {
    Event = 0;
  }
  if (P.events().size() > 1) {
    std::string Dropped;
    for (unsigned E = 0; E != P.events().size(); ++E)
      if (E != *Event)
        Dropped += (Dropped.empty() ? "" : ", ") + P.events()[E].Name;
    Ctx.Warn("the webgrind format holds one event: writing " +
             P.events()[*Event].Name + ", dropping " + Dropped +
             " (webgrind<event=NAME> chooses)");
  }

  InclusiveCost IC = InclusiveCost::compute(P);
  collect();

  // Summaries per part, for the chosen event.
  std::vector<uint64_t> Summaries;
  for (const auto &Pt : P.parts())
    Summaries.push_back(Event ? partRunTotal(*Pt, P.events().size())[*Event]
                              : 0);

  const size_t N = P.numFunctions();
  auto Inclusive = [&](FuncId F) -> uint64_t {
    return Event ? IC.inclusive(F)[*Event] : 0;
  };
  auto Self = [&](FuncId F) -> uint64_t {
    return Event ? IC.self(F)[*Event] : 0;
  };
  if (Params.getFlag("scale")) {
    uint64_t Max = 0;
    for (FuncId F = 0; F != N; ++F)
      Max = std::max({Max, Self(F), Inclusive(F)});
    for (const CallRecord &C : Calls)
      Max = std::max(Max, C.Cost);
    for (uint64_t S : Summaries)
      Max = std::max(Max, S);
    while (Max / Scale > UINT32_MAX)
      Scale *= 10;
  }

  // Function records: fixed words, call records, file, name.
  const unsigned Fixed = Version == 7 ? 6 : Version == 6 ? 5 : 4;
  std::vector<std::string> Files, Names;
  std::vector<uint32_t> CallsFrom(N, 0), SubCalls(N, 0), SubStart(N + 1, 0),
      FromStart(N + 1, 0);
  for (const CallRecord &C : Calls) {
    ++SubCalls[C.Caller];
    ++CallsFrom[C.Callee];
  }
  for (size_t F = 0; F != N; ++F) {
    SubStart[F + 1] = SubStart[F] + SubCalls[F];
    FromStart[F + 1] = FromStart[F] + CallsFrom[F];
  }
  const bool Placeholder = N == 0;
  const size_t Records = Placeholder ? 1 : N;
  if (Placeholder)
    Ctx.Warn("the profile has no function; writing a placeholder function so "
             "that webgrind can open the file");
  std::vector<uint64_t> Address(Records);
  uint64_t Offset = 12 + 4 * uint64_t(Records);
  for (size_t F = 0; F != Records; ++F) {
    Files.push_back(Placeholder ? ""
                                : clean(P.Strings.str(P.function(F).File)));
    Names.push_back(Placeholder ? "(no functions)" : clean(P.functionName(F)));
    Address[F] = Offset;
    uint64_t NumCalls = Placeholder ? 0 : CallsFrom[F];
    if (Version != 5 && !Placeholder)
      NumCalls += SubCalls[F];
    Offset +=
        4 * Fixed + 16 * NumCalls + Files[F].size() + 1 + Names[F].size() + 1;
  }
  if (Offset > UINT32_MAX)
    return createStringError(make_error_code(ErrorCode::InvalidArgument),
                             "the webgrind file would be %llu bytes; its "
                             "offsets are 32-bit",
                             (unsigned long long)Offset);

  word(Version);
  word(uint32_t(Offset));
  word(uint32_t(Records));
  for (uint64_t A : Address)
    word(uint32_t(A));
  auto WriteCall = [&](const CallRecord &C, FuncId Other) {
    word(Other);
    word(count(C.Line, "a call line in '" + name(C.Caller) + "'"));
    word(count(C.Count, "the call count from '" + name(C.Caller) + "' to '" +
                            name(C.Callee) + "'"));
    word(cost(C.Cost, "the call cost from '" + name(C.Caller) + "' to '" +
                          name(C.Callee) + "'"));
  };
  for (size_t F = 0; F != Records; ++F) {
    if (Placeholder) {
      for (unsigned I = 0; I != Fixed; ++I)
        word(I == (Version == 7 ? 3 : 2)); // One invocation.
    } else {
      uint64_t Invocations = IC.calls(F);
      if (!IC.hasCallers(F))
        (void)addCost(Invocations, IC.partsWithData(F));
      if (Version == 7)
        word(count(Lines[F], "the line of '" + name(F) + "'"));
      word(cost(Self(F), "the self cost of '" + name(F) + "'"));
      word(cost(Inclusive(F), "the inclusive cost of '" + name(F) + "'"));
      word(count(Invocations, "the invocation count of '" + name(F) + "'"));
      word(CallsFrom[F]);
      if (Version != 5)
        word(SubCalls[F]);
      for (uint32_t I = FromStart[F]; I != FromStart[F + 1]; ++I)
        WriteCall(Calls[ByCallee[I]], Calls[ByCallee[I]].Caller);
      if (Version != 5)
        for (uint32_t I = SubStart[F]; I != SubStart[F + 1]; ++I)
          WriteCall(Calls[I], Calls[I].Callee);
    }
    OS << Files[F] << '\n' << Names[F] << '\n';
  }

  // Headers: per part, its header lines, then positions, events, summary.
  std::string EventName = Event ? P.events()[*Event].Name : "Cost";
  if (Scale != 1)
    EventName += "_(x" + std::to_string(Scale) + ")";
  for (size_t I = 0; I != P.parts().size(); ++I) {
    const Part &Pt = *P.parts()[I];
    // webgrind shows these; write them even when the input had none.
    if (Pt.header("version").empty())
      OS << "version: 1\n";
    if (Pt.header("creator").empty())
      OS << "creator: profkit\n";
    for (const HeaderLine &H : Pt.Header)
      if (!isFieldHeader(H.Key))
        OS << clean(H.Key) << ": " << clean(H.Value) << '\n';
    if (Pt.header("cmd").empty())
      OS << "cmd: " << clean(P.SourceName) << '\n';
    if (Pt.header("part").empty())
      OS << "part: " << I + 1 << '\n';
    OS << "positions: line\n";
    // A webgrind file read back keeps its events: and summary: lines as
    // they were (`events: Time_(10ns) Memory_(bytes)`), when they still say
    // what is written; else they are made anew.
    StringRef Events = Pt.header("events"), Summary = Pt.header("summary");
    std::string SummaryValue =
        std::to_string(cost(Summaries[I], "the summary"));
    if (Events.split(' ').first != EventName)
      Events = "", Summary = "";
    if (Summary.split(' ').first != SummaryValue)
      Summary = "";
    OS << "events: " << clean(Events.empty() ? StringRef(EventName) : Events)
       << "\nsummary: " << (Summary.empty() ? StringRef(SummaryValue) : Summary)
       << '\n';
  }

  // webgrind has no objects; name the object of each function whose file and
  // name another function shares, so that they stay apart when read back.
  DenseMap<std::pair<StrId, StrId>, unsigned> Seen;
  for (size_t F = 0; F != N; ++F)
    ++Seen[{P.function(F).File, P.function(F).Name}];
  size_t ObjectsDropped = 0;
  for (size_t F = 0; F != N; ++F) {
    const profkit::Function &Fn = P.function(F);
    if (Fn.Object && Seen[{Fn.File, Fn.Name}] > 1)
      OS << "object: " << F << ' ' << clean(P.Strings.str(Fn.Object)) << '\n';
    else if (Fn.Object)
      ++ObjectsDropped;
  }
  if (ObjectsDropped)
    Ctx.Warn("the webgrind format has no objects: " +
             (ObjectsDropped == 1 ? Twine("the object of 1 function is")
                                  : "the objects of " + Twine(ObjectsDropped) +
                                        " functions are") +
             " dropped (kept only where two functions share a file and "
             "name)");

  if (Saturated)
    Ctx.Warn(Twine(Saturated) + " value" + (Saturated == 1 ? "" : "s") +
             " over 4294967295 cannot be stored in the webgrind format and " +
             (Saturated == 1 ? "was" : "were") +
             " written as 4294967295 (first: " + FirstSaturated + ")" +
             (Params.getFlag("scale") ? "" : "; webgrind<scale> scales costs"));
  else if (Scale != 1)
    Ctx.Warn("costs over 4294967295 do not fit the webgrind format; all "
             "costs are divided by " +
             Twine(Scale) + " (event " + EventName + ")");
  return Error::success();
}

Error profkit::writeWebgrind(const Profile &P, raw_ostream &OS,
                             const PassParams &Params,
                             const WriteContext &Ctx) {
  if (Error E = requireFunctions(P))
    return E;
  warnDroppedData(P, "webgrind", Ctx);
  return WebgrindWriter(P, OS, Params, Ctx).write();
}
