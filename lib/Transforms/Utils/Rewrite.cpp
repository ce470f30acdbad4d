//===- Rewrite.cpp - Rebuilding the rows of a profile ---------------------===//

#include "profkit/Transforms/Utils/Rewrite.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/Saturating.h"
#include "profkit/Support/Threads.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"
#include <type_traits>

using namespace profkit;
using namespace llvm;

Error profkit::overflowError(StringRef Pass) {
  return createStringError(make_error_code(ErrorCode::LimitExceeded),
                           Pass + ": a cost sum overflows 64 bits");
}

/// The inline sites of Src as sites of Dst, each mapped once: callees go
/// through M.Func, and a site whose callee is dropped folds into its parent
/// (the code stays where it was inlined, as the function's own).
namespace {
class SiteMapper {
public:
  SiteMapper(const Profile &Src, Profile &Dst, const RowMap &M)
      : Src(Src), Dst(Dst), M(M), Mapped(Src.numInlineSites(), Unmapped) {
    Mapped[0] = 0;
  }
  InlineSiteId map(InlineSiteId Id) {
    if (Mapped[Id] != Unmapped)
      return Mapped[Id];
    // A copy: when Src is Dst, adding a site may move the table.
    InlineSite S = Src.inlineSite(Id);
    InlineSiteId Parent = map(S.Parent);
    FuncId Callee = M.Func[S.Callee];
    if (Callee == DroppedFunction)
      return Mapped[Id] = Parent;
    S.Parent = Parent;
    S.Callee = Callee;
    return Mapped[Id] = Dst.getOrAddInlineSite(S);
  }

  /// Does the site's code become its parent's (its callee is dropped)?
  bool folded(InlineSiteId Id) const {
    return M.Func[Src.inlineSite(Id).Callee] == DroppedFunction;
  }

private:
  static constexpr InlineSiteId Unmapped = ~InlineSiteId(0);
  const Profile &Src;
  Profile &Dst;
  const RowMap &M;
  std::vector<InlineSiteId> Mapped;
};
} // namespace

namespace {
/// The rows one table of a function takes from one source table, gathered
/// to go in as one batch, which merges with the rows already there in one
/// pass (merge adds a function's rows once per input; the callers finalize
/// the tables). Rows that come out of key order (ids mapped to ids in
/// another order) go one by one, as they came, not sorted as a batch's.
class TableRows {
public:
  /// Starts gathering rows of KeyWidth words, with none so far.
  void start(unsigned KeyWidth) {
    Rows.clear();
    Rows.setKeyWidth(KeyWidth);
    InOrder = true;
  }
  void add(ArrayRef<uint64_t> Key, ArrayRef<uint64_t> Values) {
    if (InOrder && !Rows.empty()) {
      const uint64_t *Prev = std::as_const(Rows).row(Rows.size() - 1);
      InOrder = !std::lexicographical_compare(Key.begin(), Key.end(), Prev,
                                              Prev + Key.size());
    }
    Rows.add(Key, Values);
  }
  /// Adds the rows to T and starts afresh; false if a sum overflowed.
  [[nodiscard]] bool flushInto(RowTable &T) {
    bool Ok = true;
    if (InOrder) {
      Ok = T.mergeBatch(Rows);
    } else {
      const unsigned KW = Rows.keyWidth(), VW = Rows.valueWidth();
      for (size_t I = 0; I != Rows.size(); ++I) {
        const uint64_t *R = std::as_const(Rows).row(I);
        Ok &= T.add(ArrayRef(R, KW), ArrayRef(R + KW, VW));
      }
      Rows.clear();
    }
    InOrder = true;
    return Ok;
  }
  bool empty() const { return Rows.empty(); }

private:
  RowBatch Rows;
  bool InOrder = true;
};
} // namespace

/// Fewer functions than this a thread are copied on one.
static constexpr size_t MinFunctionsPerThread = 4096;

