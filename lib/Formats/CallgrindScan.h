//===- CallgrindScan.h - Numbers and positions of callgrind -----*- C++ -*-===//
//
// Private to lib/Formats: the rules for the blanks, numbers and positions of
// callgrind lines, stated once for the two paths that read them. The general
// path (parsePosition(), parseCosts()) takes any blank and any number that
// fits 64 bits, and diagnoses the rest; the fast path (tryFastCostLine())
// takes the short numbers profilers write millions of times without an
// overflow check, and leaves the rest to the general path; in a file of
// many events it scans a line of many costs 64 bytes at a time
// (scanShortNumbers()). Both read positions with scanPosition(), so `*`,
// `+N`, `-N` and 0x hex mean the same on both.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_LIB_FORMATS_CALLGRINDSCAN_H
#define PROFKIT_LIB_FORMATS_CALLGRINDSCAN_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Compiler.h"
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace profkit::callgrind {

enum class Scan {
  Ok,
  Bad,
  TooLarge,
  /// A relative position leaves the 64-bit range.
  OutOfRange,
};

// '\r' counts as a blank: fuzzing (roundtrip) found names and event names
// ending in '\r' (before a tab), which a callgrind file cannot hold at the
// end of a line, where the '\r's are dropped.
inline bool isBlank(char C) { return C == ' ' || C == '\t' || C == '\r'; }

/// Does a line starting with C hold a position (and costs)?
inline bool startsCostLine(char C) {
  return (C >= '0' && C <= '9') || C == '+' || C == '-' || C == '*';
}

/// The length of a body line's key (`fn=...`: 2): lower-case letters, at
/// most 8, then '='. 0 for any other line.
inline size_t bodyKeyLength(llvm::StringRef Line) {
  size_t Eq = 0;
  while (Eq < Line.size() && Eq < 8 && llvm::isLower(Line[Eq]))
    ++Eq;
  return Eq < Line.size() && Line[Eq] == '=' ? Eq : 0;
}

/// Drops blanks at both ends (inline: StringRef::trim is out of line).
inline llvm::StringRef trim(llvm::StringRef S) {
  const char *B = S.begin(), *E = S.end();
  while (B != E && isBlank(*B))
    ++B;
  while (E != B && isBlank(E[-1]))
    --E;
  return llvm::StringRef(B, E - B);
}

inline const char *skipBlanks(const char *P, const char *E) {
  while (P != E && isBlank(*P))
    ++P;
  return P;
}

/// The token starting at P, for diagnostics.
inline llvm::StringRef tokenAt(const char *P, const char *E) {
  const char *T = P;
  while (T != E && !isBlank(*T))
    ++T;
  return llvm::StringRef(P, T - P);
}

/// Takes the next blank-separated token off the front of Line.
inline llvm::StringRef nextToken(llvm::StringRef &Line) {
  const char *P = skipBlanks(Line.begin(), Line.end());
  llvm::StringRef Tok = tokenAt(P, Line.end());
  Line = llvm::StringRef(Tok.end(), Line.end() - Tok.end());
  return Tok;
}

/// The value of hex digit C, or 16 and more if C is none.
LLVM_ATTRIBUTE_ALWAYS_INLINE unsigned hexDigit(char C) {
  unsigned D = unsigned(C - '0');
  if (D <= 9)
    return D;
  D = unsigned((C | 0x20) - 'a');
  return D <= 5 ? D + 10 : 16;
}

/// Does the 0x (or 0X) of a hex number start at P, before E?
inline bool startsHex(const char *P, const char *E) {
  return E - P > 2 && P[0] == '0' && (P[1] | 0x20) == 'x';
}

/// Scans a decimal or 0x-hex number starting at P, which must end at E or at
/// a blank.
inline Scan scanNumber(const char *&P, const char *E, uint64_t &Out) {
  uint64_t V = 0;
  const char *Digits;
  if (startsHex(P, E)) {
    P += 2;
    Digits = P;
    for (unsigned D; P != E && (D = hexDigit(*P)) < 16; ++P) {
      if (V >> 60)
        return Scan::TooLarge;
      V = V << 4 | D;
    }
  } else {
    Digits = P;
    for (; P != E && unsigned(*P - '0') < 10; ++P)
      if (__builtin_mul_overflow(V, 10, &V) ||
          __builtin_add_overflow(V, uint64_t(*P - '0'), &V))
        return Scan::TooLarge;
  }
  if (P == Digits || (P != E && !isBlank(*P)))
    return Scan::Bad;
  Out = V;
  return Scan::Ok;
}

/// Reads 1 to 18 decimal digits (so no overflow check is needed) at P, in a
/// line from InputStream::nextLine(): the byte after the line ends the
/// digits. Stops at the first byte that is not a digit.
LLVM_ATTRIBUTE_ALWAYS_INLINE bool scanDigits(const char *&P, uint64_t &Out) {
  const char *Start = P;
  uint64_t V = unsigned(*P - '0');
  if (V > 9)
    return false;
  ++P;
  for (unsigned D; (D = unsigned(*P - '0')) < 10; ++P)
    V = V * 10 + D; // Wraps past 19 digits, but those are refused below.
  Out = V;
  return P - Start <= 18;
}

/// Skips spaces and tabs; stops at the byte after the line ('\n' or '\r').
LLVM_ATTRIBUTE_ALWAYS_INLINE const char *skipSpaces(const char *P) {
  while (*P == ' ' || *P == '\t')
    ++P;
  return P;
}

/// The fast path's rules, for a line from InputStream::nextLine() (the byte
/// after it is '\n' or '\r', so scanners need not check for the end), or,
/// InPlace, for one parsed where it stands, whose end is its '\n' (which a
/// line ending in "\r\n" does not reach; E is then where the bytes a scan
/// may read ahead end, InputStream::wholeLineAhead()): a number is 1 to 18
/// decimal digits, an absolute position also 0x and 1 to 15 hex digits
/// (profilers write hex only there), so that none needs an overflow check;
/// tokens are separated by spaces and tabs, which a token takes with it, so
/// that the next starts where it stops. Anything else is Bad, and goes the
/// general way.
template <bool IsInPlace, bool IsWide = false> struct FastRulesOf {
  static constexpr bool InPlace = IsInPlace;
  /// InPlace, for rows of many events: a line of many costs is scanned by
  /// scanShortNumbers().
  static constexpr bool Wide = IsWide;
  /// Is P at the end of the line, E (InPlace its '\n')?
  LLVM_ATTRIBUTE_ALWAYS_INLINE static bool atEnd(const char *P, const char *E) {
    return InPlace ? *P == '\n' : P == E;
  }
  /// Ends a token at P: at the line's end, or at blanks, which it passes.
  LLVM_ATTRIBUTE_ALWAYS_INLINE static bool endToken(const char *&P,
                                                    const char *E) {
    if (LLVM_LIKELY(*P == ' ')) {
      // Mostly one space, then the next token.
      if (LLVM_LIKELY(static_cast<unsigned char>(*++P) > ' '))
        return true;
    } else if (*P != '\t') {
      return atEnd(P, E);
    }
    P = skipSpaces(P);
    return true;
  }
  /// A cost, count or relative position.
  LLVM_ATTRIBUTE_ALWAYS_INLINE static Scan number(const char *&P, const char *E,
                                                  uint64_t &Out) {
    if (!scanDigits(P, Out) || !endToken(P, E))
      return Scan::Bad;
    return Scan::Ok;
  }
  LLVM_ATTRIBUTE_ALWAYS_INLINE static Scan
  position(const char *&P, const char *E, uint64_t &Out) {
    if (P[0] != '0' || (P[1] | 0x20) != 'x')
      return number(P, E, Out);
    const char *Start = P + 2, *Q = Start;
    uint64_t V = 0;
    for (unsigned D; (D = hexDigit(*Q)) < 16; ++Q)
      V = V << 4 | D;
    if (Q == Start || Q - Start > 15 || !endToken(Q, E))
      return Scan::Bad;
    P = Q;
    Out = V;
    return Scan::Ok;
  }
};
using FastRules = FastRulesOf<false>;
using InPlaceRules = FastRulesOf<true>;
using WideInPlaceRules = FastRulesOf<true, true>;
/// Rows of this many events take WideInPlaceRules.
inline constexpr unsigned WideRowEvents = 4;

/// The general path's rules: every blank, decimal or 0x-hex numbers that
/// fit 64 bits everywhere.
struct GeneralRules {
  /// Ends a token at P: at the line's end E or at a blank, which stays.
  static bool endToken(const char *&P, const char *E) {
    return P == E || isBlank(*P);
  }
  static Scan number(const char *&P, const char *E, uint64_t &Out) {
    return scanNumber(P, E, Out);
  }
  static Scan position(const char *&P, const char *E, uint64_t &Out) {
    return scanNumber(P, E, Out);
  }
};

#if defined(__SSE2__)
/// Bytes that scanShortNumbers() reads from where it starts.
inline constexpr unsigned ShortNumbersReach = 72;

/// Which of the 16 bytes at P are decimal digits, blanks (space, tab) and
/// '\n', a bit each.
struct ByteClasses {
  uint64_t Digits, Blanks, Newlines;
};
LLVM_ATTRIBUTE_ALWAYS_INLINE ByteClasses classify16(const char *P) {
  __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(P));
  // Signed compares: bytes from 0x80 up are below '0'.
  __m128i Digit = _mm_and_si128(_mm_cmpgt_epi8(V, _mm_set1_epi8('0' - 1)),
                                _mm_cmplt_epi8(V, _mm_set1_epi8('9' + 1)));
  __m128i Blank = _mm_or_si128(_mm_cmpeq_epi8(V, _mm_set1_epi8(' ')),
                               _mm_cmpeq_epi8(V, _mm_set1_epi8('\t')));
  __m128i Newline = _mm_cmpeq_epi8(V, _mm_set1_epi8('\n'));
  return {uint16_t(_mm_movemask_epi8(Digit)),
          uint16_t(_mm_movemask_epi8(Blank)),
          uint16_t(_mm_movemask_epi8(Newline))};
}

