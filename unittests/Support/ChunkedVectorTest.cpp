//===- ChunkedVectorTest.cpp - Tests of ChunkedVector ---------------------===//

#include "profkit/Support/ChunkedVector.h"
#include "llvm/ADT/STLExtras.h"
#include "gtest/gtest.h"
#include <memory>
#include <vector>

using namespace profkit;

namespace {

// Small chunks (2, 4, 8, then 8 each) so that a few dozen elements cross
// from the growing chunks into the fixed ones.
using Small = ChunkedVector<std::unique_ptr<size_t>, 1, 3>;

TEST(ChunkedVector, ElementsKeepTheirPlaceAndOrderAsItGrows) {
  Small V;
  std::vector<const size_t *> Seen;
  for (size_t I = 0; I != 100; ++I) {
    Seen.push_back(V.emplace_back(std::make_unique<size_t>(I)).get());
    ASSERT_EQ(V.size(), I + 1);
    ASSERT_EQ(*V.back(), I);
  }
  for (size_t I = 0; I != 100; ++I) {
    EXPECT_EQ(*V[I], I);
    EXPECT_EQ(V[I].get(), Seen[I]);
  }
  size_t Next = 0;
  for (const auto &E : V)
    EXPECT_EQ(*E, Next++);
  EXPECT_EQ(Next, 100u);
  EXPECT_EQ(V.end() - V.begin(), 100);
}

TEST(ChunkedVector, ShrinkingKeepsTheElementsAndGrowingGoesOn) {
  for (size_t N : {1u, 3u, 6u, 14u, 15u, 19u, 30u}) {
    Small V;
    for (size_t I = 0; I != N; ++I)
      V.emplace_back(std::make_unique<size_t>(I));
    V.shrink();
    ASSERT_EQ(V.size(), N);
    for (size_t I = 0; I != N; ++I) {
      EXPECT_EQ(*V[I], I) << N;
      EXPECT_EQ(&V[I], &V[0] + I) << "gathered into one chunk: " << N;
    }
    for (size_t I = N; I != N + 20; ++I)
      V.emplace_back(std::make_unique<size_t>(I));
    for (size_t I = 0; I != N + 20; ++I)
      EXPECT_EQ(*V[I], I) << N;
  }
}

TEST(ChunkedVector, AGatheredVectorIsConsumedAndMovedWhole) {
  Small V;
  for (size_t I = 0; I != 21; ++I)
    V.emplace_back(std::make_unique<size_t>(I));
  V.shrink();
  Small W(std::move(V));
  ASSERT_EQ(W.size(), 21u);
  EXPECT_EQ(*W.back(), 20u);
  std::vector<size_t> Taken;
  W.consume([&](std::unique_ptr<size_t> &E) { Taken.push_back(*E); });
  ASSERT_EQ(Taken.size(), 21u);
  for (size_t I = 0; I != 21; ++I)
    EXPECT_EQ(Taken[I], I);
}

TEST(ChunkedVector, ConsumingHandsOverEveryElementInOrder) {
  Small V;
  for (size_t I = 0; I != 40; ++I)
    V.emplace_back(std::make_unique<size_t>(I));
  std::vector<std::unique_ptr<size_t>> Taken;
  V.consume([&](std::unique_ptr<size_t> &E) { Taken.push_back(std::move(E)); });
  EXPECT_TRUE(V.empty());
  ASSERT_EQ(Taken.size(), 40u);
  for (size_t I = 0; I != 40; ++I)
    EXPECT_EQ(*Taken[I], I);
  V.emplace_back(std::make_unique<size_t>(5)); // Usable again.
  EXPECT_EQ(*V[0], 5u);
}

TEST(ChunkedVector, ConsumingIntoAnotherHandsItTheLargestChunks) {
  Small From, Into;
  for (size_t I = 0; I != 40; ++I)
    From.emplace_back(std::make_unique<size_t>(I));
  for (size_t I = 0; I != 14; ++I) // Into's next chunk is of the largest size.
    Into.emplace_back(std::make_unique<size_t>(100 + I));
  // From's chunks of 8: elements 6, 14, 22, 30 and 38 start them.
  std::vector<const void *> FromChunks;
  for (size_t I : {6u, 14u, 22u, 30u, 38u})
    FromChunks.push_back(&From[I]);
  From.consume(
      [&](std::unique_ptr<size_t> &E) { Into.emplace_back(std::move(E)); },
      &Into);
  EXPECT_TRUE(From.empty());
  ASSERT_EQ(Into.size(), 54u);
  for (size_t I = 0; I != 54; ++I)
    EXPECT_EQ(*Into[I], I < 14 ? 100 + I : I - 14);
  // Into needs its first two new chunks (at 14 and 22) before From has
  // emptied one of 8; the next three are From's, filled again.
  EXPECT_FALSE(llvm::is_contained(FromChunks, &Into[22]));
  for (size_t I : {30u, 38u, 46u})
    EXPECT_TRUE(llvm::is_contained(FromChunks, &Into[I])) << I;
  Into.shrink(); // Gives back the chunk From handed it last, unused.
  Into.emplace_back(std::make_unique<size_t>(54));
  EXPECT_EQ(*Into.back(), 54u);
}

TEST(ChunkedVector, MovingTakesTheElements) {
  Small A;
  for (size_t I = 0; I != 10; ++I)
    A.emplace_back(std::make_unique<size_t>(I));
  Small B(std::move(A));
  EXPECT_TRUE(A.empty());
  ASSERT_EQ(B.size(), 10u);
  Small C;
  C.emplace_back(std::make_unique<size_t>(99));
  C = std::move(B);
  ASSERT_EQ(C.size(), 10u);
  EXPECT_EQ(*C[9], 9u);
  A.emplace_back(std::make_unique<size_t>(7)); // The moved-from one is usable.
  EXPECT_EQ(*A.front(), 7u);
}

} // namespace
