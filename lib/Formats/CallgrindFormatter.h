//===- CallgrindFormatter.h - Formatting callgrind text ---------*- C++ -*-===//
//
// Private to lib/Formats: the text of the callgrind writer
// (CallgrindWriter.cpp), which CallgrindFormatter.cpp formats: a buffer,
// numbers, the ids of compressed names, and the lines of a part's
// functions.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_LIB_FORMATS_CALLGRINDFORMATTER_H
#define PROFKIT_LIB_FORMATS_CALLGRINDFORMATTER_H

#include "profkit/IR/PassParams.h"
#include "profkit/IR/Profile.h"
#include "profkit/Support/TouchedList.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemAlloc.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

namespace profkit::callgrindwriter {

using llvm::StringRef;

/// Text being formatted. With a Drain, the buffer goes to that stream
/// whenever it holds 256 KB (writes of that size cost no more than larger
/// ones, and a larger buffer stood out in the peak memory of writing a
/// profile read at 0.6 times its size); without, it grows.
class TextBuffer {
public:
  explicit TextBuffer(llvm::raw_ostream *Drain = nullptr) : Drain(Drain) {}
  TextBuffer(const TextBuffer &) = delete;
  TextBuffer &operator=(const TextBuffer &) = delete;
  ~TextBuffer() { free(Begin); }

  /// Makes room for N more characters at Cur.
  void reserve(size_t N) {
    if (LLVM_UNLIKELY(size_t(End - Cur) < N))
      grow(N);
  }
  void append(StringRef S) {
    reserve(S.size());
    if (!S.empty())
      memcpy(Cur, S.data(), S.size());
    Cur += S.size();
  }
  void put(char C) {
    reserve(1);
    *Cur++ = C;
  }
  void flush() {
    if (Drain && Cur != Begin)
      Drain->write(Begin, Cur - Begin);
    Cur = Begin;
  }
  void clear() { Cur = Begin; }
  size_t size() const { return Cur - Begin; }
  const char *data() const { return Begin; }

  char *Cur = nullptr;

private:
  static constexpr size_t DrainSize = size_t(256) << 10;
  void grow(size_t N) {
    if (Drain && size_t(End - Begin) >= DrainSize) {
      flush();
      if (size_t(End - Cur) >= N)
        return;
    }
    size_t Used = Cur - Begin;
    size_t Cap = std::max({2 * size_t(End - Begin), Used + N, size_t(4096)});
    Begin = static_cast<char *>(llvm::safe_realloc(Begin, Cap));
    Cur = Begin + Used;
    End = Begin + Cap;
  }

