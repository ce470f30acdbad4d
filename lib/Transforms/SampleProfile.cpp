//===- SampleProfile.cpp - Instruction counts to a sample profile ---------===//
//
// Turns exact instruction counts (callgrind --dump-instr=yes) of one program
// into the shape of an LLVM sample profile, counted as llvm-profgen counts
// perf samples, so that both tools give the same profile for the same
// counts (see docs/SampleProfiles.md):
//
//  - every instruction of each function that ran is symbolized into its
//    inline frames; the outermost names the function, each inner frame an
//    inline site at its caller's line offset (line - start line, modulo
//    2^16: line-0 code keeps its offset) and base discriminator;
//  - a line location's body count is the maximum over its instructions of
//    the count times the discriminator's duplication factor; its
//    function's and every enclosing inline site's total is the sum;
//    instructions that never ran count zero;
//  - a call inside the program is a call target at its call instruction's
//    location; calls into the program from anywhere are head samples.
//
//===----------------------------------------------------------------------===//

#include "profkit/Transforms/SampleProfile.h"
#include "profkit/IR/Profile.h"
#include "profkit/Object/Executable.h"
#include "profkit/Object/ProgramCode.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/Saturating.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/ProfileData/SampleProf.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace profkit;
using namespace llvm;

Expected<SampleProfilePass> SampleProfilePass::create(const PassParams &Params,
                                                      PassContext &Ctx) {
  SampleProfilePass S;
  S.Params = Params;
  S.Ctx = &Ctx;
  S.Binary = Ctx.binaryFor(S.Params);
  S.Event = S.Params.get("event").str();
  return S;
}

namespace {

/// The counts of one program's code, gathered from every part.
struct ProgramCounts {
  DenseMap<uint64_t, uint64_t> Instructions;               // Address -> count.
  DenseMap<std::pair<uint64_t, uint64_t>, uint64_t> Calls; // From, to.
  DenseMap<uint64_t, uint64_t> Entries; // Callee entry -> calls from anywhere.
  bool Saturated = false;
};

class Builder {
public:
  Builder(ProgramCode &Code, PassContext &Ctx) : Code(Code), Ctx(Ctx) {
    Out.getOrAddEvent("samples");
    Out.addPart({PositionKind::LineOffset, PositionKind::Discriminator});
  }
  /// Executed: the addresses of Counts.Instructions, sorted.
  Error run(const ProgramCounts &Counts, ArrayRef<uint64_t> Executed,
            StringRef Binary, const Executable &Exe);
  Profile Out;

private:
  struct Location {
    FuncId Top;
    InlineSiteId Site;
    uint64_t Offset, Discriminator;
  };
  /// Where the instruction at Addr is, adding Total to the totals of its
  /// function and inline sites; nullopt if DWARF does not say, or if the
  /// code is of a function llvm-profgen leaves out.
  std::optional<Location> locate(uint64_t Addr, uint64_t Total,
                                 unsigned *Duplication = nullptr);
  FuncId function(StringRef LinkageName) {
    StringRef Name =
        sampleprof::FunctionSamples::getCanonicalFnName(LinkageName);
    return Out.getOrAddFunction(0, 0, Out.Strings.intern(Name));
  }
  void addTotal(FuncId F, InlineSiteId Site, uint64_t Count) {
    Saturated |= !addCost(Totals[{F, Site}], Count);
  }

  ProgramCode &Code;
  PassContext &Ctx;
  DenseMap<std::pair<FuncId, InlineSiteId>, uint64_t> Totals;
  DenseMap<std::tuple<FuncId, InlineSiteId, uint64_t, uint64_t>, uint64_t> Body;
  bool Saturated = false;
};

/// llvm-profgen drops the profiles of these functions: a program has many
/// of each, which one name cannot tell apart.
bool isAmbiguous(StringRef Name) {
  return Name.starts_with("__cxx_global_var_init") ||
         Name.starts_with("__tls_init");
}

} // namespace

