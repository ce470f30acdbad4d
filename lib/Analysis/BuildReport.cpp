//===- BuildReport.cpp - Where a build spends its time --------------------===//
//
// The profile keeps a trace's tree as its aggregate: one function per event
// name and detail in each compilation, one call row per (parent, child)
// pair. The questions that need the tree (is an instantiation nested in one
// of the same set? which headers brought this one in?) climb the calls:
// where a function above an instantiation or header occurs more than once
// in a compilation, the time-trace reader numbers its occurrences in the
// calls' lines, so the climb follows one path of the tree. On a profile
// without those numbers (merged otherwise, or written by another tool),
// any path counts for nesting and include chains share a call's
// occurrences in proportion to time, as docs/BuildProfiling.md says.
//
//===----------------------------------------------------------------------===//

#include "profkit/Analysis/BuildReport.h"
#include "profkit/Support/Apportion.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/Saturating.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/Path.h"
#include <map>

using namespace profkit;
using namespace llvm;

std::string profkit::collapseTemplateArgs(StringRef Name) {
  if (Name.contains("operator"))
    return Name.str();
  std::string Out;
  size_t I = 0;
  while (I != Name.size()) {
    size_t Open = Name.find('<', I);
    if (Open == StringRef::npos) {
      Out += Name.substr(I);
      return Out;
    }
    Out += Name.slice(I, Open + 1);
    Out += '$';
    unsigned Depth = 1;
    size_t J = Open + 1;
    for (; J != Name.size() && Depth; ++J)
      Depth += Name[J] == '<' ? 1 : Name[J] == '>' ? -1 : 0;
    if (Depth) // A `<` never closed: the name is not a template's.
      return Name.str();
    I = J - 1; // At the closing `>`, which is kept.
  }
  return Out;
}

std::string profkit::demangleAsBuildAnalyzer(StringRef Name) {
  std::string D = llvm::demangle(Name);
  std::string Out;
  Out.reserve(D.size());
  for (size_t I = 0; I != D.size(); ++I) {
    Out += D[I];
    if (D[I] == '>' && I + 1 < D.size() && D[I + 1] == '>' &&
        !StringRef(Out).drop_back().ends_with("operator"))
      Out += ' ';
  }
  return Out;
}

std::string profkit::normalizeBuildPath(StringRef Path) {
  SmallString<256> P(Path);
  std::replace(P.begin(), P.end(), '\\', '/');
  sys::path::remove_dots(P, /*remove_dot_dot=*/true, sys::path::Style::posix);
  return std::string(P);
}

