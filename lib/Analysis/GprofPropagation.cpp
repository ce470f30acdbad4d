//===- GprofPropagation.cpp - gprof's time along the call graph -----------===//

#include "profkit/Analysis/GprofPropagation.h"
#include "profkit/Support/Apportion.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/GraphTraits.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace profkit;
using namespace llvm;

namespace {
/// A function of a part's call graph, for llvm::scc_iterator.
struct CGNode {
  std::vector<CGNode *> Succ;
};
} // namespace

template <> struct llvm::GraphTraits<CGNode *> {
  using NodeRef = CGNode *;
  using ChildIteratorType = std::vector<CGNode *>::const_iterator;
  static NodeRef getEntryNode(CGNode *N) { return N; }
  static ChildIteratorType child_begin(NodeRef N) { return N->Succ.begin(); }
  static ChildIteratorType child_end(NodeRef N) { return N->Succ.end(); }
};

GprofPropagation GprofPropagation::compute(const Part &Pt, size_t NE) {
  GprofPropagation Result;
  bool &Overflow = Result.Overflow;
  RowLayout L = Pt.layout();
  DenseMap<FuncId, unsigned> Local;
  auto Node = [&](FuncId F) {
    return Local.try_emplace(F, unsigned(Local.size())).first->second;
  };
  for (const FunctionData &FD : Pt.functions()) {
    Node(FD.Id);
    for (const Row &R : FD.calls())
      Node(L.callee(R));
  }
  const size_t N = Local.size();
  std::vector<uint64_t> Self(N * NE, 0);
  struct Pair {
    unsigned From, To;
    uint64_t Count = 0;
  };
  std::vector<Pair> Pairs;
  DenseMap<std::pair<unsigned, unsigned>, unsigned> PairIndex;
  for (const FunctionData &FD : Pt.functions()) {
    unsigned From = Local[FD.Id];
    for (const Row &R : FD.Self)
      for (size_t E = 0; E != NE; ++E)
        Overflow |= !addCost(Self[From * NE + E], R.value(E));
    for (const Row &R : FD.calls()) {
      unsigned To = Local[L.callee(R)];
      auto [It, New] = PairIndex.try_emplace({From, To}, Pairs.size());
      if (New)
        Pairs.push_back({From, To});
      Overflow |= !addCost(Pairs[It->second].Count, R.value(0));
    }
  }

  // Components in reverse topological order (callees first), from a root
  // that calls every function.
  std::vector<CGNode> G(N + 1);
  for (const Pair &Pr : Pairs)
    if (Pr.From != Pr.To)
      G[Pr.From].Succ.push_back(&G[Pr.To]);
  for (size_t I = 0; I != N; ++I)
    G[N].Succ.push_back(&G[I]);
  std::vector<unsigned> Comp(N);
  size_t NC = 0;
  for (auto It = scc_begin(&G[N]); !It.isAtEnd(); ++It) {
    if (It->front() == &G[N])
      continue;
    for (CGNode *M : *It)
      Comp[M - G.data()] = NC;
    ++NC;
  }
  // A component's time: its members' self costs, then what leaves it.
  std::vector<uint64_t> Time(NC * NE, 0);
  for (size_t I = 0; I != N; ++I)
    for (size_t E = 0; E != NE; ++E)
      Overflow |= !addCost(Time[Comp[I] * NE + E], Self[I * NE + E]);
  // The pairs into each component: from outside, and inside it.
  std::vector<std::vector<unsigned>> FromOutside(NC), Inside(NC);
  for (unsigned I = 0; I != Pairs.size(); ++I) {
    unsigned CF = Comp[Pairs[I].From], CT = Comp[Pairs[I].To];
    (CF == CT ? Inside : FromOutside)[CT].push_back(I);
  }
  std::vector<uint64_t> Share(Pairs.size() * NE, 0);
  SmallVector<uint64_t, 8> Counts, Parts;
  auto Split = [&](unsigned C, ArrayRef<unsigned> Into, bool Propagate) {
    Counts.clear();
    for (unsigned I : Into)
      Counts.push_back(Pairs[I].Count);
    if (Into.empty() || all_of(Counts, [](uint64_t K) { return !K; }))
      return;
    for (size_t E = 0; E != NE; ++E) {
      apportion(Time[C * NE + E], Counts, Parts);
      for (size_t J = 0; J != Into.size(); ++J) {
        Share[Into[J] * NE + E] = Parts[J];
        if (Propagate)
          Overflow |=
              !addCost(Time[Comp[Pairs[Into[J]].From] * NE + E], Parts[J]);
      }
    }
  };
  for (unsigned C = 0; C != NC; ++C) { // Callees are done before callers.
    Split(C, FromOutside[C], /*Propagate=*/true);
    Split(C, Inside[C], /*Propagate=*/false);
  }

  // Each call row: its count's part of its pair's share.
  std::vector<SmallVector<uint64_t, 2>> SiteCounts(Pairs.size());
  for (const FunctionData &FD : Pt.functions())
    for (const Row &R : FD.calls())
      SiteCounts[PairIndex[{Local[FD.Id], Local[L.callee(R)]}]].push_back(
          R.value(0));
  // Per pair and event, the parts of its call sites, handed out in order.
  std::vector<SmallVector<uint64_t, 2>> SiteShares(Pairs.size() * NE);
  for (size_t I = 0; I != Pairs.size(); ++I)
    for (size_t E = 0; E != NE; ++E)
      apportion(Share[I * NE + E], SiteCounts[I], SiteShares[I * NE + E]);
  // Each call row, in table order, takes its site's part.
  std::vector<unsigned> SitesDone(Pairs.size(), 0);
  for (const FunctionData &FD : Pt.functions()) {
    std::vector<uint64_t> &Costs = Result.Costs.emplace_back();
    unsigned From = Local[FD.Id];
    for (const Row &R : FD.calls()) {
      unsigned I = PairIndex[{From, Local[L.callee(R)]}];
      unsigned Site = SitesDone[I]++;
      for (size_t E = 0; E != NE; ++E)
        Costs.push_back(SiteShares[I * NE + E][Site]);
    }
  }
  Result.NumEvents = NE;
  return Result;
}
