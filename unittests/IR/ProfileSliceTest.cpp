//===- ProfileSliceTest.cpp - Tests of a slice's plain rows ---------------===//

#include "profkit/IR/ProfileSlice.h"
#include "gtest/gtest.h"
#include <vector>

using namespace profkit;

namespace {

using RowList =
    std::vector<std::pair<std::vector<uint64_t>, std::vector<uint64_t>>>;

RowList rowsOf(const RowTable &T) {
  RowList Out;
  for (const Row &R : T)
    Out.push_back(
        {{R.Key.begin(), R.Key.end()}, {R.Values.begin(), R.Values.end()}});
  return Out;
}

RowList plainRowsOf(const PlainRows &P, size_t Index, PlainRows::Kind K,
                    unsigned KeyWidth) {
  RowList Out;
  PlainRows::forEachRow(P.table(Index, K), KeyWidth, [&](const Row &R) {
    Out.push_back(
        {{R.Key.begin(), R.Key.end()}, {R.Values.begin(), R.Values.end()}});
  });
  return Out;
}

/// Rows out of order, a key twice and values that end in zeros.
void fill(RowBatch &B) {
  B.add({2, 5}, {1, 0, 0});
  B.add({1, 9}, {4, 2});
  B.add({2, 5}, {3, 0, 6});
  B.add({1, 3}, {0, 0, 0});
}

TEST(PlainRows, GivesTheRowsATableGivesAndMovesIntoOne) {
  RowBatch B(2), ForTable(2), Scratch;
  fill(B);
  fill(ForTable);
  RowTable Expected(2);
  ASSERT_TRUE(Expected.addBatch(ForTable));

  ASSERT_TRUE(B.sortAndSum());
  PlainRows P;
  P.keep(3, PlainRows::Calls, B);
  EXPECT_EQ(plainRowsOf(P, 3, PlainRows::Calls, 2), rowsOf(Expected));
  // Other tables, and functions past those kept, have none.
  EXPECT_EQ(P.table(3, PlainRows::Self).NumRows, 0u);
  EXPECT_EQ(P.table(0, PlainRows::Calls).NumRows, 0u);
  EXPECT_EQ(P.table(7, PlainRows::Calls).NumRows, 0u);

  RowTable T(2);
  ASSERT_TRUE(P.moveInto(3, PlainRows::Calls, T, Scratch));
  EXPECT_EQ(rowsOf(T), rowsOf(Expected));
  EXPECT_EQ(P.table(3, PlainRows::Calls).NumRows, 0u);
}

} // namespace
