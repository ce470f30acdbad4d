//===- SampleProfWriter.cpp - LLVM sample profiles out --------------------===//
//
// Writes a profile of sample-profile shape (what the sample-profile pass
// makes of instruction counts, or what readSampleProf read) with LLVM's own
// SampleProfileWriter: each function's rows become its FunctionSamples, an
// inline site's rows the FunctionSamples nested at its call site.
//
//===----------------------------------------------------------------------===//

#include "llvm/ProfileData/SampleProfWriter.h"
#include "SampleProfGlobals.h"
#include "profkit/Formats/Format.h"
#include "profkit/Support/Error.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ProfileData/SampleProfReader.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace profkit;
using namespace llvm;
using namespace llvm::sampleprof;

namespace {
class SampleMapBuilder {
public:
  /// Names must not be empty; ForText: they must be ones the text format
  /// can hold.
  SampleMapBuilder(const Profile &P, bool ForText) : P(P), ForText(ForText) {}
  Error build(SampleProfileMap &Map);

private:
  FunctionId name(FuncId F) {
    StringRef Name = P.functionName(F);
    if (!BadName && (!isName(Name) || (ForText && !isTextName(Name))))
      BadName = Name;
    return FunctionId(Name);
  }
  /// The binary formats end names with NULs.
  static bool isName(StringRef Name) {
    return !Name.empty() && !Name.contains('\0');
  }
  /// The text format splits its lines at blanks, nests by indentation,
  /// skips lines starting with '#', takes a digit for a count, a call
  /// target's name up to a colon, and '[' for a context.
  static bool isTextName(StringRef Name) {
    return !Name.empty() &&
           Name.find_first_of(" \t\n\v\f\r") == StringRef::npos &&
           !StringRef("#:[").contains(Name.front()) && !isDigit(Name.front());
  }
  /// The FunctionSamples of the code at Site in Top.
  FunctionSamples &samplesAt(FunctionSamples &Top, InlineSiteId Site);
  Expected<LineLocation> location(ArrayRef<uint64_t> Position) const;

  const Profile &P;
  bool ForText;
  std::optional<StringRef> BadName;
};
} // namespace

FunctionSamples &SampleMapBuilder::samplesAt(FunctionSamples &Top,
                                             InlineSiteId Site) {
  if (!Site)
    return Top;
  const InlineSite &S = P.inlineSite(Site);
  FunctionSamples &Parent = samplesAt(Top, S.Parent);
  FunctionSamplesMap &Callees = Parent.functionSamplesAt(
      LineLocation(uint32_t(S.Line), uint32_t(S.Discriminator)));
  auto [It, New] = Callees.try_emplace(name(S.Callee), FunctionSamples());
  if (New)
    It->second.setContext(SampleContext(name(S.Callee)));
  return It->second;
}

Expected<LineLocation>
SampleMapBuilder::location(ArrayRef<uint64_t> Position) const {
  // LLVM's binary readers take 16-bit line offsets only.
  if (Position[0] > 0xffff || Position[1] > UINT32_MAX)
    return makeError(ErrorCode::LimitExceeded,
                     "sampleprof: a line offset over 65535 or a "
                     "discriminator over 2^32-1");
  return LineLocation(uint32_t(Position[0]), uint32_t(Position[1]));
}

Error SampleMapBuilder::build(SampleProfileMap &Map) {
  for (InlineSiteId Site = 1; Site != P.numInlineSites(); ++Site) {
    const InlineSite &S = P.inlineSite(Site);
    uint64_t Position[] = {S.Line, S.Discriminator};
    if (Expected<LineLocation> Loc = location(Position); !Loc)
      return Loc.takeError();
  }
  const Part &Pt = *P.parts().front();
  RowLayout L = Pt.layout();
  bool Overflow = false;
  for (const FunctionData &FD : Pt.functions()) {
    FunctionSamples &Top = Map.create(SampleContext(name(FD.Id)));
    // Inline sites first, so that every inlinee exists even when it has no
    // rows (llvm-profgen keeps code that never ran).
    for (const auto &[Site, Values] : FD.inlineValues())
      samplesAt(Top, Site);
    for (const Row &R : FD.Self) {
      Expected<LineLocation> Loc = location(L.position(R));
      if (!Loc)
        return Loc.takeError();
      Overflow |= samplesAt(Top, L.inlineSite(R))
                      .addBodySamples(Loc->LineOffset, Loc->Discriminator,
                                      R.value(0)) != sampleprof_error::success;
    }
    for (const Row &R : FD.calls()) {
      Expected<LineLocation> Loc = location(L.position(R));
      if (!Loc)
        return Loc.takeError();
      Overflow |=
          samplesAt(Top, L.inlineSite(R))
              .addCalledTargetSamples(Loc->LineOffset, Loc->Discriminator,
                                      name(L.callee(R)),
                                      R.value(0)) != sampleprof_error::success;
    }
    auto SetValues = [&](FunctionSamples &S, const FunctionValues &V) {
      if (std::optional<uint64_t> Total =
              V.get(FunctionValueKind::TotalSamples))
        Overflow |= S.addTotalSamples(*Total) != sampleprof_error::success;
      if (std::optional<uint64_t> Head = V.get(FunctionValueKind::HeadSamples))
        Overflow |= S.addHeadSamples(*Head) != sampleprof_error::success;
    };
    SetValues(Top, FD.values());
    for (const auto &[Site, Values] : FD.inlineValues())
      SetValues(samplesAt(Top, Site), Values);
  }
  if (BadName && !isName(*BadName))
    return makeError(ErrorCode::InvalidArgument,
                     "sampleprof: a function without a name, or with a NUL "
                     "byte in it, which sample profiles cannot hold");
  if (BadName)
    return makeError(ErrorCode::InvalidArgument,
                     "sampleprof: the text format cannot hold the function "
                     "name '" +
                         *BadName +
                         "' (blanks, a leading '#', ':', '[' or digit); write "
                         "binary or extbinary");
  if (Overflow)
    return makeError(ErrorCode::LimitExceeded,
                     "sampleprof: a count sum overflows 64 bits");
  return Error::success();
}

