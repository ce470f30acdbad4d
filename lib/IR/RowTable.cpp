//===- RowTable.cpp - Compact keyed cost rows -----------------------------===//

#include "profkit/IR/RowTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemAlloc.h"
#include <algorithm>
#include <cstring>
#include <numeric>

using namespace profkit;
using namespace llvm;
using namespace profkit::detail;

static int compareKeys(ArrayRef<uint64_t> A, const uint64_t *B) {
  for (size_t I = 0, E = A.size(); I != E; ++I)
    if (A[I] != B[I])
      return A[I] < B[I] ? -1 : 1;
  return 0;
}

RowTable::BuildState *RowTable::BuildState::create(unsigned KeyWidth) {
  void *Mem = safe_malloc(sizeof(BuildState) + KeyWidth * sizeof(uint64_t));
  BuildState *S = new (Mem) BuildState();
  std::fill(S->lastKey(), S->lastKey() + KeyWidth, 0);
  return S;
}

void RowTable::BuildState::Deleter::operator()(BuildState *S) const {
  S->~BuildState();
  free(S);
}

void RowTable::freeState() {
  if (BuildState *S = state()) {
    BuildState::Deleter()(S);
    Data.setOwned(nullptr);
  }
}

RowTable::BuildState &RowTable::build() {
  if (BuildState *S = state())
    return *S;
  Data.toHeap();
  Data.setOwned(BuildState::create(KeyWidth));
  BuildState *State = state();
  // Find the last row's key and values again (after shrink()).
  const uint8_t *P = Data.data(), *E = P + Data.size();
  while (P != E) {
    State->LastRowOffset = P - Data.data();
    size_t N = decodeRowHead(P, State->lastKey(), RowHeader(KeyWidth));
    for (; N != SameValues && N; --N)
      readVarint(P);
  }
  State->BytesAfterCompaction = Data.size();
  // Rows out of key order came in several runs: a new row may repeat a key
  // of any of them, so the rows so far count as one finished run.
  if (!has(Sorted))
    startRun();
  return *State;
}

static size_t maxEncodedSize(size_t Words) { return 10 * (Words + 1) + 2; }

/// Has Encode write at most MaxBytes at Start of Data, which then ends
/// where Encode's output does. In place when Data has room; else the bytes
/// are written apart first, so that a finished table grows by what is
/// written, not by room for the longest encoding (merge adds rows to a
/// million tables finished at their exact size).
template <typename EncodeFn>
static void encodeAt(RowBytes &Data, size_t Start, size_t MaxBytes,
                     EncodeFn Encode) {
  if (Data.fits(Start + MaxBytes)) {
    Data.resize_for_overwrite(Start + MaxBytes);
    uint8_t *Out = Data.data() + Start;
    Data.truncate(Start + (Encode(Out) - Out));
    return;
  }
  SmallVector<uint8_t, 256> Apart;
  Apart.resize_for_overwrite(MaxBytes);
  uint8_t *End = Encode(Apart.data());
  Data.resize_for_overwrite(Start + (End - Apart.data()));
  std::copy(Apart.data(), End, Data.data() + Start);
}

void RowTable::append(ArrayRef<uint64_t> Key, ArrayRef<uint64_t> Values) {
  size_t Start = Data.size();
  encodeAt(Data, Start, maxEncodedSize(KeyWidth + Values.size()),
           [&](uint8_t *Out) {
             state()->LastRowOffset = Start;
             return encodeRow(Out, Key.data(), state()->lastKey(), KeyWidth,
                              Values.data(), Values.size());
           });
}

bool RowTable::addToLastRow(ArrayRef<uint64_t> Values) {
  // The row is encoded again after the row before it, whose key is the
  // last key less this row's deltas.
  size_t Start = state()->LastRowOffset;
  const uint8_t *P = Data.data() + Start;
  uint64_t Deltas[MaxKeyWidth] = {}, Before[MaxKeyWidth];
  // The last row has values of its own: encodeInOrder() writes no row as
  // the row before's at the end of a batch.
  size_t N = decodeRowHead(P, Deltas, RowHeader(KeyWidth));
  assert(N != SameValues && "the last row takes the row before's values");
  SmallVector<uint64_t, 16> Sum(N);
  for (uint64_t &V : Sum)
    V = readVarint(P);
  const uint64_t *Last = state()->lastKey();
  for (unsigned I = 0; I != KeyWidth; ++I)
    Before[I] = Last[I] - Deltas[I];
  if (Sum.size() < Values.size())
    Sum.resize(Values.size());
  bool Ok = true;
  for (size_t I = 0, E = Values.size(); I != E; ++I)
    Ok &= addCost(Sum[I], Values[I]);
  encodeAt(
      Data, Start, maxEncodedSize(KeyWidth + Sum.size()), [&](uint8_t *Out) {
        return encodeRow(Out, Last, Before, KeyWidth, Sum.data(), Sum.size());
      });
  return Ok;
}

