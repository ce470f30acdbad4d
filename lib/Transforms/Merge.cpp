//===- Merge.cpp - Merge profiles and parts into one ----------------------===//
//
// Every input is copied into a new profile: strings and events by name,
// functions by (object, file, name) after path normalisation, rows summed
// by key. Address-level data (gmon.out histograms, arcs, basic-block counts)
// of folded parts is combined as `gprof -s` combines runs. Inputs after the
// first come one at a time (the driver reads the next while this one
// merges), so memory holds the merged profile and an input or two, whose
// tables are emptied as they are copied; the first is taken over without a
// copy when nothing in it changes.
// weights=W1,W2,... multiplies every count of the Nth input by WN first (as
// llvm-profdata merge --weighted-input does), saturating with a warning.
//
//===----------------------------------------------------------------------===//

#include "profkit/Transforms/Merge.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/Saturating.h"
#include "profkit/Support/Threads.h"
#include "profkit/Transforms/Utils/Rewrite.h"
#include "llvm/ADT/STLExtras.h"

using namespace profkit;
using namespace llvm;

Expected<MergePass> MergePass::create(const PassParams &Params,
                                      PassContext &Ctx) {
  MergePass M;
  M.Params = Params;
  M.Ctx = &Ctx;
  M.FoldParts = Params.getFlag("fold-parts");
  for (StringRef W : Params.getList("weights")) {
    uint64_t N;
    if (W.getAsInteger(10, N) || N == 0)
      return Params.invalid("weights", "'" + W +
                                           "' is not a weight (a positive "
                                           "integer; give one per input, "
                                           "separated by commas)");
    M.Weights.push_back(N);
  }
  Expected<std::optional<Regex>> R = Params.getRegex("strip-path");
  if (!R)
    return R.takeError();
  M.Paths = PathNormalizer(std::move(*R), Params.getFlag("basename"));
  return M;
}

namespace {
class Merger {
public:
  Merger(bool FoldParts, const PathNormalizer &Paths, unsigned Threads)
      : FoldParts(FoldParts), Paths(Paths), Threads(Threads) {}
  /// Adds Src, every count multiplied by Weight, emptying its tables as
  /// they are copied; fails on data that cannot merge or a sum that
  /// overflows.
  llvm::Error add(Profile &Src, uint64_t Weight = 1);
  /// Takes the first input as the start of the merged profile when add()
  /// would copy it unchanged, saving a copy of it; false if it would not.
  bool adopt(Profile &Src);
  [[nodiscard]] bool finish();
  Profile Out;
  /// A count multiplied by its input's weight saturated at 2^64-1.
  bool weightSaturated() const { return WeightSaturated || RowsSaturated; }

private:
  bool WeightSaturated = false;
  std::atomic<bool> RowsSaturated{false}; // Set by the threads that copy.
  bool FoldParts;
  const PathNormalizer &Paths;
  unsigned Threads;
  Part *Folded = nullptr;
  unsigned NumFolded = 0;
  bool AllHaveSummary = true;
};
} // namespace

/// Multiplies the counts of address-level data by W; false on saturation.
static bool scaleAddresses(AddressData &A, uint64_t W) {
  bool Ok = true;
  for (Histogram &H : A.Histograms)
    for (uint64_t &Bin : H.Bins)
      Ok &= scaleCost(Bin, W);
  for (AddressArc &Arc : A.Arcs)
    Ok &= scaleCost(Arc.Count, W);
  for (BlockCount &B : A.Blocks)
    Ok &= scaleCost(B.Count, W);
  return Ok;
}

