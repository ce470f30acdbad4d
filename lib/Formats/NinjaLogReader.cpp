//===- NinjaLogReader.cpp - ninja's .ninja_log in -------------------------===//
//
// Reads the latest build of a `.ninja_log` (log versions 5 to 7) into the IR
// as the time-trace reader lays out a compilation, so that the two join
// (build-join): the event `us` (wall µs), one part placed by line (always
// 0), one function per edge in the object and name of its first output
// joined to the log's directory and the "file" `ninja`, its self time the
// edge's end minus start, and one interval per edge on a lane of its own
// while it runs, so that a timeline shows the parallelism.
//
// The log is appended to by every build, each timed from its own start, so
// a new build is recognised where a line ends earlier than the line before
// it (ninja writes a line when its command finishes, so within a build the
// ends never go back) or where an output comes again (a build runs an edge
// once). The outputs of one edge are lines of equal start, end and command
// hash: one edge. See docs/BuildProfiling.md.
//
//===----------------------------------------------------------------------===//

#include "profkit/Formats/Format.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/InputStream.h"
#include "profkit/Support/Saturating.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Path.h"
#include <queue>

using namespace profkit;
using namespace llvm;

static constexpr StringLiteral HeaderPrefix = "# ninja log";

/// Does Line look like a log entry (start, end, mtime, output, hash)?
static bool looksLikeEntry(StringRef Line) {
  if (Line.count('\t') != 4)
    return false;
  auto [Start, Rest] = Line.split('\t');
  StringRef End = Rest.split('\t').first;
  return !Start.empty() && !End.empty() && all_of(Start, isDigit) &&
         all_of(End, isDigit);
}

bool profkit::detectNinjaLog(StringRef Head) {
  // A log without its header line is claimed too, to say what it lacks.
  return Head.starts_with(HeaderPrefix) ||
         looksLikeEntry(
             Head.take_until([](char C) { return C == '\n'; }).rtrim('\r'));
}

namespace {

/// A line of the build being read.
struct Entry {
  uint64_t Start, End; // ms since the build started.
  uint64_t Hash;
  StringRef Output; // A key of NinjaLogReader::Seen.
};

/// One edge of the latest build: its lines (outputs) share start, end and
/// command hash.
struct Edge {
  uint64_t Start, End;
  unsigned First, Last; // Its first and last lines in Build.
  unsigned NumOutputs;  // Its lines.
};

constexpr unsigned NoLine = ~0u;

class NinjaLogReader {
public:
  NinjaLogReader(InputStream &In, const ReadOptions &Opts)
      : In(In), Opts(Opts) {}
  Expected<std::unique_ptr<Profile>> read();

private:
  Error error(const Twine &Msg) const {
    return createFileError(In.name(), In.lineNumber(), ErrorCode::Malformed,
                           Msg);
  }
  Error readHeader(StringRef Line);
  Error readEntry(StringRef Line);
  void startBuild();
  /// The memory the lines take, and the profile will: about 500 bytes per
  /// edge (a function with its tables, its name, an interval; measured on a
  /// million edges).
  size_t bytesHeld() const {
    return Build.capacity() * sizeof(Entry) +
           Seen.getAllocator().getTotalMemory() +
           Seen.getNumBuckets() * (sizeof(void *) + sizeof(unsigned)) +
           Build.size() * 512;
  }
  /// The edges of the latest build, in the order of their first lines;
  /// Next chains the lines of each edge.
  std::vector<Edge> groupEdges(std::vector<unsigned> &Next);
  Expected<std::unique_ptr<Profile>> buildProfile();
  /// The output as a path from where the user is.
  void joinPath(StringRef Output, SmallVectorImpl<char> &Path) const;

  InputStream &In;
  const ReadOptions &Opts;
  unsigned Version = 0;
  /// The lines of the latest build so far.
  std::vector<Entry> Build;
  /// Each output seen, with the number of the build it was seen in last.
  StringMap<unsigned, BumpPtrAllocator> Seen;
  unsigned BuildNo = 1;
  uint64_t BuildFirstLine = 0; // The line the latest build starts at.
};

} // namespace

Error NinjaLogReader::readHeader(StringRef Line) {
  StringRef V = Line;
  unsigned N;
  if (!V.consume_front("# ninja log v") || V.getAsInteger(10, N)) {
    if (looksLikeEntry(Line))
      return error("no '# ninja log vN' header line: not a log ninja wrote");
    return error("not a ninja log header: '" + Line.take_front(80) +
                 "' (expected '# ninja log vN')");
  }
  // v4 and older hold the command where v5 holds its hash.
  if (N < 5 || N > 7)
    return error("ninja log version " + Twine(N) +
                 " is not read (profkit reads versions 5 to 7)");
  Version = N;
  return Error::success();
}