void RowTable::RunState::note(uint64_t Value) {
  uint32_t Run = NumRuns - 1;
  if (Members.empty() || Members.back() != std::make_pair(Value, Run))
    Members.emplace_back(Value, Run);
}

bool RowTable::RunState::overlap() {
  llvm::sort(Members);
  Members.erase(std::unique(Members.begin(), Members.end()), Members.end());
  for (size_t I = 1; I < Members.size(); ++I)
    if (Members[I].first == Members[I - 1].first)
      return true;
  return false;
}

void RowTable::startRun() {
  std::unique_ptr<RunState> &Runs = state()->Runs;
  if (!Runs) {
    // The rows so far are one run of distinct keys; learn its run-word
    // values.
    Runs = std::make_unique<RunState>();
    for (const Row &R : *this)
      Runs->note(R.Key[RunWord]);
  }
  ++Runs->NumRuns;
}

bool RowTable::add(ArrayRef<uint64_t> Key, ArrayRef<uint64_t> Values) {
  assert(Key.size() == KeyWidth && "key of the wrong width");
  BuildState &B = build();
  if (!empty()) {
    int Cmp = compareKeys(Key, B.lastKey());
    if (Cmp == 0)
      return addToLastRow(Values);
    if (Cmp < 0) {
      set(Sorted, false);
      startRun();
    }
  }
  if (B.Runs)
    B.Runs->note(Key[RunWord]);
  append(Key, Values);
  // Overlapping runs may repeat keys: merge them whenever the stream has
  // doubled, so repeated keys cost amortized constant memory.
  if (B.Runs && Data.size() > 2 * size_t(B.BytesAfterCompaction) + 4096) {
    if (B.Runs->overlap())
      return compact();
    B.BytesAfterCompaction = Data.size();
  }
  return true;
}

bool RowTable::finalize() {
  bool Ok = true;
  if (state() && state()->Runs && (has(KeyOrder) || state()->Runs->overlap()))
    Ok = compact();
  if (state())
    state()->Runs.reset();
  set(KeyOrder, false); // Later rows are runs apart from these.

  return Ok;
}

/// sumsFit() of rows out of key order, which may repeat a key: summed in a
/// table of their own.
bool RowTable::sumsOfRunsFit() const {
  RowTable Sums(KeyWidth, RunWord);
  bool Ok = true;
  for (const Row &R : *this)
    Ok &= Sums.add(R.Key, R.Values);
  return Sums.finalize() && Ok;
}

void RowTable::shrink() {
  freeState();
  set(KeyOrder, false); // As the runs, forgotten: the rows are now one run.
  Data.shrink();
}

void RowArena::newSlab() {
  if (Next)
    release(Next - 1); // The arena's use of the slab it leaves.
  auto *S = static_cast<uint8_t *>(allocateSlab());
  new (S) Slab{{1}};
  Next = S + sizeof(Slab);
  End = S + SlabBytes;
}

void RowArena::freeSlab(Slab &S) {
  S.~Slab();
  deallocateSlab(&S);
}

void RowBytes::grow(size_t N) {
  if (N > (size_t(1) << 31))
    report_bad_alloc_error("a row table of 2 GB");
  // Twice the last block, to append in amortized constant time. The first
  // block is as large as asked: most tables take their rows in one batch
  // (a function's lines), and shrink() would copy a larger block again.
  reallocate(std::max<size_t>(N, onHeap() ? 2 * capacity() : 0), HasWord);
}

