//===- Executable.cpp - The program a profile belongs to ------------------===//

#include "profkit/Object/Executable.h"
#include "CodeTargets.h"
#include "profkit/Support/Demangle.h"
#include "profkit/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace profkit;
using namespace llvm;
using namespace llvm::object;

static Error notExecutable(StringRef Path) {
  return createStringError(make_error_code(ErrorCode::InvalidArgument),
                           "%s: not in executable format", Path.str().c_str());
}

Expected<AddressLayout> profkit::readExecutableLayout(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFileSlice(Path, 16, 0, /*IsVolatile=*/false);
  if (!Buf)
    return createStringError(Buf.getError(), "%s: %s", Path.str().c_str(),
                             Buf.getError().message().c_str());
  StringRef Id = (*Buf)->getBuffer();
  if (Id.size() < 16 ||
      !Id.starts_with("\x7f"
                      "ELF") ||
      (Id[4] != 1 && Id[4] != 2) || (Id[5] != 1 && Id[5] != 2))
    return createStringError(make_error_code(ErrorCode::InvalidArgument),
                             "%s: not in executable format",
                             Path.str().c_str());
  return AddressLayout{Id[4] == 1 ? 4u : 8u, Id[5] == 2};
}

/// gprof's rule for local symbols: no '$', and each '.' only as part of a
/// ".NNN", ".clone.N" or ".constprop.N" suffix.
static bool acceptLocalName(StringRef Name) {
  if (Name.contains('$'))
    return false;
  size_t Dot = Name.find('.');
  while (Dot != StringRef::npos) {
    StringRef Rest = Name.drop_front(Dot);
    for (StringRef Prefix : {".clone.", ".constprop."})
      if (Rest.starts_with(Prefix)) {
        Rest = Rest.drop_front(Prefix.size() - 1);
        break;
      }
    Rest = Rest.drop_front(); // The '.'.
    size_t Digits = 0;
    while (Digits < Rest.size() && isDigit(Rest[Digits]))
      ++Digits;
    if (!Digits)
      return false;
    size_t Next = Rest.drop_front(Digits).find('.');
    Dot = Next == StringRef::npos ? Next
                                  : Name.size() - Rest.size() + Digits + Next;
  }
  return true;
}

static symbolize::LLVMSymbolizer::Options symbolizerOptions() {
  symbolize::LLVMSymbolizer::Options O;
  O.Demangle = false;
  return O;
}

Executable::Executable(StringRef Path, OwningBinary<ObjectFile> Bin)
    : Path(Path.str()), Bin(std::move(Bin)),
      Obj(cast<ELFObjectFileBase>(this->Bin.getBinary())),
      Symbolizer(symbolizerOptions()) {}

Expected<std::unique_ptr<Executable>> Executable::open(StringRef Path) {
  Expected<OwningBinary<ObjectFile>> B = ObjectFile::createObjectFile(Path);
  if (!B) {
    consumeError(B.takeError());
    return notExecutable(Path);
  }
  if (!isa<ELFObjectFileBase>(B->getBinary()))
    return notExecutable(Path);
  std::unique_ptr<Executable> E(new Executable(Path, std::move(*B)));
  if (Error Err = E->readSymbols())
    return std::move(Err);
  return std::move(E);
}

AddressLayout Executable::layout() const {
  return {Obj->getBytesInAddress(), !Obj->isLittleEndian()};
}

bool Executable::isPIE() const { return Obj->getEType() == ELF::ET_DYN; }

const Symbol *Executable::lookup(uint64_t Addr) const {
  auto It = llvm::upper_bound(
      Syms, Addr, [](uint64_t A, const Symbol &S) { return A < S.Addr; });
  if (It == Syms.begin())
    return nullptr;
  --It;
  return Addr < It->End ? &*It : nullptr;
}

const Symbol *Executable::byName(StringRef Name) const {
  auto It = Names.find(Name);
  if (It != Names.end())
    return &Syms[It->second];
  It = Demangled.find(Name);
  return It != Demangled.end() ? &Syms[It->second] : nullptr;
}

std::optional<uint64_t> Executable::symbolValue(StringRef Name) const {
  for (const ELFSymbolRef &S : Obj->symbols()) {
    Expected<StringRef> N = S.getName();
    if (!N) {
      consumeError(N.takeError());
      continue;
    }
    if (*N != Name)
      continue;
    Expected<uint64_t> A = S.getAddress();
    if (A)
      return *A;
    consumeError(A.takeError());
  }
  return std::nullopt;
}