void NinjaLogReader::startBuild() {
  ++BuildNo;
  Build.clear();
  BuildFirstLine = In.lineNumber();
  // Outputs of earlier builds are no longer needed; forgetting them costs a
  // walk of the map, paid for by the insertions that filled it.
  if (Seen.size() >= 4096)
    Seen = StringMap<unsigned, BumpPtrAllocator>();
}

Error NinjaLogReader::readEntry(StringRef Line) {
  size_t Tabs = Line.count('\t');
  if (Tabs != 4)
    return error("expected 5 tab-separated fields (start, end, mtime, "
                 "output, command hash), found " +
                 Twine(Tabs + 1));
  StringRef F[5];
  for (unsigned I = 0; I != 4; ++I)
    std::tie(F[I], Line) = Line.split('\t');
  F[4] = Line;
  uint64_t Start, End, Hash;
  int64_t MTime;
  if (F[0].getAsInteger(10, Start))
    return error("start time '" + F[0].take_front(40) +
                 "' is not a number of milliseconds");
  if (F[1].getAsInteger(10, End))
    return error("end time '" + F[1].take_front(40) +
                 "' is not a number of milliseconds");
  if (End < Start)
    return error("the edge ends (" + Twine(End) + " ms) before it starts (" +
                 Twine(Start) + " ms)");
  // Times become µs: the end must stay below 2^64 µs (so does the start).
  if (End > UINT64_MAX / 1000)
    return error("end time " + Twine(End) + " ms is over 2^64-1 microseconds");
  if (F[2].getAsInteger(10, MTime))
    return error("mtime '" + F[2].take_front(40) + "' is not a number");
  if (F[3].empty())
    return error("the output path is empty");
  if (F[4].getAsInteger(16, Hash))
    return error("command hash '" + F[4].take_front(40) +
                 "' is not a 64-bit hexadecimal number");

  bool NewBuild = !Build.empty() && End < Build.back().End;
  if (!NewBuild) {
    auto It = Seen.find(F[3]);
    NewBuild = It != Seen.end() && It->second == BuildNo;
  }
  if (NewBuild)
    startBuild();
  auto It = Seen.insert_or_assign(F[3], BuildNo).first;
  Build.push_back({Start, End, Hash, It->first()});
  return Error::success();
}

void NinjaLogReader::joinPath(StringRef Output,
                              SmallVectorImpl<char> &Path) const {
  // As the user named the log: relative to where they are, like the traces.
  Path.clear();
  if (!sys::path::is_absolute(Output))
    sys::path::append(Path, sys::path::parent_path(In.name()));
  sys::path::append(Path, Output);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
}

std::vector<Edge> NinjaLogReader::groupEdges(std::vector<unsigned> &Next) {
  std::vector<Edge> Edges;
  Next.assign(Build.size(), NoLine);
  DenseMap<std::tuple<uint64_t, uint64_t, uint64_t>, unsigned> ByKey;
  for (unsigned I = 0; I != Build.size(); ++I) {
    const Entry &E = Build[I];
    auto [It, New] =
        ByKey.try_emplace({E.Start, E.End, E.Hash}, unsigned(Edges.size()));
    if (New) {
      Edges.push_back({E.Start, E.End, I, I, 1});
      continue;
    }
    Edge &Ed = Edges[It->second];
    Next[Ed.Last] = I;
    Ed.Last = I;
    ++Ed.NumOutputs;
  }
  return Edges;
}

