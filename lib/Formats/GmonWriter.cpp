//===- GmonWriter.cpp - Writing gprof gmon.out ----------------------------===//
//
// Writes the address-level data of a profile (histograms, arcs, basic-block
// counts) as a gmon.out that GNU gprof reads: the GNU format by default, the
// 4.4BSD layout with gmon<format=bsd>. Addresses take the executable's size
// and byte order (WriteContext::Binary, else what the profile recorded).
//
// Counts never wrap. gprof sums histogram records with identical ranges and
// arcs with identical ends, so a bin over 65535 is carried by repeating its
// histogram record and an arc over 2^32-1 by repeating the arc. Where the
// format cannot repeat (4.4BSD has one histogram), the value is clamped and
// a warning says so.
//
// A profile with functions but no addresses (callgrind) must be relocated
// against the binary first (Transforms/Relocate.h), which fills the arcs.
//
//===----------------------------------------------------------------------===//

#include "profkit/Formats/Format.h"
#include "profkit/IR/Profile.h"
#include "profkit/Object/Executable.h"
#include "profkit/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace profkit;
using namespace llvm;

namespace {

class GmonWriter {
public:
  GmonWriter(const Profile &P, raw_ostream &OS, const WriteContext &Ctx,
             AddressLayout L)
      : P(P), OS(OS), Ctx(Ctx), L(L) {}
  Error write(bool BSD);

private:
  template <typename T> void put(T V) {
    char Buf[sizeof(T)];
    if (L.BigEndian)
      support::endian::write<T, endianness::big>(Buf, V);
    else
      support::endian::write<T, endianness::little>(Buf, V);
    OS.write(Buf, sizeof(T));
  }
  void putAddr(uint64_t V) {
    if (L.Size == 4)
      put<uint32_t>(uint32_t(V));
    else
      put<uint64_t>(V);
  }
  uint64_t addrMax() const { return L.Size == 4 ? UINT32_MAX : UINT64_MAX; }
  bool fits(uint64_t Addr) const { return Addr <= addrMax(); }
  void warn(const Twine &Msg) { Ctx.Warn("gmon output: " + Msg); }

  void collect();
  Error writeGnu();
  Error writeBSD();

  const Profile &P;
  raw_ostream &OS;
  const WriteContext &Ctx;
  AddressLayout L;

  std::vector<Histogram> Hists;
  std::vector<AddressArc> Arcs;
  std::vector<BlockCount> Blocks;
};

} // namespace

/// Gathers the address-level data of every part: histograms over the same
/// range are summed (as gprof sums them), arcs and blocks kept in order.
void GmonWriter::collect() {
  for (const auto &Pt : P.parts()) {
    for (const Histogram &H : Pt->addresses().Histograms) {
      auto Same = find_if(Hists, [&](const Histogram &O) {
        return O.LowPC == H.LowPC && O.HighPC == H.HighPC &&
               O.Bins.size() == H.Bins.size();
      });
      if (Same == Hists.end()) {
        Hists.push_back(H);
        continue;
      }
      for (size_t I = 0; I != H.Bins.size(); ++I)
        if (!addCost(Same->Bins[I], H.Bins[I]))
          warn("histogram bin sum overflows 64 bits; saturated");
    }
    Arcs.insert(Arcs.end(), Pt->addresses().Arcs.begin(),
                Pt->addresses().Arcs.end());
    Blocks.insert(Blocks.end(), Pt->addresses().Blocks.begin(),
                  Pt->addresses().Blocks.end());
  }
}

static void putName(raw_ostream &OS, StringRef S, size_t Width) {
  OS << S.take_front(Width);
  OS.write_zeros(Width - std::min(Width, S.size()));
}