namespace {

/// The events ClangBuildAnalyzer reads; the others are looked through.
enum class Kind : uint8_t {
  Other,
  Compiler,
  Frontend,
  Backend,
  Source,
  Parse,
  Instantiate,
  OptModule,
  OptFunction,
  NinjaEdge,
};

Kind kindOf(StringRef Event) {
  return StringSwitch<Kind>(Event)
      .Case("ExecuteCompiler", Kind::Compiler)
      .Case("Frontend", Kind::Frontend)
      .Case("Backend", Kind::Backend)
      .Case("Source", Kind::Source)
      .Cases("ParseTemplate", "ParseClass", Kind::Parse)
      .Cases("InstantiateClass", "InstantiateFunction", Kind::Instantiate)
      .Case("OptModule", Kind::OptModule)
      .Case("OptFunction", Kind::OptFunction)
      .Case("ninja", Kind::NinjaEdge)
      .Default(Kind::Other);
}

/// A header as ClangBuildAnalyzer tells one: no extension, or one that
/// starts with h or i (.h, .hpp, .inc, .inl), whatever the case.
bool isHeader(StringRef Path) {
  StringRef Base = sys::path::filename(Path, sys::path::Style::posix);
  size_t Dot = Base.rfind('.');
  if (Dot == StringRef::npos)
    return true;
  return Dot + 1 < Base.size() && StringRef("hHiI").contains(Base[Dot + 1]);
}

/// Calls between the same two functions; a header entered more than once
/// in a compilation numbers its entries in the lines of the calls (the
/// time-trace reader), and calls from or to different entries are apart.
struct Edge {
  FuncId Caller, Callee;
  uint32_t CallerEntry, CalleeEntry;
  uint64_t Count, Us;
};

/// One entry of a function: all of it for functions that are not headers
/// entered more than once.
using Node = std::pair<FuncId, uint32_t>;

/// A chain of including headers as a trie: each node is a header (the
/// includer) below the chain that included it; node 0 is the empty chain.
struct ChainNode {
  unsigned Parent;
  FuncId Header;
};

/// A share of a function's occurrences that have the same chain above:
/// how many, and how long they took.
struct ChainShare {
  unsigned Chain;
  uint64_t Count, Us;
};

/// Splits an edge's Count and Us over the chains of its caller, in
/// proportion to their time: the events inside a function's occurrences
/// are likelier inside its longer ones (a header entered twice, the second
/// time skipped by its include guard, has all its includes in the first).
void splitOverChains(ArrayRef<ChainShare> Shares, uint64_t Count, uint64_t Us,
                     SmallVectorImpl<uint64_t> &Counts,
                     SmallVectorImpl<uint64_t> &Times) {
  SmallVector<uint64_t, 4> Weights;
  for (const ChainShare &S : Shares)
    Weights.push_back(S.Us);
  apportion(Count, Weights, Counts);
  apportion(Us, Weights, Times);
}

class Builder {
public:
  Builder(const Profile &P, unsigned Event) : P(P), Event(Event) {}
  BuildReport run();

private:
  void collectKinds();
  /// Where the windows of functions that calls never cross end: a build's
  /// compilations, whose functions are numbered together. The report is
  /// made a window at a time, holding the calls of one window.
  std::vector<FuncId> windowEnds() const;
  void collectEdges(FuncId Begin, FuncId End);
  StringRef detail(FuncId F) const {
    const Function &Fn = P.function(F);
    return Fn.Name == Fn.File ? StringRef() : P.Strings.str(Fn.Name);
  }
  StringRef object(FuncId F) const {
    return P.Strings.str(P.function(F).Object);
  }
  /// The calls into F, of the current window.
  ArrayRef<Edge> callers(FuncId F) const {
    size_t I = F - WindowBegin;
    return ArrayRef(Edges).slice(FirstCaller[I],
                                 FirstCaller[I + 1] - FirstCaller[I]);
  }
  const std::string &normalized(FuncId F);
  std::string compilationFile(FuncId F);
  bool inSetOrBelow(Node N, unsigned Set);
  ArrayRef<Edge> callers(Node N) const;
  const std::vector<ChainShare> &chainsAbove(Node N);
  void addFileRows(FuncId F, std::vector<BuildReport::Entry> &Rows,
                   uint64_t &Total);
  // Each section is summed a window at a time, then written.
  void addTemplates(FuncId Begin, FuncId End);
  void finishTemplates(BuildReport &R);
  void addFunctions(FuncId Begin, FuncId End);
  void finishFunctions(BuildReport &R);
  void addHeaders(FuncId Begin, FuncId End);
  void finishHeaders(BuildReport &R);
  void addSteps(BuildReport &R);

  const Profile &P;
  unsigned Event;
  std::vector<Kind> Kinds;
  FuncId WindowBegin = 0;
  std::vector<Edge> Edges;         // Sorted by callee, then caller.
  std::vector<size_t> FirstCaller; // Into Edges, per function of the window.
  /// The intervals (roots) of a function: how many, and their time. Few
  /// functions have any.
  struct CountTime {
    uint64_t Count = 0, Us = 0;
  };
  DenseMap<FuncId, CountTime> Roots;
  CountTime roots(FuncId F) const { return Roots.lookup(F); }
  /// Every occurrence of F, called or a root: how many, and their time.
  CountTime totals(FuncId F) const {
    CountTime T = roots(F);
    for (const Edge &E : callers(F)) {
      (void)addCost(T.Count, E.Count);
      (void)addCost(T.Us, E.Us);
    }
    return T;
  }
  DenseMap<StrId, std::string> Normalized; // By detail.
  // Template sets: the set of each instantiation of the window, for the
  // nesting check.
  std::vector<unsigned> SetOf;
  DenseSet<Node> Visited;
  // Include chains, memoised per function.
  std::vector<ChainNode> Chains = {{0, 0}};
  DenseMap<std::pair<unsigned, FuncId>, unsigned> ChainIndex;
  std::map<Node, std::vector<ChainShare>> Above;

