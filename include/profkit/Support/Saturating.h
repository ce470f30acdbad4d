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

#include "llvm/Support/Compiler.h"
#include "llvm/Support/MathExtras.h"
#include <cstdint>

namespace profkit {

/// Adds B to A, saturating. Returns false on overflow.
inline bool addCost(uint64_t &A, uint64_t B) {
  // The carry flag, not llvm::SaturatingAdd's two comparisons and select:
  // readers add every cost they read (a third fewer instructions in the
  // running sums of a cost line).
  if (LLVM_LIKELY(!__builtin_add_overflow(A, B, &A)))
    return true;
  A = UINT64_MAX;
  return false;
}

/// Multiplies A by W (a weight), saturating. Returns false on overflow.
inline bool scaleCost(uint64_t &A, uint64_t W) {
  bool Overflowed = false;
  A = llvm::SaturatingMultiply(A, W, &Overflowed);
  return !Overflowed;
}

} // namespace profkit

#endif
