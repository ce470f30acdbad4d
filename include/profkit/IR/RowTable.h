//===- RowTable.h - Compact keyed cost rows --------------------*- C++ -*-===//
//
// A RowTable holds the rows of one kind (self costs, calls or jumps) of one
// function in one part. A row is a fixed-width key (source file, positions,
// callee, ...) and a variable-width vector of 64-bit values (costs, counts).
//
// Rows are stored as one contiguous byte stream: a header of a mask of the
// key words that changed since the previous row and the number of values,
// those words as zigzag varint deltas, then the values as plain varints with
// trailing zeros dropped, or none if the header says that they are the
// previous row's. Real profiles list positions in increasing order, so most
// words encode in one or two bytes, unchanged ones in none, the value count
// in the header's spare bits; the instructions of a basic block have the
// same costs; and the table is smaller than the text it came from.
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
// key in one row. Once runs have overlapped, finalize() merges every run
// added since the last finalize(), so that the order of the rows does not
// depend on when a compaction ran.
//
// Readers add rows a function block at a time through a RowBatch: the block is
// sorted (each row placed into the rows before it, or, for blocks far out of
// order, by merging its increasing runs), repeated keys are summed, and a
// block that continues the table in key order is encoded in one pass.
// Merge adds each input's rows of a function as a block too, to a table it
// finalizes: a block that finalize() would merge with the rows there is
// merged at once, in one pass over both, while the table is not much bigger
// than the block; the table then keeps key order until finalize().
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_IR_ROWTABLE_H
#define PROFKIT_IR_ROWTABLE_H

#include "profkit/Support/Memory.h"
#include "profkit/Support/Saturating.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
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

  /// Only valid while the batch is empty. The same width keeps the value
  /// width: a reader sets it at every function, and widening again for the
  /// first row of each was a call a function (a cachegrind file's names one
  /// in two lines). Tables drop the trailing zeros of wider rows.
  void setKeyWidth(unsigned W) {
    assert(empty() && "key width fixed while the batch has rows");
    if (W == KeyWidth)
      return;
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
    uint64_t *Row = appendRowUninitialized(NumValues);
    std::fill(Row + KeyWidth, Row + KeyWidth + NumValues, 0);
    return Row;
  }
  /// As appendRow(), but the caller writes all NumValues values too (the
  /// values past them, of wider rows before, are zero).
  uint64_t *appendRowUninitialized(size_t NumValues) {
    if (NumValues > ValueWidth)
      widen(NumValues);
    size_t Stride = KeyWidth + ValueWidth, At = Used;
    if (At + Stride > Words.size())
      Words.resize_for_overwrite(std::max(2 * Words.size(), At + Stride));
    Used += Stride;
    ++NumRows;
    uint64_t *Row = Words.data() + At;
    for (size_t I = KeyWidth + NumValues; I < Stride; ++I)
      Row[I] = 0;
    return Row;
  }
  /// Takes back the row appendRow() made last.
  void popRow() {
    Used -= KeyWidth + ValueWidth;
    --NumRows;
  }
  void add(llvm::ArrayRef<uint64_t> Key, llvm::ArrayRef<uint64_t> Values) {
    assert(Key.size() == KeyWidth && "key of the wrong width");
    uint64_t *W = appendRowUninitialized(Values.size());
    for (size_t I = 0; I != Key.size(); ++I)
      W[I] = Key[I];
    for (size_t I = 0; I != Values.size(); ++I)
      W[KeyWidth + I] = Values[I];
  }
  void clear() {
    Used = 0;
    NumRows = 0;
  }

  /// Fills order() with the rows in key order, each key once (the values of
  /// a repeated key summed into its first row). Returns false if a sum
  /// overflowed; it then saturates.
  bool sortAndSum();
  /// The rows in key order, after sortAndSum().
  llvm::ArrayRef<uint32_t> order() const { return Order; }
  /// Row I (in the order added): its key, then valueWidth() values.
  const uint64_t *row(size_t I) const {
    return Words.data() + I * (KeyWidth + ValueWidth);
  }
  unsigned valueWidth() const { return ValueWidth; }

