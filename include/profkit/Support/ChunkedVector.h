//===- ChunkedVector.h - A vector that grows without moving -----*- C++ -*-===//
//
// A profile's parts hold a million functions' data in all. A std::vector
// that doubles holds its old and new blocks at once and copies the one into
// the other: the peak of reading such a file. A ChunkedVector grows by
// adding a chunk, so its elements never move and nothing is held twice.
// Chunks double from FirstSize elements up to GrowMax, then stay that size:
// a part of three functions takes a small chunk, and a large one wastes at
// most one chunk, mapped but never touched. Once filled, a small vector is
// gathered into one chunk of its size (shrink()): a profile of many dumps holds
// tens of thousands of parts of a few dozen functions, and each chunk is a
// malloc block with its own overhead. A vector whose elements move into
// another as it is consumed hands it its emptied chunks of the largest size:
// the other fills them where fresh memory would cost a page fault a page.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_SUPPORT_CHUNKEDVECTOR_H
#define PROFKIT_SUPPORT_CHUNKEDVECTOR_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/iterator.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemAlloc.h"
#include <cassert>
#include <utility>

namespace profkit {

template <typename T, unsigned Log2First = 2, unsigned Log2Max = 12>
class ChunkedVector {
  static_assert(Log2First <= Log2Max, "chunks grow up to their largest");
  static constexpr size_t FirstSize = size_t(1) << Log2First;
  static constexpr size_t GrowMax = size_t(1) << Log2Max;
  /// Chunks 0 .. NumGrowing-1 hold FirstSize << K elements.
  static constexpr size_t NumGrowing = Log2Max - Log2First + 1;
  /// The elements of the growing chunks.
  static constexpr size_t GrowingEnd = 2 * GrowMax - FirstSize;

public:
  ChunkedVector() = default;
  ChunkedVector(ChunkedVector &&O) noexcept
      : Chunks(std::move(O.Chunks)), Size(O.Size), LastCapacity(O.LastCapacity),
        Spare(std::exchange(O.Spare, nullptr)) {
    O.Chunks.clear();
    O.Size = O.LastCapacity = 0;
  }
  ChunkedVector &operator=(ChunkedVector &&O) noexcept {
    if (this != &O) {
      clear();
      std::swap(Chunks, O.Chunks);
      std::swap(Size, O.Size);
      std::swap(LastCapacity, O.LastCapacity);
      std::swap(Spare, O.Spare);
    }
    return *this;
  }
  ~ChunkedVector() { clear(); }

  size_t size() const { return Size; }
  bool empty() const { return !Size; }

  T &operator[](size_t I) {
    assert(I < Size && "index past the end");
    if (Chunks.size() == 1) // Small, or gathered.
      return Chunks[0][I];
    auto [Chunk, Offset] = locate(I);
    return Chunks[Chunk][Offset];
  }
  const T &operator[](size_t I) const {
    return const_cast<ChunkedVector &>(*this)[I];
  }
  T &front() { return (*this)[0]; }
  const T &front() const { return (*this)[0]; }
  T &back() { return (*this)[Size - 1]; }
  const T &back() const { return (*this)[Size - 1]; }

  /// Elements stay in place, except that the first one added after
  /// shrink() may move those of the last chunk (or of the gathered one).
  template <typename... Args> T &emplace_back(Args &&...A) {
    if (Chunks.size() == 1 && Size > FirstSize)
      scatter();
    auto [Chunk, Offset] = locate(Size);
    if (Chunk == Chunks.size())
      addChunk(capacityOf(Chunk));
    else if (Offset == LastCapacity) // A chunk that shrink() cut.
      resizeLastChunk(capacityOf(Chunk));
    T *E = new (&Chunks[Chunk][Offset]) T(std::forward<Args>(A)...);
    ++Size;
    return *E;
  }

  /// Destroys every element and frees every chunk.
  void clear() {
    consume([](T &) {});
  }

  /// Calls Fn on every element in order, then empties the vector: each
  /// chunk is freed once Fn has seen its elements, so that elements moved
  /// elsewhere are not held twice; one of the largest size goes to Into
  /// instead, if given and it has none spare, for its next chunk (Fn moves
  /// elements there).
  template <typename Fn> void consume(Fn F, ChunkedVector *Into = nullptr) {
    assert(Into != this && "a vector cannot take its own chunks");
    for (size_t C = 0; C != Chunks.size(); ++C) {
      T *Begin = Chunks[C];
      for (T *E = Begin, *End = Begin + usedIn(C); E != End; ++E) {
        F(*E);
        E->~T();
      }
      if (Into && !Into->Spare && chunkBytes(C) == GrowMax * sizeof(T))
        Into->Spare = Begin;
      else
        freeChunk(Begin, C);
    }
    // clear() would keep a list that grew out of its place.
    Chunks.~SmallVector();
    new (&Chunks) decltype(Chunks)();
    Size = LastCapacity = 0;
    freeSpare();
  }