  // The sections' sums. Templates by the detail's string; sets by their
  // name, each detail's once.
  DenseMap<StrId, BuildReport::Entry> TemplatesByName;
  DenseMap<StrId, unsigned> SetOfName;
  StringMap<unsigned> SetIds;
  std::vector<BuildReport::Entry> Sets;
  std::vector<bool> SetSeen;
  // Functions: mangled names demangled once each; a constructor's C1 and C2
  // names demangle alike and are one row, as ClangBuildAnalyzer has them.
  DenseMap<StrId, std::string> Demangled;
  std::map<std::pair<std::string, std::string>, BuildReport::Entry>
      FunctionRows;
  // Headers, and per header its chains by the text of their paths.
  StringMap<BuildReport::Header> Headers;
  StringMap<std::map<std::vector<std::string>, BuildReport::Chain>> ChainsOf;
};

} // namespace

void Builder::collectKinds() {
  size_t NF = P.numFunctions();
  Kinds.resize(NF);
  DenseMap<StrId, Kind> KindOfFile;
  for (FuncId F = 0; F != NF; ++F) {
    StrId File = P.function(F).File;
    auto [It, New] = KindOfFile.try_emplace(File);
    if (New)
      It->second = kindOf(P.Strings.str(File));
    Kinds[F] = It->second;
  }
  for (const auto &Pt : P.parts())
    for (const Interval &I : Pt->intervals()) {
      CountTime &R = Roots[I.Function];
      ++R.Count;
      (void)addCost(R.Us, I.Duration);
    }
}

std::vector<FuncId> Builder::windowEnds() const {
  // Reach[F]: the highest function a call between F and a higher one
  // touches. A window ends where no call crosses.
  size_t NF = P.numFunctions();
  std::vector<FuncId> Reach(NF);
  for (FuncId F = 0; F != NF; ++F)
    Reach[F] = F;
  for (const auto &Pt : P.parts()) {
    RowLayout L = Pt->layout();
    for (const FunctionData &FD : Pt->functions())
      for (const Row &Rw : FD.calls()) {
        FuncId To = L.callee(Rw);
        FuncId Low = std::min(FD.Id, To), High = std::max(FD.Id, To);
        Reach[Low] = std::max(Reach[Low], High);
      }
  }
  std::vector<FuncId> Ends;
  FuncId End = 0;
  for (FuncId F = 0; F != NF; ++F) {
    End = std::max(End, Reach[F]);
    if (End == F)
      Ends.push_back(F + 1);
  }
  return Ends;
}