private:
  friend class RowTable;
  void widen(size_t NewValueWidth);
  /// Batches of at most this many rows sort by insertion: a function's
  /// block, a dozen lines that loops and inlined code put out of order, or
  /// a few dozen instructions (2,016 moves at most).
  static constexpr uint32_t MaxInsertionSorted = 64;
  /// sortAndSum() of a small batch whose first Sorted rows rise.
  bool insertionSort(uint32_t Sorted);
  /// Adds row From's values to row To's; false if one overflowed.
  bool sumInto(uint32_t To, uint32_t From);
  uint64_t *row(size_t I) { return Words.data() + I * (KeyWidth + ValueWidth); }

  // Rows of KeyWidth + ValueWidth words in the first Used words.
  llvm::SmallVector<uint64_t, 0> Words;
  size_t Used = 0;
  llvm::SmallVector<uint32_t, 0> Order, Scratch, RunStarts;
  llvm::SmallVector<uint8_t, 0> Encoded; // Scratch for RowTable::addBatch().
  size_t NumRows = 0;
  unsigned KeyWidth, ValueWidth = 0;
};

// The row stream's encoding: private to the row store (RowTable, RowBatch,
// RowBatchLog); inline here only because the iterator decodes inline.
namespace detail {

/// Reads a varint of the encoded row stream and advances P.
inline uint64_t readVarint(const uint8_t *&P) {
  if (LLVM_LIKELY(*P < 0x80)) // Most words are deltas or counts below 128.
    return *P++;
  if (P[1] < 0x80) { // Most of the rest: a cachegrind row's counts.
    uint64_t V = (P[0] & 0x7f) | uint64_t(P[1]) << 7;
    P += 2;
    return V;
  }
  uint64_t V = 0;
  for (unsigned Shift = 0;; Shift += 7) {
    uint8_t B = *P++;
    V |= uint64_t(B & 0x7f) << Shift;
    if (!(B & 0x80))
      return V;
  }
}

/// Appends V to Out as a varint; Out must have 10 bytes of room.
LLVM_ATTRIBUTE_ALWAYS_INLINE uint8_t *writeVarint(uint8_t *Out, uint64_t V) {
  // One byte or two without a branch between them: in a row of counts
  // which a value takes is as good as random, and a mispredicted branch
  // costs more than writing the second byte always.
  if (LLVM_LIKELY(V < 0x4000)) {
    unsigned Two = V >= 0x80;
    Out[0] = uint8_t(V) | uint8_t(Two << 7);
    Out[1] = uint8_t(V >> 7);
    return Out + 1 + Two;
  }
  do {
    *Out++ = uint8_t(V) | 0x80;
    V >>= 7;
  } while (V >= 0x80);
  *Out++ = uint8_t(V);
  return Out;
}

/// A row's header: a bit for each key word that changed (one byte, two for
/// keys over 8 words), the number of values in the bits left. A count that
/// does not fit there (all ones: Escape) follows the key's words as a
/// varint; so does every count of a key of 8 or 16 words. Where the bits
/// left are two or more, the value one below all ones (Same) says that the
/// row's values are the previous row's, and no values follow: the
/// instructions of a basic block run as often as each other.
struct RowHeader {
  explicit RowHeader(unsigned KeyWidth)
      : KeyWidth(KeyWidth), Bytes(KeyWidth > 8 ? 2 : 1),
        KeyBits((1u << KeyWidth) - 1),
        Escape((1u << (8 * Bytes - KeyWidth)) - 1),
        Same(Escape >= 3 ? Escape - 1 : Escape) {}
  unsigned KeyWidth, Bytes, KeyBits, Escape;
  /// Same, where there is room for it; else Escape (no row is Same).
  unsigned Same;
};

/// decodeRowHead() of a row whose values are the previous row's.
constexpr size_t SameValues = SIZE_MAX;

/// Encodes a row after the row whose key is LastKey, which becomes Key:
/// its values, trailing zeros dropped, after the key, or none if
/// SamePrevious says that they are the previous row's (and the key width
/// leaves room to say so). Out needs room for 2 bytes and 10 per word and
/// for the count.
LLVM_ATTRIBUTE_ALWAYS_INLINE uint8_t *
encodeRow(uint8_t *Out, const uint64_t *Key, uint64_t *LastKey,
          unsigned KeyWidth, const uint64_t *Values, size_t NumValues,
          bool SamePrevious = false) {
  const RowHeader H(KeyWidth);
  uint8_t *Header = Out;
  Out += H.Bytes;
  unsigned Changed = 0;
#pragma GCC unroll 4
  for (unsigned I = 0; I != KeyWidth; ++I) {
    if (Key[I] == LastKey[I])
      continue;
    Changed |= 1u << I;
    uint64_t Delta = Key[I] - LastKey[I];
    Out = writeVarint(Out, (Delta << 1) ^ uint64_t(int64_t(Delta) >> 63));
    LastKey[I] = Key[I];
  }
  unsigned Count;
  if (SamePrevious && H.Same != H.Escape) {
    Count = H.Same;
    NumValues = 0;
  } else {
    while (NumValues && !Values[NumValues - 1])
      --NumValues;
    Count = NumValues < H.Same ? unsigned(NumValues) : H.Escape;
  }
  unsigned Bits = Changed | Count << KeyWidth;
  Header[0] = uint8_t(Bits);
  if (H.Bytes == 2)
    Header[1] = uint8_t(Bits >> 8);
  if (Count == H.Escape)
    Out = writeVarint(Out, NumValues);
  for (size_t I = 0; I != NumValues; ++I)
    Out = writeVarint(Out, Values[I]);
  return Out;
}

/// Reads the header and key of a row at P into Key, which holds the
/// previous row's key (zeros before the first row), and advances P to the
/// row's first value. Returns the number of values, or SameValues. Only the
/// words that differ from the previous row's are written, as zigzag varint
/// deltas: the source file and often the line stay the same from row to
/// row, and cost nothing.
inline size_t decodeRowHead(const uint8_t *&P, uint64_t *Key,
                            const RowHeader &H) {
  unsigned Bits = *P++;
  if (H.Bytes == 2)
    Bits |= unsigned(*P++) << 8;
  unsigned Changed = Bits & H.KeyBits;
  while (Changed) {
    unsigned I = __builtin_ctz(Changed);
    Changed &= Changed - 1;
    uint64_t Z = readVarint(P);
    Key[I] += (Z >> 1) ^ (0 - (Z & 1));
  }
  unsigned Count = Bits >> H.KeyWidth;
  if (LLVM_LIKELY(Count < H.Same))
    return Count;
  return Count == H.Escape ? readVarint(P) : SameValues;
}

} // namespace detail

