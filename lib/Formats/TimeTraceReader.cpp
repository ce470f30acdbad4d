//===- TimeTraceReader.cpp - clang -ftime-trace JSON in -------------------===//
//
// Reads clang time traces (clang 9 to 19; TimeTraceParser.cpp parses the
// JSON) into the IR: the event `us` (wall µs), one function per event name
// and detail, in the object of the compilation and the "file" of the event
// name (`Source` /usr/include/c++/12/vector, `InstantiateFunction`
// std::sort<...>, `Frontend` Frontend), so that KCachegrind groups by event
// kind. The nesting of the events is the call tree: self time is the time
// no event inside an event ran, a call carries count 1 and the child's
// duration, at line 0 but where the report needs the occurrences of a
// function told apart (numberEntries). The roots are kept as intervals
// (start since the trace's beginningOfTime origin).
//
// Events are read as ClangBuildAnalyzer reads them (docs/BuildProfiling.md),
// so that the build report matches its numbers: `X` events, and clang 19's
// `Source` `b`/`e` pairs made one event; `Total ...` summaries and metadata
// left out; all threads in one tree, sorted by start, then longest first; an
// event nests in the nearest event that contains it (both ends inclusive),
// a partial overlap never nests.
//
// A directory is read as one build: every `.json` under it that is a time
// trace (others are counted and skipped), one compilation each, parsed on
// every core and added to the profile in path order, so that the result
// does not depend on the number of threads.
//
//===----------------------------------------------------------------------===//

#include "TimeTraceParser.h"
#include "profkit/Formats/Format.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/InputStream.h"
#include "profkit/Support/Threads.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <queue>
#include <thread>

using namespace profkit;
using namespace llvm;

bool profkit::detectTimeTrace(StringRef Head) {
  return Head.ltrim().starts_with("{") && Head.contains("\"traceEvents\"");
}

namespace {

/// One trace's tree, aggregated as the IR holds it: a function for each
/// event name and detail, self time and calls between them. Made by each
/// thread for the traces it parsed, apart from the profile.
class TraceTree {
public:
  /// Sorts the trace's events and aggregates them; takes its functions.
  void build(StringRef TraceName, ParsedTrace &Trace);

  struct Call {
    uint32_t Caller, CallerEntry, Callee, CalleeEntry;
    uint64_t Count, Us;
  };
  struct Root {
    uint32_t Function;
    uint64_t Start, Duration;
  };
  SmallString<256> Object;
  /// The functions, as (event name, detail), and their names' memory.
  std::vector<std::pair<StringRef, StringRef>> Functions;
  BumpPtrAllocator NameMemory;
  std::vector<uint64_t> SelfUs;
  std::vector<Call> Calls; // Sorted by caller, entries, callee.
  std::vector<Root> Roots;

private:
  static std::vector<uint32_t>
  passesByName(std::vector<std::pair<StringRef, StringRef>> &Functions);
  void findParents(const std::vector<TraceEvent> &Events);
  void numberEntries(const std::vector<TraceEvent> &Events);
  void sweepSelf(const std::vector<TraceEvent> &Events);

  // Per event; kept to reuse their memory.
  std::vector<size_t> Parent, AnalyzedParent, AnalyzedAbove;
  std::vector<bool> Analyzed, Ended;
  std::vector<uint32_t> Entry; // The entry number of a header.
  // For numberEntries: per event, per function.
  std::vector<bool> Below;
  std::vector<bool> IsClimbedFrom, Numbered;
  std::vector<uint32_t> Occurrences, LastEntry;
  static constexpr size_t NoParent = ~size_t(0);
};

/// Adds trace trees to one profile and part, one compilation each.
class TraceBuilder {
public:
  explicit TraceBuilder(Profile &P);
  /// False if a sum overflowed.
  [[nodiscard]] bool add(const TraceTree &T);
  [[nodiscard]] bool finish() { return Pt.finalize(); }
  /// Room for the functions of every trace, guessed from those read so far
  /// (Done of Total bytes of JSON), at most MaxBytes of them. A build's
  /// compilations are alike, and a vector that doubles copies its contents
  /// each time: twice the guess is mapped once, and only the pages used are
  /// ever touched.
  void reserveFor(uint64_t Done, uint64_t Total, uint64_t MaxBytes) {
    size_t Have = P.numFunctions();
    if (!Have || Done < std::min<uint64_t>(Total, 4 << 20))
      return; // Too little read to tell.
    double Guess = double(Have) * double(Total) / double(Done);
    if (double(P.functionCapacity()) >= Guess * 1.1)
      return;
    double Bytes = 2 * Guess * sizeof(Function);
    if (!MaxBytes || Bytes <= double(MaxBytes))
      P.reserveFunctions(size_t(2 * Guess));
  }

private:
  Profile &P;
  Part &Pt;
  RowLayout L;
  std::vector<FuncId> Func;
};

} // namespace

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

