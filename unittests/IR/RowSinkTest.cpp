//===- RowSinkTest.cpp - Tests of rows stored on a worker thread ----------===//

#include "profkit/IR/RowSink.h"
#include "gtest/gtest.h"
#include <deque>
#include <random>
#include <vector>

using namespace profkit;

namespace {

/// The encoded rows of a table, row by row, in stored order.
std::vector<std::vector<uint64_t>> rowsOf(const RowTable &T) {
  std::vector<std::vector<uint64_t>> Out;
  for (const Row &R : T) {
    Out.emplace_back(R.Key.begin(), R.Key.end());
    Out.back().push_back(~0ull); // Separates the key from the values.
    Out.back().insert(Out.back().end(), R.Values.begin(), R.Values.end());
  }
  return Out;
}

/// Blocks of random rows for random tables, added through a sink and
/// directly with addBatch(): the tables must come out the same, row for
/// row, whether the sink stores them at once or on its worker.
void checkSameAsDirect(bool Threaded, unsigned NumBlocks) {
  std::mt19937_64 Rng(7);
  constexpr unsigned NumTables = 50;
  const unsigned Widths[RowSink::NumKinds] = {2, 3, 4};
  std::deque<RowTable> ViaSink, Direct;
  for (unsigned I = 0; I != NumTables * RowSink::NumKinds; ++I) {
    ViaSink.emplace_back(Widths[I % RowSink::NumKinds], 1);
    Direct.emplace_back(Widths[I % RowSink::NumKinds], 1);
  }
  RowSink Sink(Threaded);
  Sink.setKeyWidths(Widths);
  RowBatch Batches[RowSink::NumKinds];
  for (unsigned K = 0; K != RowSink::NumKinds; ++K)
    Batches[K].setKeyWidth(Widths[K]);
  for (unsigned Block = 0; Block != NumBlocks; ++Block) {
    unsigned Table = Rng() % NumTables;
    for (unsigned K = 0; K != RowSink::NumKinds; ++K) {
      for (unsigned N = Rng() % 60; N; --N) {
        // Overlapping increasing runs, repeated keys, ragged values.
        std::vector<uint64_t> Key(Widths[K]);
        Key[0] = Block * 7 + Rng() % 40;
        Key[1] = Rng() % 3;
        for (unsigned W = 2; W < Widths[K]; ++W)
          Key[W] = Rng() % 5;
        std::vector<uint64_t> Values(Rng() % 4);
        for (uint64_t &V : Values)
          V = Rng() % 1000;
        Sink.batch(K).add(Key, Values);
        Batches[K].add(Key, Values);
      }
    }
    RowTable *Tables[RowSink::NumKinds];
    for (unsigned K = 0; K != RowSink::NumKinds; ++K) {
      Tables[K] = &ViaSink[Table * RowSink::NumKinds + K];
      ASSERT_TRUE(Direct[Table * RowSink::NumKinds + K].addBatch(Batches[K]));
    }
    Sink.flush(Tables);
  }
  ASSERT_TRUE(Sink.drain());
  for (unsigned I = 0; I != ViaSink.size(); ++I)
    EXPECT_EQ(rowsOf(ViaSink[I]), rowsOf(Direct[I])) << "table " << I;
}

// Enough rows to fill many packets, so the worker starts and packets wait
// for each other.
TEST(RowSink, WorkerStoresAsAddBatchWould) { checkSameAsDirect(true, 3000); }
TEST(RowSink, InlineStoresAsAddBatchWould) { checkSameAsDirect(false, 3000); }
TEST(RowSink, SmallInputStoresAtDrain) { checkSameAsDirect(true, 3); }

TEST(RowSink, DrainReportsOverflow) {
  const unsigned Widths[RowSink::NumKinds] = {1, 1, 1};
  RowTable Self(1), Unused1(1), Unused2(1);
  RowTable *Tables[RowSink::NumKinds] = {&Self, &Unused1, &Unused2};
  RowSink Sink(true);
  Sink.setKeyWidths(Widths);
  Sink.batch(0).add({1}, {UINT64_MAX});
  Sink.flush(Tables);
  Sink.batch(0).add({1}, {2});
  Sink.flush(Tables);
  EXPECT_FALSE(Sink.drain());
  // The sum saturates; the next drain starts clean.
  EXPECT_EQ(rowsOf(Self).size(), 1u);
  EXPECT_EQ(rowsOf(Self)[0].back(), UINT64_MAX);
  EXPECT_TRUE(Sink.drain());
}

} // namespace