Error profkit::writeSampleProf(const Profile &P, raw_ostream &OS,
                               const PassParams &Params,
                               const WriteContext &Ctx) {
  StringRef FormatName = Params.get("format");
  auto Format = StringSwitch<std::optional<SampleProfileFormat>>(FormatName)
                    .Case("extbinary", SPF_Ext_Binary)
                    .Case("binary", SPF_Binary)
                    .Case("text", SPF_Text)
                    .Default(std::nullopt);
  if (!Format)
    return makeError(ErrorCode::InvalidArgument,
                     "sampleprof: unknown format '" + FormatName +
                         "' (extbinary, binary or text)");
  if (!isSampleProfileShaped(P))
    return makeError(ErrorCode::InvalidArgument,
                     "sampleprof: the profile is not in sample-profile shape; "
                     "run the sample-profile pass first");
  // The flags LLVM's writers read: the defaults, but for flow-sensitive
  // discriminators, which only extbinary records.
  SavedSampleProfileFlags Flags;
  FunctionSamples::ProfileIsProbeBased = FunctionSamples::ProfileIsCS =
      FunctionSamples::ProfileIsPreInlined = FunctionSamples::UseMD5 = false;
  FunctionSamples::ProfileIsFS =
      P.parts().front()->header(FSDiscriminatorsKey) == FSDiscriminatorsValue;
  if (FunctionSamples::ProfileIsFS && *Format != SPF_Ext_Binary)
    return makeError(ErrorCode::InvalidArgument,
                     "sampleprof: the profile has flow-sensitive "
                     "discriminators, which only the extbinary format "
                     "records");
  SampleProfileMap Map;
  if (Error E = SampleMapBuilder(P, *Format == SPF_Text).build(Map))
    return E;
  // The extensible format seeks back to fill in its section table, so the
  // writer gets a buffer; the output may be a pipe.
  SmallString<0> Buffer;
  std::unique_ptr<raw_ostream> BufferOS =
      std::make_unique<raw_svector_ostream>(Buffer);
  ErrorOr<std::unique_ptr<SampleProfileWriter>> Writer =
      SampleProfileWriter::create(BufferOS, *Format);
  if (!Writer)
    return errorCodeToError(Writer.getError());
  if (std::error_code EC = (*Writer)->write(Map))
    return makeError(ErrorCode::InvalidArgument,
                     "sampleprof: cannot write the profile: " + EC.message());
  Writer->reset(); // Flushes into Buffer.
  // LLVM's readers try the binary encodings first: a text profile that
  // begins with one's magic number (the first function's name) would read
  // as a broken binary profile. (GCC's is "adcg*704" and a NUL byte,
  // which no text profile holds.)
  if (*Format == SPF_Text) {
    std::unique_ptr<MemoryBuffer> Text = MemoryBuffer::getMemBuffer(
        Buffer, "", /*RequiresNullTerminator=*/false);
    if (SampleProfileReaderRawBinary::hasFormat(*Text) ||
        SampleProfileReaderExtBinary::hasFormat(*Text)) {
      StringRef Head = StringRef(Buffer).split('\n').first; // NAME:TOTAL:HEAD
      std::string Name;
      raw_string_ostream NameOS(Name);
      printEscapedString(Head.rsplit(':').first.rsplit(':').first, NameOS);
      return makeError(ErrorCode::InvalidArgument,
                       "sampleprof: the text format cannot hold the function "
                       "name '" +
                           Name +
                           "' first in the file, where its bytes read as a "
                           "binary profile's magic number; write binary or "
                           "extbinary");
    }
  }
  OS << Buffer;
  return Error::success();
}