std::optional<Builder::Location> Builder::locate(uint64_t Addr, uint64_t Total,
                                                 unsigned *Duplication) {
  DIInliningInfo Frames = Code.frames(Addr);
  // Outermost first; a frame without a name ends the stack, as in
  // llvm-profgen.
  SmallVector<const DILineInfo *, 8> Stack;
  for (uint32_t I = Frames.getNumberOfFrames(); I--;) {
    const DILineInfo &F = Frames.getFrame(I);
    if (F.FunctionName.empty() || F.FunctionName == DILineInfo::BadString)
      break;
    Stack.push_back(&F);
  }
  if (Stack.empty() || isAmbiguous(Stack.front()->FunctionName))
    return std::nullopt;
  auto OffsetOf = [](const DILineInfo &F) -> uint64_t {
    return (F.Line - F.StartLine) & 0xffff;
  };
  auto BaseOf = [](const DILineInfo &F) -> uint64_t {
    return DILocation::getBaseDiscriminatorFromDiscriminator(
        F.Discriminator, /*IsFSDiscriminator=*/false);
  };
  Location L{function(Stack.front()->FunctionName), 0, 0, 0};
  addTotal(L.Top, 0, Total);
  for (size_t I = 1; I != Stack.size(); ++I) {
    // llvm-profgen drops such an inlinee with the code inlined into it; the
    // totals around it keep its count.
    if (isAmbiguous(Stack[I]->FunctionName))
      return std::nullopt;
    InlineSite S{L.Site, OffsetOf(*Stack[I - 1]), BaseOf(*Stack[I - 1]),
                 function(Stack[I]->FunctionName)};
    L.Site = Out.getOrAddInlineSite(S);
    addTotal(L.Top, L.Site, Total);
  }
  L.Offset = OffsetOf(*Stack.back());
  L.Discriminator = BaseOf(*Stack.back());
  if (Duplication)
    *Duplication = DILocation::getDuplicationFactorFromDiscriminator(
        Stack.back()->Discriminator);
  return L;
}