void Builder::collectEdges(FuncId Begin, FuncId End) {
  WindowBegin = Begin;
  Edges.clear();
  for (const auto &Pt : P.parts()) {
    RowLayout L = Pt->layout();
    // The entry numbers are lines; a profile placed otherwise has none.
    bool ByLine = L.P && Pt->positions().front() == PositionKind::Line;
    for (FuncId F = Begin; F != End; ++F) {
      const FunctionData *FD = Pt->lookup(F);
      if (!FD)
        continue;
      for (const Row &Rw : FD->calls()) {
        uint32_t From = ByLine ? uint32_t(L.position(Rw)[0]) : 0;
        uint32_t Into = ByLine ? uint32_t(L.callTarget(Rw)[0]) : 0;
        Edges.push_back(
            {F, L.callee(Rw), From, Into, Rw.value(0), Rw.value(1 + Event)});
      }
    }
  }
  // Rows of the same call (in several parts) summed.
  auto Key = [](const Edge &E) {
    return std::tie(E.Callee, E.CalleeEntry, E.Caller, E.CallerEntry);
  };
  llvm::sort(Edges,
             [&](const Edge &A, const Edge &B) { return Key(A) < Key(B); });
  size_t Out = 0;
  for (const Edge &E : Edges) {
    if (Out && Key(Edges[Out - 1]) == Key(E)) {
      (void)addCost(Edges[Out - 1].Count, E.Count);
      (void)addCost(Edges[Out - 1].Us, E.Us);
    } else {
      Edges[Out++] = E;
    }
  }
  Edges.resize(Out);
  FirstCaller.assign(End - Begin + 1, 0);
  for (const Edge &E : Edges)
    ++FirstCaller[E.Callee - Begin + 1];
  for (size_t F = 0; F != End - Begin; ++F)
    FirstCaller[F + 1] += FirstCaller[F];
  // The memos hold nodes of the window.
  Above.clear();
  Chains.resize(1);
  ChainIndex.clear();
}

const std::string &Builder::normalized(FuncId F) {
  auto [It, New] = Normalized.try_emplace(P.function(F).Name);
  if (New)
    It->second = normalizeBuildPath(detail(F));
  return It->second;
}

/// The translation unit of an event, as ClangBuildAnalyzer names it: the
/// nearest OptModule above (its source file), else the compilation.
std::string Builder::compilationFile(FuncId F) {
  for (unsigned Steps = 0; Steps != 1000; ++Steps) {
    if (Kinds[F] == Kind::OptModule && !detail(F).empty())
      return normalized(F);
    if (Kinds[F] == Kind::Compiler || Kinds[F] == Kind::Frontend ||
        Kinds[F] == Kind::Backend)
      break;
    ArrayRef<Edge> Up = callers(F);
    if (Up.empty())
      break;
    F = Up.front().Caller;
  }
  return object(F).str();
}

/// Is N, or any event above it, an instantiation of the template set Set?
/// Functions above instantiations that occur more than once are numbered
/// by the reader, so this is a climb up one path of the trace's tree; on a
/// profile without numbers, any path counts.
bool Builder::inSetOrBelow(Node Start, unsigned Set) {
  Visited.clear();
  SmallVector<Node, 32> Work = {Start};
  Visited.insert(Start);
  while (!Work.empty()) {
    Node N = Work.pop_back_val();
    if (SetOf[N.first - WindowBegin] == Set)
      return true;
    for (const Edge &E : callers(N))
      if (Visited.insert({E.Caller, E.CallerEntry}).second)
        Work.push_back({E.Caller, E.CallerEntry});
  }
  return false;
}

/// The calls into one entry of a function.
ArrayRef<Edge> Builder::callers(Node N) const {
  ArrayRef<Edge> All = callers(N.first);
  auto Begin = partition_point(
      All, [&](const Edge &E) { return E.CalleeEntry < N.second; });
  auto End = std::partition_point(Begin, All.end(), [&](const Edge &E) {
    return E.CalleeEntry == N.second;
  });
  return ArrayRef(Begin, End);
}

