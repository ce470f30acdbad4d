//===- Relocate.cpp - Tie addresses to functions, and back ----------------===//
//
// See Relocate.h. The symbol table follows gprof (corefile.c, symtab.c):
// text symbols, locals without '$' or '.' suffixes other than .NNN,
// .clone.N, .constprop.N; aliases at one address keep the global, then the
// function, then the name without a leading '_'; a symbol extends to the next
// one, the last to the end of its section; PLT entries are `NAME@plt`.
//
//===----------------------------------------------------------------------===//

#include "profkit/Transforms/Relocate.h"
#include "profkit/Analysis/GprofPropagation.h"
#include "profkit/IR/Profile.h"
#include "profkit/Object/Executable.h"
#include "profkit/Support/Demangle.h"
#include "profkit/Support/Error.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <cmath>
#include <map>

using namespace profkit;
using namespace llvm;

namespace {

class Relocator {
public:
  Relocator(Profile &P, StringRef Path, const RelocateOptions &Opts)
      : P(P), Path(Path), Opts(Opts) {}
  Error run();

private:
  struct Place {
    StrId File = 0;
    uint64_t Line = 0;
  };
  /// The innermost frame's file and line at Addr.
  Place place(uint64_t Addr);
  FuncId function(const Symbol &S);
  uint64_t detectBias(const Part &Pt);
  Error toFunctions(Part &Pt);
  void propagate(Part &Pt);
  Error toAddresses(Part &Pt);
  Error chooseObject(const Part &Pt);
  const Symbol *symbolNamed(FuncId F) const;
  bool isOurObject(StrId Object);
  /// Fills a key's position (instr, and line) for Addr; returns the file.
  StrId position(const Part &Pt, uint64_t Addr,
                 MutableArrayRef<uint64_t> Position);

  Profile &P;
  StringRef Path;
  const RelocateOptions &Opts;
  std::unique_ptr<Executable> Exe;
  // std::map, not DenseMap: a file may hold any address, DenseMap's two
  // reserved keys included.
  std::map<uint64_t, Place> Places;
  DenseMap<const Symbol *, FuncId> Functions;
  DenseMap<StrId, bool> OurObjects;
  StrId ObjectName = 0;
};

} // namespace

Relocator::Place Relocator::place(uint64_t Addr) {
  auto [It, New] = Places.try_emplace(Addr);
  if (!New || !Opts.Lines)
    return It->second;
  SourcePlace Source = Exe->frame(Addr, /*Innermost=*/true);
  Place Pl;
  if (!Source.File.empty())
    Pl.File = P.Strings.intern(Source.File);
  Pl.Line = Source.Line;
  // The map may have grown; look the slot up again.
  Places[Addr] = Pl;
  return Pl;
}

FuncId Relocator::function(const Symbol &S) {
  auto It = Functions.find(&S);
  if (It != Functions.end())
    return It->second;
  StrId File = 0;
  if (Opts.Lines) {
    // The function's own file: the outermost frame at its entry.
    SourcePlace Source = Exe->frame(S.Addr, /*Innermost=*/false);
    if (!Source.File.empty())
      File = P.Strings.intern(Source.File);
  }
  StrId Name = P.Strings.intern(Opts.Demangle ? demangleName(S.Name) : S.Name);
  FuncId F = P.getOrAddFunction(ObjectName, File, Name);
  Functions[&S] = F;
  return F;
}