Expected<std::unique_ptr<Profile>> NinjaLogReader::buildProfile() {
  auto P = std::make_unique<Profile>();
  P->SourceName = In.name();
  P->getOrAddEvent("us");
  P->setEventLongName(0, "Wall time (microseconds)");
  Part &Pt = P->addPart({PositionKind::Line});
  Pt.Header.push_back(
      {"creator", "ninja (.ninja_log v" + std::to_string(Version) + ")"});
  RowLayout L = Pt.layout();
  StrId Ninja = P->Strings.intern("ninja");

  std::vector<unsigned> Next;
  std::vector<Edge> Edges = groupEdges(Next);
  if (BuildNo > 1)
    Opts.Note(In.name() + ": the latest of " + Twine(BuildNo) +
              " builds is read: lines " + Twine(BuildFirstLine) + " to " +
              Twine(In.lineNumber()) + ", " + Twine(Edges.size()) + " edges");

  std::vector<FuncId> Func(Edges.size());
  uint64_t Total = 0;
  bool Overflow = false;
  SmallString<256> Path;
  SelfKey K(L);
  K.setSourceFile(Ninja);
  for (unsigned I = 0; I != Edges.size(); ++I) {
    const Edge &E = Edges[I];
    joinPath(Build[E.First].Output, Path);
    StrId Id = P->Strings.intern(Path);
    Func[I] = P->getOrAddFunction(Id, Ninja, Id);
    // The other outputs, in the part's header (callgrind's `desc:` lines).
    if (E.NumOutputs > 1) {
      std::string Desc = ("Ninja edge " + Path.str() + " also writes: ").str();
      for (unsigned J = Next[E.First]; J != NoLine; J = Next[J]) {
        joinPath(Build[J].Output, Path);
        Desc += (J == Next[E.First] ? "" : ", ");
        Desc += Path.str();
      }
      Pt.Header.push_back({"desc", std::move(Desc)});
    }
    uint64_t Values[] = {(E.End - E.Start) * 1000};
    Overflow |= !addCost(Total, Values[0]);
    Overflow |= !Pt.getOrCreate(Func[I]).Self.add(K.key(), Values);
  }
  if (Overflow)
    return makeError(ErrorCode::Malformed,
                     In.name() + ": the edges' times add up to more than "
                                 "2^64-1 microseconds");
  // The lines and their names are in the profile now.
  Build = std::vector<Entry>();
  Next = std::vector<unsigned>();
  Seen = StringMap<unsigned, BumpPtrAllocator>();

  // Lanes: edges by start, each on the lowest lane free when it starts.
  std::vector<unsigned> ByStart(Edges.size());
  for (unsigned I = 0; I != ByStart.size(); ++I)
    ByStart[I] = I;
  llvm::stable_sort(ByStart, [&](unsigned A, unsigned B) {
    return Edges[A].Start < Edges[B].Start;
  });
  using Busy = std::pair<uint64_t, unsigned>; // (end, lane)
  std::priority_queue<Busy, std::vector<Busy>, std::greater<>> Running;
  std::priority_queue<unsigned, std::vector<unsigned>, std::greater<>> Free;
  unsigned Lanes = 0;
  Pt.makeIntervals().reserve(Edges.size());
  for (unsigned I : ByStart) {
    const Edge &E = Edges[I];
    while (!Running.empty() && Running.top().first <= E.Start) {
      Free.push(Running.top().second);
      Running.pop();
    }
    unsigned Lane = Lanes;
    if (Free.empty()) {
      ++Lanes;
    } else {
      Lane = Free.top();
      Free.pop();
    }
    Running.push({E.End, Lane});
    Pt.makeIntervals().push_back(
        {Func[I], Lane, E.Start * 1000, (E.End - E.Start) * 1000});
  }
  if (!Pt.finalize())
    return makeError(ErrorCode::Malformed,
                     In.name() + ": a cost sum overflows 64 bits");
  Pt.shrink();
  return std::move(P);
}

Expected<std::unique_ptr<Profile>> NinjaLogReader::read() {
  StringRef Line;
  if (!In.nextLine(Line)) {
    if (Error E = In.takeError())
      return std::move(E);
    return error("empty file, not a ninja log");
  }
  if (Error E = readHeader(Line))
    return std::move(E);
  BuildFirstLine = 2;
  uint64_t Lines = 0;
  while (In.nextLine(Line)) {
    // Old ninja on Windows wrote the header again; ninja skips it.
    if (Line.starts_with(HeaderPrefix))
      continue;
    if (Error E = readEntry(Line))
      return std::move(E);
    if (Opts.MaxMemory && ++Lines % 1024 == 0 && bytesHeld() > Opts.MaxMemory)
      return createFileError(
          In.name(), In.lineNumber(), ErrorCode::LimitExceeded,
          "the log needs more than " + Twine(Opts.MaxMemory) +
              " bytes of memory: over the memory limit "
              "(-max-memory)");
  }
  if (Error E = In.takeError())
    return std::move(E);
  return buildProfile();
}

Expected<std::unique_ptr<Profile>>
profkit::readNinjaLog(InputStream &In, const ReadOptions &Opts) {
  return NinjaLogReader(In, Opts).read();
}
