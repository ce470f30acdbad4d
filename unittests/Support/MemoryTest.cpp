//===- MemoryTest.cpp - Tests of the tools' use of the allocator ----------===//

#include "profkit/Support/Memory.h"
#include "gtest/gtest.h"
#include <cstdint>
#include <cstring>
#include <vector>

using namespace profkit;

namespace {

// A row arena finds the slab of a table's rows by rounding their address
// down to SlabBytes: every slab must start at a multiple of it, however
// the allocator's other blocks lie around it.
TEST(Memory, SlabsStartAtAMultipleOfTheirSizeAndCanBeFilled) {
  std::vector<void *> Slabs, Small;
  for (int I = 0; I != 8; ++I) {
    Small.push_back(std::malloc(size_t(1000) * (I + 1)));
    void *S = allocateSlab();
    ASSERT_NE(S, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(S) % SlabBytes, 0u);
    std::memset(S, 0xab, SlabBytes); // All of it is the slab's.
    Slabs.push_back(S);
  }
  for (void *S : Slabs)
    deallocateSlab(S);
  for (void *P : Small)
    std::free(P);
}

} // namespace
