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
#include "llvm/Support/Allocator.h"
#include <array>
#include <memory>
#include <vector>

namespace profkit {

/// Rows of a part's functions as a reader gathered them, not encoded into
/// their tables: merge copies a slice's rows once, so encoding them first
/// would only double the reader's work. A function's table holds its rows
/// either encoded or here, not both.
struct PlainRows {
  enum Kind : unsigned { Self, Calls, Jumps, NumKinds };
  /// One table's rows: NumRows rows, each its key (the table's key width)
  /// then ValueWidth values, in key order, each key once.
  struct Table {
    const uint64_t *Rows = nullptr;
    uint32_t NumRows = 0;
    uint32_t ValueWidth = 0;
  };
  /// By the function's index in the part's functions().
  std::vector<std::array<Table, NumKinds>> Tables;

  /// The table of the function at Index, empty if it has none here.
  Table table(size_t Index, Kind K) const {
    return Index < Tables.size() ? Tables[Index][K] : Table();
  }
  /// Keeps the rows of B, sorted and summed, as the table of the function
  /// at Index.
  void keep(size_t Index, Kind K, const RowBatch &B);
  /// Calls F with each row of T, as a RowTable's iterator gives it (without
  /// the zeros that end its values).
  template <typename Fn>
  static void forEachRow(Table T, unsigned KeyWidth, Fn F) {
    const uint64_t *R = T.Rows;
    for (uint32_t I = 0; I != T.NumRows; ++I, R += KeyWidth + T.ValueWidth) {
      size_t N = T.ValueWidth;
      while (N && !R[KeyWidth + N - 1])
        --N;
      F(Row{llvm::ArrayRef(R, KeyWidth), llvm::ArrayRef(R + KeyWidth, N)});
    }
  }
  /// Moves the rows of the function at Index into its table To, which has
  /// none; Scratch is a batch to use.
  [[nodiscard]] bool moveInto(size_t Index, Kind K, RowTable &To,
                              RowBatch &Scratch);
  /// Bytes held by the rows: those kept, and the slab they fill (in O(1):
  /// a reader asks at every function).
  size_t bytes() const {
    size_t Kept = Words.getBytesAllocated();
    return Kept ? Kept + SlabBytes : 0;
  }
  /// The rows are kept in slabs of this size, which the C library takes
  /// from its heap, not from mappings of their own: a slice's slabs, freed
  /// once merged, then serve the next slice without the kernel's page
  /// faults.
  static constexpr size_t SlabBytes = 64 * 1024;

private:
  llvm::BumpPtrAllocatorImpl<llvm::MallocAllocator, SlabBytes> Words;
};

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
    PlainRows Rows; // Rows of Data's functions not in their tables.
  };
  std::vector<PartPiece> Parts;
  /// The last slice: the profile, whose parts after those completed before
  /// hold the rest. Every other field is then empty.
  std::unique_ptr<Profile> Rest;
};

} // namespace profkit

#endif