/// glibc >= 2.27 writes link-time addresses; older glibc and other libcs
/// wrote runtime ones for a PIE. Their histogram starts at the runtime
/// __executable_start, so low_pc minus its link-time value is the bias; it
/// is taken only if every arc then lands in the program's code.
uint64_t Relocator::detectBias(const Part &Pt) {
  if (!Exe->isPIE())
    return 0;
  uint64_t Start = Exe->symbolValue("__executable_start").value_or(0);
  std::optional<uint64_t> Candidate;
  if (!Pt.addresses().Histograms.empty()) {
    uint64_t Low = Pt.addresses().Histograms.front().LowPC;
    for (const Histogram &H : Pt.addresses().Histograms)
      Low = std::min(Low, H.LowPC);
    if (Low > (Start & ~uint64_t(3)))
      Candidate = Low - (Start & ~uint64_t(3));
  } else if (!Pt.addresses().Arcs.empty()) {
    // Arcs only: a page-aligned bias that moves the lowest callee into the
    // first code section.
    uint64_t MinSelf = UINT64_MAX;
    for (const AddressArc &A : Pt.addresses().Arcs)
      MinSelf = std::min(MinSelf, A.SelfPC);
    if (!Exe->inText(MinSelf) && MinSelf > Start)
      Candidate = (MinSelf - Start) & ~uint64_t(0xfff);
  }
  if (!Candidate || !*Candidate)
    return 0;
  uint64_t Bias = *Candidate;
  bool AllFit = all_of(Pt.addresses().Arcs, [&](const AddressArc &A) {
    return A.FromPC >= Bias && A.SelfPC >= Bias &&
           Exe->inText(A.FromPC - Bias) && Exe->inText(A.SelfPC - Bias);
  });
  bool LinkTimeFit = all_of(Pt.addresses().Arcs, [&](const AddressArc &A) {
    return Exe->inText(A.FromPC) && Exe->inText(A.SelfPC);
  });
  if (!AllFit || (LinkTimeFit && !Pt.addresses().Arcs.empty()))
    return 0;
  Opts.Note(Path +
            ": the profile holds runtime addresses of a PIE; "
            "removing the load bias 0x" +
            Twine::utohexstr(Bias));
  return Bias;
}

StrId Relocator::position(const Part &Pt, uint64_t Addr,
                          MutableArrayRef<uint64_t> Position) {
  Place Pl = place(Addr);
  for (size_t I = 0; I != Position.size(); ++I)
    Position[I] = Pt.positions()[I] == PositionKind::Line ? Pl.Line : Addr;
  return Pl.File;
}

namespace {
/// The event a histogram's samples become.
struct HistogramEvent {
  std::string Name, LongName;
  uint64_t PerSample;      // Units of the event per sample.
  std::string Description; // A `desc:` line for the part.
};
} // namespace

/// gprof counts samples, Rate per unit of the histogram's dimension. Time
/// (gprof's "seconds") becomes microseconds, when a sample is a whole number
/// of them (100 Hz: 10000 us), so viewers show a real unit; a dimension of
/// one unit per sample keeps its name; anything else stays samples.
static HistogramEvent histogramEvent(const Histogram &H) {
  std::string Dimension = H.Dimension.empty() ? "seconds" : H.Dimension;
  std::string Rate =
      (Twine(H.Rate) + " samples per " + StringRef(Dimension).rtrim('s')).str();
  if (Dimension == "seconds" && H.Rate && 1000000 % H.Rate == 0) {
    uint64_t Us = 1000000 / H.Rate;
    return {"us", "Time (microseconds)", Us,
            "gprof histogram: " + Rate +
                ", one sample = " + std::to_string(Us) + " us"};
  }
  if (H.Rate == 1)
    return {Dimension, Dimension, 1, "gprof histogram: " + Rate};
  return {"samples", "Samples (" + Rate + ")", 1, "gprof histogram: " + Rate};
}