void TraceTree::build(StringRef TraceName, ParsedTrace &Trace) {
  std::vector<TraceEvent> &Events = Trace.Events;
  // The compilation: the object beside the trace, else the trace.
  Object = TraceName;
  if (sys::path::extension(Object) == ".json") {
    sys::path::replace_extension(Object, ".o");
    if (!sys::fs::exists(Object))
      Object = TraceName;
  }
  sys::path::remove_dots(Object, /*remove_dot_dot=*/true);

  // By start, then longest first, then last in the file first. Events come
  // in the order they ended, children before parents, which std::sort's
  // pivots handle badly; a merge sort of the reversed list keeps the last
  // rule for free.
  std::reverse(Events.begin(), Events.end());
  std::stable_sort(Events.begin(), Events.end(),
                   [](const TraceEvent &A, const TraceEvent &B) {
                     return A.Start != B.Start ? A.Start < B.Start
                                               : A.Duration > B.Duration;
                   });
  // The functions, without those of dropped events (a `b` without its `e`)
  // and without the IR unit a pass ran on (the pass is the function).
  std::vector<uint32_t> Target = passesByName(Trace.Functions);
  Functions.clear();
  std::vector<uint32_t> Index(Trace.Functions.size(), ~0u);
  for (TraceEvent &E : Events) {
    uint32_t From = Target[E.Function];
    uint32_t &I = Index[From];
    if (I == ~0u) {
      I = Functions.size();
      Functions.push_back(Trace.Functions[From]);
    }
    E.Function = I;
  }
  NameMemory = std::move(Trace.NameMemory);
  Trace.Functions.clear();
  findParents(Events);
  numberEntries(Events);

  // The calls, summed per (caller, entry, callee, entry); a call's
  // inclusive time is the callee event's duration.
  Calls.clear();
  Roots.clear();
  for (size_t I = 0; I != Events.size(); ++I) {
    const TraceEvent &E = Events[I];
    if (Parent[I] == NoParent)
      Roots.push_back({E.Function, Trace.Origin + E.Start, E.Duration});
    else
      Calls.push_back({Events[Parent[I]].Function, Entry[Parent[I]], E.Function,
                       Entry[I], 1, E.Duration});
  }
  llvm::sort(Calls, [](const Call &A, const Call &B) {
    return std::tie(A.Caller, A.CallerEntry, A.Callee, A.CalleeEntry) <
           std::tie(B.Caller, B.CallerEntry, B.Callee, B.CalleeEntry);
  });
  size_t Out = 0;
  for (size_t I = 0; I != Calls.size(); ++I) {
    const Call &C = Calls[I];
    if (Out &&
        std::tie(C.Caller, C.CallerEntry, C.Callee, C.CalleeEntry) ==
            std::tie(Calls[Out - 1].Caller, Calls[Out - 1].CallerEntry,
                     Calls[Out - 1].Callee, Calls[Out - 1].CalleeEntry)) {
      Calls[Out - 1].Count += 1;
      Calls[Out - 1].Us += C.Us; // A trace's µs sum stays below 2^64.
    } else {
      Calls[Out++] = C;
    }
  }
  Calls.resize(Out);
  sweepSelf(Events);
}

