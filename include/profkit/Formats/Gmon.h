//===- Gmon.h - gprof gmon.out helpers -------------------------*- C++ -*-===//
//
// What the gmon.out reader, writer, the relocation and the merge pass share:
// the address size and byte order of an executable (gmon.out stores neither;
// both come from the program the file was written for), and gprof's rules
// for combining the address-level data of several records or runs. See
// docs/Gmon.md.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_FORMATS_GMON_H
#define PROFKIT_FORMATS_GMON_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <vector>

namespace profkit {
struct Histogram;
struct AddressArc;
struct BlockCount;

/// How a program stores addresses.
struct AddressLayout {
  unsigned Size = 8; // Bytes: 4 or 8.
  bool BigEndian = false;
};

/// The address layout of the ELF executable at Path, from its identification
/// bytes. Fails with "PATH: not in executable format" (gprof's wording) for
/// anything that is not ELF.
llvm::Expected<AddressLayout> readExecutableLayout(llvm::StringRef Path);

/// Adds H to Hists as gprof combines several histogram records (hist.c, and
/// `gprof -s` over several files): dimension, abbreviation and scale must
/// match the first histogram; a histogram with an identical range is summed
/// bin by bin; a partial overlap is refused; disjoint ranges stay separate.
/// Fails with gprof's message (without file or offset). Sets Saturated if a
/// bin sum overflowed 64 bits.
llvm::Error addHistogram(std::vector<Histogram> &Hists, Histogram H,
                         bool &Saturated);

/// Appends From to To, summing arcs with identical ends (gprof sums them).
/// Returns false if a count saturated.
[[nodiscard]] bool addArcs(std::vector<AddressArc> &To,
                           llvm::ArrayRef<AddressArc> From);

/// Appends From to To, summing the counts of equal addresses. Returns false
/// if a count saturated.
[[nodiscard]] bool addBlocks(std::vector<BlockCount> &To,
                             llvm::ArrayRef<BlockCount> From);

} // namespace profkit

#endif