/// Memory the rows of many tables share: a reader puts a new table's rows
/// here, end to end, rather than in a heap block of their own. A profile
/// of a million functions would otherwise pay malloc's header and rounding
/// on each (a cachegrind function has 17 to 31 bytes of rows: 12 MB of 20).
/// The memory is in aligned slabs, each counting the tables with rows in
/// it (and the arena while it allocates there), freed with the last: a
/// table finds its slab from its rows' address, with no pointer of its own.
/// A table that grows moves its rows to the heap. A slab is 2 MB
/// (SlabBytes): a few hundred of them hold the rows of a million functions.
class RowArena {
public:
  /// The largest rows put here: larger blocks lose little to malloc.
  static constexpr size_t MaxBytes = 512;
  RowArena() = default;
  RowArena(const RowArena &) = delete;
  RowArena &operator=(const RowArena &) = delete;
  ~RowArena() {
    if (Next)
      release(Next - 1);
  }
  /// Room for N <= MaxBytes bytes at a multiple of Align, for one owner,
  /// which release()s them. One thread at a time allocates.
  uint8_t *allocate(size_t N, size_t Align = 1) {
    assert(N && N <= MaxBytes && "rows too large for the arena");
    uint8_t *P = alignUp(Next, Align);
    if (N > size_t(End - P)) {
      newSlab();
      P = alignUp(Next, Align);
    }
    Next = P + N;
    slabOf(P).Uses.fetch_add(1, std::memory_order_relaxed);
    return P;
  }
  /// Lets go of bytes allocate() gave, on any thread.
  static void release(const uint8_t *P) {
    Slab &S = slabOf(P);
    if (S.Uses.fetch_sub(1, std::memory_order_acq_rel) == 1)
      freeSlab(S);
  }

private:
  struct Slab {
    std::atomic<uint32_t> Uses;
  };
  static Slab &slabOf(const uint8_t *P) {
    return *reinterpret_cast<Slab *>(reinterpret_cast<uintptr_t>(P) &
                                     ~uintptr_t(SlabBytes - 1));
  }
  void newSlab();
  static void freeSlab(Slab &S);
  static uint8_t *alignUp(uint8_t *P, size_t Align) {
    return reinterpret_cast<uint8_t *>(
        llvm::alignTo(reinterpret_cast<uintptr_t>(P), Align));
  }
  // Next is past the slab's header, so Next - 1 is in the slab.
  uint8_t *Next = nullptr, *End = nullptr;
};