/// The new pass manager's events are named by the pass or analysis, with
/// the IR unit it ran on as the detail: a function, `[module]` or an SCC
/// `(f, g)`. A pass is what a build engineer asks about, and the functions
/// are OptFunction's: each such event is mapped to the function of its
/// name alone (added to Functions if missing; other functions map to
/// themselves). The parser maps those it can tell by their look
/// (looksLikeIRUnit); these are unmangled (C) functions and their SCCs.
std::vector<uint32_t> TraceTree::passesByName(
    std::vector<std::pair<StringRef, StringRef>> &Functions) {
  // The functions the optimizer ran on: the function pass manager runs on
  // each (an OptFunction names only those that reach code generation).
  DenseSet<StringRef> Units;
  for (auto [Name, Detail] : Functions)
    if (Name == "OptFunction" || Name == "PassManager<Function>")
      Units.insert(Detail);
  auto IsUnit = [&](StringRef Detail) {
    if (Units.contains(Detail))
      return true;
    if (!Detail.consume_front("(") || !Detail.consume_back(")"))
      return false; // An SCC, `(f, g)`.
    SmallVector<StringRef, 8> Members;
    Detail.split(Members, ", ");
    return all_of(Members, [&](StringRef M) { return Units.contains(M); });
  };
  DenseMap<StringRef, uint32_t> ByName;
  for (size_t F = 0; F != Functions.size(); ++F)
    if (Functions[F].second.empty())
      ByName.try_emplace(Functions[F].first, F);
  std::vector<uint32_t> Target(Functions.size());
  for (size_t F = 0, E = Functions.size(); F != E; ++F) {
    auto [Name, Detail] = Functions[F];
    Target[F] = F;
    if (Detail.empty() || isAnalyzedEvent(Name) || !IsUnit(Detail))
      continue;
    auto [It, New] = ByName.try_emplace(Name, Functions.size());
    if (New)
      Functions.push_back({Name, StringRef()});
    Target[F] = It->second;
  }
  return Target;
}

/// Parents by containment: the nearest event that contains each one, on
/// the chain above the event before it. ClangBuildAnalyzer builds its tree
/// of ten kinds of events only. Where another event overlaps one of those
/// without nesting in it (the parse of a declaration that begins in a
/// header and ends after it), containment alone would put an event it
/// reads under a different one of its kinds than it does: such an event
/// takes ClangBuildAnalyzer's parent, so that the report agrees with it.
void TraceTree::findParents(const std::vector<TraceEvent> &Events) {
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
    Analyzed[I] = isAnalyzedEvent(Functions[Events[I].Function].first);
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
}

/// The report asks, of each instantiation and each header, what is above
/// it: an instantiation of the same set, the headers that included it. The
/// profile keeps one function per name and detail, which loses that where
/// a function above occurs more than once in the compilation (an
/// unguarded header such as clang's stddef.h, an overload's instantiation,
/// the two Frontend events). Such a function numbers its occurrences 1,
/// 2, ... in the lines of the calls into them and out of them, so that the
/// calls still form the tree there; any other event is at line 0.
void TraceTree::numberEntries(const std::vector<TraceEvent> &Events) {
  IsClimbedFrom.resize(Functions.size());
  for (size_t F = 0; F != Functions.size(); ++F)
    IsClimbedFrom[F] = Functions[F].first == "Source" ||
                       Functions[F].first == "InstantiateClass" ||
                       Functions[F].first == "InstantiateFunction";
  // Below: an instantiation or a header is below the event. Parents come
  // before their children in the sort order.
  Below.assign(Events.size(), false);
  for (size_t I = Events.size(); I--;)
    if ((Below[I] || IsClimbedFrom[Events[I].Function]) &&
        Parent[I] != NoParent)
      Below[Parent[I]] = true;
  Occurrences.assign(Functions.size(), 0);
  Numbered.assign(Functions.size(), false);
  for (size_t I = 0; I != Events.size(); ++I) {
    ++Occurrences[Events[I].Function];
    Numbered[Events[I].Function] = Numbered[Events[I].Function] || Below[I];
  }
  Entry.assign(Events.size(), 0);
  LastEntry.assign(Functions.size(), 0);
  for (size_t I = 0; I != Events.size(); ++I) {
    uint32_t F = Events[I].Function;
    if (Numbered[F] && Occurrences[F] > 1)
      Entry[I] = ++LastEntry[F];
  }
}

