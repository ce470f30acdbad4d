//===- GmonReader.cpp - gprof gmon.out ------------------------------------===//
//
// Reads gmon.out as GNU gprof does: the GNU ("magic") format, version 0 or 1,
// with histogram, arc and basic-block records in any order and number; the
// 4.4BSD and old BSD layouts. Address size and byte order are not in the file:
// they come from the executable (ReadOptions::Binary), else they are inferred
// from the file and a note says what was assumed.
//
// The result is address-level data (Part::Histograms, Arcs, Blocks); the
// relocation (Transforms/Relocate.h) ties it to functions.
//
// Every count is checked against the bytes left before anything is
// allocated, so a hostile header cannot ask for a huge buffer.
//
//===----------------------------------------------------------------------===//

#include "profkit/Formats/Format.h"
#include "profkit/IR/Profile.h"
#include "profkit/Object/Executable.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/InputStream.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cmath>

using namespace profkit;
using namespace llvm;

static constexpr uint32_t BSD44Version = 0x00051879;
static constexpr size_t GnuHeaderSize = 20;

namespace {

enum class GmonKind { Gnu, BSD44, OldBSD };

/// Little helpers over the file's bytes in a given layout.
class Bytes {
public:
  Bytes(StringRef Data, AddressLayout L) : Data(Data), L(L) {}
  size_t size() const { return Data.size(); }
  bool has(size_t Pos, uint64_t N) const {
    return Pos <= Data.size() && Data.size() - Pos >= N;
  }
  uint16_t u16(size_t Pos) const { return read<uint16_t>(Pos); }
  uint32_t u32(size_t Pos) const { return read<uint32_t>(Pos); }
  uint64_t addr(size_t Pos) const {
    return L.Size == 4 ? read<uint32_t>(Pos) : read<uint64_t>(Pos);
  }
  uint8_t byte(size_t Pos) const { return uint8_t(Data[Pos]); }
  StringRef str(size_t Pos, size_t N) const { return Data.substr(Pos, N); }
  AddressLayout layout() const { return L; }

private:
  template <typename T> T read(size_t Pos) const {
    const char *P = Data.data() + Pos;
    return L.BigEndian ? support::endian::read<T, endianness::big>(P)
                       : support::endian::read<T, endianness::little>(P);
  }
  StringRef Data;
  AddressLayout L;
};

class GmonReader {
public:
  GmonReader(StringRef Name, StringRef Data, const ReadOptions &Opts)
      : Name(Name), Data(Data), Opts(Opts) {}
  Expected<std::unique_ptr<Profile>> read();

private:
  Error error(size_t Offset, const Twine &Msg) const {
    return createOffsetError(Name, Offset, ErrorCode::Malformed, Msg);
  }
  void note(const Twine &Msg) const { Opts.Note(Name + ": " + Msg); }

  /// Parses the whole file in layout L into Pt.
  Error parseGnu(const Bytes &B, Part &Pt);
  Error parseBSD(const Bytes &B, Part &Pt, bool Is44);
  Error addHistogram(Part &Pt, Histogram H, size_t Offset);

  /// Picks the layout when no executable was given.
  Expected<AddressLayout> inferGnu();
  Expected<std::pair<AddressLayout, bool>> inferBSD();

  StringRef Name, Data;
  const ReadOptions &Opts;
};

} // namespace

bool profkit::detectGmon(StringRef Head) {
  if (Head.starts_with("gmon"))
    return true;
  // The BSD layouts have no magic: look for the 4.4BSD version word, or an
  // old BSD header whose fields agree with each other.
  for (unsigned Size : {8u, 4u})
    for (bool Big : {false, true}) {
      Bytes B(Head, AddressLayout{Size, Big});
      size_t Hdr = 2 * Size + 4;
      if (!B.has(0, Hdr + 4))
        continue;
      if (B.u32(Hdr) == BSD44Version)
        return true;
      uint64_t Low = B.addr(0), High = B.addr(Size);
      uint32_t NCnt = B.u32(2 * Size);
      if (Low >= High || NCnt <= Hdr || (NCnt - Hdr) % 2 != 0 ||
          !Head.contains('\0'))
        continue;
      uint64_t NBins = (NCnt - Hdr) / 2;
      uint64_t Span = High - Low;
      // Real writers use between 1 and a few hundred bytes per bin.
      if (Span >= NBins && Span / NBins <= 1024 && Span < (uint64_t(1) << 40))
        return true;
    }
  return false;
}

Error GmonReader::addHistogram(Part &Pt, Histogram H, size_t Offset) {
  // u16 bins read from one file cannot overflow 64-bit sums.
  bool Saturated = false;
  if (Error E = profkit::addHistogram(Pt.makeAddresses().Histograms,
                                      std::move(H), Saturated))
    return error(Offset, toString(std::move(E)));
  return Error::success();
}