/// The encoded rows of a table: up to 12 bytes in the table itself, more on
/// the heap or in a RowArena. Most tables of a build's profile hold a row or
/// two (a time trace's function has one self row and a call or so), which
/// then cost no allocation of their own. These are 14 bytes, a table 17 and
/// a function's data 32: a profile holds millions of tables. A heap
/// block's address and the rows' size take the bytes the rows take in
/// place; one byte holds either that size or the block's capacity.
class RowBytes {
public:
  static constexpr uint32_t InlineBytes = 12;
  RowBytes() = default;
  RowBytes(RowBytes &&O) noexcept { moveFrom(O); }
  RowBytes &operator=(RowBytes &&O) noexcept {
    if (this != &O) {
      release();
      moveFrom(O);
    }
    return *this;
  }
  ~RowBytes() { release(); }

  uint8_t *data() { return onHeap() ? heapRows() : Bytes; }
  const uint8_t *data() const { return const_cast<RowBytes *>(this)->data(); }
  size_t size() const { return onHeap() ? heapSize() : Code; }
  /// Bytes on the heap (0 while the rows fit in the table).
  size_t heapBytes() const { return onHeap() ? capacity() : 0; }
  /// A word the owner keeps before the rows in a heap block (null while
  /// there is none); it moves with the block, and the owner frees what it
  /// points to before the bytes go back into the table (shrink()) or away.
  void *owned() const {
    if (!HasWord)
      return nullptr;
    void *P;
    std::memcpy(&P, heap(), sizeof(P));
    return P;
  }
  /// Sets owned(); the bytes must be in a heap block with room for it
  /// (toHeap()).
  void setOwned(void *P) {
    assert(HasWord && "no room for the owner's word");
    std::memcpy(heap(), &P, sizeof(P));
  }
  /// Moves the bytes to a heap block of the table's own, with room for the
  /// owner's word, unless they are in one.
  void toHeap() {
    if (!HasWord)
      reallocate(std::max<size_t>(size(), InlineBytes), true);
  }
  /// Sets the bytes of an empty table to [B, E), in A if they do not fit
  /// in the table (at most RowArena::MaxBytes of them).
  void assignInArena(RowArena &A, const uint8_t *B, const uint8_t *E);
  /// Can the stream grow to N bytes without a new block?
  bool fits(size_t N) const { return N <= capacity(); }
  const uint8_t *begin() const { return data(); }
  const uint8_t *end() const { return data() + size(); }
  /// Size N, the bytes past the old size undefined.
  void resize_for_overwrite(size_t N) {
    if (N > capacity())
      grow(N);
    setSize(N);
  }
  /// Size N <= size().
  void truncate(size_t N) { setSize(N); }
  void clear() { setSize(0); }
  void append(const uint8_t *B, const uint8_t *E) {
    size_t Old = size();
    resize_for_overwrite(Old + (E - B));
    std::copy(B, E, data() + Old);
  }
  /// Replaces the bytes with [B, E), which must not be within them; a new
  /// block is as small as the capacity codes allow, not twice the old one.
  void assign(const uint8_t *B, const uint8_t *E);
  /// Gives back the slack: into the table if the rows fit, else a heap
  /// block of their size when a quarter of it is slack.
  void shrink();

private:
  // Code: up to InlineBytes, the size of the rows in Bytes. Above, they are
  // in a block at the address in Bytes' first 8 bytes, their size in the
  // last 4, and the code gives the block's capacity: ExactCap and ArenaCap
  // that size (truncate() may leave the block larger: a capacity is a
  // lower bound, which is all resize_for_overwrite() needs; an arena's
  // bytes are never freed alone), any other (8 + C % 8) << (C / 8) bytes,
  // C = Code - FirstGrowing: within an eighth of what grow() needs.
  static constexpr uint8_t FirstGrowing = InlineBytes + 1;
  static constexpr uint8_t ExactCap = 0xff;
  static constexpr uint8_t ArenaCap = 0xfe;
  bool onHeap() const { return Code > InlineBytes; }
  bool inArena() const { return Code == ArenaCap; }
  size_t capacity() const {
    if (!onHeap())
      return InlineBytes;
    if (Code == ExactCap || Code == ArenaCap)
      return heapSize();
    unsigned C = Code - FirstGrowing;
    return size_t(8 + C % 8) << (C / 8);
  }
  uint8_t *heap() const {
    uint8_t *P;
    std::memcpy(&P, Bytes, sizeof(P));
    return P;
  }
  uint8_t *heapRows() const { return heap() + (HasWord ? sizeof(void *) : 0); }
  uint32_t heapSize() const {
    uint32_t N;
    std::memcpy(&N, Bytes + sizeof(uint8_t *), sizeof(N));
    return N;
  }
  void setHeap(uint8_t *P, uint32_t N) {
    std::memcpy(Bytes, &P, sizeof(P));
    std::memcpy(Bytes + sizeof(P), &N, sizeof(N));
  }
  void setSize(size_t N) {
    uint32_t Size = uint32_t(N);
    if (onHeap())
      std::memcpy(Bytes + sizeof(uint8_t *), &Size, sizeof(Size));
    else
      Code = uint8_t(N);
  }
  void grow(size_t N);
  /// Moves the bytes to a new block of at least N bytes, with room for the
  /// owner's word before them if WithWord.
  void reallocate(size_t N, bool WithWord);
  void release() {
    assert(!owned() && "the owner's word would be lost");
    freeBlock();
    Code = 0;
    HasWord = false;
  }
  /// Frees the heap block, or lets go of the arena's bytes.
  void freeBlock() {
    if (inArena())
      RowArena::release(heap());
    else if (onHeap())
      std::free(heap());
  }
  void moveFrom(RowBytes &O) {
    std::copy(O.Bytes, O.Bytes + InlineBytes, Bytes);
    Code = O.Code;
    HasWord = O.HasWord;
    O.Code = 0;
    O.HasWord = false;
  }