/// Self time: each moment goes to the innermost event then running, the
/// one last in the sort order (latest start, then shortest). clang 19's
/// Source events overlap the events beside them without nesting; this way
/// overlapped time counts once, and self times add up to the wall time of
/// the roots.
void TraceTree::sweepSelf(const std::vector<TraceEvent> &Events) {
  SelfUs.assign(Functions.size(), 0);
  // The running events, latest in the sort order on top; an event that
  // has ended leaves when it comes to the top.
  std::priority_queue<size_t> Running;
  std::priority_queue<std::pair<uint64_t, size_t>,
                      std::vector<std::pair<uint64_t, size_t>>, std::greater<>>
      Ends;
  Ended.assign(Events.size(), false);
  uint64_t Now = Events.empty() ? 0 : Events.front().Start;
  auto Charge = [&](uint64_t Until) {
    while (!Running.empty() && Ended[Running.top()])
      Running.pop();
    if (!Running.empty() && Until > Now)
      SelfUs[Events[Running.top()].Function] += Until - Now;
    Now = std::max(Now, Until);
  };
  auto RunUntil = [&](uint64_t Until) {
    while (!Ends.empty() && Ends.top().first <= Until) {
      auto [End, J] = Ends.top();
      Ends.pop();
      Charge(End);
      Ended[J] = true;
    }
    Charge(Until);
  };
  for (size_t I = 0; I != Events.size(); ++I) {
    RunUntil(Events[I].Start);
    Running.push(I);
    Ends.push({Events[I].Start + Events[I].Duration, I});
  }
  RunUntil(UINT64_MAX);
}

TraceBuilder::TraceBuilder(Profile &P)
    : P(P), Pt(*P.parts().front()), L(Pt.layout()) {}

bool TraceBuilder::add(const TraceTree &T) {
  // A new object's functions are all new, and a trace's are distinct.
  bool NewObject = !P.Strings.lookup(T.Object);
  StrId ObjectId = P.Strings.intern(T.Object);
  Func.resize(T.Functions.size());
  for (size_t I = 0; I != T.Functions.size(); ++I) {
    auto [Name, Detail] = T.Functions[I];
    StrId File = P.Strings.intern(Name);
    StrId FnName = Detail.empty() ? File : P.Strings.intern(Detail);
    Func[I] = NewObject ? P.addNewFunction(ObjectId, File, FnName)
                        : P.getOrAddFunction(ObjectId, File, FnName);
  }
  bool Ok = true;
  for (const TraceTree::Root &R : T.Roots)
    Pt.makeIntervals().push_back({Func[R.Function], 0, R.Start, R.Duration});
  auto Call = T.Calls.begin();
  for (size_t I = 0; I != T.Functions.size(); ++I) {
    FunctionData &FD = Pt.getOrCreate(Func[I]);
    StrId File = P.function(Func[I]).File;
    for (; Call != T.Calls.end() && Call->Caller == I; ++Call) {
      CallKey K(L);
      K.position()[0] = Call->CallerEntry;
      K.setSourceFile(File);
      K.setCallee(Func[Call->Callee]);
      K.target()[0] = Call->CalleeEntry;
      uint64_t Values[] = {Call->Count, Call->Us};
      Ok &= FD.makeCalls().add(K.key(), Values);
    }
    SelfKey K(L);
    K.setSourceFile(File);
    uint64_t Values[] = {T.SelfUs[I]};
    Ok &= FD.Self.add(K.key(), Values);
    // A compilation's functions are its own: their rows are complete.
    Ok &= FD.Self.finalize();
    FD.Self.shrink();
    if (FD.hasCalls()) {
      Ok &= FD.makeCalls().finalize();
      FD.makeCalls().shrink();
    }
  }
  return Ok;
}

Expected<std::unique_ptr<Profile>> profkit::readTimeTrace(InputStream &In,
                                                          const ReadOptions &) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = In.readAll();
  if (!Buf)
    return Buf.takeError();
  TraceParser Parser;
  Parser.setContents((*Buf)->getBuffer());
  Buf->reset();
  ParsedTrace Trace;
  if (Error E = Parser.parse(In.name(), Trace))
    return std::move(E);
  TraceTree Tree;
  Tree.build(In.name(), Trace);
  std::unique_ptr<Profile> P = makeTraceProfile(In.name());
  TraceBuilder Builder(*P);
  if (!Builder.add(Tree) || !Builder.finish())
    return sumOverflow(In.name());
  return P;
}

/// The `.json` files under Dir, recursively, in bytewise path order;
/// directories whose names start with '.' are left out, as
/// ClangBuildAnalyzer leaves them out.
struct JsonFile {
  std::string Path;
  uint64_t Size;
};