void RowBytes::reallocate(size_t N, bool WithWord) {
  assert(N >= InlineBytes && "a block smaller than the table");
  unsigned E = Log2_64(N) - 3;
  size_t M = divideCeil(N, size_t(1) << E);
  if (M == 16) {
    ++E;
    M = 8;
  }
  size_t Word = WithWord ? sizeof(void *) : 0;
  auto *New = static_cast<uint8_t *>(safe_malloc(Word + (M << E)));
  size_t Size = size();
  std::copy(data(), data() + Size, New + Word);
  void *Kept = owned();
  freeBlock();
  if (WithWord)
    std::memcpy(New, &Kept, sizeof(Kept));
  HasWord = WithWord;
  Code = uint8_t(FirstGrowing + E * 8 + (M - 8));
  setHeap(New, uint32_t(Size));
}

void RowBytes::assign(const uint8_t *B, const uint8_t *E) {
  size_t N = E - B;
  if (!fits(N)) {
    if (N > (size_t(1) << 31))
      report_bad_alloc_error("a row table of 2 GB");
    setSize(0); // Nothing to keep.
    reallocate(std::max<size_t>(N, InlineBytes), HasWord);
  }
  std::copy(B, E, data());
  setSize(N);
}

void RowBytes::assignInArena(RowArena &A, const uint8_t *B, const uint8_t *E) {
  assert(!size() && !onHeap() && "rows to replace");
  size_t N = E - B;
  if (N <= InlineBytes) {
    std::copy(B, E, Bytes);
    Code = uint8_t(N);
    return;
  }
  uint8_t *At = A.allocate(N);
  std::copy(B, E, At);
  Code = ArenaCap;
  setHeap(At, uint32_t(N));
}

void RowBytes::shrink() {
  if (!onHeap())
    return;
  assert(!owned() && "the owner's word would be lost");
  size_t Size = size();
  if (Size <= InlineBytes) {
    uint8_t Rows[InlineBytes];
    std::copy(data(), data() + Size, Rows);
    freeBlock();
    std::copy(Rows, Rows + Size, Bytes);
    Code = uint8_t(Size);
    HasWord = false;
    return;
  }
  if (inArena())
    return; // Exactly their size.
  if (HasWord || capacity() - Size > Size / 4) {
    auto *New = static_cast<uint8_t *>(safe_malloc(Size));
    std::copy(data(), data() + Size, New);
    std::free(heap());
    HasWord = false;
    Code = ExactCap;
    setHeap(New, uint32_t(Size));
  }
}

bool RowTable::compact() {
  // Decode into a dense array, sort row indices by key, sum equal keys.
  unsigned Width = 0;
  uint32_t NumRows = 0;
  for (const Row &R : *this) {
    Width = std::max<unsigned>(Width, R.Values.size());
    ++NumRows;
  }
  unsigned Stride = KeyWidth + Width;
  std::vector<uint64_t> Dense;
  Dense.reserve(size_t(NumRows) * Stride);
  for (const Row &R : *this) {
    Dense.insert(Dense.end(), R.Key.begin(), R.Key.end());
    Dense.insert(Dense.end(), R.Values.begin(), R.Values.end());
    Dense.resize(Dense.size() + Width - R.Values.size());
  }
  auto KeyOf = [&](uint32_t I) { return Dense.data() + size_t(I) * Stride; };
  auto Less = [&](uint32_t A, uint32_t B) {
    return compareKeys(ArrayRef(KeyOf(A), KeyWidth), KeyOf(B)) < 0;
  };
  // The stream is a few increasing runs (a function's blocks, as the
  // profiler wrote them): merging them, a pair at a time, sorts it in
  // O(n log runs), as a stable sort would order it.
  std::vector<uint32_t> Order(NumRows), Merged(NumRows);
  std::iota(Order.begin(), Order.end(), 0);
  std::vector<uint32_t> Runs{0}; // Where each run starts, then the end.
  for (uint32_t I = 1; I < NumRows; ++I)
    if (Less(I, I - 1))
      Runs.push_back(I);
  Runs.push_back(NumRows);
  while (Runs.size() > 2) {
    std::vector<uint32_t> Next{0};
    for (size_t R = 0; R + 1 < Runs.size(); R += 2) {
      uint32_t *Out = Merged.data() + Runs[R];
      if (R + 2 < Runs.size())
        std::merge(Order.begin() + Runs[R], Order.begin() + Runs[R + 1],
                   Order.begin() + Runs[R + 1], Order.begin() + Runs[R + 2],
                   Out, Less);
      else // The odd run out.
        std::copy(Order.begin() + Runs[R], Order.begin() + Runs[R + 1], Out);
      Next.push_back(Runs[std::min(R + 2, Runs.size() - 1)]);
    }
    Order.swap(Merged);
    Runs = std::move(Next);
  }

  Data.clear();
  set(Sorted, true);
  set(KeyOrder, true);
  state()->Runs.reset();
  std::fill(state()->lastKey(), state()->lastKey() + KeyWidth, 0); // From zero.
  bool Ok = true;
  for (size_t I = 0; I != Order.size();) {
    uint64_t *First = KeyOf(Order[I]);
    size_t J = I + 1;
    for (; J != Order.size() &&
           compareKeys(ArrayRef(First, KeyWidth), KeyOf(Order[J])) == 0;
         ++J)
      for (unsigned V = 0; V != Width; ++V)
        Ok &= addCost(First[KeyWidth + V], KeyOf(Order[J])[KeyWidth + V]);
    append(ArrayRef(First, KeyWidth), ArrayRef(First + KeyWidth, Width));
    I = J;
  }
  state()->BytesAfterCompaction = Data.size();
  return Ok;
}