  // Aligned, for the address in it to be a pointer that a leak checker
  // scanning the memory sees.
  alignas(uint8_t *) uint8_t Bytes[InlineBytes];
  uint8_t Code = 0;
  bool HasWord = false; // The heap block starts with the owner's word.
};

class RowTable {
public:
  /// RunWord is the key word whose values tend to separate runs.
  explicit RowTable(unsigned KeyWidth = 0, unsigned RunWord = 0)
      : KeyWidth(KeyWidth), RunWord(RunWord), Flags(Sorted) {
    assert(KeyWidth <= MaxKeyWidth && "key too wide");
  }
  RowTable(RowTable &&) = default;
  RowTable &operator=(RowTable &&O) noexcept {
    if (this != &O) {
      freeState();
      Data = std::move(O.Data);
      KeyWidth = O.KeyWidth;
      RunWord = O.RunWord;
      Flags = O.Flags;
    }
    return *this;
  }
  ~RowTable() { freeState(); }

  unsigned keyWidth() const { return KeyWidth; }
  /// Counts the rows: O(rows).
  size_t size() const;
  bool empty() const { return Data.size() == 0; }
  /// Bytes held by the encoded rows.
  size_t encodedBytes() const { return Data.heapBytes(); }

  /// Adds Values to the row with this key, creating it if needed. Returns
  /// false if a sum overflowed 64 bits; the sum then saturates.
  [[nodiscard]] bool add(llvm::ArrayRef<uint64_t> Key,
                         llvm::ArrayRef<uint64_t> Values);
  /// Adds the rows of B, as add() would one by one, and clears B. Returns
  /// false if a sum overflowed 64 bits; the sum then saturates. The rows
  /// of a table that had none go into Arena, if given, when they are few.
  [[nodiscard]] bool addBatch(RowBatch &B, RowArena *Arena = nullptr);
  /// As addBatch(), for a table that will be finalize()d, which then holds
  /// the same rows in the same order; a batch that would merge with the
  /// rows there is merged at once, in one pass over both (merge adds a
  /// function's rows once per input). A table whose rows and a batch so
  /// merged overlap keeps key order until finalize().
  [[nodiscard]] bool mergeBatch(RowBatch &B);