/// How the occurrences of N split over the chains of headers above them,
/// as a header N includes would see them: a header adds itself to its
/// chains, a source file or any other event ClangBuildAnalyzer reads
/// starts a new one, and the events it does not read are looked through.
/// Computed without recursion: include nesting in a hostile trace may be
/// deep.
const std::vector<ChainShare> &Builder::chainsAbove(Node Start) {
  enum : uint8_t { Unseen, Open };
  std::map<Node, uint8_t> State;
  SmallVector<Node, 32> Work = {Start};
  auto CallerNode = [](const Edge &E) { return Node(E.Caller, E.CallerEntry); };
  while (!Work.empty()) {
    Node N = Work.back();
    if (Above.count(N)) {
      Work.pop_back();
      continue;
    }
    FuncId F = N.first;
    Kind K = Kinds[F];
    bool IsHeader = K == Kind::Source && isHeader(normalized(F));
    // Roots belong to a function's first (or only) entry.
    CountTime R = N.second ? CountTime() : roots(F);
    uint64_t RootN = R.Count, RootT = R.Us;
    if (K != Kind::Other && !IsHeader) {
      uint64_t Count = RootN, Time = RootT;
      for (const Edge &E : callers(N)) {
        (void)addCost(Count, E.Count);
        (void)addCost(Time, E.Us);
      }
      Above[N] = {{0, Count, Time}};
      Work.pop_back();
      continue;
    }
    auto [St, First] = State.try_emplace(N, Open);
    if (First) {
      for (const Edge &E : callers(N))
        if (!Above.count(CallerNode(E)) && !State.count(CallerNode(E)))
          Work.push_back(CallerNode(E));
      continue;
    }
    // Every parent is done, or open (a cycle: taken as no chain).
    std::map<unsigned, std::pair<uint64_t, uint64_t>> Shares;
    auto Add = [&](unsigned Chain, uint64_t Count, uint64_t Time) {
      (void)addCost(Shares[Chain].first, Count);
      (void)addCost(Shares[Chain].second, Time);
    };
    if (RootN)
      Add(0, RootN, RootT);
    for (const Edge &E : callers(N)) {
      auto It = Above.find(CallerNode(E));
      if (It == Above.end()) {
        Add(0, E.Count, E.Us);
        continue;
      }
      SmallVector<uint64_t, 4> Counts, Times;
      splitOverChains(It->second, E.Count, E.Us, Counts, Times);
      for (size_t I = 0; I != Counts.size(); ++I)
        if (Counts[I] || Times[I])
          Add(It->second[I].Chain, Counts[I], Times[I]);
    }
    std::vector<ChainShare> Result;
    for (auto [Chain, CountUs] : Shares) {
      unsigned C = Chain;
      if (IsHeader) {
        auto [It, New] = ChainIndex.try_emplace({Chain, F}, Chains.size());
        if (New)
          Chains.push_back({Chain, F});
        C = It->second;
      }
      Result.push_back({C, CountUs.first, CountUs.second});
    }
    Above[N] = std::move(Result);
    Work.pop_back();
  }
  return Above[Start];
}

void Builder::addFileRows(FuncId F, std::vector<BuildReport::Entry> &Rows,
                          uint64_t &Total) {
  // ClangBuildAnalyzer adds clang's second Frontend of a compilation (same
  // parent) to the first: a row per parent, and one for the roots.
  std::string File = compilationFile(F);
  if (CountTime R = roots(F); R.Count)
    Rows.push_back({File, R.Us, 1, {}});
  std::map<FuncId, uint64_t> ByCaller; // Apart by entry; one parent's sum.
  for (const Edge &E : callers(F))
    (void)addCost(ByCaller[E.Caller], E.Us);
  for (auto [Caller, Time] : ByCaller)
    Rows.push_back({File, Time, 1, {}});
  (void)addCost(Total, totals(F).Us);
}

static void sortRows(std::vector<BuildReport::Entry> &Rows) {
  llvm::sort(Rows,
             [](const BuildReport::Entry &A, const BuildReport::Entry &B) {
               return std::tie(B.Us, B.Count, A.Name, A.File) <
                      std::tie(A.Us, A.Count, B.Name, B.File);
             });
}

template <typename MapT>
static std::vector<BuildReport::Entry> rowsOf(const MapT &M) {
  std::vector<BuildReport::Entry> Rows;
  for (const auto &KV : M)
    Rows.push_back(KV.second);
  sortRows(Rows);
  return Rows;
}

