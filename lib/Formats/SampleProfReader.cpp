//===- SampleProfReader.cpp - LLVM sample profiles in ---------------------===//
//
// Reads text, binary and extbinary sample profiles with LLVM's own
// SampleProfileReader and puts every FunctionSamples into the IR without
// loss: one part placed by line offset and discriminator, body samples as
// self rows, call targets as call rows, inlined call sites as inline sites
// (their rows carry the site), total and head samples as function values.
// The event is `samples`; functions are names only (no object, no file).
//
//===----------------------------------------------------------------------===//

#include "llvm/ProfileData/SampleProfReader.h"
#include "SampleProfGlobals.h"
#include "profkit/Formats/Format.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/InputStream.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>

using namespace profkit;
using namespace llvm;
using namespace llvm::sampleprof;

bool profkit::detectSampleProf(StringRef Head) {
  // A copy: LLVM's text check reads lines up to a NUL, past the end of a
  // head that has none after it.
  std::unique_ptr<MemoryBuffer> Buf = MemoryBuffer::getMemBufferCopy(Head);
  return SampleProfileReaderExtBinary::hasFormat(*Buf) ||
         SampleProfileReaderRawBinary::hasFormat(*Buf) ||
         SampleProfileReaderText::hasFormat(*Buf);
}

namespace {
/// The first error LLVM's reader reports through the context (by default
/// it would print it and exit), as an Error of our own.
struct Diagnostics {
  std::string File;
  Error First = Error::success();
  static void handle(const DiagnosticInfo *Info, void *Self) {
    const DiagnosticInfo &DI = *Info;
    auto &D = *static_cast<Diagnostics *>(Self);
    if (DI.getSeverity() != DS_Error || D.First)
      return;
    if (const auto *S = dyn_cast<DiagnosticInfoSampleProfile>(&DI)) {
      // The binary readers give no line.
      D.First =
          S->getLineNum()
              ? createFileError(D.File, S->getLineNum(), ErrorCode::Malformed,
                                S->getMsg())
              : makeError(ErrorCode::Malformed,
                          D.File + ": bad sample profile: " + S->getMsg());
      return;
    }
    std::string Msg;
    raw_string_ostream OS(Msg);
    DiagnosticPrinterRawOStream Printer(OS);
    DI.print(Printer);
    D.First = makeError(ErrorCode::Malformed, D.File + ": " + Msg);
  }
};

/// A ULEB128 number at P, before End; advances P. False if it runs past End
/// or over 64 bits. (llvm::decodeULEB128 of LLVM 19 shifts a zero group by
/// 64 bits or more, which is undefined.)
bool readCount(const uint8_t *&P, const uint8_t *End, uint64_t &Value) {
  Value = 0;
  for (unsigned Shift = 0; P != End; Shift += 7) {
    uint64_t Group = *P & 0x7f;
    if (Shift >= 64 ? Group != 0 : (Group << Shift) >> Shift != Group)
      return false;
    if (Shift < 64)
      Value |= Group << Shift;
    if (!(*P++ & 0x80))
      return true;
  }
  return false;
}

/// Does the table count at Start fit in the Size bytes that hold it? Every
/// entry takes a byte at least. LLVM's binary readers reserve room for the
/// count before they read the entries: a hostile count would ask for
/// terabytes.
bool countFits(const uint8_t *Start, uint64_t Size) {
  const uint8_t *P = Start, *End = Start + Size;
  uint64_t Count;
  return readCount(P, End, Count) && Count <= uint64_t(End - P);
}

/// The raw binary format: magic, version, a summary whose entries the file
/// counts, then the name table, each count checked before LLVM reads it.
class CheckedRawBinaryReader : public SampleProfileReaderRawBinary {
public:
  using SampleProfileReaderRawBinary::SampleProfileReaderRawBinary;
  std::error_code readHeader() override {
    const auto *P = reinterpret_cast<const uint8_t *>(Buffer->getBufferStart());
    const uint8_t *End = P + Buffer->getBufferSize();
    uint64_t Value;
    // Magic, version, total, maximum block and function counts, blocks,
    // functions.
    for (unsigned I = 0; I != 7; ++I)
      if (!readCount(P, End, Value))
        return sampleprof_error::truncated;
    // A count the rest of the file cannot hold: the file ends early.
    if (!countFits(P, End - P))
      return sampleprof_error::truncated;
    uint64_t Entries;
    readCount(P, End, Entries);
    for (uint64_t I = 0; I != 3 * Entries; ++I)
      if (!readCount(P, End, Value))
        return sampleprof_error::truncated;
    if (!countFits(P, End - P))
      return sampleprof_error::truncated;
    return SampleProfileReaderRawBinary::readHeader();
  }
};

/// LLVM's extbinary reader reads each section where the section table says
/// it is, without checking that it lies inside the file: it would read past
/// the end of a truncated one. This one checks the table first, the size a
/// compressed section claims to inflate to, and the counts of the tables.
class CheckedExtBinaryReader : public SampleProfileReaderExtBinary {
public:
  CheckedExtBinaryReader(std::unique_ptr<MemoryBuffer> B, LLVMContext &C,
                         uint64_t MaxMemory)
      : SampleProfileReaderExtBinary(std::move(B), C), MaxMemory(MaxMemory) {}
  std::error_code readHeader() override {
    if (std::error_code EC = SampleProfileReaderExtBinary::readHeader())
      return EC;
    uint64_t Size = Buffer->getBufferSize();
    const auto *Start =
        reinterpret_cast<const uint8_t *>(Buffer->getBufferStart());
    for (const SecHdrTableEntry &E : SecHdrTable) {
      // The type as the file gave it: a value of no enumerator may not even
      // be loaded as a SecType.
      std::underlying_type_t<SecType> Type;
      std::memcpy(&Type, &E.Type, sizeof(Type));
      if (!is_contained({SecProfSummary, SecNameTable, SecProfileSymbolList,
                         SecFuncOffsetTable, SecFuncMetadata, SecCSNameTable,
                         SecLBRProfile},
                        Type))
        return sampleprof_error::malformed;
      if (E.Offset > Size || E.Size > Size - E.Offset)
        return sampleprof_error::truncated;
      if (!hasSecFlag(E, SecCommonFlags::SecFlagCompress))
        continue;
      // zlib inflates 1032 times at most.
      const uint8_t *P = Start + E.Offset;
      uint64_t Inflated;
      if (!readCount(P, P + E.Size, Inflated) || Inflated / 1032 > E.Size ||
          (MaxMemory && Inflated > MaxMemory))
        return sampleprof_error::malformed;
    }
    return sampleprof_error::success;
  }

protected:
  std::error_code readOneSection(const uint8_t *Start, uint64_t Size,
                                 const SecHdrTableEntry &Entry) override {
    bool Table = Entry.Type == SecNameTable || Entry.Type == SecCSNameTable ||
                 Entry.Type == SecFuncOffsetTable;
    if (Table && !countFits(Start, Size))
      return sampleprof_error::malformed;
    return SampleProfileReaderExtBinary::readOneSection(Start, Size, Entry);
  }

private:
  uint64_t MaxMemory;
};

class Importer {
public:
  explicit Importer(Profile &P)
      : P(P),
        Pt(P.addPart({PositionKind::LineOffset, PositionKind::Discriminator})),
        L(Pt.layout()) {
    P.getOrAddEvent("samples");
  }
  void add(const FunctionSamples &FS, FuncId Top, InlineSiteId Site);
  FuncId function(const FunctionId &Name) {
    std::string Text = Name.str();
    BadName |= Text.empty() || Text.find('\0') != std::string::npos;
    return P.getOrAddFunction(0, 0, P.Strings.intern(Text));
  }
  bool Overflow = false;
  /// A function without a name, or one with a NUL byte, which the binary
  /// formats cannot write (their name tables end names with NULs).
  bool BadName = false;
  /// A line offset over 16 bits, which the binary formats cannot hold (the
  /// text reader takes it).
  bool BadOffset = false;
  static constexpr uint32_t MaxLineOffset = 0xffff;

private:
  Profile &P;
  Part &Pt;
  RowLayout L;
};
} // namespace

