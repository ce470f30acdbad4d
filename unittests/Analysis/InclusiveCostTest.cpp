//===- InclusiveCostTest.cpp - Tests of the inclusive cost analysis -------===//

#include "profkit/Analysis/InclusiveCost.h"
#include "../ProfileFromText.h"
#include "gtest/gtest.h"

using namespace profkit;
using namespace llvm;

namespace {

uint64_t incl(const InclusiveCost &IC, const Profile &P, StringRef Name,
              unsigned Event = 0) {
  return IC.inclusive(fn(P, Name))[Event];
}

TEST(InclusiveCost, CallChainIsSelfPlusCalls) {
  auto P = parseProfile("events: Ir Dr\n"
                        "fl=a.c\nfn=main\n1 10 1\ncfn=f\ncalls=2 5\n2 60 6\n"
                        "fn=f\n5 20 2\ncfn=g\ncalls=4 9\n6 40 4\n"
                        "fn=g\n9 40 4\n");
  InclusiveCost IC = InclusiveCost::compute(*P);
  EXPECT_EQ(incl(IC, *P, "main"), 70u);
  EXPECT_EQ(incl(IC, *P, "main", 1), 7u);
  EXPECT_EQ(incl(IC, *P, "f"), 60u);
  EXPECT_EQ(incl(IC, *P, "g"), 40u);
  EXPECT_EQ(IC.self(fn(*P, "f"))[0], 20u);
  EXPECT_EQ(IC.calls(fn(*P, "f")), 2u);
  EXPECT_EQ(IC.calls(fn(*P, "g")), 4u);
  EXPECT_EQ(IC.calls(fn(*P, "main")), 0u);
  EXPECT_FALSE(IC.hasCallers(fn(*P, "main")));
  EXPECT_TRUE(IC.hasCallers(fn(*P, "g")));
  EXPECT_FALSE(IC.isRecursive(fn(*P, "f")));
  EXPECT_EQ(IC.total()[0], 70u);
  EXPECT_EQ(IC.total()[1], 7u);
}

// fib(4): main calls fib once (100 inclusive); fib's 4 recursive calls
// carry 80+60+40+20 = 200, the nested time counted again at each level.
TEST(InclusiveCost, DirectRecursion) {
  auto P = parseProfile("events: Ir\n"
                        "fl=a.c\nfn=main\n1 10\ncfn=fib\ncalls=1 5\n2 100\n"
                        "fn=fib\n5 100\ncfn=fib\ncalls=4 5\n6 200\n"
                        "cfn=leaf\ncalls=1 9\n7 0\n"
                        "fn=leaf\n9 0\n");
  InclusiveCost IC = InclusiveCost::compute(*P);
  EXPECT_EQ(incl(IC, *P, "fib"), 100u);
  EXPECT_EQ(incl(IC, *P, "main"), 110u);
  EXPECT_EQ(IC.calls(fn(*P, "fib")), 5u);
  EXPECT_TRUE(IC.isRecursive(fn(*P, "fib")));
  EXPECT_FALSE(IC.isRecursive(fn(*P, "main")));
  EXPECT_TRUE(IC.hasCallers(fn(*P, "fib")));
}

// even <-> odd; odd also calls helper. cycle = 30 + 50 + 20 = 100.
// own(even) = 30 + 100 = 130 -> 100; own(odd) = 50 + 10 + 20 = 80.
TEST(InclusiveCost, TwoCycle) {
  auto P = parseProfile("events: Ir\n"
                        "fl=a.c\nfn=main\n1 10\ncfn=even\ncalls=1 5\n2 100\n"
                        "fn=even\n5 30\ncfn=odd\ncalls=2 9\n6 100\n"
                        "fn=odd\n9 50\ncfn=even\ncalls=1 5\n10 10\n"
                        "cfn=helper\ncalls=1 20\n11 20\n"
                        "fn=helper\n20 20\n");
  InclusiveCost IC = InclusiveCost::compute(*P);
  EXPECT_EQ(incl(IC, *P, "even"), 100u);
  EXPECT_EQ(incl(IC, *P, "odd"), 80u);
  EXPECT_EQ(incl(IC, *P, "helper"), 20u);
  EXPECT_EQ(incl(IC, *P, "main"), 110u);
  EXPECT_EQ(IC.component(fn(*P, "even")), IC.component(fn(*P, "odd")));
  EXPECT_NE(IC.component(fn(*P, "even")), IC.component(fn(*P, "helper")));
  EXPECT_TRUE(IC.isRecursive(fn(*P, "odd")));
  EXPECT_FALSE(IC.isRecursive(fn(*P, "helper")));
}

// a -> b -> c -> a, with c also calling d; every arc carries the nested
// time again. cycle = 5 + 6 + 7 + 12 = 30.
TEST(InclusiveCost, ThreeCycle) {
  auto P =
      parseProfile("events: Ir\n"
                   "fl=a.c\nfn=main\n1 1\ncfn=a\ncalls=1 2\n2 30\n"
                   "fn=a\n2 5\ncfn=b\ncalls=2 3\n3 50\n"
                   "fn=b\n3 6\ncfn=c\ncalls=2 4\n4 44\n"
                   "fn=c\n4 7\ncfn=a\ncalls=1 2\n5 2\ncfn=d\ncalls=1 9\n6 12\n"
                   "fn=d\n9 12\n");
  InclusiveCost IC = InclusiveCost::compute(*P);
  EXPECT_EQ(incl(IC, *P, "a"), 30u);
  EXPECT_EQ(incl(IC, *P, "b"), 30u);
  EXPECT_EQ(incl(IC, *P, "c"), 21u); // 7 + 2 + 12 < 30
  EXPECT_EQ(incl(IC, *P, "d"), 12u);
  EXPECT_EQ(incl(IC, *P, "main"), 31u);
  EXPECT_EQ(IC.total()[0], 31u);
  unsigned C = IC.component(fn(*P, "a"));
  EXPECT_EQ(IC.component(fn(*P, "b")), C);
  EXPECT_EQ(IC.component(fn(*P, "c")), C);
  EXPECT_NE(IC.component(fn(*P, "main")), C);
  EXPECT_NE(IC.component(fn(*P, "d")), C);
}

// A self loop alone (no other caller): the loop's cost is nested time.
TEST(InclusiveCost, SelfLoop) {
  auto P = parseProfile("events: Ir\n"
                        "fl=a.c\nfn=loop\n1 10\ncfn=loop\ncalls=3 1\n2 25\n");
  InclusiveCost IC = InclusiveCost::compute(*P);
  FuncId L = fn(*P, "loop");
  EXPECT_EQ(IC.inclusive(L)[0], 10u);
  EXPECT_EQ(IC.calls(L), 3u);
  EXPECT_TRUE(IC.isRecursive(L));
  EXPECT_FALSE(IC.hasCallers(L));
  EXPECT_EQ(IC.partsWithData(L), 1u);
}

// pprof writes calls=0: the arc's cost counts, the count does not.
TEST(InclusiveCost, ZeroCountArcs) {
  auto P = parseProfile("events: Ir\n"
                        "fl=a.c\nfn=main\n1 10\ncfn=f\ncalls=0 5\n2 30\n"
                        "fn=f\n5 30\n");
  InclusiveCost IC = InclusiveCost::compute(*P);
  FuncId F = fn(*P, "f");
  EXPECT_EQ(IC.calls(F), 0u);
  EXPECT_TRUE(IC.hasCallers(F));
  EXPECT_EQ(incl(IC, *P, "main"), 40u);
}

// Arc costs larger than the run (a broken or truncated profile) are capped.
TEST(InclusiveCost, CappedAtTotal) {
  auto P = parseProfile("events: Ir\n"
                        "fl=a.c\nfn=main\n1 10\ncfn=f\ncalls=1 5\n2 1000\n"
                        "fn=f\n5 30\n");
  InclusiveCost IC = InclusiveCost::compute(*P);
  EXPECT_EQ(incl(IC, *P, "main"), 40u);
  // f's callers paid 1000: more than f's rows, and more than the run.
  EXPECT_EQ(incl(IC, *P, "f"), 40u);
}

// A function the process ends in (_Exit) costs its caller more than its own
// rows account for: its inclusive cost is what the callers paid.
TEST(InclusiveCost, NotBelowWhatCallersPaid) {
  auto P = parseProfile("events: Ir\n"
                        "fl=a.c\nfn=main\n1 2\ncfn=_Exit\ncalls=1 5\n2 6\n"
                        "fn=_Exit\n5 4\nfn=other\n9 4\n");
  InclusiveCost IC = InclusiveCost::compute(*P);
  EXPECT_EQ(incl(IC, *P, "_Exit"), 6u);
  EXPECT_EQ(incl(IC, *P, "main"), 8u);
}

// Xdebug's appended runs are parts; costs and calls add up over them.
TEST(InclusiveCost, SummedOverParts) {
  auto P =
      parseProfile("events: Ir\n"
                   "fl=a.c\nfn=f\n5 3\nfn=main\n1 1\ncfn=f\ncalls=1 5\n2 3\n"
                   "==== NEW PROFILING FILE ====\nevents: Ir\n"
                   "fl=a.c\nfn=f\n5 4\nfn=main\n1 2\ncfn=f\ncalls=1 5\n2 4\n");
  ASSERT_EQ(P->parts().size(), 2u);
  InclusiveCost IC = InclusiveCost::compute(*P);
  EXPECT_EQ(incl(IC, *P, "main"), 10u);
  EXPECT_EQ(IC.calls(fn(*P, "f")), 2u);
  EXPECT_EQ(IC.partsWithData(fn(*P, "main")), 2u);
}

// A call chain far deeper than the C++ stack would allow recursing on.
TEST(InclusiveCost, DeepChainDoesNotRecurse) {
  Profile P;
  P.getOrAddEvent("Ir");
  Part &Pt = P.addPart();
  const unsigned N = 300000;
  StrId File = P.Strings.intern("a.c");
  for (unsigned I = 0; I != N; ++I)
    P.getOrAddFunction(0, File, P.Strings.intern("f" + std::to_string(I)));
  SelfKey S(Pt.layout());
  S.position()[0] = 1;
  S.setSourceFile(File);
  CallKey C(Pt.layout());
  C.position()[0] = 2;
  C.setSourceFile(File);
  for (unsigned I = 0; I != N; ++I) {
    FunctionData &FD = Pt.getOrCreate(I);
    uint64_t Self[] = {1};
    ASSERT_TRUE(FD.Self.add(S.key(), Self));
    if (I + 1 != N) {
      uint64_t Call[] = {1, N - I - 1};
      C.setCallee(I + 1);
      ASSERT_TRUE(FD.makeCalls().add(C.key(), Call));
    }
  }
  // Close the chain into one big cycle too.
  uint64_t Back[] = {1, 1};
  C.setCallee(0);
  ASSERT_TRUE(Pt.getOrCreate(N - 1).makeCalls().add(C.key(), Back));
  InclusiveCost IC = InclusiveCost::compute(P);
  EXPECT_EQ(IC.total()[0], N);
  EXPECT_EQ(IC.inclusive(0)[0], N); // own = 1 + (N - 1)
  EXPECT_EQ(IC.inclusive(N - 1)[0], 2u);
  EXPECT_TRUE(IC.isRecursive(N / 2));
  EXPECT_EQ(IC.component(0), IC.component(N - 1));
}

} // namespace

namespace {
// Xdebug: the summary times the whole run, above the sum of self costs.
TEST(InclusiveCost, TotalIsSummaryWhenLarger) {
  auto P =
      parseProfile("events: Ir\n"
                   "fl=a.c\nfn=f\n5 29\nfn=main\n1 10\ncfn=f\ncalls=1 5\n2 30\n"
                   "summary: 100\n");
  InclusiveCost IC = InclusiveCost::compute(*P);
  EXPECT_EQ(IC.total()[0], 100u);
  EXPECT_EQ(incl(IC, *P, "main"), 40u); // Not capped at 39.
}
} // namespace