/// The value of the Len (1 to 8) decimal digits at P, with 8 bytes readable
/// there: the bytes after the digits are shifted out, the digits combined in
/// pairs, fours and eights by three multiplications, with no branch on Len.
LLVM_ATTRIBUTE_ALWAYS_INLINE uint64_t eightDigits(const char *P, unsigned Len) {
  uint64_t X;
  std::memcpy(&X, P, 8);
  // Little-endian: the first digit is the lowest byte; the shift leaves
  // the digits in the high bytes, behind leading zeros.
  X = (X << (8 * (8 - Len))) & 0x0F0F0F0F0F0F0F0F;
  X = (X * 10 + (X >> 8)) & 0x00FF00FF00FF00FF;
  X = (X * 100 + (X >> 16)) & 0x0000FFFF0000FFFF;
  return (X * 10000 + (X >> 32)) & 0xFFFFFFFF;
}

/// Scans the numbers from P to the end of its line, with no branch on the
/// digits or the blanks: a line of a dozen counts of one to three digits
/// took half a dozen mispredicted branches read a byte at a time. The line
/// must be numbers of 1 to 8 decimal digits separated by blanks (and may end
/// in blanks) up to a '\n' 16 to 63 bytes from P, at most MaxNumbers of
/// them; ShortNumbersReach bytes must be readable at P. Calls Store(I,
/// Value) for the I-th number and returns the '\n', with Count set; returns
/// null for any other line, which the caller scans a byte at a time (a
/// number or two before the '\n', read so, cost less than classifying the
/// bytes).
template <typename StoreFn>
LLVM_ATTRIBUTE_ALWAYS_INLINE const char *
scanShortNumbers(const char *P, unsigned MaxNumbers, unsigned &Count,
                 StoreFn Store) {
  // A line that ends in its first 16 bytes, before any classifying.
  __m128i First = _mm_loadu_si128(reinterpret_cast<const __m128i *>(P));
  if (_mm_movemask_epi8(_mm_cmpeq_epi8(First, _mm_set1_epi8('\n'))))
    return nullptr;
  ByteClasses C = classify16(P);
  for (unsigned I = 1; I != 4; ++I) { // No branch on the line's length.
    ByteClasses More = classify16(P + 16 * I);
    C.Digits |= More.Digits << (16 * I);
    C.Blanks |= More.Blanks << (16 * I);
    C.Newlines |= More.Newlines << (16 * I);
  }
  if (!C.Newlines)
    return nullptr;
  unsigned Length = unsigned(__builtin_ctzll(C.Newlines));
  uint64_t Line = (uint64_t(1) << Length) - 1;
  uint64_t Digits = C.Digits & Line;
  if ((Digits | (C.Blanks & Line)) != Line)
    return nullptr;
  // Bits where a run of 2, 4, 8, then 9 digits ends: none may be 9 long.
  uint64_t Run = Digits & Digits << 1;
  Run &= Run << 2;
  Run &= Run << 4;
  if (Run & Digits << 8)
    return nullptr;
  uint64_t Starts = Digits & ~(Digits << 1), Ends = Digits & ~(Digits >> 1);
  unsigned I = 0;
  for (; Starts; ++I, Starts &= Starts - 1, Ends &= Ends - 1) {
    if (I == MaxNumbers)
      return nullptr;
    unsigned Start = unsigned(__builtin_ctzll(Starts));
    unsigned Len = unsigned(__builtin_ctzll(Ends)) - Start + 1;
    Store(I, eightDigits(P + Start, Len));
  }
  Count = I;
  return P + Length;
}
#endif

/// Scans the position at P (which is not E) as profilers write it: `*` (the
/// same as Last), `+N` or `-N` (relative to Last), a decimal or 0x-hex
/// number. Relative positions are relative to the last cost line's.
template <typename Rules>
LLVM_ATTRIBUTE_ALWAYS_INLINE Scan scanPosition(const char *&P, const char *E,
                                               uint64_t Last, uint64_t &Out) {
  char C = *P;
  if (C == '*') {
    if (!Rules::endToken(++P, E))
      return Scan::Bad;
    Out = Last;
    return Scan::Ok;
  }
  if (C == '+' || C == '-') {
    uint64_t Delta;
    Scan S = Rules::number(++P, E, Delta);
    if (S != Scan::Ok)
      return S;
    if (C == '+' ? __builtin_add_overflow(Last, Delta, &Out)
                 : __builtin_sub_overflow(Last, Delta, &Out))
      return Scan::OutOfRange;
    return Scan::Ok;
  }
  return Rules::position(P, E, Out);
}

} // namespace profkit::callgrind

#endif // PROFKIT_LIB_FORMATS_CALLGRINDSCAN_H
