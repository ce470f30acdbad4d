//===- Merge.cpp - Merge profiles and parts into one ----------------------===//
//
// Every input is copied into a new profile: strings and events by name,
// functions by (object, file, name) after path normalisation, rows summed
// by key. Address-level data (gmon.out histograms, arcs, basic-block counts)
// of folded parts is combined as `gprof -s` combines runs. Inputs after the
// first come one at a time, in slices as the driver reads them when it can
// (ProfileSlice: a callgrind input, a few megabytes of function data at a
// time), else whole, the next read while this one merges; so memory holds
// the merged profile and a few slices, or an input or two, whose tables
// are emptied as they are copied. A part's rows may come in several
// slices; its header, summary and address data are merged once it is
// complete, and its overflows reported once the input is read, so that
// slices give what the whole input gives. The first input is taken over
// without a copy when nothing in it changes.
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
  /// Starts the next input, every count of which is multiplied by Weight.
  void startInput(uint64_t Weight);
  /// Adds a slice of the input (the whole profile, or what a reader handed
  /// over since the last slice), emptying its tables as they are copied;
  /// fails on data that cannot merge or a sum that overflows.
  llvm::Error add(ProfileSlice &S);
  /// Adds the input's profile, or the rest of it after its slices.
  llvm::Error add(Profile &Src);
  /// Takes the first input as the start of the merged profile when add()
  /// would copy it unchanged, saving a copy of it; false if it would not.
  bool adopt(Profile &Src);
  [[nodiscard]] bool finish();
  Profile Out;
  /// A count multiplied by its input's weight saturated at 2^64-1.
  bool weightSaturated() const { return WeightSaturated || RowsSaturated; }

private:
  /// Maps the input's next string and function to the merged profile's.
  void mapString(llvm::StringRef S);
  void mapFunction(const profkit::Function &Fn);
  void mapEvents(llvm::ArrayRef<std::string> Names);
  const std::vector<StrId> &plain() const {
    return Paths.active() ? Plain : M.File;
  }
  /// A part of the input (at Index in it) or its data so far; Complete:
  /// Pt has its header, summary and address data.
  struct PartPiece {
    size_t Index;
    bool Complete;
    Part *Pt;
    const PlainRows *Rows; // Of Pt's functions, in a slice.
  };
  /// Adds the pieces, in the order of the input's parts; Src has the inline
  /// sites their rows name.
  llvm::Error addParts(const Profile &Src, llvm::ArrayRef<PartPiece> Pieces,
                       unsigned Threads);
  /// What merge keeps of a part besides its rows (header, summary, address
  /// data), once it is complete, into To; fails on histograms that cannot
  /// merge.
  llvm::Error addShell(const Part &Pt, Part &To);

  bool WeightSaturated = false;
  std::atomic<bool> RowsSaturated{false}; // Set by the threads that copy.
  bool FoldParts;
  const PathNormalizer &Paths;
  unsigned Threads;
  Part *Folded = nullptr;
  bool FoldedHasShell = false; // The first folded part was complete.
  unsigned NumFolded = 0;
  bool AllHaveSummary = true;

  // The input being added: its ids in the merged profile (M.File holds the
  // files, normalised; Plain the names, if files are normalised), its parts
  // in the merged profile, and how many of them are complete.
  uint64_t Weight = 1;
  RowMap M;
  std::vector<StrId> Plain;
  FuncId NextFunction = 0; // The likely merged id of the next function.
  std::vector<Part *> Dest;
  size_t PartsDone = 0;
  std::string InputName;   // Known once its profile comes.
  bool Overflowed = false; // A sum of its rows overflowed.
  /// Rows of a slice name no inline site (the callgrind reader's).
  const Profile NoSites;
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

void Merger::startInput(uint64_t W) {
  Weight = W;
  M.Func.clear();
  M.File.clear();
  Plain.clear();
  M.Events.clear();
  M.Positions.clear();
  M.Weight = W;
  M.WeightSaturated = &RowsSaturated;
  NextFunction = 0;
  Dest.clear();
  PartsDone = 0;
  Overflowed = false;
}

void Merger::mapString(StringRef S) {
  // Files normalised; names as they are.
  StrId Id = Out.Strings.intern(S);
  if (Paths.active()) {
    Plain.push_back(Id);
    Id = Out.Strings.intern(Paths(S));
  }
  M.File.push_back(Id);
}

