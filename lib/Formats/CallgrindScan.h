//===- CallgrindScan.h - Numbers and positions of callgrind -----*- C++ -*-===//
//
// Private to lib/Formats: the rules for the blanks, numbers and positions of
// callgrind lines, stated once for the two paths that read them. The general
// path (parsePosition(), parseCosts()) takes any blank and any number that
// fits 64 bits, and diagnoses the rest; the fast path (tryFastCostLine())
// takes the short numbers profilers write millions of times without an
// overflow check, and leaves the rest to the general path. Both read
// positions with scanPosition(), so `*`, `+N`, `-N` and 0x hex mean the same
// on both.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_LIB_FORMATS_CALLGRINDSCAN_H
#define PROFKIT_LIB_FORMATS_CALLGRINDSCAN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Compiler.h"
#include <cstdint>

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
/// line ending in "\r\n" does not reach): a number is 1 to 18 decimal
/// digits, an absolute position also 0x and 1 to 15 hex digits (profilers
/// write hex only there), so that none needs an overflow check; tokens are
/// separated by spaces and tabs, which a token takes with it, so that the
/// next starts where it stops. Anything else is Bad, and goes the general
/// way.
template <bool IsInPlace> struct FastRulesOf {
  static constexpr bool InPlace = IsInPlace;
  /// Is P at the end of the line, E (unused InPlace)?
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