  char *Begin = nullptr, *End = nullptr;
  llvm::raw_ostream *Drain;
};

/// Digit pairs: most numbers have several digits.
inline const char Pairs[] = "00010203040506070809101112131415161718192021"
                            "22232425262728293031323334353637383940414243"
                            "44454647484950515253545556575859606162636465"
                            "66676869707172737475767778798081828384858687"
                            "888990919293949596979899";

/// The digits of 0 to 999, left-aligned in four bytes each, their count in
/// the last byte (which, copied, the next character overwrites).
struct SmallDecimals {
  char Digits[1000][4] = {};
  constexpr SmallDecimals() {
    for (unsigned V = 0; V != 1000; ++V) {
      unsigned Len = 1 + (V >= 10) + (V >= 100), X = V;
      for (unsigned I = Len; I--; X /= 10)
        Digits[V][I] = char('0' + X % 10);
      Digits[V][3] = char(Len);
    }
  }
};
inline constexpr SmallDecimals DigitsBelow1000;

/// Writes V in decimal at Out; returns the end. It may write up to 20
/// bytes, past the end too.
inline char *formatDecimal(char *Out, uint64_t V) {
  // Most counts: a copy of four bytes and no branch on their length, which
  // in a row of counts is as good as random.
  if (LLVM_LIKELY(V < 1000)) {
    memcpy(Out, DigitsBelow1000.Digits[V], 4);
    return Out + DigitsBelow1000.Digits[V][3];
  }
  static constexpr uint64_t Pow10[] = {1,
                                       10,
                                       100,
                                       1000,
                                       10000,
                                       100000,
                                       1000000,
                                       10000000,
                                       100000000,
                                       1000000000,
                                       10000000000,
                                       100000000000,
                                       1000000000000,
                                       10000000000000,
                                       100000000000000,
                                       1000000000000000,
                                       10000000000000000,
                                       100000000000000000,
                                       1000000000000000000,
                                       10000000000000000000u};
  // floor(log10(V)) from floor(log2(V)), corrected by one comparison.
  unsigned T = (64 - __builtin_clzll(V)) * 1233 >> 12;
  unsigned Len = T + (V >= Pow10[T]);
  char *End = Out + Len;
  char *P = End;
  while (V > UINT32_MAX) {
    unsigned R = unsigned(V % 100) * 2;
    V /= 100;
    P -= 2;
    memcpy(P, Pairs + R, 2);
  }
  // Costs mostly fit in 32 bits, where dividing by 100 is cheaper.
  uint32_t W = uint32_t(V);
  while (W >= 100) {
    unsigned R = W % 100 * 2;
    W /= 100;
    P -= 2;
    memcpy(P, Pairs + R, 2);
  }
  if (W >= 10)
    memcpy(P - 2, Pairs + 2 * W, 2);
  else
    P[-1] = char('0' + W);
  return End;
}

/// Writes V as 0x and lower-case hex digits at Out (at most 18 characters).
inline char *formatHex(char *Out, uint64_t V) {
  *Out++ = '0';
  *Out++ = 'x';
  unsigned Len = (64 - __builtin_clzll(V | 1) + 3) / 4;
  char *End = Out + Len;
  do {
    *--End = "0123456789abcdef"[V & 15];
    V >>= 4;
  } while (V);
  return Out + Len;
}

/// callgrind's three id tables: objects, files, functions. Object and file
/// ids stand for names (StrId); a function id stands for a function identity
/// (FuncId: object, file and name), as valgrind gives them out: KCachegrind
/// binds an id to the first function it names and takes every later use of
/// the id for that function, so one id per name string would merge the
/// `(below main)` of a program with libc's.
enum IdTable : uint8_t { ObjectIds, FileIds, FunctionIds };

/// The ids of a part, by table and entry (StrId or FuncId); 0 is none yet.
class IdTables {
public:
  explicit IdTables(const Profile &P) {
    Ids[ObjectIds].assign(P.Strings.size(), 0);
    Ids[FileIds].assign(P.Strings.size(), 0);
    Ids[FunctionIds].assign(P.numFunctions(), 0);
  }
  /// The id of Entry; 0 if it has none yet.
  unsigned find(IdTable T, uint32_t Entry) const { return Ids[T][Entry]; }
  /// Gives Entry, which has none, the next id.
  unsigned assign(IdTable T, uint32_t Entry) {
    Used[T].note(Entry);
    return Ids[T][Entry] = ++Given[T];
  }
  /// Forgets every id (a new part), in time proportional to those given
  /// out (a cachegrind file's one part names a million functions).
  void clear() {
    for (unsigned T = 0; T != 3; ++T) {
      std::vector<uint32_t> &Table = Ids[T];
      Used[T].empty([&](uint32_t Entry) { Table[Entry] = 0; },
                    [&] { std::fill(Table.begin(), Table.end(), 0); });
      Given[T] = 0;
    }
  }

private:
  std::vector<uint32_t> Ids[3];
  TouchedList Used[3];
  uint32_t Given[3] = {};
};

/// Writes `(id)`, or `(id) name` at the first use, after a `key=`; nothing
/// for an empty name, which has no compressed form (`(1)` would be a
/// reference). The name is looked up at its first use only: its entry and
/// bytes are cache misses (half of writing a name, reading and writing
/// (a)), where its id is one small table's.
void writeId(TextBuffer &Out, IdTables &Ids, const Profile &P, IdTable T,
             uint32_t Entry);

/// A name of a slice formatted ahead: its `(id)` or `(id) name` goes at
/// Offset once the slices before it have given out their ids.
struct NameRef {
  size_t Offset;
  uint32_t Entry;
  IdTable Table;
};

/// Formats the functions of a part. Names get their ids right away (Ids), or
/// are left as NameRefs for the stitching of slices formatted in parallel.
class Formatter {
public:
  Formatter(const Profile &P, const Part &Pt, const PassParams &Params,
            TextBuffer &Out, IdTables *Ids, std::vector<NameRef> *Refs,
            std::vector<uint64_t> *Sum)
      : P(P), Out(Out), Ids(Ids), Refs(Refs), Sum(Sum),
        NP(Pt.positions().size()),
        CompressNames(Params.getFlag("compress-names")),
        // Without compression, LastPos stays zero: every position absolute.
        NewPos(Params.getFlag("compress-positions") ? LastPos : Discard),
        LineIdx(Pt.positionIndex(PositionKind::Line)) {
    for (unsigned I = 0; I != NP; ++I)
      if (isAddressKind(Pt.positions()[I]))
        HexMask |= 1u << I;
  }

