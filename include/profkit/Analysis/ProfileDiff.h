//===- ProfileDiff.h - What changed between two profiles --------*- C++ -*-===//
//
// Compares two profiles of any formats: events by name, functions by
// identity (object, file, name; paths normalised as merge does), each
// function's self and inclusive cost (the inclusive analysis's) in each, and
// their changes. profkit-diff writes it.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_ANALYSIS_PROFILEDIFF_H
#define PROFKIT_ANALYSIS_PROFILEDIFF_H

#include "profkit/IR/Profile.h"
#include "profkit/Support/PathNormalizer.h"
#include <cstdint>
#include <string>
#include <vector>

namespace profkit {

struct ProfileDiff {
  /// The events both profiles have, in the base profile's order.
  std::vector<std::string> Events;
  /// Events one profile has and the other lacks (left out).
  std::vector<std::string> OnlyInBase, OnlyInNew;
  std::vector<uint64_t> BaseTotals, NewTotals; // Per event of Events.

  struct Function {
    std::string Name, File, Object;
    /// Per event of Events; 0 where the function is not in that profile.
    std::vector<uint64_t> BaseSelf, NewSelf, BaseInclusive, NewInclusive;
    bool InBase = false, InNew = false;
  };
  /// Every function of either profile, in no particular order.
  std::vector<Function> Functions;

  /// Paths normalises file and object names before functions are matched
  /// (and they are shown normalised).
  static ProfileDiff compute(const Profile &Base, const Profile &New,
                             const PathNormalizer &Paths = {});
};

/// New - Base, saturated to the range of int64_t.
inline int64_t costDelta(uint64_t Base, uint64_t New) {
  if (New >= Base)
    return New - Base > uint64_t(INT64_MAX) ? INT64_MAX : int64_t(New - Base);
  return Base - New > uint64_t(INT64_MAX) ? INT64_MIN : -int64_t(Base - New);
}

} // namespace profkit

#endif