void Builder::addTemplates(FuncId Begin, FuncId End) {
  SetOf.assign(End - Begin, ~0u);
  auto SetOfF = [&](FuncId F) -> unsigned & { return SetOf[F - WindowBegin]; };
  for (FuncId F = Begin; F != End; ++F) {
    if (Kinds[F] != Kind::Instantiate || !totals(F).Count)
      continue;
    auto [It, New] = SetOfName.try_emplace(P.function(F).Name);
    if (New) {
      std::string Set = collapseTemplateArgs(detail(F));
      auto [Id, NewSet] = SetIds.try_emplace(Set, Sets.size());
      if (NewSet) {
        Sets.push_back({std::move(Set), 0, 0, {}});
        SetSeen.push_back(false);
      }
      It->second = Id->second;
    }
    SetOfF(F) = It->second;
  }
  for (FuncId F = Begin; F != End; ++F) {
    unsigned Set = SetOfF(F);
    if (Set == ~0u)
      continue;
    BuildReport::Entry &T = TemplatesByName[P.function(F).Name];
    CountTime All = totals(F);
    (void)addCost(T.Us, All.Us);
    (void)addCost(T.Count, All.Count);
    // A set counts its outermost instantiations only.
    BuildReport::Entry &S = Sets[Set];
    auto AddToSet = [&](uint64_t Count, uint64_t Time) {
      SetSeen[Set] = true;
      (void)addCost(S.Us, Time);
      (void)addCost(S.Count, Count);
    };
    if (CountTime R = roots(F); R.Count)
      AddToSet(R.Count, R.Us);
    for (const Edge &E : callers(F))
      if (!inSetOrBelow({E.Caller, E.CallerEntry}, Set))
        AddToSet(E.Count, E.Us);
  }
}

void Builder::finishTemplates(BuildReport &R) {
  for (auto &[Name, T] : TemplatesByName) {
    T.Name = P.Strings.str(Name).str();
    R.Templates.push_back(std::move(T));
  }
  sortRows(R.Templates);
  for (size_t I = 0; I != Sets.size(); ++I)
    if (SetSeen[I])
      R.TemplateSets.push_back(std::move(Sets[I]));
  sortRows(R.TemplateSets);
}

void Builder::addFunctions(FuncId Begin, FuncId End) {
  for (FuncId F = Begin; F != End; ++F) {
    if (Kinds[F] != Kind::OptFunction || !totals(F).Count)
      continue;
    auto [It, New] = Demangled.try_emplace(P.function(F).Name);
    if (New)
      It->second = demangleAsBuildAnalyzer(detail(F));
    const std::string &Name = It->second;
    auto Add = [&](const std::string &File, uint64_t Us) {
      BuildReport::Entry &E = FunctionRows[{Name, File}];
      E.Name = Name;
      E.File = File;
      ++E.Count;
      (void)addCost(E.Us, Us);
    };
    if (CountTime R = roots(F); R.Count)
      Add(object(F).str(), R.Us);
    for (const Edge &E : callers(F))
      Add(compilationFile(E.Caller), E.Us);
  }
}

void Builder::finishFunctions(BuildReport &R) {
  R.Functions = rowsOf(FunctionRows);
  // A set counts its (function, file) rows.
  StringMap<BuildReport::Entry> Sets;
  for (const BuildReport::Entry &E : R.Functions) {
    if (!StringRef(E.Name).contains('<'))
      continue;
    std::string Set = collapseTemplateArgs(E.Name);
    BuildReport::Entry &S = Sets[Set];
    S.Name = Set;
    ++S.Count;
    (void)addCost(S.Us, E.Us);
  }
  R.FunctionSets = rowsOf(Sets);
}

