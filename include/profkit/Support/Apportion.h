//===- Apportion.h - Splitting an amount by weights, exactly ----*- C++ -*-===//
//
// Costs split over several rows (a callee's time over the calls into it, a
// hidden function's cost over its callers) must add up to what was split:
// a viewer that sums the parts would otherwise show less than the whole.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_SUPPORT_APPORTION_H
#define PROFKIT_SUPPORT_APPORTION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>

namespace profkit {

/// Splits Amount into parts proportional to Weights (all zero: equal parts)
/// by the largest-remainder rule: each part is its quota rounded down, and
/// the units left go to the largest remainders, earlier parts first among
/// equal ones. The parts add up to Amount exactly.
void apportion(uint64_t Amount, llvm::ArrayRef<uint64_t> Weights,
               llvm::SmallVectorImpl<uint64_t> &Parts);

} // namespace profkit

#endif