/// copyRows(), and moveRows() with a mutable PartT: each function's tables
/// are emptied once copied.
template <typename PartT>
static bool copyRowsOf(const Profile &Src, PartT &From, Profile &Dst, Part &To,
                       const RowMap &M, const PlainRows *Plain) {
  constexpr bool Release = !std::is_const_v<PartT>;
  RowLayout SL = From.layout(), DL = To.layout();
  unsigned SP = SL.P, DP = DL.P;
  SmallVector<int, 3> PosMap(M.Positions.begin(), M.Positions.end());
  if (PosMap.empty())
    for (unsigned I = 0; I != DP; ++I)
      PosMap.push_back(I < SP ? int(I) : -1);
  auto MapFile = [&](uint64_t S) -> uint64_t {
    return M.File.empty() ? S : M.File[S];
  };
  auto MapPositions = [&](ArrayRef<uint64_t> In,
                          MutableArrayRef<uint64_t> Out) {
    for (size_t I = 0; I != PosMap.size(); ++I)
      Out[I] = PosMap[I] < 0 ? 0 : In[PosMap[I]];
  };
  // A first line stays one while lines stay where they were.
  std::optional<unsigned> SrcLine = From.positionIndex(PositionKind::Line),
                          DstLine = To.positionIndex(PositionKind::Line);
  bool KeepFirstLine = !M.UseFunctionFile && SrcLine && DstLine &&
                       PosMap[*DstLine] == int(*SrcLine);

  for (const Interval &I : From.intervals())
    if (M.Func[I.Function] != DroppedFunction)
      To.makeIntervals().push_back(
          {M.Func[I.Function], I.Thread, I.Start, I.Duration});

  SiteMapper Sites(Src, Dst, M);
  // Every destination function's data first, in the order one thread
  // makes them: then the functions can be copied on several threads, each
  // taking the destination functions whose id is its own modulo the
  // threads, and their sources in order, so that every table gets its rows
  // as on one thread. Only without inline sites, which are added to Dst as
  // the rows meet them, and without a Costs callback.
  size_t NumFunctions = From.functions().size();
  unsigned Shares =
      Src.numInlineSites() > 1 || M.Costs
          ? 1
          : unsigned(std::clamp<size_t>(NumFunctions / MinFunctionsPerThread, 1,
                                        std::max(1u, M.Threads)));
  // Positions in To.functions(), which grows meanwhile.
  constexpr uint32_t Dropped = ~uint32_t(0);
  std::vector<uint32_t> Dests(NumFunctions, Dropped);
  for (size_t I = 0; I != NumFunctions; ++I)
    if (FuncId F = M.Func[From.functions()[I].Id]; F != DroppedFunction)
      Dests[I] = uint32_t(To.getOrCreateAt(F));
  auto CopyShare = [&](size_t Share) {
    SmallVector<uint64_t, 16> Values;
    bool CostsOk = true;
    auto MapCosts = [&](ArrayRef<uint64_t> In) {
      if (M.Costs) {
        CostsOk &= M.Costs(In, Values);
        return;
      }
      if (M.Events.empty()) {
        Values.append(In.begin(), In.end());
        return;
      }
      for (int I : M.Events)
        Values.push_back(I >= 0 && size_t(I) < In.size() ? In[I] : 0);
    };
    bool Ok = true;
    bool Saturated = false;
    auto Weigh = [&](MutableArrayRef<uint64_t> V) {
      if (M.Weight != 1)
        for (uint64_t &X : V)
          Saturated |= !scaleCost(X, M.Weight);
    };
    auto WeighValues = [&](FunctionValues V) {
      if (M.Weight != 1)
        Saturated |= !V.scale(M.Weight);
      return V;
    };
    SelfKey SK(DL);
    CallKey CK(DL);
    JumpKey JK(DL);
    // Kept by each thread from part to part: merge copies tens of thousands
    // of small parts, whose batches would allocate their buffers anew.
    thread_local TableRows SelfRows, CallRows, JumpRows;
    SelfRows.start(DL.selfWidth());
    CallRows.start(DL.callWidth());
    JumpRows.start(DL.jumpWidth());
    for (size_t I = 0; I != Dests.size(); ++I) {
      auto &FD = From.functions()[I];
      if (Dests[I] == Dropped || M.Func[FD.Id] % Shares != Share)
        continue;
      FunctionData &To2 = To.functions()[Dests[I]];
      StrId OwnFile = Dst.function(M.Func[FD.Id]).File;
      FunctionValues FnValues = FD.values();
      if (!KeepFirstLine)
        FnValues.erase(FunctionValueKind::FirstLine);
      Ok &= To2.values().merge(WeighValues(FnValues));
      // An inlinee's values count in its parents' already: a folded site's
      // are dropped.
      if (!M.UseFunctionFile)
        for (const auto &[Site, SiteValues] : FD.inlineValues())
          if (!Sites.folded(Site))
            Ok &= To2.valuesAt(Sites.map(Site)).merge(WeighValues(SiteValues));
      // Without positions (UseFunctionFile) every position stays 0.
      auto Head = [&](RowKeyBuilder &K, const Row &R) {
        Values.clear();
        if (M.UseFunctionFile) {
          K.setSourceFile(OwnFile);
          return;
        }
        MapPositions(SL.position(R), K.position());
        K.setSourceFile(MapFile(SL.sourceFile(R)));
        K.setInlineSite(Sites.map(SL.inlineSite(R)));
      };
      // The table's rows, then those of the function kept plain.
      auto ForEachRow = [&](const RowTable &T, PlainRows::Kind K,
                            unsigned KeyWidth, auto F) {
        for (const Row &R : T)
          F(R);
        if (Plain)
          PlainRows::forEachRow(Plain->table(I, K), KeyWidth, F);
      };
      ForEachRow(FD.Self, PlainRows::Self, SL.selfWidth(), [&](const Row &R) {
        Head(SK, R);
        MapCosts(R.Values);
        Weigh(Values);
        SelfRows.add(SK.key(), Values);
      });
      Ok &= SelfRows.flushInto(To2.Self);
      ForEachRow(
          FD.calls(), PlainRows::Calls, SL.callWidth(), [&](const Row &R) {
            FuncId Callee = M.Func[SL.callee(R)];
            if (Callee == DroppedFunction)
              return;
            Head(CK, R);
            CK.setCallee(Callee);
            if (!M.UseFunctionFile)
              MapPositions(SL.callTarget(R), CK.target());
            Values.push_back(R.value(0));
            MapCosts(R.Values.drop_front(std::min<size_t>(1, R.Values.size())));
            Weigh(Values);
            CallRows.add(CK.key(), Values);
          });
      if (!CallRows.empty())
        Ok &= CallRows.flushInto(To2.makeCalls());
      // Not FD.jumps(), which would make FD's rare data.
      ForEachRow(std::as_const(FD).jumps(), PlainRows::Jumps, SL.jumpWidth(),
                 [&](const Row &R) {
                   FuncId Target = M.Func[SL.jumpTargetFunction(R)];
                   if (Target == DroppedFunction)
                     return;
                   Head(JK, R);
                   JK.setKind(SL.jumpKind(R));
                   JK.setTargetFunction(Target);
                   if (M.UseFunctionFile) {
                     JK.setTargetFile(Dst.function(Target).File);
                   } else {
                     JK.setTargetFile(MapFile(SL.jumpTargetFile(R)));
                     MapPositions(SL.jumpTarget(R), JK.target());
                   }
                   Values.append(R.Values.begin(), R.Values.end());
                   Weigh(Values);
                   JumpRows.add(JK.key(), Values);
                 });
      if (!JumpRows.empty())
        Ok &= JumpRows.flushInto(To2.jumps());
      if constexpr (Release) {
        FD.Self.clear();
        FD.setCalls(RowTable());
        if (FD.hasJumps())
          FD.jumps().clear();
      }
    }
    if (Saturated && M.WeightSaturated)
      *M.WeightSaturated = true;
    return Ok && CostsOk;
  };
  std::vector<char> Copied(Shares);
  parallelFor(Shares, Shares, [&](size_t S) { Copied[S] = CopyShare(S); });
  return llvm::all_of(Copied, [](char C) { return C; });
}

