//===- InclusiveCost.cpp - Per-function self and inclusive cost
//------------===//
//
// The call graph has one arc per (caller, callee) pair, summed over call
// sites and parts. Tarjan's algorithm, run with an explicit stack, splits it
// into strongly connected components (call cycles). Then, per function F in
// component C, with arc costs taken as the files give them (the inclusive
// cost of the calls):
//
//   own(F)  = self(F) + sum of the arcs F -> G, G != F
//   in(F)   = sum of the arcs G -> F, G != F
//   cycle(C) = sum of self(H) + sum of the arcs H -> G leaving C, H in C
//   inclusive(F) = max(own(F), in(F))     if F is not recursive
//                = min(own(F), cycle(C))  otherwise
//
// in(F) can exceed own(F) when cost was spent in a call that F never
// returned from (`_Exit`: the process ends inside it), so its callers paid
// more than F's rows account for; F is never shown cheaper than its calls.
// and every inclusive cost is capped at the run total. See
// docs/InclusiveCost.md.
//
//===----------------------------------------------------------------------===//

#include "profkit/Analysis/InclusiveCost.h"
#include "profkit/Analysis/Totals.h"
#include "profkit/IR/RowTable.h"
#include "llvm/ADT/DenseMap.h"
#include <algorithm>
#include <utility>

using namespace profkit;
using namespace llvm;