void RowBatch::widen(size_t NewValueWidth) {
  size_t OldStride = KeyWidth + ValueWidth;
  size_t NewStride = KeyWidth + NewValueWidth;
  Used = NumRows * NewStride;
  if (Words.size() < Used)
    Words.resize(Used);
  // Move rows back to front so that none is overwritten before it moves.
  for (size_t I = NumRows; I-- != 0;) {
    uint64_t *From = Words.data() + I * OldStride;
    uint64_t *To = Words.data() + I * NewStride;
    std::copy_backward(From, From + OldStride, To + OldStride);
    std::fill(To + OldStride, To + NewStride, 0);
  }
  ValueWidth = NewValueWidth;
}

bool RowBatch::sortAndSum() {
  // In locals: the compiler cannot tell that the sums below leave them be.
  uint64_t *const Rows = Words.data();
  const unsigned KeyWidth = this->KeyWidth, ValueWidth = this->ValueWidth;
  const size_t Stride = KeyWidth + ValueWidth;
  auto Less = [=](uint32_t A, uint32_t B) {
    const uint64_t *X = Rows + A * Stride, *Y = Rows + B * Stride;
    if (KeyWidth && X[0] != Y[0]) // Mostly decides: positions lead keys.
      return X[0] < Y[0];
    return compareKeys(ArrayRef(X, KeyWidth), Y) < 0;
  };
  bool Ok = true;
  auto SumInto = [&](uint32_t To, uint32_t From) { Ok &= sumInto(To, From); };
  uint32_t N = NumRows;
  Order.resize_for_overwrite(N);
  // Profilers list a block in increasing runs that overlap (callgrind: a
  // basic block that starts inside one before it, whose instructions it
  // lists again). Each row goes into the sorted rows so far: at the end, or
  // mostly right after the row placed before it, where it meets its own key
  // and sums into it. Rows that would move too many others go to the
  // general sort below, which bounds the work for any order.
  const size_t MaxMoved = 4 * size_t(N) + 256;
  // First the rows whose first key word rises from row to row, as most do,
  // each compared by that word alone.
  uint32_t I = N != 0;
  if (KeyWidth)
    for (const uint64_t *R = Rows + Stride;
         I != N && R[0] > R[-ptrdiff_t(Stride)]; R += Stride)
      ++I;
  std::iota(Order.begin(), Order.begin() + I, 0);
  if (I != N && N <= MaxInsertionSorted && KeyWidth)
    return insertionSort(I) && Ok;
  size_t Sorted = I, Hint = 0, Moved = 0; // Hint: where the last row went.
  for (; I != N; ++I) {
    if (!Sorted || Less(Order[Sorted - 1], I)) {
      Order[Sorted++] = I;
      continue;
    }
    size_t At = Hint + 1;
    if (At >= Sorted || !Less(Order[At - 1], I) || Less(Order[At], I))
      At = std::lower_bound(Order.begin(), Order.begin() + Sorted, I, Less) -
           Order.begin();
    Hint = At;
    if (!Less(I, Order[At])) {
      SumInto(Order[At], I);
      continue;
    }
    Moved += Sorted - At;
    if (Moved > MaxMoved)
      break;
    std::copy_backward(Order.begin() + At, Order.begin() + Sorted,
                       Order.begin() + Sorted + 1);
    Order[At] = I;
    ++Sorted;
  }
  if (I == N) {
    Order.truncate(Sorted);
    return Ok;
  }

  // The rows placed so far are one increasing run; the rest follow in the
  // order added, in runs of their own (N now counts both). Merging the runs
  // sorts them with far fewer comparisons than a general sort.
  N = Sorted + (N - I);
  Order.truncate(N);
  std::iota(Order.begin() + Sorted, Order.end(), I);
  RunStarts.assign(1, 0);
  for (size_t J = std::max<size_t>(Sorted, 1); J < N; ++J)
    if (!Less(Order[J - 1], Order[J]))
      RunStarts.push_back(J);
  RunStarts.push_back(N);
  Scratch.resize_for_overwrite(N);
  while (RunStarts.size() > 2) {
    size_t Out = 0;
    for (size_t K = 0; K + 1 < RunStarts.size(); K += 2) {
      uint32_t B = RunStarts[K], M = RunStarts[K + 1];
      uint32_t E = K + 2 < RunStarts.size() ? RunStarts[K + 2] : M;
      std::merge(Order.begin() + B, Order.begin() + M, Order.begin() + M,
                 Order.begin() + E, Scratch.begin() + B, Less);
      RunStarts[Out++] = B;
    }
    RunStarts[Out++] = N;
    RunStarts.truncate(Out);
    std::swap(Order, Scratch);
  }
  size_t Out = 0;
  for (size_t J = 0; J != N; ++J) {
    if (Out && !Less(Order[Out - 1], Order[J]))
      SumInto(Order[Out - 1], Order[J]);
    else
      Order[Out++] = Order[J];
  }
  Order.truncate(Out);
  return Ok;
}