Error GmonReader::parseGnu(const Bytes &B, Part &Pt) {
  const unsigned A = B.layout().Size;
  uint32_t Version = B.u32(4);
  if (Version != 0 && Version != 1)
    return error(4, "unsupported version " + Twine(Version));
  size_t Pos = GnuHeaderSize;
  while (Pos < B.size()) {
    size_t Rec = Pos;
    uint8_t Tag = B.byte(Pos++);
    switch (Tag) {
    case 0: { // Histogram.
      size_t HdrSize = 2 * A + 24;
      if (!B.has(Pos, HdrSize))
        return error(Rec, "unexpected end of file in histogram header");
      Histogram H;
      H.LowPC = B.addr(Pos);
      H.HighPC = B.addr(Pos + A);
      uint32_t NBins = B.u32(Pos + 2 * A);
      H.Rate = B.u32(Pos + 2 * A + 4);
      H.Dimension = B.str(Pos + 2 * A + 8, 15).split('\0').first.str();
      H.Abbrev = char(B.byte(Pos + 2 * A + 23));
      Pos += HdrSize;
      if (H.LowPC > H.HighPC)
        return error(Rec, "histogram range is reversed (low_pc " +
                              Twine::utohexstr(H.LowPC) + " > high_pc " +
                              Twine::utohexstr(H.HighPC) + ")");
      if (!B.has(Pos, uint64_t(NBins) * 2))
        return error(Rec, "unexpected EOF after reading " +
                              Twine((B.size() - Pos) / 2) + " of " +
                              Twine(NBins) + " samples");
      H.Bins.resize(NBins);
      for (uint32_t I = 0; I != NBins; ++I, Pos += 2)
        H.Bins[I] = B.u16(Pos);
      if (Error E = addHistogram(Pt, std::move(H), Rec))
        return E;
      break;
    }
    case 1: { // Call-graph arc.
      if (!B.has(Pos, 2 * A + 4))
        return error(Rec, "unexpected end of file in arc record");
      Pt.makeAddresses().Arcs.push_back(
          {B.addr(Pos), B.addr(Pos + A), B.u32(Pos + 2 * A)});
      Pos += 2 * A + 4;
      break;
    }
    case 2: { // Basic-block counts.
      if (Version == 0)
        return error(Rec, "basic-block records of version 0 files (the "
                          "obsolete layout) are not supported");
      if (!B.has(Pos, 4))
        return error(Rec, "unexpected end of file in basic-block record");
      uint32_t N = B.u32(Pos);
      Pos += 4;
      if (!B.has(Pos, uint64_t(N) * 2 * A))
        return error(Rec, "unexpected end of file after " +
                              Twine((B.size() - Pos) / (2 * A)) + " of " +
                              Twine(N) + " basic-block counts");
      for (uint32_t I = 0; I != N; ++I, Pos += 2 * A)
        Pt.makeAddresses().Blocks.push_back({B.addr(Pos), B.addr(Pos + A)});
      break;
    }
    default:
      return error(Rec, "found bad tag " + Twine(unsigned(Tag)) +
                            " (file corrupted?)");
    }
  }
  return Error::success();
}

Error GmonReader::parseBSD(const Bytes &B, Part &Pt, bool Is44) {
  const unsigned A = B.layout().Size;
  const size_t Hdr = Is44 ? 2 * A + 24 : 2 * A + 4;
  if (!B.has(0, Hdr))
    return error(0, "file too short to be a gmon file");
  Histogram H;
  H.LowPC = B.addr(0);
  H.HighPC = B.addr(A);
  uint32_t NCnt = B.u32(2 * A);
  if (NCnt < Hdr || H.LowPC > H.HighPC)
    return error(0, "file does not appear to be in gmon.out format");
  if (Is44) {
    H.Rate = B.u32(2 * A + 8);
  } else {
    H.Rate = 100;
    note("old BSD gmon.out has no profiling rate; assuming 100 per second");
  }
  H.Dimension = "seconds";
  H.Abbrev = 's';
  uint64_t NBins = (NCnt - Hdr) / 2;
  size_t Pos = Hdr;
  if (!B.has(Pos, NBins * 2))
    return error(Pos, "unexpected EOF after reading " +
                          Twine((B.size() - Pos) / 2) + "/" + Twine(NBins) +
                          " bins");
  H.Bins.resize(NBins);
  for (uint64_t I = 0; I != NBins; ++I, Pos += 2)
    H.Bins[I] = B.u16(Pos);
  // The arcs follow the bins (an odd byte count leaves its last byte to
  // them, as in gprof).
  Pt.makeAddresses().Histograms.push_back(std::move(H));
  for (; B.has(Pos, 3 * A); Pos += 3 * A) {
    uint64_t Count = B.addr(Pos + 2 * A);
    Pt.makeAddresses().Arcs.push_back({B.addr(Pos), B.addr(Pos + A), Count});
  }
  if (Pos != B.size())
    Opts.Warn(Name + ": offset " + Twine(Pos) + ": ignoring " +
              Twine(B.size() - Pos) + " trailing bytes (a partial arc)");
  return Error::success();
}