  /// Merges repeated keys, so every key is in one row. Rows are then in key
  /// order, or in runs that are each in key order. Returns false if a sum
  /// overflowed (and saturated).
  [[nodiscard]] bool finalize();
  /// Gives back the slack of the growing stream and the state only add()
  /// needs; a later add() rebuilds that state from the rows.
  void shrink();
  /// Drops every row and frees their memory; the key width stays.
  void clear() { *this = RowTable(KeyWidth, RunWord); }
  bool isFinalized() const { return !state() || !state()->Runs; }
  /// Do the rows of each key sum within 64 bits? The rows stay as they are.
  bool sumsFit() const { return has(Sorted) || sumsOfRunsFit(); }
  /// Are the rows in key order?
  bool isSorted() const { return has(Sorted); }

  /// The widest key: a jump row with three positions (RowLayout).
  static constexpr unsigned MaxKeyWidth = 16;

  class iterator {
  public:
    iterator(const uint8_t *P, const uint8_t *E, unsigned KeyWidth)
        : Pos(P), Next(P), End(E), Header(KeyWidth) {
      if (Pos != End) {
        std::fill(KeyBuf, KeyBuf + KeyWidth, 0);
        decode();
      }
    }
    const Row &operator*() const { return Current; }
    const Row *operator->() const { return &Current; }
    iterator &operator++() {
      Pos = Next;
      if (Pos != End)
        decode();
      return *this;
    }
    bool operator==(const iterator &O) const { return Pos == O.Pos; }
    bool operator!=(const iterator &O) const { return Pos != O.Pos; }
    /// Past the last row: what a loop over many small tables asks, rather
    /// than make an end() iterator for each.
    bool atEnd() const { return Pos == End; }