bool RowBatch::sumInto(uint32_t To, uint32_t From) {
  const size_t Stride = KeyWidth + ValueWidth;
  uint64_t *Sum = Words.data() + To * Stride + KeyWidth;
  const uint64_t *V = Words.data() + From * Stride + KeyWidth;
  bool Ok = true;
  for (unsigned J = 0; J != ValueWidth; ++J)
    Ok &= addCost(Sum[J], V[J]);
  return Ok;
}

bool RowBatch::insertionSort(uint32_t Sorted) {
  const uint64_t *const Rows = Words.data();
  const unsigned KeyWidth = this->KeyWidth, ValueWidth = this->ValueWidth;
  const size_t Stride = KeyWidth + ValueWidth;
  // The first key word of each row placed, beside its index: it decides
  // most comparisons.
  uint64_t First[MaxInsertionSorted];
  for (uint32_t J = 0; J != Sorted; ++J)
    First[J] = Rows[J * Stride];
  bool Ok = true;
  for (uint32_t I = Sorted, N = NumRows; I != N; ++I) {
    const uint64_t *R = Rows + I * Stride;
    size_t At = Sorted;
    int Cmp = 1; // R against the row before At.
    for (; At; --At) {
      if (First[At - 1] != R[0]) {
        if (First[At - 1] < R[0])
          break;
        continue;
      }
      const uint64_t *Before = Rows + Order[At - 1] * Stride;
      Cmp = compareKeys(ArrayRef(R + 1, KeyWidth - 1), Before + 1);
      if (Cmp >= 0)
        break;
    }
    if (At && Cmp == 0) { // The key of a row placed: R's values go there.
      Ok &= sumInto(Order[At - 1], I);
      continue;
    }
    for (size_t K = Sorted; K != At; --K) {
      Order[K] = Order[K - 1];
      First[K] = First[K - 1];
    }
    Order[At] = I;
    First[At] = R[0];
    ++Sorted;
  }
  Order.truncate(Sorted);
  return Ok;
}

/// Are the N words at A and B equal? A row of a few values compares in a
/// loop: std::equal() calls memcmp(), and the call cost more than the
/// comparison of one value (4 % of reading an instruction-level profile of
/// one event). memcmp() wins on a dozen values (cache simulation).
static bool sameWords(const uint64_t *A, const uint64_t *B, size_t N) {
  if (N > 4)
    return std::memcmp(A, B, N * sizeof(uint64_t)) == 0;
  for (size_t I = 0; I != N; ++I)
    if (A[I] != B[I])
      return false;
  return true;
}

