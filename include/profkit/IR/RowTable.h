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
// A key may stand in several rows until finalize(); as in the callgrind
// format, a repeated key means the sum of its rows. Adding a row whose key
// equals the last one sums into it, and memory grows with distinct keys, not
// with how often a key is repeated. Rows appended in
// increasing key order cost nothing extra. Profilers also list rows in
// several increasing runs, one per source file (callgrind sorts a function's
// rows by file, then address); runs whose values of the "run word" (the
// source file) are disjoint cannot share a key, so they are kept as they are.
// Only runs that overlap (Xdebug repeats a function's rows once per call) are
// merged, by a sort-and-sum compaction that runs whenever the stream has
// doubled since the last one, and in finalize() for consumers that need each
// key in one row.
//
// Readers add rows a function block at a time through a RowBatch: the block is
// sorted by merging its increasing runs, repeated keys are summed, and a block
// that continues the table in key order is encoded in one pass.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_IR_ROWTABLE_H
#define PROFKIT_IR_ROWTABLE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <cassert>
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

/// Rows gathered for one RowTable::addBatch(): a reader collects the rows of
/// a function block here, in a plain array, and the table takes them in one
/// step, sorted and with repeated keys summed. Adding rows one at a time to
/// a table costs far more: each is compared, encoded and checked against
/// the table's runs on its own. The batch is reused from block to block;
/// callers flush it when full() so that it stays small.
class RowBatch {
public:
  explicit RowBatch(unsigned KeyWidth = 0) : KeyWidth(KeyWidth) {}

  /// Only valid while the batch is empty.
  void setKeyWidth(unsigned W) {
    assert(empty() && "key width fixed while the batch has rows");
    KeyWidth = W;
    ValueWidth = 0;
  }
  unsigned keyWidth() const { return KeyWidth; }
  size_t size() const { return NumRows; }
  bool empty() const { return NumRows == 0; }
  /// Time to flush: the batch holds about half a megabyte.
  bool full() const { return Used >= (size_t(1) << 16); }
  /// Bytes held, for memory accounting.
  size_t bytes() const { return Words.capacity() * sizeof(uint64_t); }

  /// Makes room for a row with at least NumValues values and returns its
  /// words: KeyWidth key words for the caller to fill, then the values, all
  /// zero.
  uint64_t *appendRow(size_t NumValues) {
    if (NumValues > ValueWidth)
      widen(NumValues);
    size_t Stride = KeyWidth + ValueWidth, At = Used;
    if (At + Stride > Words.size())
      Words.resize(std::max(2 * Words.size(), At + Stride));
    Used += Stride;
    ++NumRows;
    return Words.data() + At;
  }
  /// Takes back the row appendRow() made last.
  void popRow() {
    Used -= KeyWidth + ValueWidth;
    std::fill(Words.begin() + Used, Words.begin() + Used + KeyWidth + ValueWidth,
              0);
    --NumRows;
  }
  void add(llvm::ArrayRef<uint64_t> Key, llvm::ArrayRef<uint64_t> Values) {
    assert(Key.size() == KeyWidth && "key of the wrong width");
    uint64_t *W = appendRow(Values.size());
    for (size_t I = 0; I != Key.size(); ++I)
      W[I] = Key[I];
    for (size_t I = 0; I != Values.size(); ++I)
      W[KeyWidth + I] = Values[I];
  }
  void clear() {
    std::fill(Words.begin(), Words.begin() + Used, 0);
    Used = 0;
    NumRows = 0;
  }

private:
  friend class RowTable;
  void widen(size_t NewValueWidth);
  const uint64_t *row(size_t I) const {
    return Words.data() + I * (KeyWidth + ValueWidth);
  }
  uint64_t *row(size_t I) { return Words.data() + I * (KeyWidth + ValueWidth); }
  /// Fills Order with the rows in key order, each key once (the values of a
  /// repeated key summed into its first row). Returns false if a sum
  /// overflowed; it then saturates.
  bool sortAndSum();

  // Rows of KeyWidth + ValueWidth words in the first Used words; the words
  // after them are zero, so a new row needs no clearing.
  llvm::SmallVector<uint64_t, 0> Words;
  size_t Used = 0;
  llvm::SmallVector<uint32_t, 0> Order, Scratch, RunStarts;
  llvm::SmallVector<uint8_t, 0> Encoded; // Scratch for RowTable::addBatch().
  size_t NumRows = 0;
  unsigned KeyWidth, ValueWidth = 0;
};

class RowTable {
public:
  /// RunWord is the key word whose values tend to separate runs.
  explicit RowTable(unsigned KeyWidth = 0, unsigned RunWord = 0)
      : KeyWidth(KeyWidth), RunWord(RunWord) {}
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
  /// Adds the rows of B, as add() would one by one, and clears B. Returns
  /// false if a sum overflowed 64 bits; the sum then saturates.
  [[nodiscard]] bool addBatch(RowBatch &B);

  /// Merges repeated keys, so every key is in one row. Rows are then in key
  /// order, or in runs that are each in key order. Returns false if a sum
  /// overflowed (and saturated).
  [[nodiscard]] bool finalize();
  /// Gives back the slack of the growing stream and the state only add()
  /// needs; a later add() rebuilds that state from the rows.
  void shrink();
  bool isFinalized() const { return !State || !State->Runs; }
  /// Are the rows in key order?
  bool isSorted() const { return Sorted; }

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
  /// The run-word values of each run, kept while rows arrive out of order.
  struct RunState {
    llvm::SmallVector<std::pair<uint64_t, uint32_t>, 8> Members; // value, run
    uint32_t NumRuns = 1;
    void note(uint64_t Value);
    bool overlap();
  };

  /// What add() needs beyond the rows; a profile holds many tables that are
  /// done growing, so this lives apart and shrink() frees it.
  struct BuildState {
    llvm::SmallVector<uint64_t, 4> LastKey; // Key of the last encoded row.
    uint32_t LastValuesOffset = 0;          // Where its values start.
    uint32_t BytesAfterCompaction = 0;
    std::unique_ptr<RunState> Runs; // Only while rows arrive out of order.
  };

  BuildState &build();
  void append(llvm::ArrayRef<uint64_t> Key, llvm::ArrayRef<uint64_t> Values);
  bool addToLastRow(llvm::ArrayRef<uint64_t> Values);
  void startRun();
  bool compact();

  llvm::SmallVector<uint8_t, 0> Data;
  std::unique_ptr<BuildState> State;
  uint32_t NumRows = 0;
  uint8_t KeyWidth;
  uint8_t RunWord;
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