Error Relocator::toFunctions(Part &Pt) {
  if (Pt.functions().empty()) {
    if (Opts.Lines)
      Pt.setPositions({PositionKind::Instr, PositionKind::Line});
    else
      Pt.setPositions({PositionKind::Instr});
  }
  uint64_t Bias = detectBias(Pt);
  // glibc's histogram ends where the program's text does (etext, rounded
  // up to 4): another program's ends elsewhere.
  if (std::optional<uint64_t> End = Exe->symbolValue("etext"))
    for (const Histogram &H : Pt.addresses().Histograms)
      if (H.HighPC >= Bias && H.HighPC - Bias != alignTo(*End, 4) &&
          H.HighPC - Bias != *End)
        return createStringError(
            make_error_code(ErrorCode::Mismatch),
            "%s does not match the profile: its histogram ends at 0x%llx, "
            "but the program's text ends at 0x%llx; give the program that "
            "wrote the profile",
            Path.str().c_str(), (unsigned long long)(H.HighPC - Bias),
            (unsigned long long)*End);
  // Samples in the histograms, and of them those in the program's symbols.
  uint64_t Samples = 0, SamplesIn = 0;

  // Histogram bins become self costs, split between the symbols a bin
  // overlaps (in gprof's 2-byte units) in proportion to the overlap.
  for (const Histogram &H : Pt.addresses().Histograms) {
    if (H.Bins.empty() || H.LowPC < Bias)
      continue;
    HistogramEvent Ev = histogramEvent(H);
    unsigned Column = P.getOrAddEvent(Ev.Name);
    if (P.events()[Column].LongName.empty())
      P.setEventLongName(Column, Ev.LongName);
    if (Pt.header("desc").empty())
      Pt.Header.push_back({"desc", Ev.Description});
    uint64_t LowU = (H.LowPC - Bias) / 2;
    double Scale = double((H.HighPC - H.LowPC) / 2) / double(H.Bins.size());
    SmallVector<uint64_t, 4> Values(Column + 1, 0);
    for (size_t I = 0; I != H.Bins.size(); ++I) {
      uint64_t Count = H.Bins[I];
      if (!Count)
        continue;
      uint64_t BinLo = LowU + uint64_t(Scale * double(I));
      uint64_t BinHi = LowU + uint64_t(Scale * double(I + 1));
      Samples += Count;
      if (BinHi <= BinLo)
        continue;
      uint64_t Width = BinHi - BinLo, Cum = 0, Given = 0;
      const std::vector<Symbol> &Syms = Exe->symbols();
      auto S = llvm::partition_point(
          Syms, [&](const Symbol &Sym) { return Sym.End / 2 <= BinLo; });
      for (; S != Syms.end() && S->Addr / 2 < BinHi; ++S) {
        uint64_t Lo = std::max(BinLo, S->Addr / 2);
        uint64_t Hi = std::min(BinHi, S->End / 2);
        if (Hi <= Lo)
          continue;
        Cum += Hi - Lo;
        // Cumulative rounding keeps the bin's total exact.
        uint64_t Upto = uint64_t(((unsigned __int128)Count * Cum * 2 + Width) /
                                 (2 * Width));
        uint64_t Share = Upto - Given;
        Given = Upto;
        if (Share && !S->Excluded) {
          FunctionData &FD = Pt.getOrCreate(function(*S));
          Values[Column] = Share * Ev.PerSample;
          SelfKey K(Pt.layout());
          K.setSourceFile(
              position(Pt, std::max(BinLo * 2, S->Addr), K.position()));
          if (!FD.Self.add(K.key(), Values))
            Opts.Warn(Path + ": a cost sum overflows 64 bits; saturated");
        }
      }
      SamplesIn += Given;
    }
  }

  // Arcs become call rows; arcs whose ends are in no symbol are dropped, as
  // gprof drops them.
  uint64_t Dropped = 0, Entered = 0;
  for (const AddressArc &A : Pt.addresses().Arcs) {
    const Symbol *From =
        A.FromPC >= Bias ? Exe->lookup(A.FromPC - Bias) : nullptr;
    const Symbol *To =
        A.SelfPC >= Bias ? Exe->lookup(A.SelfPC - Bias) : nullptr;
    if (!From || !To || From->Excluded || To->Excluded) {
      ++Dropped;
      continue;
    }
    // mcount records the callee's address just after its call in the
    // prologue: a few bytes into the function, in the right program.
    Entered += A.SelfPC - Bias - To->Addr < 32;
    FuncId Callee = function(*To);
    FunctionData &FD = Pt.getOrCreate(function(*From));
    CallKey K(Pt.layout());
    K.setSourceFile(position(Pt, A.FromPC - Bias, K.position()));
    K.setCallee(Callee);
    position(Pt, A.SelfPC - Bias, K.target());
    // The inclusive cost comes later (propagate).
    uint64_t V[] = {A.Count};
    if (!FD.makeCalls().add(K.key(), V))
      Opts.Warn(Path + ": a call count overflows 64 bits; saturated");
  }
  // Another program's symbols would give a plausible but false profile: a
  // few samples and arcs always miss (libc calling main), most must not,
  // and most arcs must enter their callee near its start.
  uint64_t Arcs = Pt.addresses().Arcs.size();
  if (Samples > 2 * SamplesIn || Arcs > 2 * Entered) {
    std::string Why;
    if (Samples)
      Why = std::to_string(SamplesIn * 100 / Samples) +
            "% of its histogram samples fall in the program's functions";
    if (Arcs)
      Why += (Why.empty() ? "" : " and ") +
             std::to_string(Entered * 100 / Arcs) +
             "% of its arcs enter one at its start";
    return createStringError(make_error_code(ErrorCode::Mismatch),
                             "%s does not match the profile: only %s; give "
                             "the program that wrote the profile",
                             Path.str().c_str(), Why.c_str());
  }
  if (Dropped)
    Opts.Note(Path + ": " + Twine(Dropped) +
              " arcs with an end in no function of the program were "
              "dropped (as gprof drops them)");
  return Error::success();
}

