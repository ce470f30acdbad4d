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
#include "profkit/Formats/Format.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/InputStream.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace profkit;
using namespace llvm;
using namespace llvm::sampleprof;

bool profkit::detectSampleProf(StringRef Head) {
  std::unique_ptr<MemoryBuffer> Buf =
      MemoryBuffer::getMemBuffer(Head, "", /*RequiresNullTerminator=*/false);
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

/// LLVM's extbinary reader reads each section where the section table says
/// it is, without checking that it lies inside the file: it would read past
/// the end of a truncated one. This one checks the table first.
class CheckedExtBinaryReader : public SampleProfileReaderExtBinary {
public:
  using SampleProfileReaderExtBinary::SampleProfileReaderExtBinary;
  std::error_code readHeader() override {
    if (std::error_code EC = SampleProfileReaderExtBinary::readHeader())
      return EC;
    uint64_t Size = Buffer->getBufferSize();
    for (const SecHdrTableEntry &E : SecHdrTable)
      if (E.Offset > Size || E.Size > Size - E.Offset)
        return sampleprof_error::truncated;
    return sampleprof_error::success;
  }
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
    return P.getOrAddFunction(0, 0, P.Strings.intern(Name.str()));
  }
  bool Overflow = false;

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
    FD.Values.set(FunctionValueKind::HeadSamples, FS.getHeadSamples());
  for (const auto &[Loc, Record] : FS.getBodySamples()) {
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
      Overflow |= !FD.Calls.add(C.key(), {Count});
    }
  }
  for (const auto &[Loc, Callees] : FS.getCallsiteSamples())
    for (const auto &[Name, Inlinee] : Callees) {
      InlineSite S{Site, Loc.LineOffset, Loc.Discriminator, function(Name)};
      add(Inlinee, Top, P.getOrAddInlineSite(S));
    }
}

Expected<std::unique_ptr<Profile>>
profkit::readSampleProf(InputStream &In, const ReadOptions &Opts) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = In.readAll();
  if (!Buf)
    return Buf.takeError();
  LLVMContext Context;
  Diagnostics Diags{In.name()};
  Context.setDiagnosticHandlerCallBack(Diagnostics::handle, &Diags);
  // Discriminators as they are (llvm-profdata show's default too), whatever
  // pass of flow-sensitive discriminators they come from.
  constexpr FSDiscriminatorPass AllBits = FSDiscriminatorPass::PassLast;
  ErrorOr<std::unique_ptr<SampleProfileReader>> Reader =
      sampleprof_error::unrecognized_format;
  if (SampleProfileReaderExtBinary::hasFormat(**Buf)) {
    auto Ext =
        std::make_unique<CheckedExtBinaryReader>(std::move(*Buf), Context);
    Ext->setDiscriminatorMaskedBitFrom(AllBits);
    if (std::error_code EC = Ext->readHeader())
      Reader = EC;
    else
      Reader = std::move(Ext);
  } else {
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
  // In name order: the map is a hash map.
  std::vector<const FunctionSamples *> Functions;
  for (const auto &[Context, Samples] : R.getProfiles())
    Functions.push_back(&Samples);
  llvm::sort(Functions, [](const FunctionSamples *A, const FunctionSamples *B) {
    return A->getFunction().str() < B->getFunction().str();
  });
  for (const FunctionSamples *FS : Functions)
    Import.add(*FS, Import.function(FS->getFunction()), 0);
  if (!P->parts().front()->finalize() || Import.Overflow)
    Opts.Warn(In.name() + ": a count sum overflows 64 bits; saturated");
  return std::move(P);
}