void Importer::add(const FunctionSamples &FS, FuncId Top, InlineSiteId Site) {
  FunctionData &FD = Pt.getOrCreate(Top);
  FD.valuesAt(Site).set(FunctionValueKind::TotalSamples, FS.getTotalSamples());
  // The formats keep head samples of functions, not of inlinees.
  if (!Site)
    FD.values().set(FunctionValueKind::HeadSamples, FS.getHeadSamples());
  for (const auto &[Loc, Record] : FS.getBodySamples()) {
    BadOffset |= Loc.LineOffset > MaxLineOffset;
    SelfKey K(L);
    K.position()[0] = Loc.LineOffset;
    K.position()[1] = Loc.Discriminator;
    K.setInlineSite(Site);
    Overflow |= !FD.Self.add(K.key(), {Record.getSamples()});
    for (const auto &[Callee, Count] : Record.getCallTargets()) {
      CallKey C(L);
      C.position()[0] = Loc.LineOffset;
      C.position()[1] = Loc.Discriminator;
      C.setInlineSite(Site);
      C.setCallee(function(Callee));
      Overflow |= !FD.makeCalls().add(C.key(), {Count});
    }
  }
  for (const auto &[Loc, Callees] : FS.getCallsiteSamples())
    for (const auto &[Name, Inlinee] : Callees) {
      BadOffset |= Loc.LineOffset > MaxLineOffset;
      InlineSite S{Site, Loc.LineOffset, Loc.Discriminator, function(Name)};
      add(Inlinee, Top, P.getOrAddInlineSite(S));
    }
}