static Expected<std::vector<JsonFile>> findJsonFiles(StringRef Dir) {
  std::vector<JsonFile> Files;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Dir, EC, /*follow=*/false), End;
       It != End && !EC; It.increment(EC)) {
    StringRef Path = It->path();
    StringRef Base = sys::path::filename(Path);
    sys::fs::file_type Type = It->type();
    if (Type == sys::fs::file_type::symlink_file) {
      // A link to a trace is read; one to a directory is not followed, so
      // that a link up the tree cannot loop.
      sys::fs::file_status St;
      Type = sys::fs::status(Path, St) ? sys::fs::file_type::status_error
                                       : St.type();
    } else if (Type == sys::fs::file_type::directory_file &&
               Base.starts_with(".")) {
      It.no_push();
    }
    uint64_t Size;
    if (Type == sys::fs::file_type::regular_file && Base.ends_with(".json") &&
        !sys::fs::file_size(Path, Size))
      Files.push_back({Path.str(), Size});
  }
  if (EC)
    return createFileError(Dir, EC);
  llvm::sort(Files, [](const JsonFile &A, const JsonFile &B) {
    return A.Path < B.Path;
  });
  return Files;
}

Expected<std::unique_ptr<Profile>>
profkit::readTimeTraceDirectory(StringRef Dir, const ReadOptions &Opts) {
  Expected<std::vector<JsonFile>> Files = findJsonFiles(Dir);
  if (!Files)
    return Files.takeError();
  uint64_t TotalBytes = 0, AddedBytes = 0;
  for (const JsonFile &F : *Files)
    TotalBytes += F.Size;
  std::unique_ptr<Profile> P = makeTraceProfile(Dir);
  TraceBuilder Builder(*P);

  // Files are parsed on every thread, and their trees added to the profile
  // in path order: a tree that is done before those of the files ahead of
  // it waits, holding its own copy of its names, so its thread parses on,
  // up to MaxAhead files past the first one not yet added (a large trace
  // first and thousands of small ones after must not pile up).
  struct Result {
    std::unique_ptr<TraceTree> Tree; // Null: not a time trace.
    Error Err = Error::success();
  };
  std::mutex Lock;
  std::condition_variable Added;
  constexpr size_t MaxAhead = 64;
  std::map<size_t, Result> Ready;
  std::atomic<size_t> NextToParse{0};
  size_t NextToAdd = 0, Skipped = 0;
  Error FirstError = Error::success();
  std::atomic<bool> Failed{false};
  bool Ok = true;
  auto AddReady = [&] {
    for (auto It = Ready.begin();
         !Failed && It != Ready.end() && It->first == NextToAdd;
         It = Ready.erase(It), ++NextToAdd) {
      if (It->second.Err) {
        FirstError = std::move(It->second.Err);
        Failed = true;
      } else if (It->second.Tree) {
        Ok &= Builder.add(*It->second.Tree);
        AddedBytes += (*Files)[NextToAdd].Size;
        Builder.reserveFor(AddedBytes, TotalBytes, Opts.MaxMemory / 2);
      } else {
        ++Skipped;
        TotalBytes -= (*Files)[NextToAdd].Size;
      }
    }
  };
  auto Work = [&] {
    TraceParser Parser;
    ParsedTrace Trace;
    while (!Failed) {
      size_t I = NextToParse++;
      if (I >= Files->size())
        return;
      {
        std::unique_lock<std::mutex> Hold(Lock);
        Added.wait(Hold, [&] { return Failed || I < NextToAdd + MaxAhead; });
      }
      const std::string &Path = (*Files)[I].Path;
      Result R;
      Expected<bool> IsTrace = Parser.parseFile(Path, Opts.MaxMemory, Trace);
      if (!IsTrace) {
        R.Err = IsTrace.takeError();
      } else if (*IsTrace) {
        R.Tree = std::make_unique<TraceTree>();
        R.Tree->build(Path, Trace);
      }
      std::lock_guard<std::mutex> Hold(Lock);
      Ready.emplace(I, std::move(R));
      AddReady();
      Added.notify_all();
    }
  };
  unsigned Threads =
      Opts.Threads ? Opts.Threads : availableThreads(Opts.MaxThreads);
  Threads = std::max<size_t>(1, std::min<size_t>(Threads, Files->size()));
  std::vector<std::thread> Workers;
  for (unsigned T = 1; T < Threads; ++T)
    Workers.emplace_back(Work);
  Work();
  for (std::thread &W : Workers)
    W.join();
  for (auto &[I, R] : Ready) // Behind a failure.
    consumeError(std::move(R.Err));
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
