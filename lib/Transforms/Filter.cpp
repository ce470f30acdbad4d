//===- Filter.cpp - Keep, drop or hide functions --------------------------===//
//
// Order: hide= first (so the thresholds see the costs hidden functions gave
// their callers), then every selection (regexes, thresholds, from=/to=) on
// the result; a function is kept if every selection keeps it.
//
// Hiding H, in each part: H's self cost is split among the call rows into H
// (per event, in proportion to their inclusive cost of that event, else to
// their call counts) and added as self cost at those call sites; H's calls
// to other functions move to its callers, split in proportion to the call
// counts. The splits round so that the parts add up exactly: totals stay.
// A function no one else calls in a part keeps its rows there.
//
//===----------------------------------------------------------------------===//

#include "profkit/Transforms/Filter.h"
#include "profkit/Analysis/CallGraph.h"
#include "profkit/Analysis/Totals.h"
#include "profkit/Support/Apportion.h"
#include "profkit/Support/Error.h"
#include "profkit/Transforms/Inclusive.h"
#include "profkit/Transforms/Utils/Rewrite.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

using namespace profkit;
using namespace llvm;

namespace {
struct Threshold {
  bool Set = false, Percent = false;
  double Value = 0;
  bool below(uint64_t Cost, uint64_t Total) const {
    if (!Set)
      return false;
    if (Percent)
      return double(Cost) * 100.0 < Value * double(Total);
    return double(Cost) < Value;
  }
};
} // namespace

struct FilterPass::Options {
  std::optional<Regex> Function, ExcludeFunction, File, ExcludeFile, Object,
      ExcludeObject, From, To, Hide;
  std::string Event;
  Threshold MinSelf, MinInclusive;
};

static Error parseThreshold(const PassParams &P, StringRef Name, Threshold &T) {
  StringRef V = P.get(Name).trim();
  if (V.empty())
    return Error::success();
  T.Set = true;
  T.Percent = V.consume_back("%");
  if (V.trim().getAsDouble(T.Value) || T.Value < 0)
    return P.invalid(Name, "expected a count or a percentage such as 0.5%");
  if (T.Percent && T.Value > 100)
    return P.invalid(Name, "a percentage is at most 100%");
  return Error::success();
}

Expected<FilterPass> FilterPass::create(const PassParams &Params,
                                        PassContext &) {
  FilterPass F;
  F.Params = Params;
  F.Opts = std::make_shared<Options>();
  Options &O = *F.Opts;
  std::pair<const char *, std::optional<Regex> *> Regexes[] = {
      {"function", &O.Function}, {"exclude-function", &O.ExcludeFunction},
      {"file", &O.File},         {"exclude-file", &O.ExcludeFile},
      {"object", &O.Object},     {"exclude-object", &O.ExcludeObject},
      {"from", &O.From},         {"to", &O.To},
      {"hide", &O.Hide}};
  for (auto &[Name, Slot] : Regexes) {
    Expected<std::optional<Regex>> R = Params.getRegex(Name);
    if (!R)
      return R.takeError();
    *Slot = std::move(*R);
  }
  O.Event = Params.get("event").str();
  if (Error E = parseThreshold(Params, "min-self", O.MinSelf))
    return std::move(E);
  if (Error E = parseThreshold(Params, "min-inclusive", O.MinInclusive))
    return std::move(E);
  return F;
}