/// Gives every call row gprof's inclusive cost (GprofPropagation).
void Relocator::propagate(Part &Pt) {
  GprofPropagation G = GprofPropagation::compute(Pt, P.events().size());
  RowLayout L = Pt.layout();
  SmallVector<uint64_t, 8> Values(1 + G.numEvents());
  for (size_t F = 0; F != Pt.functions().size(); ++F) {
    FunctionData &FD = Pt.functions()[F];
    if (FD.calls().empty())
      continue;
    RowTable Calls(L.callWidth(), L.P);
    size_t Index = 0;
    for (const Row &R : FD.calls()) {
      Values[0] = R.value(0);
      llvm::copy(G.callCost(F, Index++), Values.begin() + 1);
      (void)Calls.add(R.Key, Values);
    }
    (void)Calls.finalize();
    FD.setCalls(std::move(Calls));
  }
  if (G.Overflow)
    Opts.Warn(Path + ": a cost sum overflows 64 bits; saturated");
}

bool Relocator::isOurObject(StrId Object) {
  if (Object == 0 || Object == ObjectName)
    return true;
  auto [It, New] = OurObjects.try_emplace(Object, false);
  if (New) {
    StringRef O = P.Strings.str(Object);
    bool Same = false;
    if (sys::fs::equivalent(O, Path, Same))
      Same = sys::path::filename(O) == sys::path::filename(Path);
    It->second = Same;
  }
  return It->second;
}

/// The symbol a profile's function names: callgrind names recursion levels
/// NAME'2, NAME'3, ..., and a function without a symbol by its address.
const Symbol *Relocator::symbolNamed(FuncId F) const {
  StringRef Name = P.functionName(F);
  auto [Base, Level] = Name.rsplit('\'');
  if (!Level.empty() && all_of(Level, isDigit))
    Name = Base;
  uint64_t Addr;
  if (Name.starts_with("0x") && !Name.drop_front(2).getAsInteger(16, Addr))
    return Exe->lookup(Addr);
  return Exe->byName(Name);
}

/// The profile's objects are named by the path the profiler saw; the
/// program may be given as a copy, or from another directory. When no object
/// is it by path or file name, the one whose functions its symbol table
/// holds (most of them, and more than any other object) is taken.
Error Relocator::chooseObject(const Part &Pt) {
  DenseMap<StrId, std::pair<unsigned, unsigned>> Found; // Found, functions.
  for (const FunctionData &FD : Pt.functions()) {
    const profkit::Function &F = P.function(FD.Id);
    if (isOurObject(F.Object))
      return Error::success();
    auto &[In, All] = Found[F.Object];
    ++All;
    In += symbolNamed(FD.Id) != nullptr;
  }
  StrId Best = 0;
  unsigned BestIn = 0;
  for (auto &[Object, Counts] : Found)
    if (Counts.first * 2 > Counts.second &&
        (Counts.first > BestIn || (Counts.first == BestIn && Object < Best))) {
      Best = Object;
      BestIn = Counts.first;
    }
  if (!BestIn)
    return createStringError(make_error_code(ErrorCode::Mismatch),
                             "%s does not match the profile: no object of it "
                             "is this program, and none has most of its "
                             "functions in the program's symbol table",
                             Path.str().c_str());
  OurObjects[Best] = true;
  Opts.Note(Path + ": taken for '" + P.Strings.str(Best) +
            "' of the profile, whose functions it holds");
  return Error::success();
}