InclusiveCost InclusiveCost::compute(const Profile &P) {
  InclusiveCost R;
  const size_t NF = P.numFunctions(), NE = P.events().size();
  R.NumFunctions = NF;
  R.NumEvents = NE;
  R.Self.assign(NF * NE, 0);
  R.Inclusive.assign(NF * NE, 0);
  R.Calls.assign(NF, 0);
  R.HasCallers.assign(NF, false);
  R.Recursive.assign(NF, false);
  R.PartsWithData.assign(NF, 0);
  R.Component.assign(NF, 0);
  R.Total.assign(NE, 0);

  // Self costs and arcs, summed over parts and call sites.
  std::vector<Arc> &Arcs = R.Arcs;
  std::vector<uint64_t> &ArcCost = R.ArcCost;
  DenseMap<std::pair<FuncId, FuncId>, unsigned> ArcIndex;
  for (const auto &Pt : P.parts()) {
    RowLayout L = Pt->layout();
    std::vector<uint64_t> PartSelf(NE);
    for (const FunctionData &FD : Pt->functions()) {
      if (FD.Self.empty() && FD.calls().empty())
        continue;
      ++R.PartsWithData[FD.Id];
      uint64_t *S = R.Self.data() + size_t(FD.Id) * NE;
      for (const Row &Rw : FD.Self)
        for (size_t E = 0; E != NE; ++E) {
          (void)addCost(S[E], Rw.value(E));
          (void)addCost(PartSelf[E], Rw.value(E));
        }
      for (const Row &Rw : FD.calls()) {
        FuncId To = L.callee(Rw);
        auto [It, New] = ArcIndex.try_emplace({FD.Id, To}, Arcs.size());
        if (New) {
          Arcs.push_back({FD.Id, To, 0});
          ArcCost.resize(ArcCost.size() + NE, 0);
        }
        uint64_t *C = ArcCost.data() + size_t(It->second) * NE;
        for (size_t E = 0; E != NE; ++E)
          (void)addCost(C[E], Rw.value(1 + E));
        (void)addCost(Arcs[It->second].Count, Rw.value(0));
        (void)addCost(R.Calls[To], Rw.value(0));
        if (To != FD.Id)
          R.HasCallers[To] = true;
        else
          R.Recursive[To] = true;
      }
    }
    std::vector<uint64_t> PartTotal = partRunTotal(*Pt, std::move(PartSelf));
    for (size_t E = 0; E != NE; ++E)
      (void)addCost(R.Total[E], PartTotal[E]);
  }

  // Adjacency lists in CSR form.
  std::vector<unsigned> First(NF + 1, 0), Succ(Arcs.size());
  for (const Arc &A : Arcs)
    ++First[A.From + 1];
  for (size_t I = 0; I != NF; ++I)
    First[I + 1] += First[I];
  {
    std::vector<unsigned> Fill(First.begin(), First.end() - 1);
    for (size_t I = 0; I != Arcs.size(); ++I)
      Succ[Fill[Arcs[I].From]++] = I;
  }

  // Iterative Tarjan. Components are numbered in the order they complete,
  // which is a reverse topological order of the condensed graph.
  const unsigned Unvisited = ~0u;
  std::vector<unsigned> Index(NF, Unvisited), Low(NF, 0);
  std::vector<bool> OnStack(NF, false);
  std::vector<FuncId> Stack;
  std::vector<std::pair<FuncId, unsigned>> Work; // Function, next arc.
  std::vector<std::vector<FuncId>> Members;
  unsigned Counter = 0;
  for (FuncId Root = 0; Root != NF; ++Root) {
    if (Index[Root] != Unvisited)
      continue;
    Work.push_back({Root, First[Root]});
    Index[Root] = Low[Root] = Counter++;
    Stack.push_back(Root);
    OnStack[Root] = true;
    while (!Work.empty()) {
      auto &[V, Next] = Work.back();
      if (Next != First[V + 1]) {
        FuncId W = Arcs[Succ[Next++]].To;
        if (Index[W] == Unvisited) {
          Index[W] = Low[W] = Counter++;
          Stack.push_back(W);
          OnStack[W] = true;
          Work.push_back({W, First[W]});
        } else if (OnStack[W]) {
          Low[V] = std::min(Low[V], Index[W]);
        }
        continue;
      }
      FuncId Done = V;
      Work.pop_back();
      if (!Work.empty())
        Low[Work.back().first] = std::min(Low[Work.back().first], Low[Done]);
      if (Low[Done] != Index[Done])
        continue;
      unsigned C = Members.size();
      Members.emplace_back();
      FuncId M;
      do {
        M = Stack.back();
        Stack.pop_back();
        OnStack[M] = false;
        R.Component[M] = C;
        Members.back().push_back(M);
      } while (M != Done);
      if (Members.back().size() > 1)
        for (FuncId F : Members.back())
          R.Recursive[F] = true;
    }
  }

  // own(F) and cycle(C).
  std::vector<uint64_t> Own(R.Self), In(size_t(NF) * NE, 0),
      Cycle(Members.size() * NE, 0);
  for (FuncId F = 0; F != NF; ++F) {
    uint64_t *Cy = Cycle.data() + size_t(R.Component[F]) * NE;
    for (size_t E = 0; E != NE; ++E)
      (void)addCost(Cy[E], R.Self[size_t(F) * NE + E]);
  }
  for (const Arc &A : Arcs) {
    const uint64_t *C = ArcCost.data() + size_t(&A - Arcs.data()) * NE;
    if (A.From != A.To)
      for (size_t E = 0; E != NE; ++E) {
        (void)addCost(Own[size_t(A.From) * NE + E], C[E]);
        (void)addCost(In[size_t(A.To) * NE + E], C[E]);
      }
    if (R.Component[A.From] != R.Component[A.To]) {
      uint64_t *Cy = Cycle.data() + size_t(R.Component[A.From]) * NE;
      for (size_t E = 0; E != NE; ++E)
        (void)addCost(Cy[E], C[E]);
    }
  }
  for (FuncId F = 0; F != NF; ++F)
    for (size_t E = 0; E != NE; ++E) {
      uint64_t V = Own[size_t(F) * NE + E];
      if (R.Recursive[F])
        V = std::min(V, Cycle[size_t(R.Component[F]) * NE + E]);
      else
        V = std::max(V, In[size_t(F) * NE + E]);
      R.Inclusive[size_t(F) * NE + E] = std::min(V, R.Total[E]);
    }
  return R;
}

AnalysisKey InclusiveCostAnalysis::Key;

InclusiveCost InclusiveCostAnalysis::run(Profile &P, ProfileAnalysisManager &) {
  return InclusiveCost::compute(P);
}
