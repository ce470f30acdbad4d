//===- ThreadsTest.cpp - Tests of the thread helpers ----------------------===//

#include "profkit/Support/Threads.h"
#include "gtest/gtest.h"
#include <atomic>
#include <vector>

using namespace profkit;

namespace {

TEST(ParallelFor, CallsEveryIndexOnceWhateverTheThreads) {
  for (unsigned Threads : {1u, 2u, 3u, 8u})
    for (size_t N : {size_t(0), size_t(1), size_t(2), size_t(1000)}) {
      std::vector<std::atomic<unsigned>> Calls(N);
      parallelFor(Threads, N, [&](size_t I) { ++Calls[I]; });
      for (size_t I = 0; I != N; ++I)
        EXPECT_EQ(Calls[I].load(), 1u) << I << " of " << N << ", " << Threads;
    }
}

TEST(ParallelFor, OneThreadRunsInOrderOnTheCaller) {
  std::vector<size_t> Order;
  parallelFor(1, 5, [&](size_t I) { Order.push_back(I); });
  EXPECT_EQ(Order, (std::vector<size_t>{0, 1, 2, 3, 4}));
}

} // namespace