/// Encodes the rows of B in its order() after the row whose key is LastKey,
/// which becomes the last row's; LastRow is set to where the last row
/// starts. W is the key width when known at compile time (0: any), so
/// that the loops over key words unroll; Wide rows have more than 4 values.
template <unsigned W, bool Wide>
uint8_t *RowTable::encodeInOrder(uint8_t *Out, const RowBatch &B,
                                 uint64_t *LastKey, uint8_t *&LastRow) {
  const unsigned KeyWidth = W ? W : B.KeyWidth;
  const size_t Stride = KeyWidth + B.ValueWidth, NumValues = B.ValueWidth;
  // The key in a local array: stores to Out (bytes) could otherwise alias
  // it and force a reload of every word after every byte written.
  uint64_t Last[MaxKeyWidth];
  std::copy(LastKey, LastKey + KeyWidth, Last);
  const uint64_t *Words = B.Words.data();
  // A row whose values are the row before's in the batch says so, but for
  // the batch's last row: the table's last row has values of its own, which
  // addToLastRow() can sum into without the rows before. Wide rows compare
  // their values without the trailing zeros, which encodeRow() drops: a
  // dozen events often give one or two.
  const uint64_t *Before = nullptr;
  size_t BeforeCount = 0;
  for (size_t J = 0, E = B.Order.size(); J != E; ++J) {
    const uint64_t *R = Words + B.Order[J] * Stride;
    size_t Count = NumValues;
    if (Wide) {
      while (Count >= 2 && !(R[KeyWidth + Count - 1] | R[KeyWidth + Count - 2]))
        Count -= 2;
      if (Count && !R[KeyWidth + Count - 1])
        --Count;
    }
    bool Same = Before && J + 1 != E && (!Wide || Count == BeforeCount) &&
                sameWords(R + KeyWidth, Before + KeyWidth, Count);
    LastRow = Out;
    Out = encodeRow(Out, R, Last, KeyWidth, R + KeyWidth, Count, Same);
    Before = R;
    BeforeCount = Count;
  }
  std::copy(Last, Last + KeyWidth, LastKey);
  return Out;
}

/// Merges the sorted batch B into the sorted table in one pass over both,
/// where that gives the rows that adding B's rows one by one and then
/// finalize() would: B starts after the table's last row, at it, or before
/// it where the table keeps key order or B shares a run-word value with it
/// (the runs overlap, so finalize() would merge them). Returns
/// std::nullopt, the table unchanged, where it does not apply, or where the
/// table may hold many more rows than B: B then goes in as a run, merged
/// when the table has doubled, which bounds the work of a big table taking
/// many small batches.
std::optional<bool> RowTable::mergeInOnePass(RowBatch &B) {
  ArrayRef<uint32_t> Order = B.order();
  const unsigned KW = KeyWidth, VW = B.ValueWidth;
  auto BatchKey = [&](size_t J) { return B.row(Order[J]); };
  if (!has(Sorted) || (state() && state()->Runs) ||
      Data.size() > 4 * B.size() * (2 + KW + VW))
    return std::nullopt;
  // Continuing the table needs no pass over it.
  if (state() && compareKeys(ArrayRef(BatchKey(0), KW), state()->lastKey()) > 0)
    return std::nullopt;

  SmallVector<uint8_t, 0> &Out = B.Encoded;
  size_t Used = 0, LastRowAt = 0;
  uint64_t Last[MaxKeyWidth], TableLast[MaxKeyWidth]; // TableLast: set below.
  std::fill_n(Last, KW, 0);
  SmallVector<uint64_t, 16> Sum;
  // The run-word values of the table and of B, in order, each change once:
  // only a table that does not keep key order yet needs them.
  SmallVector<uint64_t, 8> TableWords, BatchWords;
  auto Note = [&](SmallVectorImpl<uint64_t> &Words, uint64_t W) {
    if (!has(KeyOrder) && (Words.empty() || Words.back() != W))
      Words.push_back(W);
  };
  auto Emit = [&](const uint64_t *Key, const uint64_t *Values, size_t N) {
    size_t Need = Used + maxEncodedSize(KW + N);
    if (Out.size() < Need)
      Out.resize_for_overwrite(std::max(2 * Out.size(), Need));
    LastRowAt = Used;
    Used = encodeRow(Out.data() + Used, Key, Last, KW, Values, N) - Out.data();
  };
  bool Ok = true;
  iterator It = begin(), E = end();
  for (size_t J = 0, NB = Order.size(); It != E || J != NB;) {
    int Cmp = It == E ? 1 : J == NB ? -1 : compareKeys(It->Key, BatchKey(J));
    if (Cmp > 0) {
      const uint64_t *R = BatchKey(J++);
      Note(BatchWords, R[RunWord]);
      Emit(R, R + KW, VW);
      continue;
    }
    Note(TableWords, It->Key[RunWord]);
    std::copy(It->Key.begin(), It->Key.end(), TableLast);
    if (Cmp < 0) {
      Emit(It->Key.data(), It->Values.data(), It->Values.size());
    } else {
      const uint64_t *R = BatchKey(J++);
      Note(BatchWords, R[RunWord]);
      Sum.assign(It->Values.begin(), It->Values.end());
      Sum.resize(std::max<size_t>(Sum.size(), VW));
      for (unsigned V = 0; V != VW; ++V)
        Ok &= addCost(Sum[V], R[KW + V]);
      Emit(R, Sum.data(), Sum.size());
    }
    ++It;
  }

  if (compareKeys(ArrayRef(BatchKey(0), KW), TableLast) < 0) {
    if (!has(KeyOrder)) {
      auto Distinct = [](SmallVectorImpl<uint64_t> &Words) {
        llvm::sort(Words);
        Words.erase(std::unique(Words.begin(), Words.end()), Words.end());
      };
      Distinct(TableWords);
      Distinct(BatchWords);
      auto T = TableWords.begin(), BW = BatchWords.begin();
      while (T != TableWords.end() && BW != BatchWords.end() && *T != *BW)
        *T < *BW ? ++T : ++BW;
      if (T == TableWords.end() || BW == BatchWords.end())
        return std::nullopt; // Disjoint runs: B stays a run of its own.
    }
    set(KeyOrder, true);
  }
  Data.assign(Out.data(), Out.data() + Used);
  if (state()) {
    std::copy(Last, Last + KW, state()->lastKey());
    state()->LastRowOffset = uint32_t(LastRowAt);
    state()->BytesAfterCompaction = uint32_t(Used);
  }
  return Ok;
}

