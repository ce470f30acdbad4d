//===- CallgrindDigest.cpp - What skimming a piece does, found apart ------===//
//
// A tail reader of a file read in pieces needs the names, functions and
// compressed ids of every piece before its own, numbered as one reader
// would number them. Skimming those pieces in turn makes a tail's work
// grow with the pieces before it: with many pieces, the skim bounds the
// speed-up. Instead each piece but the last is digested, all at once, each
// on a thread of its own, by a reader that knows nothing of the pieces
// before it (PieceDigest), and a tail replays the digests in file order: a
// replay takes each name and function a piece met once, not each line that
// names it.
//
//===----------------------------------------------------------------------===//

#include "CallgrindReader.h"
#include "CallgrindScan.h"
#include "llvm/Support/Endian.h"

using namespace profkit;
using namespace profkit::callgrind;
using namespace llvm;

/// A placeholder is a NUL (no name of the file holds one), its table, the
/// segment and the id: it stands for one name, in one segment.
static constexpr size_t PlaceholderSize = 2 + 4 + 8;

StrId CallgrindReader::placeholder(char Table, uint64_t Id) {
  char Bytes[PlaceholderSize] = {'\0', Table};
  support::endian::write32le(Bytes + 2, uint32_t(Digest.Segments.size()));
  support::endian::write64le(Bytes + 6, Id);
  return P.Strings.intern(StringRef(Bytes, PlaceholderSize));
}

std::optional<StrId>
CallgrindReader::resolvePlaceholder(StringRef Name,
                                    const StrId (&Start)[3]) const {
  assert(Name.size() == PlaceholderSize && "not a placeholder");
  uint64_t Id = support::endian::read64le(Name.data() + 6);
  StrId Out;
  switch (Name[1]) {
  case 'O':
    return Start[0];
  case 'F':
    return Start[1];
  case 'S':
    return Start[2];
  default:
    if (idTable(Name[1]).find(Id, Out))
      return Out;
    return std::nullopt; // Not defined: skimming reports it.
  }
}

void CallgrindReader::startDigestSegment() {
  PieceDigest::Segment &Seg = Digest.Segments.emplace_back();
  Seg.FirstDefinition = Digest.Definitions.size();
  Seg.FirstFunction = Digest.Functions.size();
  Seg.FirstHeaderLine = Digest.HeaderLines.size();
  // The ids the segment names before defining them were defined before it
  // (as after a new part, whose ids the segment compares, not hashes).
  for (CompressedIds *Ids : {&ObjectIds, &FileIds, &FunctionIds})
    Ids->clear();
  HeadFunctions.clear();
  Object = placeholder('O', 0);
  File = placeholder('F', 0);
  SourceFile = placeholder('S', 0);
}

bool CallgrindReader::endDigestBody() {
  PieceDigest::Segment &Seg = Digest.Segments.back();
  Seg.EndString = P.Strings.size();
  Seg.EndFunction = P.numFunctions();
  Seg.Object = Object;
  Seg.File = File;
  Seg.SourceFile = SourceFile;
  // A callee or jump target named before header lines: the replay starts
  // each segment with none (rare enough to skim).
  if (HaveCalleeObject || HaveCalleeFile || HaveCallee || HaveJumpFile ||
      HaveJumpFunction) {
    TailFailure = "a callee or jump target named before header lines";
    return false;
  }
  return true;
}

void CallgrindReader::digestPiece() {
  Skimming = Digesting = true;
  Cur = &P.addPart(Positions); // Its body lines start no part.
  startDigestSegment();
  bool InHeader = false;
  // The lines a skim takes (skimLine()).
  bool Failed = false;
  In.forEachLineContaining('=', ':', [&](StringRef Line) {
    StringRef Text = Line.drop_while(isBlank); // Not all: it holds '=' or ':'.
    if (startsCostLine(Text[0]) || Text[0] == '#' || skimPassesOver(Text))
      return true;
    if (!bodyKeyLength(Text)) {
      if (!InHeader && !endDigestBody())
        return !(Failed = true);
      InHeader = true;
      Digest.addHeaderLine(Line);
      return true;
    }
    if (InHeader) {
      startDigestSegment();
      InHeader = false;
    }
    Digest.Segments.back().HasBody = true;
    if (!skimLine(Line)) {
      TailFailure = "an error in the piece";
      return !(Failed = true);
    }
    return true;
  });
  if (Failed)
    return;
  if (Error E = In.takeError()) {
    consumeError(std::move(E));
    TailFailure = "an error reading the piece";
    return;
  }
  Digest.Ok = InHeader || endDigestBody();
}

bool CallgrindReader::replayDigest(const CallgrindReader &D) {
  auto Fail = [&](StringRef Why) {
    TailFailure = Why;
    return false;
  };
  const PieceDigest &Piece = D.Digest;
  std::vector<StrId> Names(D.P.Strings.size());
  std::vector<FuncId> Functions(D.P.numFunctions());
  StrId S = 0;
  FuncId F = 0;
  for (size_t I = 0, E = Piece.Segments.size(); I != E; ++I) {
    const PieceDigest::Segment &Seg = Piece.Segments[I];
    if (Seg.HasBody) {
      if (HaveCalleeObject || HaveCalleeFile || HaveCallee || HaveJumpFile ||
          HaveJumpFunction)
        return Fail("a callee named before header lines");
      // As parseSpec() does at the segment's first line.
      if (NewPartWanted || !Cur) {
        if (Error E = startPart()) {
          consumeError(std::move(E));
          return Fail("an error before the split");
        }
      }
      PartHasBody = true;
      const StrId Start[3] = {Object, File, SourceFile};
      // Names in the order the piece met them, so that new ones get the
      // ids skimming gives them.
      for (; S != Seg.EndString; ++S) {
        StringRef Name = D.P.Strings.str(S);
        if (!Name.empty() && Name[0] == '\0') {
          std::optional<StrId> Id = resolvePlaceholder(Name, Start);
          if (!Id)
            return Fail("an error before the split");
          Names[S] = *Id;
        } else if (Error E = intern(Name, Names[S])) {
          consumeError(std::move(E));
          return Fail("an error before the split");
        }
      }
      for (; F != Seg.EndFunction; ++F) {
        const Function &Fn = D.P.function(F);
        Functions[F] = P.getOrAddFunction(Names[Fn.Object], Names[Fn.File],
                                          Names[Fn.Name]);
      }
      for (const PieceDigest::Definition &Def : Piece.definitions(I)) {
        StrId Name = Names[Def.Name];
        if (Name > CompressedIds::MaxName ||
            idTable(Def.Table).define(Def.Id, Name) != Name)
          return Fail("an error before the split");
      }
      for (FuncId Fn : Piece.functions(I))
        HeadFunctions.insert(Functions[Fn]);
      Object = Names[Seg.Object];
      File = Names[Seg.File];
      SourceFile = Names[Seg.SourceFile];
    }
    for (uint32_t Line : Piece.headerLines(I))
      if (!skimLine(Piece.LineTexts[Line]))
        return false;
  }
  return true;
}
