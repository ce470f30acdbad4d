//===- GprofPropagationTest.cpp - Tests of gprof's time propagation -------===//

#include "profkit/Analysis/GprofPropagation.h"
#include "../ProfileFromText.h"
#include "gtest/gtest.h"

using namespace profkit;
using namespace llvm;

namespace {

/// The propagated costs of the calls from Caller to Callee, by call site.
std::vector<uint64_t> calls(const Profile &P, const GprofPropagation &G,
                            StringRef Caller, StringRef Callee) {
  const Part &Pt = *P.parts().front();
  RowLayout L = Pt.layout();
  std::vector<uint64_t> Costs;
  for (size_t F = 0; F != Pt.functions().size(); ++F) {
    const FunctionData &FD = Pt.functions()[F];
    if (P.functionName(FD.Id) != Caller)
      continue;
    size_t Index = 0;
    for (const Row &R : FD.calls()) {
      if (P.functionName(L.callee(R)) == Callee)
        Costs.push_back(G.callCost(F, Index)[0]);
      ++Index;
    }
  }
  return Costs;
}

// Inclusive costs given in the file are ignored: only self costs and call
// counts count.
TEST(GprofPropagation, TimeGoesUpByCallCounts) {
  auto P =
      parseProfile("events: t\nfl=a.c\n"
                   "fn=main\ncfn=a\ncalls=1 0\n2 999\ncfn=b\ncalls=2 0\n3 0\n"
                   "fn=a\n5 10\ncfn=c\ncalls=1 0\n6 0\n"
                   "fn=b\n7 40\ncfn=c\ncalls=2 0\n8 0\n"
                   "fn=c\n9 30\n");
  GprofPropagation G = GprofPropagation::compute(*P->parts().front(), 1);
  EXPECT_FALSE(G.Overflow);
  EXPECT_EQ(calls(*P, G, "a", "c"), std::vector<uint64_t>{10});
  EXPECT_EQ(calls(*P, G, "b", "c"), std::vector<uint64_t>{20});
  EXPECT_EQ(calls(*P, G, "main", "a"), std::vector<uint64_t>{20});
  EXPECT_EQ(calls(*P, G, "main", "b"), std::vector<uint64_t>{60});
}

TEST(GprofPropagation, ACycleSharesItsTimeInsideAndOut) {
  auto P = parseProfile("events: t\nfl=a.c\n"
                        "fn=main\ncfn=x\ncalls=1 0\n2 0\n"
                        "fn=x\n5 10\ncfn=y\ncalls=3 0\n6 0\n"
                        "fn=y\n7 20\ncfn=x\ncalls=1 0\n8 0\n");
  GprofPropagation G = GprofPropagation::compute(*P->parts().front(), 1);
  // The caller pays the whole cycle; the calls inside split it 3 : 1.
  EXPECT_EQ(calls(*P, G, "main", "x"), std::vector<uint64_t>{30});
  std::vector<uint64_t> XY = calls(*P, G, "x", "y"),
                        YX = calls(*P, G, "y", "x");
  ASSERT_EQ(XY.size(), 1u);
  ASSERT_EQ(YX.size(), 1u);
  EXPECT_EQ(XY[0] + YX[0], 30u);
  EXPECT_GT(XY[0], 2 * YX[0]);
}

TEST(GprofPropagation, EqualCallSitesShareWithoutLoss) {
  auto P =
      parseProfile("events: t\nfl=a.c\n"
                   "fn=main\ncfn=h\ncalls=1 0\n2 0\ncfn=h\ncalls=1 0\n3 0\n"
                   "cfn=h\ncalls=1 0\n4 0\n"
                   "fn=h\n9 101\n");
  GprofPropagation G = GprofPropagation::compute(*P->parts().front(), 1);
  std::vector<uint64_t> Sites = calls(*P, G, "main", "h");
  ASSERT_EQ(Sites.size(), 3u);
  EXPECT_EQ(Sites[0] + Sites[1] + Sites[2], 101u);
  for (uint64_t S : Sites)
    EXPECT_TRUE(S == 33 || S == 34) << S;
}

} // namespace
