//===- RowTable.h - Compact keyed cost rows --------------------*- C++ -*-===//
//
// A RowTable holds the rows of one kind (self costs, calls or jumps) of one
// function in one part. A row is a fixed-width key (source file, positions,
// callee, ...) and a variable-width vector of 64-bit values (costs, counts).
//
// Rows are stored as one contiguous byte stream: key words as zigzag varint
// deltas from the previous row, values as plain varints with trailing zeros
// dropped. Real profiles list positions in increasing order, so most words
// encode in one or two bytes and the table is smaller than the text it came
// from.
//
// Adding a row whose key equals an existing key sums the values; memory grows
// with distinct keys, not with how often a key is repeated. Rows appended in
// increasing key order cost nothing extra; out-of-order rows are merged by a
// sort-and-sum compaction that runs whenever the stream has doubled since the
// last one, and once more in finalize().
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_IR_ROWTABLE_H
#define PROFKIT_IR_ROWTABLE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <memory>
#include <vector>

namespace profkit {

/// A decoded row. The arrays point into the iterator and are valid until it
/// advances.
struct Row {
  llvm::ArrayRef<uint64_t> Key;
  llvm::ArrayRef<uint64_t> Values;
  uint64_t value(size_t I) const { return I < Values.size() ? Values[I] : 0; }
};

class RowTable {
public:
  explicit RowTable(unsigned KeyWidth = 0) : KeyWidth(KeyWidth) {}
  RowTable(RowTable &&) = default;
  RowTable &operator=(RowTable &&) = default;

  unsigned keyWidth() const { return KeyWidth; }
  size_t size() const { return NumRows; }
  bool empty() const { return NumRows == 0; }
  /// Bytes held by the encoded rows.
  size_t encodedBytes() const { return Data.capacity(); }

  /// Adds Values to the row with this key, creating it if needed. Returns
  /// false if a sum overflowed 64 bits; the sum then saturates.
  [[nodiscard]] bool add(llvm::ArrayRef<uint64_t> Key,
                         llvm::ArrayRef<uint64_t> Values);

  /// Merges out-of-order duplicates, so rows are unique and sorted by key.
  /// Returns false if a sum overflowed (and saturated).
  [[nodiscard]] bool finalize();
  bool isFinalized() const { return Sorted; }

  class iterator {
  public:
    iterator(const uint8_t *P, const uint8_t *E, unsigned KeyWidth);
    const Row &operator*() const { return Current; }
    const Row *operator->() const { return &Current; }
    iterator &operator++();
    bool operator==(const iterator &O) const { return Pos == O.Pos; }
    bool operator!=(const iterator &O) const { return Pos != O.Pos; }

  private:
    void decode();
    const uint8_t *Pos, *Next, *End;
    llvm::SmallVector<uint64_t, 8> KeyBuf;
    llvm::SmallVector<uint64_t, 16> ValueBuf;
    Row Current;
  };
  iterator begin() const;
  iterator end() const;

private:
  void append(llvm::ArrayRef<uint64_t> Key, llvm::ArrayRef<uint64_t> Values);
  bool addToLastRow(llvm::ArrayRef<uint64_t> Values);
  bool compact();

  std::vector<uint8_t> Data;
  std::unique_ptr<uint64_t[]> LastKey; // Key of the last encoded row.
  uint32_t NumRows = 0;
  size_t LastValuesOffset = 0; // Where the last row's values start.
  size_t BytesAfterCompaction = 0;
  uint8_t KeyWidth;
  bool Sorted = true; // Keys strictly increase along the stream.
};

/// Adds B to A, saturating. Returns false on overflow.
inline bool addCost(uint64_t &A, uint64_t B) {
  if (__builtin_add_overflow(A, B, &A)) {
    A = UINT64_MAX;
    return false;
  }
  return true;
}

} // namespace profkit

#endif