Error Relocator::toAddresses(Part &Pt) {
  if (Error E = chooseObject(Pt))
    return E;
  RowLayout L = Pt.layout();
  std::optional<size_t> InstrIndex;
  for (size_t I = 0; I != Pt.positions().size(); ++I)
    if (Pt.positions()[I] == PositionKind::Instr)
      InstrIndex = I;
  // The address of a call's end: the recorded instruction address if it is
  // inside the function the profile names, else the function's symbol.
  uint64_t Unknown = 0, Moved = 0;
  auto Resolve = [&](FuncId F, ArrayRef<uint64_t> Pos,
                     std::optional<uint64_t> &Out) {
    const Symbol *ByName = symbolNamed(F);
    if (InstrIndex && Pos[*InstrIndex]) {
      const Symbol *ByAddr = Exe->lookup(Pos[*InstrIndex]);
      if (ByAddr && (!ByName || ByAddr == ByName)) {
        Out = Pos[*InstrIndex];
        return;
      }
      ++Moved;
    }
    if (ByName)
      Out = ByName->Addr;
  };
  for (const FunctionData &FD : Pt.functions()) {
    if (!isOurObject(P.function(FD.Id).Object))
      continue;
    for (const Row &R : FD.calls()) {
      FuncId Callee = L.callee(R);
      if (!isOurObject(P.function(Callee).Object))
        continue;
      std::optional<uint64_t> From, To;
      Resolve(FD.Id, L.position(R), From);
      Resolve(Callee, L.callTarget(R), To);
      if (!From || !To) {
        ++Unknown;
        continue;
      }
      if (R.value(0))
        Pt.makeAddresses().Arcs.push_back({*From, *To, R.value(0)});
    }
  }
  if (Moved)
    Opts.Note(Path + ": " + Twine(Moved) +
              " call addresses were not inside the named function; used the "
              "symbol table's address instead");
  if (Unknown)
    Opts.Warn(Path + ": " + Twine(Unknown) +
              " calls between functions not in the symbol table were "
              "dropped");
  return Error::success();
}

Error Relocator::run() {
  Expected<std::unique_ptr<Executable>> E = Executable::open(Path);
  if (!E)
    return E.takeError();
  Exe = std::move(*E);
  ObjectName = P.Strings.intern(Path);
  auto [Size, Big] = Exe->layout();

  for (auto &Pt : P.parts()) {
    if (Pt->addresses().AddressSize && (Pt->addresses().AddressSize != Size ||
                                        Pt->addresses().BigEndian != Big))
      Opts.Warn(Path + ": the profile was read as " +
                Twine(Pt->addresses().AddressSize * 8) + "-bit " +
                (Pt->addresses().BigEndian ? "big" : "little") +
                "-endian, but the program is " + Twine(Size * 8) + "-bit " +
                (Big ? "big" : "little") + "-endian");
    bool HasAddresses = Pt->addresses().hasAddresses();
    bool HasFunctions = !Pt->functions().empty();
    // Both: relocated already (by -binary, or an earlier relocate pass);
    // doing it again would count everything twice.
    if (HasAddresses && HasFunctions)
      continue;
    if (Error E = HasAddresses ? toFunctions(*Pt) : toAddresses(*Pt))
      return E;
    Pt->makeAddresses().AddressSize = Size;
    Pt->makeAddresses().BigEndian = Big;
    if (!Pt->finalize())
      Opts.Warn(Path + ": a cost sum overflows 64 bits; saturated");
    if (HasAddresses)
      propagate(*Pt);
  }
  return Error::success();
}

Error profkit::relocate(Profile &P, StringRef BinaryPath,
                        const RelocateOptions &Opts) {
  return Relocator(P, BinaryPath, Opts).run();
}

Expected<RelocatePass> RelocatePass::create(const PassParams &Params,
                                            PassContext &Ctx) {
  RelocatePass R;
  R.Params = Params;
  R.Ctx = &Ctx;
  R.Binary = Ctx.binaryFor(R.Params);
  if (R.Binary.empty())
    return createStringError(make_error_code(ErrorCode::InvalidArgument),
                             "pass 'relocate' needs the program: "
                             "relocate<binary=PROG> or -binary=PROG");
  R.Lines = R.Params.getFlag("lines");
  R.Demangle = R.Params.getFlag("demangle");
  return R;
}

Expected<PreservedAnalyses> RelocatePass::run(Profile &P,
                                              ProfileAnalysisManager &) {
  RelocateOptions Opts;
  Opts.Lines = Lines;
  Opts.Demangle = Demangle;
  Opts.Warn = Ctx->Warn;
  Opts.Note = Ctx->Note;
  if (Error E = relocate(P, Binary, Opts))
    return std::move(E);
  return PreservedAnalyses::none();
}