bool profkit::copyRows(const Profile &Src, const Part &From, Profile &Dst,
                       Part &To, const RowMap &M) {
  return copyRowsOf(Src, From, Dst, To, M, nullptr);
}

bool profkit::moveRows(const Profile &Src, Part &From, Profile &Dst, Part &To,
                       const RowMap &M, const PlainRows *Plain) {
  return copyRowsOf(Src, From, Dst, To, M, Plain);
}

bool profkit::rewriteProfile(Profile &P, const RowMap &M, bool DropTotals,
                             ArrayRef<PositionKind> NewPositions) {
  bool Ok = true;
  for (auto &Pt : P.parts()) {
    Part NP = copyPartShell(*Pt, NewPositions.empty() ? Pt->positions()
                                                      : NewPositions);
    if (DropTotals)
      NP.Totals.reset();
    if (M.Costs || !M.Events.empty()) {
      if (NP.Summary)
        NP.Summary = mapCostVector(M, *NP.Summary);
      if (NP.Totals)
        NP.Totals = mapCostVector(M, *NP.Totals);
    }
    Ok &= copyRows(P, *Pt, P, NP, M);
    Ok &= NP.finalize();
    *Pt = std::move(NP);
  }
  return Ok;
}

bool profkit::renameFunctions(
    Profile &P,
    const std::function<Function(const profkit::Function &)> &NewIdentity) {
  RowMap M;
  size_t N = P.numFunctions();
  M.Func.resize(N);
  bool Changed = false;
  for (FuncId F = 0; F != N; ++F) {
    Function New = NewIdentity(P.function(F));
    M.Func[F] = P.getOrAddFunction(New.Object, New.File, New.Name);
    Changed |= M.Func[F] != F;
  }
  if (!Changed)
    return true;
  return rewriteProfile(P, M, /*DropTotals=*/false);
}