void Merger::mapFunction(const profkit::Function &Fn) {
  // The function after the one found last is looked at first.
  M.Func.push_back(Out.getOrAddFunction(M.File[Fn.Object], M.File[Fn.File],
                                        plain()[Fn.Name], NextFunction));
  NextFunction = M.Func.back() + 1;
}

void Merger::mapEvents(ArrayRef<std::string> Names) {
  // New events get new columns at the end, so the rows already merged stay
  // valid.
  SmallVector<unsigned, 16> ToOut;
  for (const std::string &Name : Names)
    ToOut.push_back(Out.getOrAddEvent(Name));
  M.Events.assign(Out.events().size(), -1);
  for (unsigned I = 0; I != ToOut.size(); ++I)
    M.Events[ToOut[I]] = int(I);
}

Error Merger::add(ProfileSlice &S) {
  if (S.Rest)
    return add(*S.Rest);
  assert(S.FirstString == M.File.size() && S.FirstFunction == M.Func.size() &&
         "slices in order");
  for (StringRef Str : S.Strings)
    mapString(Str);
  for (const profkit::Function &Fn : S.Functions)
    mapFunction(Fn);
  mapEvents(S.Events);
  SmallVector<PartPiece, 4> Pieces;
  for (ProfileSlice::PartPiece &P : S.Parts)
    Pieces.push_back({P.Index, P.Complete, P.Data.get(), &P.Rows});
  // The reader reads the next slice beside.
  return addParts(NoSites, Pieces, std::max(1u, Threads - 1));
}

Error Merger::add(Profile &Src) {
  for (StrId S = M.File.size(); S != Src.Strings.size(); ++S)
    mapString(Src.Strings.str(S));
  for (FuncId F = M.Func.size(), E = Src.numFunctions(); F != E; ++F)
    mapFunction(Src.function(F));
  // Nothing looks Src's functions up any more.
  Src.releaseFunctionIndex();

  SmallVector<std::string, 16> Names;
  for (const EventType &E : Src.events())
    Names.push_back(E.Name);
  mapEvents(Names);
  for (const EventType &E : Src.events()) {
    unsigned C = *Out.findEvent(E.Name);
    if (Out.events()[C].LongName.empty())
      Out.setEventLongName(C, E.LongName);
  }
  for (const EventDecl &D : Src.EventDecls)
    if (none_of(Out.EventDecls,
                [&](const EventDecl &O) { return O.Name == D.Name; }))
      Out.EventDecls.push_back(D);
  if (Out.SourceName.empty())
    Out.SourceName = Src.SourceName;
  InputName = Src.SourceName;

  SmallVector<PartPiece, 4> Pieces;
  for (size_t I = PartsDone; I != Src.parts().size(); ++I)
    Pieces.push_back({I, true, Src.parts()[I].get(), nullptr});
  if (Error E = addParts(Src, Pieces, Threads))
    return E;
  return Overflowed ? overflowError("merge") : Error::success();
}

Error Merger::addShell(const Part &Pt, Part &To) {
  std::optional<Part::CostLine> Summary;
  if (Pt.Summary) {
    Summary = mapCostVector(M, *Pt.Summary);
    for (uint64_t &X : *Summary)
      WeightSaturated |= !scaleCost(X, Weight);
  }
  AllHaveSummary &= Pt.Summary.has_value();
  if (!FoldParts || !FoldedHasShell) {
    copyPartShell(Pt, To);
    if (!To.addresses().empty())
      WeightSaturated |= !scaleAddresses(To.makeAddresses(), Weight);
    To.Summary = Summary;
    To.Totals.reset();
    FoldedHasShell |= FoldParts;
    return Error::success();
  }
  // As gprof -s: histograms of the same range summed bin by bin (gprof's
  // rules and messages), arcs with the same ends and blocks at the same
  // address summed.
  AddressData Weighed;
  const AddressData *From = &Pt.addresses();
  if (Weight != 1) {
    Weighed = Pt.addresses();
    WeightSaturated |= !scaleAddresses(Weighed, Weight);
    From = &Weighed;
  }
  bool Ok = true;
  AddressData &ToAddresses = To.makeAddresses();
  for (const Histogram &H : From->Histograms) {
    bool Saturated = false;
    if (Error E = addHistogram(ToAddresses.Histograms, H, Saturated))
      return makeError(
          ErrorCode::Mismatch,
          "merge: " + InputName +
              ": cannot merge its histogram: " + toString(std::move(E)));
    Ok &= !Saturated;
  }
  Ok &= addArcs(ToAddresses.Arcs, From->Arcs);
  Ok &= addBlocks(ToAddresses.Blocks, From->Blocks);
  if (!ToAddresses.AddressSize)
    std::tie(ToAddresses.AddressSize, ToAddresses.BigEndian) =
        std::tie(Pt.addresses().AddressSize, Pt.addresses().BigEndian);
  if (To.Summary && Summary) {
    To.Summary->resize(Out.events().size());
    for (size_t I = 0; I != Summary->size(); ++I)
      Ok &= addCost((*To.Summary)[I], (*Summary)[I]);
  }
  Overflowed |= !Ok; // Reported once the input is read, as its rows'.
  return Error::success();
}