bool Executable::inText(uint64_t Addr) const {
  for (const SectionRef &S : Obj->sections())
    if (S.isText() && Addr >= S.getAddress() &&
        Addr - S.getAddress() < S.getSize())
      return true;
  return false;
}

SourcePlace Executable::frame(uint64_t Addr, bool Innermost) {
  Expected<DIInliningInfo> Info = Symbolizer.symbolizeInlinedCode(
      *Obj, {Addr, SectionedAddress::UndefSection});
  if (!Info) {
    consumeError(Info.takeError());
    return {};
  }
  uint32_t N = Info->getNumberOfFrames();
  if (!N)
    return {};
  const DILineInfo &F = Info->getFrame(Innermost ? 0 : N - 1);
  SourcePlace Place;
  if (F.FileName != DILineInfo::BadString)
    Place.File = F.FileName;
  Place.Line = F.Line;
  return Place;
}

Error Executable::readSymbols() {
  struct Range {
    uint64_t Begin, End;
  };
  std::vector<Range> Text;
  for (const SectionRef &S : Obj->sections())
    if (S.isText() && S.getSize())
      Text.push_back({S.getAddress(), S.getAddress() + S.getSize()});
  auto SectionEnd = [&](uint64_t Addr) -> uint64_t {
    for (const Range &R : Text)
      if (Addr >= R.Begin && Addr < R.End)
        return R.End;
    return Addr;
  };

  auto AddAll = [&](ELFObjectFileBase::elf_symbol_iterator_range Range) {
    for (const ELFSymbolRef &S : Range) {
      Expected<section_iterator> Sec = S.getSection();
      if (!Sec) {
        consumeError(Sec.takeError());
        continue;
      }
      if (*Sec == Obj->section_end() || !(*Sec)->isText())
        continue;
      uint8_t Type = S.getELFType();
      if (Type != ELF::STT_FUNC && Type != ELF::STT_NOTYPE &&
          Type != ELF::STT_GNU_IFUNC)
        continue;
      Expected<StringRef> Name = S.getName();
      Expected<uint64_t> Addr = S.getAddress();
      if (!Name || !Addr) {
        consumeError(Name.takeError());
        consumeError(Addr.takeError());
        continue;
      }
      bool Local = S.getBinding() == ELF::STB_LOCAL;
      if (Name->empty() || (Local && !acceptLocalName(*Name)))
        continue;
      Symbol Sym;
      Sym.Addr = *Addr;
      Sym.Name = Name->str();
      Sym.Rank = (Local ? 4 : 0) + (Type == ELF::STT_NOTYPE ? 2 : 0) +
                 (Name->starts_with("_") ? 1 : 0);
      Syms.push_back(std::move(Sym));
    }
  };
  AddAll(Obj->symbols());
  if (Syms.empty()) // Stripped: fall back to the dynamic symbols.
    AddAll(Obj->getDynamicSymbolIterators());

  // PLT entries, as BFD's synthetic NAME@plt symbols.
  initializeCodeTargets(/*WithDisassemblers=*/false);
  for (const ELFPltEntry &E : Obj->getPltEntries()) {
    if (!E.Symbol)
      continue;
    Expected<StringRef> Name = SymbolRef(*E.Symbol, Obj).getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    Symbol Sym;
    Sym.Addr = E.Address;
    Sym.Name = (*Name + "@plt").str();
    Sym.Rank = 3;
    Syms.push_back(std::move(Sym));
  }

  if (Syms.empty())
    return createStringError(make_error_code(ErrorCode::InvalidArgument),
                             "file `%s' has no symbols", Path.c_str());
  llvm::stable_sort(Syms, [](const Symbol &A, const Symbol &B) {
    return std::tie(A.Addr, A.Rank) < std::tie(B.Addr, B.Rank);
  });
  // One symbol per address: the best ranked.
  Syms.erase(
      llvm::unique(Syms, [](const Symbol &A,
                            const Symbol &B) { return A.Addr == B.Addr; }),
      Syms.end());
  for (size_t I = 0; I != Syms.size(); ++I) {
    Symbol &S = Syms[I];
    uint64_t SecEnd = SectionEnd(S.Addr);
    S.End = I + 1 != Syms.size() ? Syms[I + 1].Addr : SecEnd;
    if (S.End <= S.Addr)
      S.End = S.Addr + 1;
    S.Excluded =
        is_contained({"mcount", "_mcount", "__mcount", "__mcount_internal",
                      "_gprof_mcount", "__mcleanup"},
                     S.Name);
    Names.try_emplace(S.Name, I);
    std::string D = demangleName(S.Name);
    if (D != S.Name)
      Demangled.try_emplace(D, I);
  }
  return Error::success();
}