Part::CostLine profkit::mapCostVector(const RowMap &M, ArrayRef<uint64_t> In) {
  if (M.Costs) {
    SmallVector<uint64_t, 16> Out;
    if (!M.Costs(In, Out))
      Out.clear();
    return Part::CostLine(Out.begin(), Out.end());
  }
  if (M.Events.empty())
    return Part::CostLine(In.begin(), In.end());
  Part::CostLine Out;
  for (int I : M.Events)
    Out.push_back(I >= 0 && size_t(I) < In.size() ? In[I] : 0);
  return Out;
}

bool profkit::keepEvents(Profile &P, ArrayRef<unsigned> Keep) {
  Profile Q;
  for (size_t I = 1, E = P.Strings.size(); I != E; ++I)
    Q.Strings.intern(P.Strings.str(I));
  RowMap M;
  for (FuncId F = 0, E = P.numFunctions(); F != E; ++F) {
    const Function &Fn = P.function(F);
    M.Func.push_back(Q.getOrAddFunction(Fn.Object, Fn.File, Fn.Name));
  }
  for (unsigned C : Keep) {
    unsigned New = Q.getOrAddEvent(P.events()[C].Name);
    Q.setEventLongName(New, P.events()[C].LongName);
    M.Events.push_back(int(C));
  }
  Q.EventDecls = P.EventDecls;
  Q.SourceName = P.SourceName;
  bool Ok = true;
  for (auto &Pt : P.parts()) {
    Part &NP = Q.addPart(Pt->positions());
    NP = copyPartShell(*Pt, Pt->positions());
    if (NP.Summary)
      NP.Summary = mapCostVector(M, *NP.Summary);
    if (NP.Totals)
      NP.Totals = mapCostVector(M, *NP.Totals);
    Ok &= copyRows(P, *Pt, Q, NP, M);
    Ok &= NP.finalize();
  }
  P = std::move(Q);
  return Ok;
}