Expected<AddressLayout> GmonReader::inferGnu() {
  Bytes LE(Data, AddressLayout{8, false}), BE(Data, AddressLayout{8, true});
  uint32_t VL = LE.u32(4), VB = BE.u32(4);
  bool Big;
  if (VL <= 1 && VB > 1)
    Big = false;
  else if (VB <= 1 && VL > 1)
    Big = true;
  else if (VL == 0) {
    Big = false;
    note("version 0 does not tell the byte order; assuming little-endian "
         "(give -binary=PROG to be sure)");
  } else
    return error(4, "unsupported version " + Twine(VL));
  // The address size: the one in which the whole file parses.
  Error First = Error::success();
  std::optional<AddressLayout> Found;
  unsigned Fits = 0;
  for (unsigned Size : {8u, 4u}) {
    Part Scratch;
    Bytes B(Data, AddressLayout{Size, Big});
    if (Error E = parseGnu(B, Scratch)) {
      if (Size == 8)
        First = std::move(E);
      else
        consumeError(std::move(E));
      continue;
    }
    ++Fits;
    if (!Found)
      Found = AddressLayout{Size, Big};
  }
  if (!Found)
    return std::move(First);
  consumeError(std::move(First));
  note(Twine("no -binary given; reading ") + Twine(Found->Size * 8) + "-bit " +
       (Big ? "big" : "little") + "-endian addresses" +
       (Fits > 1 ? " (the file also parses as 32-bit)" : ""));
  return *Found;
}

Expected<std::pair<AddressLayout, bool>> GmonReader::inferBSD() {
  // 4.4BSD: the version word says both the size and the byte order.
  for (unsigned Size : {8u, 4u})
    for (bool Big : {false, true}) {
      Bytes B(Data, AddressLayout{Size, Big});
      if (B.has(0, 2 * Size + 8) && B.u32(2 * Size + 4) == BSD44Version) {
        note(Twine("no -binary given; reading 4.4BSD with ") + Twine(Size * 8) +
             "-bit " + (Big ? "big" : "little") + "-endian addresses");
        return std::make_pair(AddressLayout{Size, Big}, true);
      }
    }
  // Old BSD: the first layout whose header agrees with the file's size.
  for (unsigned Size : {8u, 4u})
    for (bool Big : {false, true}) {
      Bytes B(Data, AddressLayout{Size, Big});
      size_t Hdr = 2 * Size + 4;
      if (!B.has(0, Hdr))
        continue;
      uint32_t NCnt = B.u32(2 * Size);
      if (B.addr(0) <= B.addr(Size) && NCnt >= Hdr && NCnt <= Data.size() &&
          (Data.size() - NCnt) % (3 * Size) == 0) {
        note(Twine("no -binary given; reading old BSD with ") +
             Twine(Size * 8) + "-bit " + (Big ? "big" : "little") +
             "-endian addresses");
        return std::make_pair(AddressLayout{Size, Big}, false);
      }
    }
  return error(0, "file does not appear to be in gmon.out format");
}

Expected<std::unique_ptr<Profile>> GmonReader::read() {
  auto Result = std::make_unique<Profile>();
  bool Gnu = Data.starts_with("gmon");
  if (Gnu && Data.size() < GnuHeaderSize)
    return error(0, "file too short to be a gmon file");

  std::optional<AddressLayout> Given;
  if (!Opts.Binary.empty()) {
    Expected<AddressLayout> L = readExecutableLayout(Opts.Binary);
    if (!L)
      return L.takeError();
    Given = *L;
  }

  Part &Pt = Result->addPart();
  if (Gnu) {
    AddressLayout L;
    if (Given) {
      L = *Given;
    } else {
      Expected<AddressLayout> Inferred = inferGnu();
      if (!Inferred)
        return Inferred.takeError();
      L = *Inferred;
    }
    if (Error E = parseGnu(Bytes(Data, L), Pt))
      return std::move(E);
    Pt.makeAddresses().AddressSize = L.Size;
    Pt.makeAddresses().BigEndian = L.BigEndian;
    Pt.Header.push_back({"creator", "gmon.out (GNU format, version " +
                                        std::to_string(Bytes(Data, L).u32(4)) +
                                        ")"});
    return std::move(Result);
  }

  AddressLayout L;
  bool Is44;
  if (Given) {
    L = *Given;
    Bytes B(Data, L);
    Is44 = B.has(0, 2 * L.Size + 8) && B.u32(2 * L.Size + 4) == BSD44Version;
  } else {
    auto Inferred = inferBSD();
    if (!Inferred)
      return Inferred.takeError();
    std::tie(L, Is44) = *Inferred;
  }
  if (Error E = parseBSD(Bytes(Data, L), Pt, Is44))
    return std::move(E);
  Pt.makeAddresses().AddressSize = L.Size;
  Pt.makeAddresses().BigEndian = L.BigEndian;
  Pt.Header.push_back({"creator", Is44 ? "gmon.out (4.4BSD format)"
                                       : "gmon.out (old BSD format)"});
  return std::move(Result);
}

Expected<std::unique_ptr<Profile>> profkit::readGmon(InputStream &In,
                                                     const ReadOptions &Opts) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = In.readAll();
  if (!Buf)
    return Buf.takeError();
  return GmonReader(In.name(), (*Buf)->getBuffer(), Opts).read();
}
