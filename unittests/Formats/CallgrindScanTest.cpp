//===- CallgrindScanTest.cpp - The callgrind reader's number scans --------===//

#include "CallgrindScan.h"
#include "gtest/gtest.h"
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace profkit::callgrind;

namespace {

#if defined(__SSE2__)
/// What scanShortNumbers() must give for the line at the start of Text, a
/// byte at a time: its numbers, or nothing if it does not take the line.
std::optional<std::vector<uint64_t>> expectedNumbers(const std::string &Text,
                                                     unsigned MaxNumbers) {
  size_t NL = Text.find('\n');
  if (NL < 16 || NL >= 64)
    return std::nullopt;
  std::vector<uint64_t> Numbers;
  for (size_t I = 0; I < NL;) {
    char C = Text[I];
    if (C == ' ' || C == '\t') {
      ++I;
      continue;
    }
    if (C < '0' || C > '9')
      return std::nullopt;
    size_t Start = I;
    uint64_t V = 0;
    for (; I < NL && Text[I] >= '0' && Text[I] <= '9'; ++I)
      V = V * 10 + unsigned(Text[I] - '0');
    if (I - Start > 8)
      return std::nullopt;
    Numbers.push_back(V);
  }
  if (Numbers.size() > MaxNumbers)
    return std::nullopt;
  return Numbers;
}

// Random lines of numbers of 1 to 10 digits (leading zeros too), blanks of
// any mix and length, at the end too, now and then a byte no number or
// blank has, lines from empty to past 64 bytes, and column counts up to
// and below the line's: the scan agrees with a byte-at-a-time reading.
TEST(CallgrindScan, ShortNumbersAgreeWithAByteAtATimeReading) {
  std::mt19937_64 Random(64);
  const char Stray[] = {'+', '-', 'x', '\r', '\0', '\x80', '\xff', '/', ':'};
  unsigned Taken = 0;
  for (unsigned Round = 0; Round != 200000; ++Round) {
    std::string Text;
    unsigned Numbers = Random() % 20;
    for (unsigned N = 0; N != Numbers; ++N) {
      if (N)
        for (unsigned B = 1 + (Random() % 8 == 0) * (Random() % 3); B; --B)
          Text += Random() % 6 ? ' ' : '\t';
      unsigned Digits = 1 + Random() % (Random() % 4 ? 3 : 10);
      for (unsigned D = 0; D != Digits; ++D)
        Text += char('0' + Random() % 10);
    }
    if (Random() % 10 == 0)
      Text += Random() % 2 ? " " : "\t ";
    if (Random() % 30 == 0 && !Text.empty())
      Text[Random() % Text.size()] = Stray[Random() % sizeof(Stray)];
    Text += '\n';
    // Bytes to read ahead past the line: digits, blanks, another line.
    while (Text.size() < 64 + ShortNumbersReach)
      Text += "1 22\t333\n"[Random() % 9];
    unsigned MaxNumbers = Random() % 4 ? 13 : unsigned(Random() % 14);

    std::optional<std::vector<uint64_t>> Expected =
        expectedNumbers(Text, MaxNumbers);
    std::vector<uint64_t> Got(64, ~uint64_t(0));
    unsigned Count = ~0u;
    const char *End =
        scanShortNumbers(Text.data(), MaxNumbers, Count,
                         [&](unsigned I, uint64_t V) { Got[I] = V; });
    ASSERT_EQ(End != nullptr, Expected.has_value()) << Text;
    if (!End)
      continue;
    ++Taken;
    EXPECT_EQ(End, Text.data() + Text.find('\n')) << Text;
    ASSERT_EQ(Count, Expected->size()) << Text;
    Got.resize(Count);
    EXPECT_EQ(Got, *Expected) << Text;
  }
  // Many lines of each kind.
  EXPECT_GT(Taken, 30000u);
  EXPECT_LT(Taken, 150000u);
}

TEST(CallgrindScan, EightDigitsAtMost) {
  uint64_t Got = 0;
  unsigned Count = 0;
  auto Store = [&](unsigned, uint64_t V) { Got = V; };
  std::string Eight =
      "1 22 333 4444 99999999\n" + std::string(ShortNumbersReach, ' ');
  ASSERT_TRUE(scanShortNumbers(Eight.data(), 13, Count, Store));
  EXPECT_EQ(Got, 99999999u);
  std::string Nine =
      "1 22 333 4444 123456789\n" + std::string(ShortNumbersReach, ' ');
  EXPECT_FALSE(scanShortNumbers(Nine.data(), 13, Count, Store));
}
#endif

} // namespace
