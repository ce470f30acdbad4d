//===- ProgramCode.cpp - A program's code as its DWARF describes it -------===//

#include "profkit/Object/ProgramCode.h"
#include "CodeTargets.h"
#include "profkit/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/DebugInfo/DWARF/DWARFCompileUnit.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace profkit;
using namespace llvm;
using namespace llvm::object;

ProgramCode::ProgramCode(const ObjectFile &Obj) : Obj(Obj) {}
ProgramCode::~ProgramCode() = default;

Expected<std::unique_ptr<ProgramCode>>
ProgramCode::create(const ObjectFile &Obj, ArrayRef<uint64_t> Addresses) {
  std::unique_ptr<ProgramCode> Code(new ProgramCode(Obj));
  if (Error E = Code->readFunctions(Addresses))
    return std::move(E);
  if (Error E = Code->setUpDisassembler())
    return std::move(E);
  return std::move(Code);
}

Error ProgramCode::readFunctions(ArrayRef<uint64_t> Addresses) {
  Dwarf = DWARFContext::create(
      Obj, DWARFContext::ProcessDebugRelocations::Process, nullptr, "",
      WithColor::defaultErrorHandler, WithColor::defaultWarningHandler);
  // Only the units holding code at Addresses: parsing every unit's DIEs
  // costs a large program's memory for code that never ran.
  SetVector<DWARFCompileUnit *> Units;
  for (uint64_t Addr : Addresses)
    if (DWARFCompileUnit *CU = Dwarf->getCompileUnitForCodeAddress(Addr))
      Units.insert(CU);
  for (DWARFCompileUnit *CU : Units) {
    for (const DWARFDebugInfoEntry &Entry : CU->dies()) {
      DWARFDie Die(CU, &Entry);
      if (!Die.isSubprogramDIE())
        continue;
      const char *Name = Die.getName(DINameKind::LinkageName);
      if (!Name)
        Name = Die.getName(DINameKind::ShortName);
      if (!Name)
        continue;
      Expected<DWARFAddressRangesVector> DieRanges = Die.getAddressRanges();
      if (!DieRanges) {
        consumeError(DieRanges.takeError());
        continue;
      }
      if (DieRanges->empty())
        continue;
      HasStartLines |= Die.getDeclLine() != 0;
      auto [It, New] = ByName.try_emplace(Name, Functions.size());
      if (New)
        Functions.push_back(Function{Name, {}, {}});
      Function &F = Functions[It->second];
      bool First = true;
      for (const DWARFAddressRange &R : *DieRanges) {
        if (R.HighPC <= R.LowPC)
          continue;
        F.Ranges.push_back({R.LowPC, R.HighPC});
        Ranges.push_back({R.LowPC, R.HighPC, It->second});
        if (First)
          EntryIndex.push_back({R.LowPC, It->second});
        First = false;
      }
    }
  }
  if (Ranges.empty())
    return makeError(
        ErrorCode::Mismatch,
        Obj.getFileName() +
            ": no DWARF debug info for its functions; build with "
            "-gline-tables-only -fdebug-info-for-profiling, or -g");
  // A function emitted by several units (an inline function of a header)
  // has its code once: each range counts once, as in llvm-profgen.
  for (Function &F : Functions) {
    sort(F.Ranges);
    F.Ranges.erase(std::unique(F.Ranges.begin(), F.Ranges.end()),
                   F.Ranges.end());
  }
  sort(Ranges, [](const Range &A, const Range &B) {
    return std::tie(A.Start, A.End) < std::tie(B.Start, B.End);
  });
  Ranges.erase(std::unique(Ranges.begin(), Ranges.end(),
                           [](const Range &A, const Range &B) {
                             return A.Start == B.Start;
                           }),
               Ranges.end());
  sort(EntryIndex);
  EntryIndex.erase(std::unique(EntryIndex.begin(), EntryIndex.end(),
                               [](const auto &A, const auto &B) {
                                 return A.first == B.first;
                               }),
                   EntryIndex.end());
  for (const auto &[Addr, Func] : EntryIndex)
    Functions[Func].Entries.push_back(Addr);
  return Error::success();
}

