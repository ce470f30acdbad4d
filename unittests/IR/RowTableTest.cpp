//===- RowTableTest.cpp - Tests of the compact row table ------------------===//

#include "profkit/IR/RowTable.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <map>
#include <random>
#include <utility>
#include <vector>

using namespace profkit;

namespace {

using Rows = std::map<std::vector<uint64_t>, std::vector<uint64_t>>;

Rows collect(const RowTable &T) {
  Rows R;
  for (const Row &Rw : T) {
    std::vector<uint64_t> K(Rw.Key.begin(), Rw.Key.end());
    EXPECT_EQ(R.count(K), 0u) << "duplicate key after finalize";
    R[K] = std::vector<uint64_t>(Rw.Values.begin(), Rw.Values.end());
  }
  return R;
}

/// Adds the row (K, V) to the model Ref, as a table sums a repeated key.
void addTo(Rows &Ref, const std::vector<uint64_t> &K,
           const std::vector<uint64_t> &V) {
  std::vector<uint64_t> &Sum = Ref[K];
  if (Sum.size() < V.size())
    Sum.resize(V.size());
  for (size_t J = 0; J != V.size(); ++J)
    Sum[J] += V[J];
}

/// Ref as a table gives it back: values without trailing zeros.
Rows withoutTrailingZeros(Rows Ref) {
  for (auto &[K, V] : Ref)
    while (!V.empty() && !V.back())
      V.pop_back();
  return Ref;
}

TEST(RowTable, SortedAppendKeepsOrderAndValues) {
  RowTable T(2);
  ASSERT_TRUE(T.add({1, 10}, {5, 0, 7}));
  ASSERT_TRUE(T.add({1, 12}, {3}));
  ASSERT_TRUE(T.add({2, 1}, {}));
  ASSERT_TRUE(T.finalize());
  EXPECT_EQ(T.size(), 3u);
  std::vector<std::vector<uint64_t>> Keys;
  for (const Row &R : T)
    Keys.emplace_back(R.Key.begin(), R.Key.end());
  EXPECT_EQ(Keys,
            (std::vector<std::vector<uint64_t>>{{1, 10}, {1, 12}, {2, 1}}));
  Rows R = collect(T);
  EXPECT_EQ(R[(std::vector<uint64_t>{1, 10})],
            (std::vector<uint64_t>{5, 0, 7}));
  EXPECT_TRUE(R[(std::vector<uint64_t>{2, 1})].empty());
}

TEST(RowTable, RepeatedKeyIsSummed) {
  RowTable T(1);
  ASSERT_TRUE(T.add({4}, {1, 2}));
  ASSERT_TRUE(T.add({4}, {10}));
  EXPECT_EQ(T.size(), 1u);
  EXPECT_EQ(collect(T)[{4}], (std::vector<uint64_t>{11, 2}));
}

TEST(RowTable, OutOfOrderRowsMergeOnFinalize) {
  RowTable T(1);
  ASSERT_TRUE(T.add({5}, {1}));
  ASSERT_TRUE(T.add({3}, {1}));
  ASSERT_TRUE(T.add({5}, {2}));
  EXPECT_FALSE(T.isFinalized());
  ASSERT_TRUE(T.finalize());
  Rows R = collect(T);
  EXPECT_EQ(R.size(), 2u);
  EXPECT_EQ(R[{5}], std::vector<uint64_t>{3});
  EXPECT_EQ(R[{3}], std::vector<uint64_t>{1});
}

TEST(RowTable, SumsOfRepeatedKeysAreCheckedInPlace) {
  const uint64_t Half = uint64_t(1) << 63;
  RowTable T(1);
  ASSERT_TRUE(T.add({5}, {Half}));
  ASSERT_TRUE(T.add({7}, {1}));
  EXPECT_TRUE(T.sumsFit());
  // A run of its own: the key's sum is past 64 bits only once merged.
  ASSERT_TRUE(T.add({5}, {Half - 1}));
  T.shrink(); // As a reader leaves a part's tables.
  EXPECT_TRUE(T.sumsFit());
  ASSERT_TRUE(T.add({5}, {1})); // Sums into the last row: Half.
  T.shrink();
  EXPECT_EQ(T.size(), 3u);
  EXPECT_FALSE(T.sumsFit());
  EXPECT_EQ(T.size(), 3u) << "the check merged the table's rows";
}

TEST(RowTable, DisjointRunsStayAsTheyAre) {
  // Key [position, file]: callgrind lists a function's own lines, then the
  // lines of each inlined file, each by address.
  RowTable T(2, /*RunWord=*/1);
  ASSERT_TRUE(T.add({10, 1}, {1}));
  ASSERT_TRUE(T.add({20, 1}, {2}));
  ASSERT_TRUE(T.add({5, 2}, {3}));
  ASSERT_TRUE(T.add({15, 2}, {4}));
  ASSERT_TRUE(T.finalize());
  EXPECT_TRUE(T.isFinalized());
  EXPECT_FALSE(T.isSorted());
  EXPECT_EQ(T.size(), 4u);
  EXPECT_EQ(collect(T)[(std::vector<uint64_t>{5, 2})],
            std::vector<uint64_t>{3});
}

TEST(RowTable, RunsThatTouchAreMerged) {
  RowTable T(2, /*RunWord=*/1);
  ASSERT_TRUE(T.add({10, 1}, {1}));
  ASSERT_TRUE(T.add({20, 1}, {1}));
  ASSERT_TRUE(T.add({5, 2}, {1}));
  ASSERT_TRUE(T.add({20, 1}, {4})); // Starts where the first run ended.
  ASSERT_TRUE(T.finalize());
  Rows R = collect(T);
  EXPECT_EQ(R.size(), 3u);
  EXPECT_EQ(R[(std::vector<uint64_t>{20, 1})], std::vector<uint64_t>{5});
}

TEST(RowTable, OverlappingRunsAreMerged) {
  RowTable T(2, /*RunWord=*/1);
  ASSERT_TRUE(T.add({10, 1}, {1}));
  ASSERT_TRUE(T.add({5, 2}, {3}));
  ASSERT_TRUE(T.add({10, 1}, {4})); // Run 3 is in file 1 again.
  EXPECT_FALSE(T.isFinalized());
  ASSERT_TRUE(T.finalize());
  EXPECT_TRUE(T.isSorted());
  Rows R = collect(T);
  EXPECT_EQ(R.size(), 2u);
  EXPECT_EQ(R[(std::vector<uint64_t>{10, 1})], std::vector<uint64_t>{5});
}

TEST(RowTable, AddingAfterShrinkRebuildsTheState) {
  RowTable T(2, /*RunWord=*/1);
  ASSERT_TRUE(T.add({10, 1}, {1, 2}));
  ASSERT_TRUE(T.add({5, 2}, {3})); // A second run.
  T.shrink();
  ASSERT_TRUE(T.add({5, 2}, {4}));  // Sums into the last row.
  ASSERT_TRUE(T.add({10, 1}, {1})); // Overlaps the first run.
  ASSERT_TRUE(T.add({20, 1}, {7}));
  ASSERT_TRUE(T.finalize());
  Rows R = collect(T);
  EXPECT_EQ(R.size(), 3u);
  EXPECT_EQ(R[(std::vector<uint64_t>{10, 1})], (std::vector<uint64_t>{2, 2}));
  EXPECT_EQ(R[(std::vector<uint64_t>{5, 2})], std::vector<uint64_t>{7});
  EXPECT_EQ(R[(std::vector<uint64_t>{20, 1})], std::vector<uint64_t>{7});
}

TEST(RowTable, RowsGrowPastTheBlockThatShrinkLeft) {
  // Rows past the 16 bytes kept in the table go to the heap; shrink() fits
  // the block to them, and the rows added after it must not be lost.
  RowTable T(2);
  for (uint64_t I = 0; I != 40; ++I) {
    ASSERT_TRUE(T.add({I, 1}, {I * 1000, 7}));
    if (I % 9 == 0)
      T.shrink();
  }
  EXPECT_EQ(T.size(), 40u);
  Rows R = collect(T);
  ASSERT_EQ(R.size(), 40u);
  EXPECT_EQ(R[(std::vector<uint64_t>{39, 1})],
            (std::vector<uint64_t>{39000, 7}));
  EXPECT_EQ(R[(std::vector<uint64_t>{0, 1})], (std::vector<uint64_t>{0, 7}));
  // clear() frees the rows and keeps the key width.
  T.clear();
  EXPECT_TRUE(T.empty());
  EXPECT_EQ(T.keyWidth(), 2u);
  ASSERT_TRUE(T.add({3, 4}, {5}));
  EXPECT_EQ(collect(T)[(std::vector<uint64_t>{3, 4})],
            std::vector<uint64_t>{5});
}

TEST(RowTable, BuildStateMovesWithTheRows) {
  // A table that grows twice keeps its build state beside its rows, in the
  // table: moving or replacing the table takes or frees it with them (the
  // sanitizers check the freeing).
  RowTable T(2);
  ASSERT_TRUE(T.add({10, 1}, {1}));
  ASSERT_TRUE(T.add({5, 2}, {3})); // Out of order: state with runs.
  RowTable Moved = std::move(T);
  ASSERT_TRUE(Moved.add({10, 1}, {1}));
  EXPECT_FALSE(Moved.isFinalized());
  RowTable Other(2);
  ASSERT_TRUE(Other.add({1, 1}, {1}));
  ASSERT_TRUE(Other.add({2, 1}, {1}));
  Other = std::move(Moved); // Other's own state goes.
  ASSERT_TRUE(Other.finalize());
  Other.shrink(); // Two short rows: back into the table.
  Rows R = collect(Other);
  ASSERT_EQ(R.size(), 2u);
  EXPECT_EQ(R[(std::vector<uint64_t>{10, 1})], std::vector<uint64_t>{2});
  EXPECT_EQ(R[(std::vector<uint64_t>{5, 2})], std::vector<uint64_t>{3});
}

TEST(RowTable, RowsInAnArenaOutliveItAndMoveOutToGrow) {
  // A new table's rows go into the arena when they are more than the table
  // holds and few; each such table keeps its slab alive (the sanitizers
  // check what is read after the arena is gone, and that the last table
  // frees the slab).
  auto Arena = std::make_unique<RowArena>();
  auto BatchOf = [](uint64_t NumRows) {
    RowBatch B(2);
    for (uint64_t I = 0; I != NumRows; ++I)
      B.add({I, 1}, {I * 1000, 7});
    return B;
  };
  RowTable Few(2), Some(2), Many(2), Moved(2);
  RowBatch B = BatchOf(1);
  ASSERT_TRUE(Few.addBatch(B, Arena.get())); // In the table.
  EXPECT_EQ(Few.encodedBytes(), 0u);
  B = BatchOf(6);
  ASSERT_TRUE(Some.addBatch(B, Arena.get()));
  size_t SomeBytes = Some.encodedBytes();
  B = BatchOf(200);
  ASSERT_TRUE(Many.addBatch(B, Arena.get())); // Its own heap block.
  // Rows enough to fill several slabs, each table in one.
  std::vector<RowTable> Tables;
  for (int I = 0; I != 5000; ++I) {
    Tables.emplace_back(2);
    B = BatchOf(6);
    ASSERT_TRUE(Tables.back().addBatch(B, Arena.get()));
    EXPECT_EQ(Tables.back().encodedBytes(), SomeBytes);
  }
  Moved = std::move(Some);
  Moved.shrink(); // Already its size.
  EXPECT_EQ(Moved.encodedBytes(), SomeBytes);
  Arena.reset();
  Tables.erase(Tables.begin(), Tables.begin() + 2500);
  for (const RowTable &T : Tables)
    EXPECT_EQ(collect(T).size(), 6u);
  Tables.clear();
  EXPECT_EQ(collect(Moved).size(), 6u);
  EXPECT_EQ(collect(Few).size(), 1u);
  EXPECT_EQ(collect(Many).size(), 200u);
  // Growing moves the rows to the heap and lets go of the arena's.
  ASSERT_TRUE(Moved.add({100, 1}, {5}));
  Rows R = collect(Moved);
  ASSERT_EQ(R.size(), 7u);
  EXPECT_EQ(R[(std::vector<uint64_t>{5, 1})], (std::vector<uint64_t>{5000, 7}));
  EXPECT_EQ(R[(std::vector<uint64_t>{100, 1})], std::vector<uint64_t>{5});
}

TEST(RowTable, LargeAndDecreasingKeysRoundTrip) {
  RowTable T(2);
  ASSERT_TRUE(T.add({UINT64_MAX, 0}, {UINT64_MAX}));
  ASSERT_TRUE(T.add({0, UINT64_MAX}, {1}));
  ASSERT_TRUE(T.finalize());
  Rows R = collect(T);
  EXPECT_EQ(R[(std::vector<uint64_t>{UINT64_MAX, 0})],
            std::vector<uint64_t>{UINT64_MAX});
  EXPECT_EQ(R[(std::vector<uint64_t>{0, UINT64_MAX})],
            std::vector<uint64_t>{1});
}

TEST(RowTable, ValuesAndKeysAtEveryVarintWidthRoundTrip) {
  // One, two and three bytes and more, on both sides of each step; key
  // deltas of either sign.
  std::vector<uint64_t> Edges;
  for (unsigned Bits = 7; Bits < 64; Bits += 7)
    for (uint64_t V : {(uint64_t(1) << Bits) - 1, uint64_t(1) << Bits})
      Edges.push_back(V);
  Edges.push_back(UINT64_MAX);
  RowTable T(2);
  Rows Ref;
  for (size_t I = 0; I != Edges.size(); ++I) {
    std::vector<uint64_t> K = {I, Edges[Edges.size() - 1 - I]};
    std::vector<uint64_t> V = {Edges[I], 1, Edges[(I + 3) % Edges.size()]};
    ASSERT_TRUE(T.add(K, V));
    Ref[K] = V;
  }
  ASSERT_TRUE(T.finalize());
  EXPECT_EQ(collect(T), Ref);
}

TEST(RowTable, OverflowIsReportedAndSaturates) {
  RowTable T(1);
  ASSERT_TRUE(T.add({1}, {UINT64_MAX - 1}));
  EXPECT_FALSE(T.add({1}, {2}));
  EXPECT_EQ(collect(T)[{1}], std::vector<uint64_t>{UINT64_MAX});

  RowTable U(1); // Overflow found while compacting.
  ASSERT_TRUE(U.add({2}, {UINT64_MAX}));
  ASSERT_TRUE(U.add({1}, {1}));
  ASSERT_TRUE(U.add({2}, {1}));
  EXPECT_FALSE(U.finalize());
}

TEST(RowTable, RepeatedKeysUseBoundedMemory) {
  // Xdebug repeats a function's rows once per call, out of order.
  RowTable T(1);
  for (int Call = 0; Call != 100000; ++Call)
    for (uint64_t Line : {30, 10, 20})
      ASSERT_TRUE(T.add({Line}, {1}));
  EXPECT_LT(T.encodedBytes(), 64u * 1024);
  ASSERT_TRUE(T.finalize());
  Rows R = collect(T);
  EXPECT_EQ(R.size(), 3u);
  EXPECT_EQ(R[{10}], std::vector<uint64_t>{100000});
}

TEST(RowBatch, OverlappingRunsAreSortedAndSummed) {
  // callgrind lists a function's instructions basic block by basic block,
  // and blocks overlap: addresses climb, drop back, climb again.
  RowTable T(2);
  RowBatch B(2);
  for (uint64_t A : {10, 11, 12, 13, 11, 12, 13, 5, 6, 12})
    B.add({A, 1}, {1});
  B.add({12, 2}, {0, 7}); // A wider row: the earlier rows widen with it.
  ASSERT_TRUE(T.addBatch(B));
  EXPECT_TRUE(B.empty());
  EXPECT_TRUE(T.isSorted());
  EXPECT_TRUE(T.isFinalized());
  std::vector<std::vector<uint64_t>> Keys;
  for (const Row &R : T)
    Keys.emplace_back(R.Key.begin(), R.Key.end());
  EXPECT_EQ(Keys,
            (std::vector<std::vector<uint64_t>>{
                {5, 1}, {6, 1}, {10, 1}, {11, 1}, {12, 1}, {12, 2}, {13, 1}}));
  Rows R = collect(T);
  EXPECT_EQ(R[(std::vector<uint64_t>{12, 1})], std::vector<uint64_t>{3});
  EXPECT_EQ(R[(std::vector<uint64_t>{12, 2})], (std::vector<uint64_t>{0, 7}));
}

TEST(RowBatch, LaterBatchesContinueOrGoRowByRow) {
  RowTable T(1);
  RowBatch B(1);
  B.add({1}, {1});
  B.add({2}, {1});
  ASSERT_TRUE(T.addBatch(B));
  B.add({3}, {1}); // Continues the table.
  ASSERT_TRUE(T.addBatch(B));
  EXPECT_TRUE(T.isSorted());
  B.add({2}, {5}); // Repeats a key already in the table.
  B.add({4}, {1});
  ASSERT_TRUE(T.addBatch(B));
  ASSERT_TRUE(T.finalize());
  Rows R = collect(T);
  EXPECT_EQ(R.size(), 4u);
  EXPECT_EQ(R[{2}], std::vector<uint64_t>{6});
  EXPECT_EQ(R[{4}], std::vector<uint64_t>{1});
}

TEST(RowBatch, MergedBatchesKeepKeyOrderOnceTheyOverlap) {
  RowTable T(2, /*RunWord=*/1);
  RowBatch B(2);
  auto Positions = [&] {
    std::vector<uint64_t> P;
    for (const Row &R : T)
      P.push_back(R.Key[0]);
    return P;
  };
  B.add({10, 1}, {1});
  B.add({20, 1}, {1});
  ASSERT_TRUE(T.mergeBatch(B));
  B.add({30, 2}, {1}); // Continues the table.
  ASSERT_TRUE(T.mergeBatch(B));
  B.add({2, 3}, {1}); // Before it, in a file of its own: a run apart.
  ASSERT_TRUE(T.mergeBatch(B));
  EXPECT_EQ(Positions(), (std::vector<uint64_t>{10, 20, 30, 2}));
  ASSERT_TRUE(T.finalize());
  EXPECT_FALSE(T.isSorted());

  RowTable U(2, /*RunWord=*/1);
  B.add({10, 1}, {1});
  B.add({20, 1}, {1});
  ASSERT_TRUE(U.mergeBatch(B));
  B.add({5, 1}, {1}); // Before it, in its file: merged at once.
  B.add({20, 1}, {2});
  ASSERT_TRUE(U.mergeBatch(B));
  EXPECT_TRUE(U.isSorted());
  EXPECT_TRUE(U.isFinalized());
  B.add({3, 2}, {1}); // In a file of its own, but the table keeps key order.
  ASSERT_TRUE(U.mergeBatch(B));
  ASSERT_TRUE(U.finalize());
  std::swap(T, U);
  EXPECT_EQ(Positions(), (std::vector<uint64_t>{3, 5, 10, 20}));
  EXPECT_EQ(collect(T)[(std::vector<uint64_t>{20, 1})],
            std::vector<uint64_t>{3});
}

TEST(RowBatch, OverflowIsReportedAndSaturates) {
  RowTable T(1);
  RowBatch B(1);
  B.add({1}, {UINT64_MAX});
  B.add({0}, {1});
  B.add({1}, {1});
  EXPECT_FALSE(T.addBatch(B));
  EXPECT_EQ(collect(T)[{1}], std::vector<uint64_t>{UINT64_MAX});
}

TEST(RowBatch, PoppedRowIsGone) {
  RowTable T(1);
  RowBatch B(1);
  B.add({1}, {1});
  B.appendRow(3)[0] = 2;
  B.popRow();
  ASSERT_TRUE(T.addBatch(B));
  EXPECT_EQ(collect(T), (Rows{{{1}, {1}}}));
}

// sortAndSum() sorts a batch of up to 64 rows by insertion; a larger one it
// places row by row into the rows sorted so far, and sorts the rest by
// merging runs once placing them would move too many rows: each shape and
// size below takes one path or two. The order must be that of a stable sort,
// each key once, represented by its first row, with the values of its rows
// summed.
TEST(RowBatch, SortAndSumMatchesStableSort) {
  std::mt19937_64 Rng(11);
  auto Shapes = {
      // Overlapping basic blocks: drop back a little, climb past the end.
      +[](std::mt19937_64 &R, uint64_t Last) {
        return R() % 10 ? Last + 1 + R() % 3 : Last - std::min(Last, R() % 8);
      },
      // Drops far back, into the middle of the sorted rows.
      +[](std::mt19937_64 &R, uint64_t Last) {
        return R() % 50 ? Last + 1 : R() % (Last + 1);
      },
      // Decreasing keys: every row goes before all others.
      +[](std::mt19937_64 &, uint64_t Last) { return Last ? Last - 1 : 0; },
      // Few distinct keys, in any order.
      +[](std::mt19937_64 &R, uint64_t) { return uint64_t(R() % 5); },
  };
  for (auto Next : Shapes) {
    for (unsigned N : {1u, 2u, 3u, 31u, 63u, 64u, 65u, 500u}) {
      RowBatch B(2);
      std::vector<std::vector<uint64_t>> Added;
      uint64_t Last = 1000;
      for (unsigned I = 0; I != N; ++I) {
        Last = Next(Rng, Last);
        std::vector<uint64_t> Row{Last, Rng() % 2, Rng() % 100};
        B.add({Row[0], Row[1]}, {Row[2]});
        Added.push_back(Row);
      }
      std::vector<uint32_t> Expected(N);
      for (uint32_t I = 0; I != N; ++I)
        Expected[I] = I;
      auto KeyLess = [&](uint32_t A, uint32_t C) {
        return std::make_pair(Added[A][0], Added[A][1]) <
               std::make_pair(Added[C][0], Added[C][1]);
      };
      std::stable_sort(Expected.begin(), Expected.end(), KeyLess);
      std::vector<uint32_t> Firsts;
      std::map<uint32_t, uint64_t> Sums;
      for (uint32_t I : Expected) {
        if (Firsts.empty() || KeyLess(Firsts.back(), I))
          Firsts.push_back(I);
        Sums[Firsts.back()] += Added[I][2];
      }
      ASSERT_TRUE(B.sortAndSum());
      const RowBatch &Sorted = B;
      std::vector<uint32_t> Got(Sorted.order().begin(), Sorted.order().end());
      EXPECT_EQ(Got, Firsts) << N << " rows";
      for (uint32_t I : Got)
        EXPECT_EQ(Sorted.row(I)[2], Sums[I]);
    }
  }
}

// A row's header holds its value count in the bits its key's mask leaves,
// or says that the row's values are the row before's: every key width,
// counts on both sides of what fits there, rows with the values of the row
// before, rows summed into the last one across that bound, and tables read
// again after shrink().
TEST(RowTable, EveryKeyWidthAndValueCount) {
  std::mt19937_64 Rng(11);
  for (unsigned KW = 1; KW <= RowTable::MaxKeyWidth; ++KW) {
    RowTable ByRow(KW);
    RowTable ByBatch(KW);
    RowBatch B(KW);
    Rows Ref;
    std::vector<uint64_t> K(KW, 0), V;
    for (int I = 0; I != 3000; ++I) {
      // Increasing keys; a third of the rows repeat the last key.
      if (Rng() % 3) {
        unsigned W = Rng() % KW;
        K[W] += 1 + Rng() % 300;
        for (unsigned J = W + 1; J != KW; ++J)
          K[J] = Rng() % 3;
      }
      if (Rng() % 2) { // Else the values of the row before.
        V.assign(Rng() % 50 ? Rng() % 40 : 100 + Rng() % 200, 0);
        for (uint64_t &X : V)
          X = Rng() % 3 ? Rng() % (uint64_t(1) << (Rng() % 40)) : 0;
      }
      ASSERT_TRUE(ByRow.add(K, V));
      if (Rng() % 10) {
        B.add(K, V);
      } else {
        ASSERT_TRUE(ByBatch.addBatch(B));
        ASSERT_TRUE(ByBatch.add(K, V));
      }
      if (Rng() % 20 == 0) {
        ASSERT_TRUE(ByBatch.addBatch(B));
      }
      if (Rng() % 200 == 0) {
        ByRow.shrink();
        ByBatch.shrink();
      }
      addTo(Ref, K, V);
    }
    ASSERT_TRUE(ByBatch.addBatch(B));
    ASSERT_TRUE(ByRow.finalize());
    ASSERT_TRUE(ByBatch.finalize());
    Ref = withoutTrailingZeros(Ref);
    EXPECT_EQ(collect(ByRow), Ref) << KW << " key words";
    EXPECT_EQ(collect(ByBatch), Ref) << KW << " key words";
  }
}

class RandomRows : public ::testing::TestWithParam<unsigned> {};

TEST_P(RandomRows, MatchReferenceMap) {
  std::mt19937_64 Rng(42);
  RowTable T(2, /*RunWord=*/GetParam());
  Rows Ref;
  for (int I = 0; I != 20000; ++I) {
    std::vector<uint64_t> K{Rng() % 300, Rng() % 4}; // position, file
    std::vector<uint64_t> V(Rng() % 4);
    for (uint64_t &X : V)
      X = Rng() % 1000;
    ASSERT_TRUE(T.add(K, V));
    addTo(Ref, K, V);
  }
  ASSERT_TRUE(T.finalize());
  EXPECT_EQ(collect(T), withoutTrailingZeros(Ref));
}

TEST_P(RandomRows, BatchesMatchReferenceMap) {
  std::mt19937_64 Rng(7);
  RowTable T(2, /*RunWord=*/GetParam());
  RowBatch B(2);
  Rows Ref;
  uint64_t Base = 0;
  for (int I = 0; I != 20000; ++I) {
    // Mostly climbing, now and then dropping back, as profilers list rows.
    Base = Rng() % 8 ? Base + Rng() % 5 : Rng() % 300;
    std::vector<uint64_t> K{Base, Rng() % 2}; // position, file
    std::vector<uint64_t> V(Rng() % 4);
    for (uint64_t &X : V)
      X = Rng() % 1000;
    if (Rng() % 16 == 0) {
      ASSERT_TRUE(T.add(K, V));
    } else {
      B.add(K, V);
      if (Rng() % 50 == 0) {
        ASSERT_TRUE(T.addBatch(B));
      }
    }
    addTo(Ref, K, V);
  }
  ASSERT_TRUE(T.addBatch(B));
  ASSERT_TRUE(T.finalize());
  EXPECT_EQ(collect(T), withoutTrailingZeros(Ref));
}

// mergeBatch() of a batch whose rows come in key order (merge adds each
// input's rows of a function so) gives, once finalized, the table that
// adding its rows one by one gives, in the same order: a batch merged with
// the rows in one pass, or appended, or added as a run. Batches that continue
// the table, repeat its keys, start before it in the same files or in others,
// into tables small and large, with and without the state that shrink() frees.
TEST_P(RandomRows, InOrderBatchesMatchRowByRow) {
  std::mt19937_64 Rng(5);
  auto Decode = [](const RowTable &T) {
    std::vector<std::vector<uint64_t>> Rows;
    for (const Row &R : T) {
      Rows.emplace_back(R.Key.begin(), R.Key.end());
      Rows.back().insert(Rows.back().end(), R.Values.begin(), R.Values.end());
      Rows.back().push_back(R.Values.size());
    }
    return Rows;
  };
  for (int Trial = 0; Trial != 300; ++Trial) {
    RowTable ByBatch(2, GetParam()), ByRow(2, GetParam());
    RowBatch B(2);
    for (int Batch = 0, NB = 1 + Rng() % 6; Batch != NB; ++Batch) {
      // A run of increasing keys, some files only, from a random start.
      uint64_t Pos = Rng() % 3 ? Rng() % 40 : 0;
      unsigned Files = 1 + Rng() % 3, FileBase = Rng() % 2;
      for (int I = 0, N = 1 + Rng() % (Rng() % 4 ? 8 : 200); I != N; ++I) {
        uint64_t File = FileBase + Rng() % Files;
        std::vector<uint64_t> V(1 + Rng() % 3);
        for (uint64_t &X : V)
          X = Rng() % 4 ? Rng() % 100 : 0;
        if (!B.empty()) {
          const uint64_t *Prev = std::as_const(B).row(B.size() - 1);
          if (std::make_pair(Pos, File) < std::make_pair(Prev[0], Prev[1]))
            File = Prev[1] + Rng() % 2;
        }
        B.add({Pos, File}, V);
        ASSERT_TRUE(ByRow.add({Pos, File}, V));
        Pos += Rng() % 3;
      }
      ASSERT_TRUE(ByBatch.mergeBatch(B));
      if (Rng() % 4 == 0) {
        ASSERT_TRUE(ByBatch.finalize());
        ASSERT_TRUE(ByRow.finalize());
        ByBatch.shrink();
        ByRow.shrink();
      }
    }
    ASSERT_TRUE(ByBatch.finalize());
    ASSERT_TRUE(ByRow.finalize());
    ASSERT_EQ(Decode(ByBatch), Decode(ByRow)) << "trial " << Trial;
  }
}

// With the run word first and second (the position, the source file).
INSTANTIATE_TEST_SUITE_P(RunWords, RandomRows, ::testing::Values(0u, 1u));

} // namespace
