//===- FlattenSamples.cpp - Sample profiles placed by line ----------------===//
//
// An LLVM sample profile places counts by line offset (from the function's
// start line) and discriminator, and nests inlined code under its call
// sites. Viewers place cost by line in a function. This pass makes a
// sample-profile-shaped profile one of positions {line}:
//
// - the line offset becomes the line (a sample profile has no files and no
//   absolute lines: its start lines are in the program's debug info);
// - the rows of one line's discriminators are summed;
// - inlined code counts at its outermost call site in the function: an
//   inlinee's body samples are self cost of the function that inlined it, at
//   the line of that call, and the calls made from inlined code are calls
//   from that line;
// - no call row stands for the inlining itself: nothing was called there
//   (a call with count 0 would show in a viewer as a callee that cost
//   nothing, while the inlinee's cost is the caller's own);
// - calls get gprof's inclusive cost (GprofPropagation): the callee's
//   samples and those of what it calls, split over its callers by count.
//
// Functions keep their names, in the file `???` (valgrind's name for code
// of no known file, which callgrind_annotate and KCachegrind know); head
// and total samples stay function values. copyRows() maps sites and keys
// word for word, but here a row's position depends on its inline site, and
// no site is left: the rows are rebuilt directly, into a new profile.
//
//===----------------------------------------------------------------------===//

#include "profkit/Transforms/FlattenSamples.h"
#include "profkit/Analysis/GprofPropagation.h"
#include "profkit/Transforms/Utils/Rewrite.h"

using namespace profkit;
using namespace llvm;

bool profkit::flattenSamples(Profile &P,
                             const std::function<void(const Twine &)> &Note) {
  if (!isSampleProfileShaped(P))
    return true;
  // A new profile: the same strings (same ids), events and names, and no
  // inline sites left over.
  Profile Q;
  for (size_t I = 1, E = P.Strings.size(); I != E; ++I)
    Q.Strings.intern(P.Strings.str(I));
  for (const EventType &E : P.events())
    Q.setEventLongName(Q.getOrAddEvent(E.Name), E.LongName);
  Q.EventDecls = P.EventDecls;
  Q.SourceName = P.SourceName;
  StrId Unknown = Q.Strings.intern("???");
  std::vector<FuncId> Func;
  for (FuncId F = 0, E = P.numFunctions(); F != E; ++F) {
    const Function &Fn = P.function(F);
    Func.push_back(
        Q.getOrAddFunction(Fn.Object, Fn.File ? Fn.File : Unknown, Fn.Name));
  }

  const Part &From = *P.parts().front();
  RowLayout SL = From.layout();
  PositionKind Line[] = {PositionKind::Line};
  Part &To = Q.addPart(Line);
  To = copyPartShell(From, Line);
  To.Totals.reset();
  RowLayout DL = To.layout();

  // The line offset of each site's outermost call site (a parent site is
  // interned before its children).
  std::vector<uint64_t> OuterLine(P.numInlineSites(), 0);
  for (InlineSiteId S = 1; S != P.numInlineSites(); ++S) {
    const InlineSite &Site = P.inlineSite(S);
    OuterLine[S] = Site.Parent ? OuterLine[Site.Parent] : Site.Line;
  }
  auto LineOf = [&](const Row &R) {
    InlineSiteId S = SL.inlineSite(R);
    return S ? OuterLine[S] : SL.position(R)[0];
  };

  bool Ok = true;
  size_t Inlined = 0;
  SelfKey SK(DL);
  CallKey CK(DL);
  for (const FunctionData &FD : From.functions()) {
    FuncId F = Func[FD.Id];
    StrId File = Q.function(F).File;
    FunctionData &FD2 = To.getOrCreate(F);
    Ok &= FD2.values().merge(FD.values());
    Inlined += FD.inlineValues().size();
    SK.setSourceFile(File);
    CK.setSourceFile(File);
    for (const Row &R : FD.Self) {
      SK.position()[0] = LineOf(R);
      Ok &= FD2.Self.add(SK.key(), R.Values);
    }
    for (const Row &R : FD.calls()) {
      CK.position()[0] = LineOf(R);
      CK.setCallee(Func[SL.callee(R)]);
      Ok &= FD2.makeCalls().add(CK.key(), R.Values);
    }
  }
  Ok &= To.finalize();

  // A sample profile's calls have counts but no inclusive cost, and a viewer
  // takes a called function's inclusive cost from its incoming calls
  // (KCachegrind would show every callee at 0): gprof's propagation gives
  // each call its share of the callee's samples and of what the callee
  // calls, by call counts.
  GprofPropagation G = GprofPropagation::compute(To, Q.events().size());
  Ok &= !G.Overflow;
  SmallVector<uint64_t, 4> Values(1 + G.numEvents());
  for (size_t F = 0; F != To.functions().size(); ++F) {
    FunctionData &FD = To.functions()[F];
    RowTable Calls(DL.callWidth(), DL.P);
    size_t Index = 0;
    for (const Row &R : FD.calls()) {
      Values[0] = R.value(0);
      llvm::copy(G.callCost(F, Index++), Values.begin() + 1);
      Ok &= Calls.add(R.Key, Values);
    }
    Ok &= Calls.finalize();
    FD.setCalls(std::move(Calls));
  }
  P = std::move(Q);
  std::string Msg = "flatten-samples: a sample profile has no files and no "
                    "absolute lines: lines are line offsets from each "
                    "function's start line";
  if (Inlined)
    Msg += ", and inlined code counts at the line that inlined it";
  Note(Msg);
  return Ok;
}

Expected<FlattenSamplesPass> FlattenSamplesPass::create(const PassParams &,
                                                        PassContext &Ctx) {
  FlattenSamplesPass F;
  F.Ctx = &Ctx;
  return F;
}

Expected<PreservedAnalyses> FlattenSamplesPass::run(Profile &P,
                                                    ProfileAnalysisManager &) {
  if (!isSampleProfileShaped(P))
    return PreservedAnalyses::all();
  if (!flattenSamples(P, Ctx->Note))
    return overflowError(name());
  return PreservedAnalyses::none();
}