Error Merger::add(Profile &Src, uint64_t Weight) {
  RowMap M;
  M.Threads = Threads; // The threads copy the functions of a folded part.
  M.Weight = Weight;
  M.WeightSaturated = &RowsSaturated;
  auto Weigh = [&](std::vector<uint64_t> &V) {
    for (uint64_t &X : V)
      WeightSaturated |= !scaleCost(X, Weight);
  };
  // Strings: files normalised; names as they are.
  std::vector<StrId> Plain(Src.Strings.size());
  for (StrId S = 0; S != Src.Strings.size(); ++S)
    Plain[S] = Out.Strings.intern(Src.Strings.str(S));
  if (Paths.active()) {
    M.File.resize(Src.Strings.size());
    for (StrId S = 0; S != Src.Strings.size(); ++S)
      M.File[S] = Out.Strings.intern(Paths(Src.Strings.str(S)));
  } else {
    M.File = Plain;
  }
  // The function after the one found last is looked at first.
  for (FuncId F = 0, E = Src.numFunctions(), Next = 0; F != E; ++F) {
    const profkit::Function &Fn = Src.function(F);
    M.Func.push_back(Out.getOrAddFunction(M.File[Fn.Object], M.File[Fn.File],
                                          Plain[Fn.Name], Next));
    Next = M.Func.back() + 1;
  }
  // Nothing looks Src's functions up any more.
  Src.releaseFunctionIndex();

  // Events by name: new ones get new columns at the end, so the rows
  // already merged stay valid.
  SmallVector<unsigned, 16> ToOut;
  for (const EventType &E : Src.events()) {
    unsigned C = Out.getOrAddEvent(E.Name);
    if (Out.events()[C].LongName.empty())
      Out.setEventLongName(C, E.LongName);
    ToOut.push_back(C);
  }
  M.Events.assign(Out.events().size(), -1);
  for (unsigned I = 0; I != ToOut.size(); ++I)
    M.Events[ToOut[I]] = int(I);
  for (const EventDecl &D : Src.EventDecls)
    if (none_of(Out.EventDecls,
                [&](const EventDecl &O) { return O.Name == D.Name; }))
      Out.EventDecls.push_back(D);
  if (Out.SourceName.empty())
    Out.SourceName = Src.SourceName;

  bool Ok = true;
  std::vector<std::pair<Part *, Part *>> Copies; // Parts not folded.
  for (const auto &Pt : Src.parts()) {
    std::optional<std::vector<uint64_t>> Summary;
    if (Pt->Summary) {
      Summary = mapCostVector(M, *Pt->Summary);
      Weigh(*Summary);
    }
    AllHaveSummary &= Pt->Summary.has_value();
    if (!FoldParts) {
      Part &To = Out.addPart(Pt->positions());
      To = copyPartShell(*Pt, Pt->positions());
      WeightSaturated |= !scaleAddresses(To.Addresses, Weight);
      To.Summary = Summary;
      To.Totals.reset();
      Copies.emplace_back(Pt.get(), &To);
      continue;
    }
    if (!Folded) {
      Folded = &Out.addPart(Pt->positions());
      *Folded = copyPartShell(*Pt, Pt->positions());
      WeightSaturated |= !scaleAddresses(Folded->Addresses, Weight);
      Folded->Totals.reset();
      Folded->Summary = Summary;
    } else {
      // As gprof -s: histograms of the same range summed bin by bin
      // (gprof's rules and messages), arcs with the same ends and blocks at
      // the same address summed.
      AddressData Weighed;
      const AddressData *From = &Pt->Addresses;
      if (Weight != 1) {
        Weighed = Pt->Addresses;
        WeightSaturated |= !scaleAddresses(Weighed, Weight);
        From = &Weighed;
      }
      for (const Histogram &H : From->Histograms) {
        bool Saturated = false;
        if (Error E =
                addHistogram(Folded->Addresses.Histograms, H, Saturated)) {
          return makeError(
              ErrorCode::Mismatch,
              "merge: " + Src.SourceName +
                  ": cannot merge its histogram: " + toString(std::move(E)));
        }
        Ok &= !Saturated;
      }
      Ok &= addArcs(Folded->Addresses.Arcs, From->Arcs);
      Ok &= addBlocks(Folded->Addresses.Blocks, From->Blocks);
      if (!Folded->Addresses.AddressSize)
        std::tie(Folded->Addresses.AddressSize, Folded->Addresses.BigEndian) =
            std::tie(Pt->Addresses.AddressSize, Pt->Addresses.BigEndian);
      if (Folded->Summary && Summary) {
        Folded->Summary->resize(Out.events().size());
        for (size_t I = 0; I != Summary->size(); ++I)
          Ok &= addCost((*Folded->Summary)[I], (*Summary)[I]);
      }
    }
    ++NumFolded;
    // The first part's positions are kept; a kind the source lacks is 0.
    M.Positions.clear();
    for (PositionKind K : Folded->positions()) {
      auto It = find(Pt->positions(), K);
      M.Positions.push_back(
          It == Pt->positions().end() ? -1 : int(It - Pt->positions().begin()));
    }
    Ok &= moveRows(Src, *Pt, Out, *Folded, M);
  }
  // Parts that are not folded copy on several threads, each into a part
  // of its own, through the ids mapped above, when there are enough of
  // them; else each part's functions do. Inline sites are added to the
  // merged profile as the rows meet them, in order: a profile with them
  // copies on this thread.
  unsigned PartThreads = Src.numInlineSites() > 1 ? 1 : Threads;
  if (Copies.size() >= PartThreads)
    M.Threads = 1;
  else
    PartThreads = 1;
  std::vector<char> Copied(Copies.size());
  parallelFor(PartThreads, Copies.size(), [&](size_t I) {
    Copied[I] = moveRows(Src, *Copies[I].first, Out, *Copies[I].second, M);
  });
  Ok &= all_of(Copied, [](char C) { return C; });
  return Ok ? Error::success() : overflowError("merge");
}