  private:
    // Inline: writers and passes decode every row of a profile.
    void decode() {
      const uint8_t *P = Pos;
      size_t N = detail::decodeRowHead(P, KeyBuf, Header);
      if (N != detail::SameValues) { // Else the values stay the last row's.
        if (N > ValueBuf.size())
          ValueBuf.resize_for_overwrite(N);
        for (size_t I = 0; I != N; ++I)
          ValueBuf[I] = detail::readVarint(P);
        NumValues = N;
      }
      Next = P;
      Current = Row{llvm::ArrayRef(KeyBuf, Header.KeyWidth),
                    llvm::ArrayRef(ValueBuf.data(), NumValues)};
    }
    const uint8_t *Pos, *Next, *End;
    detail::RowHeader Header;
    size_t NumValues = 0;
    uint64_t KeyBuf[MaxKeyWidth];
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
  /// done growing, so this lives apart and shrink() frees it. The key of
  /// the last encoded row follows it, as wide as the table's keys: merge
  /// builds a million tables at once. A table with one has its rows on the
  /// heap and keeps the pointer beside them (RowBytes::owned()): the rows
  /// of a table done growing go back into it, which is no larger for this.
  struct BuildState {
    uint32_t LastRowOffset = 0; // Where the last row starts.
    uint32_t BytesAfterCompaction = 0;
    std::unique_ptr<RunState> Runs; // Only while rows arrive out of order.
    uint64_t *lastKey() { return reinterpret_cast<uint64_t *>(this + 1); }
    static BuildState *create(unsigned KeyWidth);
    struct Deleter {
      void operator()(BuildState *S) const;
    };
  };
  static_assert(alignof(BuildState) >= alignof(uint64_t));

  BuildState *state() const { return static_cast<BuildState *>(Data.owned()); }
  BuildState &build();
  void freeState();
  template <unsigned W, bool Wide>
  static uint8_t *encodeInOrder(uint8_t *Out, const RowBatch &B,
                                uint64_t *LastKey, uint8_t *&LastRow);
  void append(llvm::ArrayRef<uint64_t> Key, llvm::ArrayRef<uint64_t> Values);
  bool addToLastRow(llvm::ArrayRef<uint64_t> Values);
  void startRun();
  bool compact();
  bool sumsOfRunsFit() const;
  bool addSortedBatch(RowBatch &B, RowArena *Arena = nullptr);
  std::optional<bool> mergeInOnePass(RowBatch &B);

  // These take Data's padding: a table is 17 bytes, and what follows one
  // without padding of its own (a function's id) the rest of its last word.
  [[no_unique_address]] RowBytes Data;
  uint8_t KeyWidth;
  uint8_t RunWord;
  // Flags in a byte of their own, not bit-fields: a table made in fresh
  // memory is then written without a read first, which would map the zero
  // page and fault a second time at the write (a profile makes a million).
  enum : uint8_t {
    Sorted = 1, // Keys strictly increase along the stream.
    // Runs added since finalize() or shrink() overlapped: finalize() merges
    // every run since, and mergeBatch() merges batches at once.
    KeyOrder = 2,
  };
  uint8_t Flags;
  bool has(uint8_t F) const { return Flags & F; }
  void set(uint8_t F, bool On) { Flags = On ? Flags | F : Flags & ~F; }
};
static_assert(sizeof(RowTable) == 24, "a profile holds millions of tables");

/// Batches kept to be added to their tables later, each with a tag (the
/// callgrind reader's second thread logs the rows of functions the first
/// thread holds the tables of), encoded as tables encode rows.
class RowBatchLog {
public:
  /// Logs batch B, sorted by B.sortAndSum(); returns the bytes it took.
  size_t append(uint64_t Tag, const RowBatch &B);
  /// Refills B with each logged batch in turn and calls Deliver(Tag, B);
  /// frees the log as it goes.
  void replay(RowBatch &B,
              llvm::function_ref<void(uint64_t Tag, RowBatch &B)> Deliver);

private:
  std::deque<llvm::SmallVector<uint8_t, 0>> Blocks;
};

} // namespace profkit

#endif