Error GmonWriter::writeGnu() {
  OS << "gmon";
  put<uint32_t>(1);
  OS.write_zeros(12);

  for (const Histogram &H : Hists) {
    if (!fits(H.HighPC)) {
      warn("histogram " + Twine::utohexstr(H.LowPC) + "-" +
           Twine::utohexstr(H.HighPC) + " does not fit " + Twine(L.Size * 8) +
           "-bit addresses; dropped");
      continue;
    }
    if (H.Bins.size() > UINT32_MAX)
      return createStringError(make_error_code(ErrorCode::InvalidArgument),
                               "gmon output: a histogram has more than "
                               "2^32-1 bins");
    uint32_t Rate = uint32_t(std::min<uint64_t>(H.Rate, UINT32_MAX));
    if (Rate != H.Rate)
      warn("profiling rate " + Twine(H.Rate) +
           " does not fit 32 bits; "
           "written as " +
           Twine(Rate));
    if (H.Dimension.size() > 15)
      warn("dimension '" + H.Dimension + "' cut to 15 characters");
    // One record per 65535 of the largest bin; gprof sums them.
    uint64_t Max =
        H.Bins.empty() ? 0 : *std::max_element(H.Bins.begin(), H.Bins.end());
    uint64_t Records = std::max<uint64_t>(1, (Max + 0xfffe) / 0xffff);
    for (uint64_t R = 0; R != Records; ++R) {
      put<uint8_t>(0);
      putAddr(H.LowPC);
      putAddr(H.HighPC);
      put<uint32_t>(uint32_t(H.Bins.size()));
      put<uint32_t>(Rate);
      putName(OS, H.Dimension, 15);
      OS << H.Abbrev;
      for (uint64_t B : H.Bins) {
        uint64_t Done = R * 0xffff;
        put<uint16_t>(
            uint16_t(B > Done ? std::min<uint64_t>(B - Done, 0xffff) : 0));
      }
    }
  }

  for (const AddressArc &A : Arcs) {
    if (!fits(A.FromPC) || !fits(A.SelfPC)) {
      warn("arc " + Twine::utohexstr(A.FromPC) + " -> " +
           Twine::utohexstr(A.SelfPC) + " does not fit " + Twine(L.Size * 8) +
           "-bit addresses; dropped");
      continue;
    }
    // Split counts over 2^32-1 into several arcs; gprof sums them.
    uint64_t Left = A.Count;
    do {
      uint32_t C = uint32_t(std::min<uint64_t>(Left, UINT32_MAX));
      put<uint8_t>(1);
      putAddr(A.FromPC);
      putAddr(A.SelfPC);
      put<uint32_t>(C);
      Left -= C;
    } while (Left);
  }

  if (!Blocks.empty()) {
    // Counts are address-sized; larger ones repeat the block (gprof -l
    // sums the counts of a line).
    std::vector<BlockCount> Out;
    for (const BlockCount &B : Blocks) {
      if (!fits(B.Address))
        continue;
      uint64_t Left = B.Count;
      do {
        uint64_t C = std::min(Left, addrMax());
        Out.push_back({B.Address, C});
        Left -= C;
      } while (Left);
    }
    for (size_t I = 0; I < Out.size(); I += UINT32_MAX) {
      size_t N = std::min<size_t>(Out.size() - I, UINT32_MAX);
      put<uint8_t>(2);
      put<uint32_t>(uint32_t(N));
      for (size_t J = I; J != I + N; ++J) {
        putAddr(Out[J].Address);
        putAddr(Out[J].Count);
      }
    }
  }
  return Error::success();
}