/// Hides the functions Hidden in one part. Returns the ones hidden.
static DenseSet<FuncId> hideInPart(Part &Pt, const DenseSet<FuncId> &Hidden,
                                   size_t NumEvents, bool &Ok) {
  RowLayout L = Pt.layout();
  // Callers of every function in this part (kept up to date as calls move).
  DenseMap<FuncId, SmallSetVector<FuncId, 4>> Callers;
  for (const FunctionData &FD : Pt.functions())
    for (const Row &R : FD.calls())
      Callers[L.callee(R)].insert(FD.Id);

  DenseSet<FuncId> Done;
  // Hide in a fixed order, so the result does not depend on hashing.
  SmallVector<FuncId, 16> Order(Hidden.begin(), Hidden.end());
  llvm::sort(Order);
  for (FuncId H : Order) {
    const FunctionData *HD = Pt.lookup(H);
    auto CIt = Callers.find(H);
    if (CIt == Callers.end())
      continue;
    SmallVector<FuncId, 4> From;
    for (FuncId C : CIt->second)
      if (C != H && !Done.count(C))
        From.push_back(C);
    if (From.empty())
      continue;

    // The call rows into H: caller, call-site key, values.
    struct Incoming {
      FuncId Caller;
      SmallVector<uint64_t, 4> Site; // The self-row words of its place.
      SmallVector<uint64_t, 8> Values;
    };
    std::vector<Incoming> In;
    for (FuncId C : From)
      for (const Row &R : Pt.getOrCreate(C).calls())
        if (L.callee(R) == H)
          In.push_back({C, SmallVector<uint64_t, 4>(L.place(R)),
                        SmallVector<uint64_t, 8>(R.Values)});
    if (In.empty())
      continue;

    // H's self cost per event, and its calls to others.
    std::vector<uint64_t> Self(NumEvents);
    struct Outgoing {
      SmallVector<uint64_t, 4> CalleeAndTarget; // [Callee, Target*P]
      SmallVector<uint64_t, 8> Values;
    };
    std::vector<Outgoing> OutCalls;
    if (HD) {
      for (const Row &R : HD->Self)
        for (size_t E = 0; E != R.Values.size() && E != NumEvents; ++E)
          Ok &= addCost(Self[E], R.Values[E]);
      for (const Row &R : HD->calls())
        if (L.callee(R) != H)
          OutCalls.push_back(
              {SmallVector<uint64_t, 4>(R.Key.drop_front(L.selfWidth())),
               SmallVector<uint64_t, 8>(R.Values)});
    }

    // New rows per caller index in In.
    std::vector<std::vector<uint64_t>> SelfShare(
        In.size(), std::vector<uint64_t>(NumEvents));
    SmallVector<uint64_t, 8> Weights, Parts;
    for (size_t E = 0; E != NumEvents; ++E) {
      Weights.clear();
      for (const Incoming &I : In)
        Weights.push_back(E + 1 < I.Values.size() ? I.Values[E + 1] : 0);
      if (all_of(Weights, [](uint64_t W) { return W == 0; })) {
        Weights.clear();
        for (const Incoming &I : In)
          Weights.push_back(I.Values.empty() ? 0 : I.Values[0]);
      }
      apportion(Self[E], Weights, Parts);
      for (size_t I = 0; I != In.size(); ++I)
        SelfShare[I][E] = Parts[I];
    }
    SmallVector<uint64_t, 8> CountWeights;
    for (const Incoming &I : In)
      CountWeights.push_back(I.Values.empty() ? 0 : I.Values[0]);

    // Rebuild each caller's tables once.
    for (FuncId C : From) {
      FunctionData &CD = Pt.getOrCreate(C);
      RowTable NewCalls(L.callWidth(), L.P);
      for (const Row &R : CD.calls())
        if (L.callee(R) != H)
          Ok &= NewCalls.add(R.Key, R.Values);
      SmallVector<uint64_t, 12> Key;
      SmallVector<uint64_t, 16> Values;
      for (size_t I = 0; I != In.size(); ++I) {
        if (In[I].Caller != C)
          continue;
        Ok &= CD.Self.add(In[I].Site, SelfShare[I]);
      }
      for (const Outgoing &O : OutCalls) {
        // This caller's share of each value of the call row.
        std::vector<SmallVector<uint64_t, 8>> Shares(In.size());
        for (size_t V = 0; V != O.Values.size(); ++V) {
          apportion(O.Values[V], CountWeights, Parts);
          for (size_t I = 0; I != In.size(); ++I)
            Shares[I].push_back(Parts[I]);
        }
        for (size_t I = 0; I != In.size(); ++I) {
          if (In[I].Caller != C)
            continue;
          Key.assign(In[I].Site.begin(), In[I].Site.end());
          Key.append(O.CalleeAndTarget.begin(), O.CalleeAndTarget.end());
          FuncId Callee = FuncId(O.CalleeAndTarget[0]);
          Ok &= NewCalls.add(Key, Shares[I]);
          Callers[Callee].insert(C);
        }
      }
      Ok &= NewCalls.finalize();
      Ok &= CD.Self.finalize();
      CD.setCalls(std::move(NewCalls));
    }
    Done.insert(H);
  }
  return Done;
}