Expected<std::unique_ptr<Profile>>
profkit::readSampleProf(InputStream &In, const ReadOptions &Opts) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = In.readAll();
  if (!Buf)
    return Buf.takeError();
  SavedSampleProfileFlags Flags;
  LLVMContext Context;
  Diagnostics Diags{In.name()};
  Context.setDiagnosticHandlerCallBack(Diagnostics::handle, &Diags);
  // Discriminators as they are (llvm-profdata show's default too), whatever
  // pass of flow-sensitive discriminators they come from.
  constexpr FSDiscriminatorPass AllBits = FSDiscriminatorPass::PassLast;
  ErrorOr<std::unique_ptr<SampleProfileReader>> Reader =
      sampleprof_error::unrecognized_format;
  // The binary readers are LLVM's, with the checks above; the text reader
  // as LLVM makes it.
  std::unique_ptr<SampleProfileReader> Binary;
  if (SampleProfileReaderExtBinary::hasFormat(**Buf))
    Binary = std::make_unique<CheckedExtBinaryReader>(std::move(*Buf), Context,
                                                      Opts.MaxMemory);
  else if (SampleProfileReaderRawBinary::hasFormat(**Buf))
    Binary = std::make_unique<CheckedRawBinaryReader>(std::move(*Buf), Context);
  if (Binary) {
    Binary->setDiscriminatorMaskedBitFrom(AllBits);
    if (std::error_code EC = Binary->readHeader())
      Reader = EC;
    else
      Reader = std::move(Binary);
  } else if (SampleProfileReaderText::hasFormat(**Buf)) {
    // LLVM 19's text reader crashes on some malformed context headers
    // (`[:0:0`); profkit refuses context-sensitive profiles anyway, so it
    // never hands it one.
    StringRef Text = (*Buf)->getBuffer();
    for (size_t At = 0; At < Text.size(); At = Text.find('\n', At) + 1) {
      if (Text[At] == '[')
        return createFileError(In.name(), 1 + Text.take_front(At).count('\n'),
                               ErrorCode::Malformed,
                               "context-sensitive sample profiles ([main:3 "
                               "@ foo] contexts) are not supported");
      if (Text.find('\n', At) == StringRef::npos)
        break;
    }
    IntrusiveRefCntPtr<vfs::FileSystem> FS = vfs::getRealFileSystem();
    Reader = SampleProfileReader::create(*Buf, Context, *FS, AllBits);
  }
  std::error_code EC = Reader ? (*Reader)->read() : Reader.getError();
  if (Diags.First)
    return std::move(Diags.First);
  if (EC == sampleprof_error::unrecognized_format)
    return makeError(ErrorCode::Malformed,
                     In.name() + ": not a sample profile: " + EC.message());
  if (EC)
    return makeError(ErrorCode::Malformed,
                     In.name() + ": bad sample profile: " + EC.message());
  SampleProfileReader &R = **Reader;
  if (R.profileIsCS())
    return makeError(ErrorCode::Malformed,
                     In.name() + ": context-sensitive sample profiles "
                                 "([main:3 @ foo] contexts) are not supported");
  if (R.profileIsProbeBased())
    return makeError(ErrorCode::Malformed,
                     In.name() + ": pseudo-probe sample profiles are not "
                                 "supported (their positions are probes, not "
                                 "lines)");
  if (R.useMD5())
    Opts.Warn(In.name() + ": function names are MD5 hashes; they are kept as "
                          "numbers");
  if (std::unique_ptr<ProfileSymbolList> Symbols = R.getProfileSymbolList())
    if (Symbols->size())
      Opts.Warn(In.name() + ": its list of " + Twine(Symbols->size()) +
                " symbols of the program is not kept");

  auto P = std::make_unique<Profile>();
  P->SourceName = In.name();
  Importer Import(*P);
  if (FunctionSamples::ProfileIsFS)
    P->parts().front()->Header.push_back(
        {FSDiscriminatorsKey, FSDiscriminatorsValue});
  // In name order: the map is a hash map.
  std::vector<const FunctionSamples *> Functions;
  for (const auto &[Context, Samples] : R.getProfiles())
    Functions.push_back(&Samples);
  llvm::sort(Functions, [](const FunctionSamples *A, const FunctionSamples *B) {
    return A->getFunction().str() < B->getFunction().str();
  });
  for (const FunctionSamples *FS : Functions)
    Import.add(*FS, Import.function(FS->getFunction()), 0);
  if (Import.BadOffset)
    return makeError(ErrorCode::Malformed,
                     In.name() + ": bad sample profile: a line offset over "
                                 "65535");
  if (Import.BadName)
    return makeError(ErrorCode::Malformed,
                     In.name() + ": bad sample profile: a function without "
                                 "a name, or with a NUL byte in it");
  if (!P->parts().front()->finalize() || Import.Overflow)
    Opts.Warn(In.name() + ": a count sum overflows 64 bits; saturated");
  return std::move(P);
}