void Builder::addHeaders(FuncId Begin, FuncId End) {
  for (FuncId F = Begin; F != End; ++F) {
    CountTime All = totals(F);
    if (Kinds[F] != Kind::Source || !All.Count || !isHeader(normalized(F)))
      continue;
    const std::string &File = normalized(F);
    BuildReport::Header &H = Headers[File];
    H.File = File;
    (void)addCost(H.Us, All.Us);
    (void)addCost(H.Count, All.Count);
    auto &Chains = ChainsOf[File];
    auto AddChain = [&](unsigned Chain, uint64_t Count, uint64_t Time) {
      std::vector<std::string> Files;
      for (unsigned C = Chain; C; C = this->Chains[C].Parent)
        Files.push_back(normalized(this->Chains[C].Header));
      std::reverse(Files.begin(), Files.end());
      H.Direct |= Files.empty();
      BuildReport::Chain &Ch = Chains[Files];
      Ch.Files = std::move(Files);
      (void)addCost(Ch.Count, Count);
      (void)addCost(Ch.Us, Time);
    };
    if (CountTime R = roots(F); R.Count)
      AddChain(0, R.Count, R.Us);
    for (const Edge &E : callers(F)) {
      // A copy: chainsAbove() may grow the memo the reference points into.
      std::vector<ChainShare> Shares =
          chainsAbove(Node(E.Caller, E.CallerEntry));
      SmallVector<uint64_t, 4> Counts, Times;
      splitOverChains(Shares, E.Count, E.Us, Counts, Times);
      for (size_t I = 0; I != Shares.size(); ++I)
        if (Counts[I] || Times[I])
          AddChain(Shares[I].Chain, Counts[I], Times[I]);
    }
  }
}

void Builder::finishHeaders(BuildReport &R) {
  for (auto &KV : Headers) {
    BuildReport::Header &H = KV.second;
    for (auto &C : ChainsOf[KV.first()])
      H.Chains.push_back(std::move(C.second));
    llvm::stable_sort(
        H.Chains, [](const BuildReport::Chain &A, const BuildReport::Chain &B) {
          return std::tie(B.Count, B.Us) < std::tie(A.Count, A.Us);
        });
    R.Headers.push_back(std::move(H));
  }
  llvm::sort(R.Headers,
             [](const BuildReport::Header &A, const BuildReport::Header &B) {
               return std::tie(B.Us, A.File) < std::tie(A.Us, B.File);
             });
}

void Builder::addSteps(BuildReport &R) {
  uint64_t First = UINT64_MAX, Last = 0;
  for (const auto &Pt : P.parts())
    for (const Interval &I : Pt->intervals()) {
      if (Kinds[I.Function] != Kind::NinjaEdge)
        continue;
      R.Steps.push_back({P.functionName(I.Function).str(), I.Duration, 1, {}});
      uint64_t End = I.Start;
      (void)addCost(End, I.Duration);
      First = std::min(First, I.Start);
      Last = std::max(Last, End);
    }
  if (!R.Steps.empty())
    R.StepsElapsedUs = Last - First;
  sortRows(R.Steps);
}

BuildReport Builder::run() {
  collectKinds();
  BuildReport R;
  FuncId Begin = 0;
  for (FuncId End : windowEnds()) {
    collectEdges(Begin, End);
    for (FuncId F = Begin; F != End; ++F) {
      if (!totals(F).Count)
        continue;
      if (Kinds[F] == Kind::Frontend)
        addFileRows(F, R.FilesFrontend, R.FrontendUs);
      else if (Kinds[F] == Kind::Backend)
        addFileRows(F, R.FilesBackend, R.BackendUs);
    }
    addTemplates(Begin, End);
    addFunctions(Begin, End);
    addHeaders(Begin, End);
    Begin = End;
  }
  R.Compilations = R.FilesFrontend.size();
  sortRows(R.FilesFrontend);
  sortRows(R.FilesBackend);
  finishTemplates(R);
  finishFunctions(R);
  finishHeaders(R);
  addSteps(R);
  return R;
}

Expected<BuildReport> BuildReport::compute(const Profile &P) {
  auto It =
      find_if(P.events(), [](const EventType &E) { return E.Name == "us"; });
  if (It == P.events().end())
    return makeError(ErrorCode::InvalidArgument,
                     P.SourceName +
                         ": not a profile of a build: it has no 'us' event "
                         "(read clang -ftime-trace JSON or a .ninja_log)");
  return Builder(P, unsigned(It - P.events().begin())).run();
}