bool RowTable::mergeBatch(RowBatch &B) {
  assert(B.KeyWidth == KeyWidth && "batch of the wrong width");
  if (B.empty())
    return true;
  bool Ok = B.sortAndSum();
  if (!empty())
    if (std::optional<bool> Merged = mergeInOnePass(B)) {
      B.clear();
      return Ok && *Merged;
    }
  return addSortedBatch(B) && Ok;
}

bool RowTable::addBatch(RowBatch &B, RowArena *Arena) {
  assert(B.KeyWidth == KeyWidth && "batch of the wrong width");
  if (B.empty())
    return true;
  bool Ok = B.sortAndSum();
  return addSortedBatch(B, Arena) && Ok;
}

bool RowTable::addSortedBatch(RowBatch &B, RowArena *Arena) {
  bool Ok = true;
  // A new table needs no build state (one allocation per table of a
  // profile): its rows start from zeros, and a later add() rebuilds the
  // state from them, as after shrink().
  uint64_t NewTableKey[MaxKeyWidth] = {};
  uint64_t *LastKey = NewTableKey;
  if (state() || !empty()) {
    BuildState &S = build();
    auto KeyOf = [&](uint32_t I) { return ArrayRef(B.row(I), KeyWidth); };
    // Rows that continue the table in key order are encoded in one go; any
    // other batch goes row by row, through the run bookkeeping of add().
    if (S.Runs ||
        (!empty() && compareKeys(KeyOf(B.Order.front()), S.lastKey()) <= 0)) {
      for (uint32_t I : B.Order)
        Ok &= add(KeyOf(I), ArrayRef(B.row(I) + KeyWidth, B.ValueWidth));
      B.clear();
      return Ok;
    }
    LastKey = S.lastKey();
  }
  B.Encoded.resize_for_overwrite(B.Order.size() *
                                 maxEncodedSize(KeyWidth + B.ValueWidth));
  uint8_t *Out = B.Encoded.data(), *LastRow = Out;
  // Loops unrolled for the key widths of self, call and jump rows with one
  // position (line: 3, 5, 7) or two (instr line, valgrind's
  // --dump-instr=yes: 4, 7, 9); any other width takes the general loop.
  using Encoder =
      uint8_t *(*)(uint8_t *, const RowBatch &, uint64_t *, uint8_t *&);
  static constexpr Encoder ByWidth[2][10] = {
      {encodeInOrder<0, false>, encodeInOrder<0, false>,
       encodeInOrder<2, false>, encodeInOrder<3, false>,
       encodeInOrder<4, false>, encodeInOrder<5, false>,
       encodeInOrder<0, false>, encodeInOrder<7, false>,
       encodeInOrder<0, false>, encodeInOrder<9, false>},
      {encodeInOrder<0, true>, encodeInOrder<0, true>, encodeInOrder<2, true>,
       encodeInOrder<3, true>, encodeInOrder<4, true>, encodeInOrder<5, true>,
       encodeInOrder<0, true>, encodeInOrder<7, true>, encodeInOrder<0, true>,
       encodeInOrder<9, true>}};
  const bool Wide = B.ValueWidth > 4;
  Encoder Encode = KeyWidth < std::size(ByWidth[0]) ? ByWidth[Wide][KeyWidth]
                   : Wide                           ? encodeInOrder<0, true>
                                                    : encodeInOrder<0, false>;
  Out = Encode(Out, B, LastKey, LastRow);
  if (state())
    state()->LastRowOffset = Data.size() + (LastRow - B.Encoded.data());
  if (Arena && empty() && !state() &&
      size_t(Out - B.Encoded.data()) <= RowArena::MaxBytes)
    Data.assignInArena(*Arena, B.Encoded.data(), Out);
  else
    Data.append(B.Encoded.data(), Out);
  B.clear();
  return Ok;
}

