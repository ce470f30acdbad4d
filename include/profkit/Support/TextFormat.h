//===- TextFormat.h - Numbers and fields for reports ------------*- C++ -*-===//
//
// What the reports people read share: numbers with their thousands grouped,
// and CSV fields quoted as RFC 4180 says.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_SUPPORT_TEXTFORMAT_H
#define PROFKIT_SUPPORT_TEXTFORMAT_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <string>

namespace profkit {

/// 1234567 as "1,234,567".
inline std::string groupThousands(uint64_t N) {
  std::string Digits = llvm::utostr(N), Out;
  for (size_t I = 0; I != Digits.size(); ++I) {
    if (I && (Digits.size() - I) % 3 == 0)
      Out += ',';
    Out += Digits[I];
  }
  return Out;
}

/// S as a CSV field: quoted, with quotes doubled, if it holds a comma, a
/// quote or a line break.
inline void writeCsvField(llvm::raw_ostream &OS, llvm::StringRef S) {
  if (S.find_first_of(",\"\r\n") == llvm::StringRef::npos) {
    OS << S;
    return;
  }
  OS << '"';
  for (char C : S)
    OS << (C == '"' ? llvm::StringRef("\"\"") : llvm::StringRef(&C, 1));
  OS << '"';
}

} // namespace profkit

#endif
