//===- CallgrindFormatterTest.cpp - The callgrind writer's numbers --------===//

#include "CallgrindFormatter.h"
#include "gtest/gtest.h"
#include <string>

using namespace profkit::callgrindwriter;

namespace {

std::string decimal(uint64_t V) {
  char Buf[32];
  std::memset(Buf, '#', sizeof(Buf));
  char *End = formatDecimal(Buf, V);
  // Bytes past the end may be written, but no more than 20 in all.
  EXPECT_EQ(std::string(Buf + 20, Buf + sizeof(Buf)), std::string(12, '#'));
  return std::string(Buf, End);
}

// Every number of up to four digits (the table's and the first past it),
// and each power of ten, one less, and the largest.
TEST(CallgrindFormatter, DecimalsAsToString) {
  for (uint64_t V = 0; V != 10000; ++V)
    ASSERT_EQ(decimal(V), std::to_string(V));
  for (uint64_t P = 10; P <= 10000000000000000000u; P *= 10) {
    EXPECT_EQ(decimal(P - 1), std::to_string(P - 1));
    EXPECT_EQ(decimal(P), std::to_string(P));
    if (P > UINT64_MAX / 10)
      break;
  }
  EXPECT_EQ(decimal(UINT64_MAX), std::to_string(UINT64_MAX));
}

} // namespace