Error ProgramCode::setUpDisassembler() {
  initializeCodeTargets(/*WithDisassemblers=*/true);
  Triple TheTriple = Obj.makeTriple();
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(TheTriple.getTriple(), Err);
  auto NoDisassembler = [&] {
    return makeError(ErrorCode::InvalidArgument,
                     Obj.getFileName() + ": cannot disassemble code for " +
                         TheTriple.getTriple());
  };
  if (!T)
    return NoDisassembler();
  RegInfo.reset(T->createMCRegInfo(TheTriple.getTriple()));
  MCTargetOptions Options;
  if (RegInfo)
    AsmInfo.reset(T->createMCAsmInfo(*RegInfo, TheTriple.getTriple(), Options));
  Expected<SubtargetFeatures> Features = Obj.getFeatures();
  if (!Features) {
    consumeError(Features.takeError());
    return NoDisassembler();
  }
  SubtargetInfo.reset(T->createMCSubtargetInfo(TheTriple.getTriple(), "",
                                               Features->getString()));
  if (!AsmInfo || !SubtargetInfo)
    return NoDisassembler();
  Context = std::make_unique<MCContext>(TheTriple, AsmInfo.get(), RegInfo.get(),
                                        SubtargetInfo.get());
  Disassembler.reset(T->createMCDisassembler(*SubtargetInfo, *Context));
  if (!Disassembler)
    return NoDisassembler();
  return Error::success();
}

const ProgramCode::Function *ProgramCode::functionAt(uint64_t Addr) const {
  // The last range starting at or before Addr; ranges of one program do not
  // overlap.
  auto It = upper_bound(Ranges, Addr,
                        [](uint64_t A, const Range &R) { return A < R.Start; });
  if (It == Ranges.begin())
    return nullptr;
  --It;
  return Addr < It->End ? &Functions[It->Func] : nullptr;
}

const ProgramCode::Function *
ProgramCode::functionEnteredAt(uint64_t Addr) const {
  auto It = lower_bound(EntryIndex, std::make_pair(Addr, 0u));
  if (It == EntryIndex.end() || It->first != Addr)
    return nullptr;
  return &Functions[It->second];
}

Error ProgramCode::forEachInstruction(
    const Function &F, function_ref<void(uint64_t, uint64_t)> Each) const {
  for (const auto &[Start, End] : F.Ranges) {
    for (const SectionRef &S : Obj.sections()) {
      uint64_t SecStart = S.getAddress(), SecEnd = SecStart + S.getSize();
      if (!S.isText() || Start < SecStart || Start >= SecEnd)
        continue;
      Expected<StringRef> Contents = S.getContents();
      if (!Contents)
        return Contents.takeError();
      ArrayRef<uint8_t> Bytes(
          reinterpret_cast<const uint8_t *>(Contents->data()),
          Contents->size());
      uint64_t Stop = std::min(End, SecEnd);
      for (uint64_t Addr = Start; Addr < Stop;) {
        MCInst Inst;
        uint64_t Size = 0;
        ArrayRef<uint8_t> At = Bytes.slice(Addr - SecStart, Stop - Addr);
        if (Disassembler->getInstruction(Inst, Size, At, Addr, nulls()) !=
                MCDisassembler::Success ||
            !Size)
          Size = std::max<uint64_t>(Size, 1); // Skip a byte, as objdump does.
        else
          Each(Addr, Size);
        Addr += Size;
      }
      break;
    }
  }
  return Error::success();
}

DIInliningInfo ProgramCode::frames(uint64_t Addr) const {
  return Dwarf->getInliningInfoForAddress(
      {Addr, SectionedAddress::UndefSection},
      DILineInfoSpecifier(DILineInfoSpecifier::FileLineInfoKind::RawValue,
                          DINameKind::LinkageName));
}
