//===- Saturating.h - The one rule for adding costs ------------*- C++ -*-===//
//
// Costs are unsigned 64-bit counters. Every sum of costs goes through
// addCost, every weighted cost through scaleCost: on overflow the sum saturates
// at 2^64-1 and the caller learns of it, to report it (never a silent wrap,
// never a silent clamp).
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_SUPPORT_SATURATING_H
#define PROFKIT_SUPPORT_SATURATING_H

#include "llvm/Support/MathExtras.h"
#include <cstdint>

namespace profkit {

/// Adds B to A, saturating. Returns false on overflow.
inline bool addCost(uint64_t &A, uint64_t B) {
  bool Overflowed = false;
  A = llvm::SaturatingAdd(A, B, &Overflowed);
  return !Overflowed;
}

/// Multiplies A by W (a weight), saturating. Returns false on overflow.
inline bool scaleCost(uint64_t &A, uint64_t W) {
  bool Overflowed = false;
  A = llvm::SaturatingMultiply(A, W, &Overflowed);
  return !Overflowed;
}

} // namespace profkit

#endif