  /// The object and file lines in effect before the first function: those
  /// of the function before it, or none at the start of a part.
  void startAfter(const Function *Prev) {
    CurObject = Prev ? Prev->Object : 0;
    CurFile = CurSource = Prev ? Prev->File : 0;
  }
  void function(const FunctionData &FD);

  /// Set if a sum of Sum overflowed.
  bool Overflow = false;

private:
  /// The positions of the rows as the templates below take them (K): Count
  /// of them when it is a common one (1 to 3), so that their loops unroll,
  /// else 0; Hex the mask of those written in hex when it is a common one,
  /// so that each is formatted without a test, else -1.
  template <unsigned CountV, int HexV = -1> struct Shape {
    static constexpr unsigned Count = CountV;
    static constexpr int Hex = HexV;
  };
  template <typename K> unsigned np() const { return K::Count ? K::Count : NP; }
  template <typename K> bool hex(unsigned I) const {
    return (K::Hex < 0 ? HexMask : unsigned(K::Hex)) >> I & 1;
  }
  template <typename K>
  char *formatPosition(char *O, const uint64_t *Pos, uint64_t *Update);
  template <typename K> char *formatCallSite(char *O, const uint64_t *Pos);
  template <typename K> bool before(const Row &A, const Row &B) const;
  template <typename K> void rows(const FunctionData &FD, const Function &F);
  static constexpr size_t NoLeadingRow = ~size_t(0);
  size_t leadingSelfRow(const FunctionData &FD, StrId OwnFile,
                        const Row *FirstRow);
  template <typename K> void selfRow(const Row &R, StrId FunctionFile);
  template <typename K> void callRow(const Row &R, const Function &F);
  template <typename K>
  void jumpRow(const Row &R, const FunctionData &FD, StrId FunctionFile);
  void name(StringRef Key, uint32_t Entry, IdTable T);
  void switchSourceFile(StrId File, StrId FunctionFile) {
    if (LLVM_LIKELY(File == CurSource))
      return;
    name(File == FunctionFile ? "fe=" : "fi=", File, FileIds);
    CurSource = File;
  }

  const Profile &P;
  TextBuffer &Out;
  IdTables *Ids;
  std::vector<NameRef> *Refs;
  std::vector<uint64_t> *Sum; // Totals to sum self costs into, if any.
  unsigned NP;                // Positions per key.
  unsigned HexMask = 0;       // Positions written in hex.
  bool CompressNames;
  StrId CurObject = 0, CurFile = 0, CurSource = 0;
  uint64_t LastPos[RowTable::MaxKeyWidth] = {};
  uint64_t Discard[RowTable::MaxKeyWidth];
  uint64_t *NewPos; // Where a cost line's position goes: LastPos or Discard.
  std::optional<unsigned> LineIdx;
  llvm::SmallVector<uint64_t, 8> LeadKey, LeadValues;
};

} // namespace profkit::callgrindwriter

#endif // PROFKIT_LIB_FORMATS_CALLGRINDFORMATTER_H