  /// Gathers a small vector into one chunk of its size; else cuts the last
  /// chunk to its elements when an eighth of it is slack and it is small.
  /// The slack of a large one is mapped but never touched.
  void shrink() {
    constexpr size_t SmallBytes = size_t(64) << 10;
    freeSpare();
    if (Chunks.empty())
      return;
    if (Chunks.size() > 1 && Size * sizeof(T) <= SmallBytes) {
      gather();
      return;
    }
    size_t Used = usedIn(Chunks.size() - 1);
    if (LastCapacity - Used > Used / 8 &&
        LastCapacity * sizeof(T) <= SmallBytes)
      resizeLastChunk(Used);
  }

  template <typename Ref, typename Owner>
  class Iterator
      : public llvm::iterator_facade_base<Iterator<Ref, Owner>,
                                          std::random_access_iterator_tag,
                                          std::remove_reference_t<Ref>> {
  public:
    Iterator(Owner *V, size_t I) : V(V), I(I) {}
    Ref operator*() const { return (*V)[I]; }
    Iterator &operator+=(std::ptrdiff_t N) {
      I += N;
      return *this;
    }
    Iterator &operator-=(std::ptrdiff_t N) {
      I -= N;
      return *this;
    }
    std::ptrdiff_t operator-(const Iterator &O) const { return I - O.I; }
    bool operator==(const Iterator &O) const { return I == O.I; }
    bool operator<(const Iterator &O) const { return I < O.I; }

  private:
    Owner *V;
    size_t I;
  };
  using iterator = Iterator<T &, ChunkedVector>;
  using const_iterator = Iterator<const T &, const ChunkedVector>;
  iterator begin() { return iterator(this, 0); }
  iterator end() { return iterator(this, Size); }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, Size); }

private:
  /// The chunk and the offset in it of element I.
  static std::pair<size_t, size_t> locate(size_t I) {
    if (I < GrowingEnd) {
      unsigned High = llvm::Log2_64(I + FirstSize);
      return {High - Log2First, I + FirstSize - (size_t(1) << High)};
    }
    size_t Past = I - GrowingEnd;
    return {NumGrowing + Past / GrowMax, Past % GrowMax};
  }
  static size_t capacityOf(size_t Chunk) {
    return Chunk < NumGrowing ? FirstSize << Chunk : GrowMax;
  }
  size_t usedIn(size_t Chunk) const {
    if (Chunk + 1 != Chunks.size())
      return capacityOf(Chunk);
    return Size - firstIndexOf(Chunk);
  }
  static size_t firstIndexOf(size_t Chunk) {
    return Chunk < NumGrowing ? (FirstSize << Chunk) - FirstSize
                              : GrowingEnd + (Chunk - NumGrowing) * GrowMax;
  }
  size_t chunkBytes(size_t Chunk) const {
    return (Chunk + 1 == Chunks.size() ? LastCapacity : capacityOf(Chunk)) *
           sizeof(T);
  }
  void addChunk(size_t Capacity) {
    if (Capacity == GrowMax && Spare)
      Chunks.push_back(std::exchange(Spare, nullptr));
    else
      Chunks.push_back(static_cast<T *>(
          llvm::allocate_buffer(Capacity * sizeof(T), alignof(T))));
    LastCapacity = Capacity;
  }
  void freeSpare() {
    if (Spare)
      llvm::deallocate_buffer(std::exchange(Spare, nullptr),
                              GrowMax * sizeof(T), alignof(T));
  }
  void freeChunk(T *Begin, size_t Chunk) {
    llvm::deallocate_buffer(Begin, chunkBytes(Chunk), alignof(T));
  }
  /// Moves the last chunk's elements into a chunk of Capacity elements.
  void resizeLastChunk(size_t Capacity) {
    size_t Last = Chunks.size() - 1, Used = usedIn(Last);
    T *Old = Chunks[Last];
    T *New = static_cast<T *>(
        llvm::allocate_buffer(Capacity * sizeof(T), alignof(T)));
    for (size_t I = 0; I != Used; ++I) {
      new (&New[I]) T(std::move(Old[I]));
      Old[I].~T();
    }
    llvm::deallocate_buffer(Old, LastCapacity * sizeof(T), alignof(T));
    Chunks[Last] = New;
    LastCapacity = Capacity;
  }

  /// Moves every element into one chunk of Size elements.
  void gather() {
    T *New =
        static_cast<T *>(llvm::allocate_buffer(Size * sizeof(T), alignof(T)));
    T *Next = New;
    size_t N = Size;
    consume([&](T &E) { new (Next++) T(std::move(E)); });
    Chunks.push_back(New);
    Size = LastCapacity = N;
  }
  /// Moves the elements of a gathered chunk into chunks of the sizes they
  /// grow by, which more elements follow.
  void scatter() {
    T *Old = Chunks[0];
    size_t N = Size, OldCapacity = LastCapacity;
    Chunks.clear();
    Size = LastCapacity = 0;
    for (size_t I = 0; I != N; ++I) {
      emplace_back(std::move(Old[I]));
      Old[I].~T();
    }
    llvm::deallocate_buffer(Old, OldCapacity * sizeof(T), alignof(T));
  }

  /// One chunk in place: most vectors end as one, small or gathered.
  llvm::SmallVector<T *, 1> Chunks;
  size_t Size = 0;
  size_t LastCapacity = 0; // Elements the last chunk has room for.
  T *Spare = nullptr;      // A chunk of GrowMax elements consume() gave.
};

} // namespace profkit

#endif // PROFKIT_SUPPORT_CHUNKEDVECTOR_H