Error Builder::run(const ProgramCounts &Counts, ArrayRef<uint64_t> Executed,
                   StringRef Binary, const Executable &Exe) {
  // The functions that ran, each once, in address order (deterministic).
  SmallVector<const ProgramCode::Function *, 0> Ran;
  DenseSet<const ProgramCode::Function *> Seen;
  uint64_t NotCode = 0, NoDebugInfo = 0;
  for (uint64_t Addr : Executed) {
    if (const ProgramCode::Function *F = Code.functionAt(Addr)) {
      if (Seen.insert(F).second)
        Ran.push_back(F);
    } else if (Exe.lookup(Addr)) {
      ++NoDebugInfo;
    } else {
      ++NotCode;
    }
  }

  DenseSet<uint64_t> Matched; // Addresses that ran and are instructions.
  for (const ProgramCode::Function *F : Ran) {
    Error E = Code.forEachInstruction(*F, [&](uint64_t Addr, uint64_t Size) {
      auto It = Counts.Instructions.find(Addr);
      uint64_t Count = It == Counts.Instructions.end() ? 0 : It->second;
      if (It != Counts.Instructions.end())
        Matched.insert(Addr);
      // Totals count bytes, as llvm-profgen's do (a workaround of its for
      // the compiler's hotness thresholds).
      uint64_t Bytes = Count;
      Saturated |= !scaleCost(Bytes, Size);
      unsigned Duplication = 1;
      std::optional<Location> L = locate(Addr, Bytes, &Duplication);
      if (!L)
        return;
      uint64_t Scaled = Count;
      Saturated |= !scaleCost(Scaled, Duplication);
      uint64_t &Max = Body[{L->Top, L->Site, L->Offset, L->Discriminator}];
      Max = std::max(Max, Scaled);
    });
    if (E)
      return E;
  }
  // Counts at addresses that are no instruction of the program's code: a
  // profile of another build.
  uint64_t InFunctions = Executed.size() - NotCode - NoDebugInfo;
  uint64_t Mismatched = NotCode + (InFunctions - Matched.size());
  if (Mismatched * 10 > Executed.size())
    return makeError(ErrorCode::Mismatch,
                     Binary +
                         " does not match the profile: " + Twine(Mismatched) +
                         " of the " + Twine(Executed.size()) +
                         " instructions that ran in it are not instructions "
                         "of its code (a profile of another build?)");
  if (Mismatched)
    Ctx.Warn(Binary + ": " + Twine(Mismatched) + " of the " +
             Twine(Executed.size()) +
             " instructions that ran are not instructions of its code; "
             "left out");
  if (NoDebugInfo)
    Ctx.Note(Binary + ": " + Twine(NoDebugInfo) +
             " instructions that ran are in code without debug info (PLT "
             "stubs, startup code, libraries built without -g); left out");

  Part &Pt = *Out.parts().front();
  RowLayout Layout = Pt.layout();
  for (const auto &[Key, Count] : Body) {
    auto [Top, Site, Offset, Discriminator] = Key;
    SelfKey K(Layout);
    K.position()[0] = Offset;
    K.position()[1] = Discriminator;
    K.setInlineSite(Site);
    Saturated |= !Pt.getOrCreate(Top).Self.add(K.key(), {Count});
  }
  // Calls between functions of the program: call targets where the call is;
  // calls into them from anywhere: head samples.
  for (const auto &[FromTo, Count] : Counts.Calls) {
    const ProgramCode::Function *Callee = Code.functionEnteredAt(FromTo.second);
    if (!Callee)
      continue;
    std::optional<Location> L = locate(FromTo.first, 0);
    if (!L)
      continue;
    CallKey K(Layout);
    K.position()[0] = L->Offset;
    K.position()[1] = L->Discriminator;
    K.setInlineSite(L->Site);
    K.setCallee(function(Callee->Name));
    Saturated |= !Pt.getOrCreate(L->Top).makeCalls().add(K.key(), {Count});
  }
  for (const auto &[Entry, Count] : Counts.Entries) {
    const ProgramCode::Function *Callee = Code.functionEnteredAt(Entry);
    if (!Callee || isAmbiguous(Callee->Name))
      continue;
    FunctionValues &V = Pt.getOrCreate(function(Callee->Name)).values();
    uint64_t Head = V.get(FunctionValueKind::HeadSamples).value_or(0);
    Saturated |= !addCost(Head, Count);
    V.set(FunctionValueKind::HeadSamples, Head);
  }
  for (const auto &[Key, Total] : Totals)
    Pt.getOrCreate(Key.first)
        .valuesAt(Key.second)
        .set(FunctionValueKind::TotalSamples, Total);
  Saturated |= !Pt.finalize();
  if (Saturated)
    Ctx.Warn("sample-profile: a count overflows 64 bits; saturated");
  return Error::success();
}

/// The object names of P that are the program at Binary: the same file,
/// else (a profile recorded elsewhere) the same file name.
static DenseSet<StrId> objectsOf(const Profile &P, StringRef Binary) {
  DenseSet<StrId> Same, SameName, Seen;
  for (FuncId F = 0; F != P.numFunctions(); ++F) {
    StrId Obj = P.function(F).Object;
    StringRef Name = P.Strings.str(Obj);
    if (Name.empty() || !Seen.insert(Obj).second)
      continue;
    if (sys::fs::equivalent(Name, Binary))
      Same.insert(Obj);
    else if (sys::path::filename(Name) == sys::path::filename(Binary))
      SameName.insert(Obj);
  }
  return Same.empty() ? SameName : Same;
}

/// The object holding main, when it is on disk.
static std::optional<std::string> mainObject(const Profile &P) {
  for (FuncId F = 0; F != P.numFunctions(); ++F)
    if (P.functionName(F) == "main") {
      StringRef Obj = P.Strings.str(P.function(F).Object);
      if (!Obj.empty() && sys::fs::exists(Obj))
        return Obj.str();
    }
  return std::nullopt;
}