Error Merger::addParts(const Profile &Src, ArrayRef<PartPiece> Pieces,
                       unsigned CopyThreads) {
  M.Threads = CopyThreads; // The threads copy the functions of a part.
  bool Ok = true;
  std::vector<std::pair<const PartPiece *, Part *>> Copies; // Not folded.
  for (const PartPiece &P : Pieces) {
    if (P.Index == Dest.size()) { // Its first piece.
      if (FoldParts) {
        if (!Folded)
          Folded = &Out.addPart(P.Pt->positions());
        ++NumFolded;
      }
      Dest.push_back(FoldParts ? Folded : &Out.addPart(P.Pt->positions()));
    }
    Part &To = *Dest[P.Index];
    if (P.Complete) {
      if (Error E = addShell(*P.Pt, To))
        return E;
      ++PartsDone;
    }
    if (!FoldParts) {
      Copies.emplace_back(&P, &To);
      continue;
    }
    // The first part's positions are kept; a kind the source lacks is 0.
    M.Positions.clear();
    for (PositionKind K : To.positions()) {
      auto It = find(P.Pt->positions(), K);
      M.Positions.push_back(It == P.Pt->positions().end()
                                ? -1
                                : int(It - P.Pt->positions().begin()));
    }
    Ok &= moveRows(Src, *P.Pt, Out, To, M, P.Rows);
  }
  // Parts that are not folded copy on several threads, each into a part
  // of its own, through the ids mapped above, when there are enough of
  // them; else each part's functions do. Inline sites are added to the
  // merged profile as the rows meet them, in order: a profile with them
  // copies on this thread.
  unsigned PartThreads = Src.numInlineSites() > 1 ? 1 : CopyThreads;
  if (Copies.size() >= PartThreads)
    M.Threads = 1;
  else
    PartThreads = 1;
  std::vector<char> Copied(Copies.size());
  parallelFor(PartThreads, Copies.size(), [&](size_t I) {
    const PartPiece &P = *Copies[I].first;
    Copied[I] = moveRows(Src, *P.Pt, Out, *Copies[I].second, M, P.Rows);
  });
  Ok &= all_of(Copied, [](char C) { return C; });
  // Reported once the input is read, as reading it whole would.
  Overflowed |= !Ok;
  return Error::success();
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
    FoldedHasShell = true;
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
    if (!Pt->addresses().empty())
      Ok &= sumEqualAddresses(Pt->makeAddresses());
  }
  return Ok;
}

Expected<PreservedAnalyses> MergePass::run(Profile &P,
                                           ProfileAnalysisManager &) {
  Merger M(FoldParts, Paths, Ctx->Threads);
  size_t Input = 0;
  auto WeightOf = [&](size_t I) { return I < Weights.size() ? Weights[I] : 1; };
  if (WeightOf(Input) != 1 || !M.adopt(P)) {
    M.startInput(WeightOf(Input));
    if (Error E = M.add(P))
      return std::move(E);
    // The first input is no longer needed: free it before reading the next.
    P = Profile();
  }
  // One input at a time, each freed before the next is read; in slices as
  // it is read when the tool can, so that memory never holds it whole.
  while (true) {
    M.startInput(WeightOf(Input + 1));
    if (Ctx->NextInputInSlices) {
      Expected<bool> More =
          Ctx->NextInputInSlices([&](ProfileSlice &S) { return M.add(S); });
      if (!More)
        return More.takeError();
      if (!*More)
        break;
    } else {
      Expected<std::unique_ptr<Profile>> Q = Ctx->NextInput();
      if (!Q)
        return Q.takeError();
      if (!*Q)
        break;
      if (Error E = M.add(**Q))
        return std::move(E);
    }
    ++Input;
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