bool Merger::adopt(Profile &Src) {
  // Folding several parts into one and normalising names (which may join
  // functions) need the copy.
  if ((FoldParts && Src.parts().size() > 1) || Paths.active() ||
      Out.numFunctions() || !Out.parts().empty())
    return false;
  Out = std::move(Src);
  for (auto &Pt : Out.parts()) {
    AllHaveSummary &= Pt->Summary.has_value();
    Pt->Totals.reset();
  }
  if (FoldParts && !Out.parts().empty()) {
    Folded = Out.parts().front().get();
    NumFolded = 1;
  }
  return true;
}

/// Sums the arcs with the same ends, and the blocks at the same address, of
/// a part into one each, as gprof -s does: an input may hold several (from
/// another tool, or a merge of a part that held them apart), and merging it
/// with itself then gives what merge<weights=2> of it alone gives. Returns
/// false if a count saturated.
static bool sumEqualAddresses(AddressData &A) {
  bool Ok = true;
  if (!A.Arcs.empty()) {
    std::vector<AddressArc> Arcs;
    Ok &= addArcs(Arcs, A.Arcs);
    A.Arcs = std::move(Arcs);
  }
  if (!A.Blocks.empty()) {
    std::vector<BlockCount> Blocks;
    Ok &= addBlocks(Blocks, A.Blocks);
    A.Blocks = std::move(Blocks);
  }
  return Ok;
}

bool Merger::finish() {
  bool Ok = true;
  if (Folded) {
    if (!AllHaveSummary)
      Folded->Summary.reset();
    // Header lines that name one thread or dump no longer apply.
    if (NumFolded > 1)
      Folded->Header.eraseIf([](const HeaderLine &H) {
        return is_contained({"part", "thread", "pid", "timerange", "trigger"},
                            H.Key);
      });
  }
  for (auto &Pt : Out.parts()) {
    Ok &= Pt->finalize();
    Ok &= sumEqualAddresses(Pt->Addresses);
  }
  return Ok;
}

Expected<PreservedAnalyses> MergePass::run(Profile &P,
                                           ProfileAnalysisManager &) {
  Merger M(FoldParts, Paths, Ctx->Threads);
  size_t Input = 0;
  auto WeightOf = [&](size_t I) { return I < Weights.size() ? Weights[I] : 1; };
  if (WeightOf(Input) != 1 || !M.adopt(P)) {
    if (Error E = M.add(P, WeightOf(Input)))
      return std::move(E);
    // The first input is no longer needed: free it before reading the next.
    P = Profile();
  }
  // One input at a time, each freed before the next is read.
  while (true) {
    Expected<std::unique_ptr<Profile>> Q = Ctx->NextInput();
    if (!Q)
      return Q.takeError();
    if (!*Q)
      break;
    if (Error E = M.add(**Q, WeightOf(++Input)))
      return std::move(E);
  }
  if (Weights.size() > Input + 1)
    return makeError(ErrorCode::InvalidArgument,
                     "merge: " + Twine(Weights.size()) + " weights given for " +
                         Twine(Input + 1) + " input" + (Input ? "s" : ""));
  if (M.weightSaturated())
    Ctx->Warn("merge: a count times its input's weight overflows 64 bits; "
              "saturated at 2^64-1");
  if (!M.finish())
    return overflowError(name());
  P = std::move(M.Out);
  return PreservedAnalyses::none();
}