Expected<PreservedAnalyses> FilterPass::run(Profile &P,
                                            ProfileAnalysisManager &AM) {
  const Options &O = *Opts;
  size_t NumEvents = P.events().size();
  unsigned Event = 0;
  if (!O.Event.empty()) {
    std::optional<unsigned> E = P.findEvent(O.Event);
    if (!E)
      return makeError(ErrorCode::InvalidArgument,
                       "filter: the profile has no event '" + O.Event + "'");
    Event = *E;
  }
  bool Changed = false;

  if (O.Hide) {
    DenseSet<FuncId> Hidden;
    for (FuncId F = 0, E = P.numFunctions(); F != E; ++F)
      if (O.Hide->match(P.functionName(F)))
        Hidden.insert(F);
    bool Ok = true;
    for (auto &Pt : P.parts()) {
      DenseSet<FuncId> Done = hideInPart(*Pt, Hidden, NumEvents, Ok);
      if (Done.empty())
        continue;
      RowMap M;
      for (FuncId F = 0, E = P.numFunctions(); F != E; ++F)
        M.Func.push_back(Done.count(F) ? DroppedFunction : F);
      Part NP = copyPartShell(*Pt, Pt->positions());
      Ok &= copyRows(P, *Pt, P, NP, M);
      Ok &= NP.finalize();
      *Pt = std::move(NP);
      Changed = true;
    }
    if (!Ok)
      return overflowError(name());
    if (Changed)
      AM.invalidate(P, PreservedAnalyses::none());
  }

  size_t N = P.numFunctions();
  std::vector<bool> Keep(N, true);
  auto Select = [&](const std::optional<Regex> &R, bool Exclude,
                    StrId profkit::Function::*Field) {
    if (!R)
      return;
    for (FuncId F = 0; F != N; ++F)
      if (R->match(P.Strings.str(P.function(F).*Field)) == Exclude)
        Keep[F] = false;
  };
  Select(O.Function, false, &profkit::Function::Name);
  Select(O.ExcludeFunction, true, &profkit::Function::Name);
  Select(O.File, false, &profkit::Function::File);
  Select(O.ExcludeFile, true, &profkit::Function::File);
  Select(O.Object, false, &profkit::Function::Object);
  Select(O.ExcludeObject, true, &profkit::Function::Object);

  if (O.MinSelf.Set) {
    auto &T = AM.getResult<TotalsAnalysis>(P);
    for (FuncId F = 0; F != N; ++F)
      if (NumEvents && O.MinSelf.below(T.self(F, Event), T.Total[Event]))
        Keep[F] = false;
  }
  if (O.MinInclusive.Set) {
    auto &IC = AM.getResult<InclusiveCostAnalysis>(P);
    for (FuncId F = 0; F != N; ++F)
      if (NumEvents &&
          O.MinInclusive.below(IC.inclusive(F)[Event], IC.total()[Event]))
        Keep[F] = false;
  }
  auto Reach = [&](const std::optional<Regex> &R, bool Forward) {
    if (!R)
      return;
    auto &CG = AM.getResult<CallGraphAnalysis>(P);
    std::vector<FuncId> Seeds;
    for (FuncId F = 0; F != N; ++F)
      if (R->match(P.functionName(F)))
        Seeds.push_back(F);
    std::vector<bool> Seen = CG.reachable(Seeds, Forward);
    for (FuncId F = 0; F != N; ++F)
      if (!Seen[F])
        Keep[F] = false;
  };
  Reach(O.From, true);
  Reach(O.To, false);

  if (!is_contained(Keep, false))
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  // The parts lose the dropped cost, the run does not: the summary keeps the
  // run's total, so later shares stay shares of the whole run.
  if (NumEvents)
    for (auto &Pt : P.parts()) {
      std::vector<uint64_t> Total = partRunTotal(*Pt, NumEvents);
      Pt->Summary.emplace(Total.begin(), Total.end());
    }
  RowMap M;
  for (FuncId F = 0; F != N; ++F)
    M.Func.push_back(Keep[F] ? F : DroppedFunction);
  if (!rewriteProfile(P, M, /*DropTotals=*/true))
    return overflowError(name());
  return PreservedAnalyses::none();
}