Error GmonWriter::writeBSD() {
  if (Hists.size() > 1)
    return createStringError(
        make_error_code(ErrorCode::InvalidArgument),
        "gmon output: the 4.4BSD format holds one histogram, but the profile "
        "has %zu (with disjoint ranges); write the GNU format instead",
        Hists.size());
  if (!Blocks.empty())
    warn("the 4.4BSD format has no basic-block counts; " +
         Twine(Blocks.size()) + " dropped");
  Histogram Empty;
  Empty.Rate = 100;
  const Histogram &H = Hists.empty() ? Empty : Hists.front();
  if (H.Dimension != "seconds" && !Hists.empty())
    warn("the 4.4BSD format is always in seconds; dimension '" + H.Dimension +
         "' is lost");
  const uint64_t HdrSize = 2 * L.Size + 24;
  uint64_t NCnt = HdrSize + 2 * uint64_t(H.Bins.size());
  if (NCnt > UINT32_MAX || !fits(H.HighPC))
    return createStringError(make_error_code(ErrorCode::InvalidArgument),
                             "gmon output: the histogram is too large for "
                             "the 4.4BSD format");
  putAddr(H.LowPC);
  putAddr(H.HighPC);
  put<uint32_t>(uint32_t(NCnt));
  put<uint32_t>(0x00051879);
  put<uint32_t>(uint32_t(std::min<uint64_t>(H.Rate, UINT32_MAX)));
  OS.write_zeros(12);
  unsigned Clamped = 0;
  for (uint64_t B : H.Bins) {
    Clamped += B > 0xffff;
    put<uint16_t>(uint16_t(std::min<uint64_t>(B, 0xffff)));
  }
  if (Clamped)
    warn(Twine(Clamped) + " histogram bins over 65535 clamped (the 4.4BSD "
                          "format has one histogram record)");
  for (const AddressArc &A : Arcs) {
    if (!fits(A.FromPC) || !fits(A.SelfPC))
      continue;
    uint64_t Left = A.Count;
    do {
      uint64_t C = std::min(Left, addrMax());
      putAddr(A.FromPC);
      putAddr(A.SelfPC);
      putAddr(C);
      Left -= C;
    } while (Left);
  }
  return Error::success();
}

Error GmonWriter::write(bool BSD) {
  collect();
  bool HasFunctions = any_of(
      P.parts(), [](const auto &Pt) { return !Pt->functions().empty(); });
  if (Hists.empty() && Arcs.empty() && Blocks.empty() && HasFunctions)
    return createStringError(
        make_error_code(ErrorCode::InvalidArgument),
        "gmon output: the profile has no addresses; give -binary=PROG to "
        "relocate its functions against the program's symbol table");
  // Costs reach gmon.out only as histogram samples, which only gmon.out
  // input has; from other profiles only the call counts go.
  if (Hists.empty() && any_of(P.parts(), [](const auto &Pt) {
        return any_of(Pt->functions(),
                      [](const FunctionData &FD) { return !FD.Self.empty(); });
      })) {
    std::string Events;
    for (const EventType &E : P.events())
      Events += (Events.empty() ? "" : ", ") + E.Name;
    warn("the profile's costs (" + Events +
         ") have no PC-sample histogram and are dropped: gmon.out holds the "
         "call counts only, so gprof shows calls but no time");
  }
  return BSD ? writeBSD() : writeGnu();
}

Error profkit::writeGmon(const Profile &P, raw_ostream &OS,
                         const PassParams &Params, const WriteContext &Ctx) {
  StringRef Format = Params.get("format");
  if (Format != "gnu" && Format != "bsd")
    return Params.invalid("format", "expected gnu or bsd");
  warnDroppedData(P, "gmon", Ctx);
  AddressLayout L;
  bool Known = false;
  if (!Ctx.Binary.empty()) {
    Expected<AddressLayout> FromBinary = readExecutableLayout(Ctx.Binary);
    if (!FromBinary)
      return FromBinary.takeError();
    L = *FromBinary;
    Known = true;
  } else {
    for (const auto &Pt : P.parts())
      if (Pt->addresses().AddressSize) {
        L = AddressLayout{Pt->addresses().AddressSize,
                          Pt->addresses().BigEndian};
        Known = true;
        break;
      }
  }
  if (!Known)
    return createStringError(make_error_code(ErrorCode::InvalidArgument),
                             "gmon output: the address size and byte order "
                             "are unknown; give -binary=PROG");
  return GmonWriter(P, OS, Ctx, L).write(Format == "bsd");
}
