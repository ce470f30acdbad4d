//===- AddressData.h - Profile data by program address ----------*- C++ -*-===//
//
// What a part holds by address before it is tied to functions (gmon.out's
// histograms, call arcs and basic-block counts), and gprof's rules for
// combining such data of several records or runs (hist.c, call_graph.c,
// `gprof -s`), shared by the gmon.out reader and the merge pass. See
// docs/Gmon.md.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_IR_ADDRESSDATA_H
#define PROFKIT_IR_ADDRESSDATA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace profkit {

/// A PC-sample histogram over [LowPC, HighPC) (gmon.out), before relocation.
struct Histogram {
  uint64_t LowPC = 0, HighPC = 0;
  uint64_t Rate = 0;     // Samples per Dimension unit (profrate).
  std::string Dimension; // "seconds", ...
  char Abbrev = 's';
  std::vector<uint64_t> Bins;
};

/// A caller-to-callee arc by address (gmon.out), before relocation.
struct AddressArc {
  uint64_t FromPC, SelfPC, Count;
};

/// An execution count of the basic block at an address (gmon.out).
struct BlockCount {
  uint64_t Address, Count;
};

/// The address-level data of one part.
struct AddressData {
  std::vector<Histogram> Histograms;
  std::vector<AddressArc> Arcs;
  std::vector<BlockCount> Blocks;
  /// Address size in bytes (4 or 8) and byte order of the program the
  /// addresses belong to, when known (gmon.out, relocation); 0 if unknown.
  unsigned AddressSize = 0;
  bool BigEndian = false;

  /// Are there samples or arcs still to tie to functions?
  bool hasAddresses() const { return !Histograms.empty() || !Arcs.empty(); }
  bool empty() const { return !hasAddresses() && Blocks.empty(); }
};

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