/// The counts of the code of Objects; every part of P has instruction
/// positions.
static ProgramCounts
gatherCounts(const Profile &P, const DenseSet<StrId> &Objects, unsigned Event) {
  ProgramCounts C;
  for (const auto &Pt : P.parts()) {
    unsigned Instr = *Pt->positionIndex(PositionKind::Instr);
    RowLayout L = Pt->layout();
    for (const FunctionData &FD : Pt->functions()) {
      bool Inside = Objects.contains(P.function(FD.Id).Object);
      if (Inside)
        for (const Row &R : FD.Self)
          C.Saturated |=
              !addCost(C.Instructions[L.position(R)[Instr]], R.value(Event));
      for (const Row &R : FD.calls()) {
        if (!Objects.contains(P.function(L.callee(R)).Object))
          continue;
        uint64_t To = L.callTarget(R)[Instr];
        C.Saturated |= !addCost(C.Entries[To], R.value(0));
        if (Inside)
          C.Saturated |=
              !addCost(C.Calls[{L.position(R)[Instr], To}], R.value(0));
      }
    }
  }
  return C;
}

Expected<PreservedAnalyses> SampleProfilePass::run(Profile &P,
                                                   ProfileAnalysisManager &) {
  if (isSampleProfileShaped(P))
    return PreservedAnalyses::all();
  if (any_of(P.parts(), [](const auto &Pt) {
        return !Pt->positionIndex(PositionKind::Instr);
      }))
    return makeError(ErrorCode::InvalidArgument,
                     P.SourceName +
                         ": the profile has no instruction addresses; "
                         "record it with valgrind --tool=callgrind "
                         "--dump-instr=yes");
  std::string Program = Binary;
  if (Program.empty()) {
    std::optional<std::string> Main = mainObject(P);
    if (!Main)
      return makeError(ErrorCode::InvalidArgument,
                       "sample-profile: which program? The profile has no "
                       "object holding main on this machine; give "
                       "-binary=PROG");
    Program = *Main;
  }
  std::optional<unsigned> Column = P.findEvent(Event);
  if (!Column)
    return makeError(ErrorCode::InvalidArgument,
                     "sample-profile: " + P.SourceName + " has no event '" +
                         Event + "' (event=NAME chooses one)");
  Expected<std::unique_ptr<Executable>> Exe = Executable::open(Program);
  if (!Exe)
    return Exe.takeError();
  DenseSet<StrId> Objects = objectsOf(P, Program);
  if (Objects.empty())
    return makeError(ErrorCode::Mismatch, "sample-profile: " + P.SourceName +
                                              " has no code of " + Program +
                                              " (no ob= names it)");
  ProgramCounts Counts = gatherCounts(P, Objects, *Column);

  std::vector<uint64_t> Executed;
  Executed.reserve(Counts.Instructions.size());
  for (const auto &[Addr, Count] : Counts.Instructions)
    Executed.push_back(Addr);
  sort(Executed);
  Expected<std::unique_ptr<ProgramCode>> Code =
      ProgramCode::create((*Exe)->object(), Executed);
  if (!Code)
    return Code.takeError();
  if (!(*Code)->hasStartLines())
    return makeError(ErrorCode::Mismatch,
                     Program + ": its debug info has no start lines of "
                               "functions, which line offsets need; build "
                               "with -gline-tables-only "
                               "-fdebug-info-for-profiling, or -g");

  Builder B(**Code, *Ctx);
  if (Error E = B.run(Counts, Executed, Program, **Exe))
    return std::move(E);
  if (Counts.Saturated)
    Ctx->Warn("sample-profile: a count overflows 64 bits; saturated");
  B.Out.SourceName = P.SourceName;
  P = std::move(B.Out);
  return PreservedAnalyses::none();
}
