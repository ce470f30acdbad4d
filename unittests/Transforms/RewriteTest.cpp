//===- RewriteTest.cpp - Tests of row rewriting ---------------------------===//

#include "profkit/Transforms/Utils/Rewrite.h"
#include "../ProfileFromText.h"
#include "profkit/IR/IRPrinter.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace profkit;
using namespace llvm;

namespace {

FuncId fn(const Profile &P, StringRef Name) {
  for (FuncId F = 0; F != P.numFunctions(); ++F)
    if (P.functionName(F) == Name)
      return F;
  ADD_FAILURE() << "no function " << Name.str();
  return 0;
}

std::string print(const Profile &P) {
  std::string S;
  raw_string_ostream OS(S);
  printIR(P, OS);
  return S;
}

// Intervals name functions: renaming and merging functions maps them, and
// dropping a function drops its intervals; the text form lists them by
// start.
TEST(Rewrite, IntervalsFollowTheirFunctions) {
  auto P = parseProfile("events: us\nfl=a.cpp\nfn=Frontend\n0 70\n"
                        "fn=Backend\n0 30\nfn=Link\n0 5\n");
  Part &Pt = *P->parts().front();
  Pt.Intervals = {{fn(*P, "Backend"), 0, 70, 30},
                  {fn(*P, "Frontend"), 0, 0, 70},
                  {fn(*P, "Link"), 1, 100, 5}};
  EXPECT_NE(print(*P).find("  interval \"Frontend\" fl=\"a.cpp\" thread=0 "
                           "start=0 duration=70\n"
                           "  interval \"Backend\" fl=\"a.cpp\" thread=0 "
                           "start=70 duration=30\n"),
            std::string::npos)
      << print(*P);

  ASSERT_TRUE(renameFunctions(*P, [&](const Function &F) {
    Function G = F;
    if (P->Strings.str(F.Name) != "Link")
      G.Name = P->Strings.intern("Compile");
    return G;
  }));
  FuncId Compile = fn(*P, "Compile");
  ASSERT_EQ(P->parts().front()->Intervals.size(), 3u);
  unsigned ToCompile = 0;
  for (const Interval &I : P->parts().front()->Intervals)
    ToCompile += I.Function == Compile;
  EXPECT_EQ(ToCompile, 2u);

  RowMap M;
  for (FuncId F = 0; F != P->numFunctions(); ++F)
    M.Func.push_back(P->functionName(F) == "Link" ? DroppedFunction : F);
  ASSERT_TRUE(rewriteProfile(*P, M, /*DropTotals=*/true));
  ASSERT_EQ(P->parts().front()->Intervals.size(), 2u);
  for (const Interval &I : P->parts().front()->Intervals)
    EXPECT_EQ(I.Function, Compile);
}

// Function values go through copyRows by their kinds' rules.
TEST(Rewrite, MergedFunctionsKeepTheFirstLineAndAddHeadSamples) {
  auto P = parseProfile("events: s\nfl=a.c\nfn=f\n7 1\n6 1\nfn=g\n9 1\n2 1\n");
  Part &Pt = *P->parts().front();
  Pt.getOrCreate(fn(*P, "f")).Values.set(FunctionValueKind::HeadSamples, 3);
  Pt.getOrCreate(fn(*P, "g")).Values.set(FunctionValueKind::HeadSamples, 4);
  ASSERT_TRUE(renameFunctions(*P, [&](const Function &F) {
    Function G = F;
    G.Name = P->Strings.intern("h");
    return G;
  }));
  const FunctionData *H = P->parts().front()->lookup(fn(*P, "h"));
  ASSERT_TRUE(H);
  EXPECT_EQ(H->Values.get(FunctionValueKind::FirstLine),
            std::optional<uint64_t>(7));
  EXPECT_EQ(H->Values.get(FunctionValueKind::HeadSamples),
            std::optional<uint64_t>(7));
}

} // namespace
