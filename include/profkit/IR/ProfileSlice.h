//===- ProfileSlice.h - A profile handed over as it is read ----*- C++ -*-===//
//
// A reader may hand a profile over in slices while it reads on
// (ReadOptions::Slice): each slice holds what the profile gained since the
// last one, the last holds the profile itself with the rest. Merge adds a
// later input's slices to the merged profile as they come, so that memory
// never holds that input whole.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_IR_PROFILESLICE_H
#define PROFKIT_IR_PROFILESLICE_H

#include "profkit/IR/Profile.h"
#include <memory>
#include <vector>

namespace profkit {

/// What a profile gained since the last slice. Its data is its own copy, so
/// that the reader can go on reading on another thread, or fail and free its
/// profile, while the slice is taken.
struct ProfileSlice {
  /// The profile's strings from id FirstString on, in id order, their text
  /// kept in Text.
  StrId FirstString = 0;
  std::vector<llvm::StringRef> Strings;
  llvm::BumpPtrAllocator Text;
  /// Its functions from id FirstFunction on, in id order.
  FuncId FirstFunction = 0;
  std::vector<Function> Functions;
  /// Every event so far, in column order, without long names (the last
  /// slice has those).
  std::vector<std::string> Events;
  /// The function data of parts, by the part's index in the profile, in
  /// order. A part may come in several slices; the slice that holds its end
  /// says so (Complete) and holds its header, summary, totals and address
  /// data too.
  struct PartPiece {
    size_t Index;
    bool Complete;
    std::unique_ptr<Part> Data;
  };
  std::vector<PartPiece> Parts;
  /// The last slice: the profile, whose parts after those completed before
  /// hold the rest. Every other field is then empty.
  std::unique_ptr<Profile> Rest;
};

} // namespace profkit

#endif