size_t RowTable::size() const {
  size_t N = 0;
  for (auto I = begin(), E = end(); I != E; ++I)
    ++N;
  return N;
}

RowTable::iterator RowTable::begin() const {
  return iterator(Data.data(), Data.data() + Data.size(), KeyWidth);
}
RowTable::iterator RowTable::end() const {
  const uint8_t *E = Data.data() + Data.size();
  return iterator(E, E, KeyWidth);
}

size_t RowBatchLog::append(uint64_t Tag, const RowBatch &B) {
  unsigned KW = B.keyWidth(), VW = B.valueWidth();
  size_t Need = 40 + B.order().size() * (2 + 10 * (KW + VW + 1));
  if (Blocks.empty() ||
      Blocks.back().capacity() - Blocks.back().size() < Need) {
    Blocks.emplace_back();
    Blocks.back().reserve(std::max<size_t>(Need, 1 << 20));
  }
  SmallVector<uint8_t, 0> &Block = Blocks.back();
  size_t Start = Block.size();
  Block.resize_for_overwrite(Start + Need); // Within the capacity.
  uint8_t *Out = Block.data() + Start;
  for (uint64_t V : {Tag, uint64_t(KW)})
    Out = writeVarint(Out, V);
  uint8_t *Length = Out;
  Out += sizeof(uint64_t);
  uint64_t Last[RowTable::MaxKeyWidth] = {};
  for (uint32_t I : B.order()) {
    const uint64_t *R = B.row(I);
    Out = encodeRow(Out, R, Last, KW, R + KW, VW);
  }
  uint64_t Bytes = Out - (Length + sizeof(uint64_t));
  memcpy(Length, &Bytes, sizeof(Bytes));
  Block.truncate(Out - Block.data());
  return Block.size() - Start;
}

void RowBatchLog::replay(RowBatch &B,
                         function_ref<void(uint64_t, RowBatch &)> Deliver) {
  for (; !Blocks.empty(); Blocks.pop_front()) {
    const uint8_t *P = Blocks.front().data();
    const uint8_t *E = P + Blocks.front().size();
    while (P != E) {
      uint64_t Tag = readVarint(P);
      unsigned KW = readVarint(P);
      uint64_t Bytes;
      memcpy(&Bytes, P, sizeof(Bytes));
      P += sizeof(Bytes);
      B.clear();
      B.setKeyWidth(KW);
      RowTable::iterator End(P + Bytes, P + Bytes, KW);
      for (RowTable::iterator It(P, P + Bytes, KW); It != End; ++It) {
        uint64_t *R = B.appendRow(It->Values.size());
        copy(It->Key, R);
        copy(It->Values, R + KW);
      }
      P += Bytes;
      Deliver(Tag, B);
    }
  }
}
