//===- RewriteTest.cpp - Tests of row rewriting ---------------------------===//

#include "profkit/Transforms/Utils/Rewrite.h"
#include "../ProfileFromText.h"
#include "profkit/Formats/Format.h"
#include "profkit/IR/IRPrinter.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace profkit;
using namespace llvm;

namespace {

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
  Pt.makeIntervals() = {{fn(*P, "Backend"), 0, 70, 30},
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
  ASSERT_EQ(P->parts().front()->intervals().size(), 3u);
  unsigned ToCompile = 0;
  for (const Interval &I : P->parts().front()->intervals())
    ToCompile += I.Function == Compile;
  EXPECT_EQ(ToCompile, 2u);

  RowMap M;
  for (FuncId F = 0; F != P->numFunctions(); ++F)
    M.Func.push_back(P->functionName(F) == "Link" ? DroppedFunction : F);
  ASSERT_TRUE(rewriteProfile(*P, M, /*DropTotals=*/true));
  ASSERT_EQ(P->parts().front()->intervals().size(), 2u);
  for (const Interval &I : P->parts().front()->intervals())
    EXPECT_EQ(I.Function, Compile);
}

// A sample profile's inlinee lines sit in inline sites, apart from the
// caller's own lines; renaming the inlinee renames the site, and dropping it
// folds its code into the site around it.
TEST(Rewrite, InlineSitesFollowTheirCallees) {
  Profile P;
  P.getOrAddEvent("samples");
  StrId File = P.Strings.intern("a.cpp");
  FuncId Main = P.getOrAddFunction(0, File, P.Strings.intern("main"));
  FuncId Foo = P.getOrAddFunction(0, File, P.Strings.intern("foo"));
  FuncId Bar = P.getOrAddFunction(0, File, P.Strings.intern("bar"));
  InlineSiteId AtFoo = P.getOrAddInlineSite({0, 4, 0, Foo});
  InlineSiteId AtBar = P.getOrAddInlineSite({AtFoo, 2, 1, Bar});
  EXPECT_EQ(P.getOrAddInlineSite({0, 4, 0, Foo}), AtFoo);
  Part &Pt = P.addPart({PositionKind::LineOffset, PositionKind::Discriminator});
  FunctionData &FD = Pt.getOrCreate(Main);
  for (InlineSiteId Site : {InlineSiteId(0), AtFoo, AtBar}) {
    SelfKey K(Pt.layout());
    K.position()[0] = 1; // The same line offset in three functions' code.
    K.setSourceFile(File);
    K.setInlineSite(Site);
    uint64_t Samples[] = {10 + Site};
    ASSERT_TRUE(FD.Self.add(K.key(), Samples));
  }
  ASSERT_TRUE(Pt.finalize());
  std::string Text = print(P);
  EXPECT_NE(Text.find("self \"a.cpp\" 1 0 inlined at 4 \"foo\" fl=\"a.cpp\", "
                      "2.1 \"bar\" fl=\"a.cpp\" : 12\n"),
            std::string::npos)
      << Text;

  ASSERT_TRUE(renameFunctions(P, [&](const Function &F) {
    Function G = F;
    if (P.Strings.str(F.Name) == "foo")
      G.Name = P.Strings.intern("foo2");
    return G;
  }));
  Text = print(P);
  EXPECT_NE(Text.find("inlined at 4 \"foo2\" fl=\"a.cpp\" : 11\n"),
            std::string::npos)
      << Text;

  RowMap M;
  for (FuncId F = 0; F != P.numFunctions(); ++F)
    M.Func.push_back(P.functionName(F) == "foo2" ? DroppedFunction : F);
  ASSERT_TRUE(rewriteProfile(P, M, /*DropTotals=*/true));
  Text = print(P);
  // foo's own code joins main's; bar stays inlined, now right in main.
  EXPECT_NE(Text.find("self \"a.cpp\" 1 0 : 21\n"), std::string::npos) << Text;
  EXPECT_NE(Text.find("self \"a.cpp\" 1 0 inlined at 2.1 \"bar\" "
                      "fl=\"a.cpp\" : 12\n"),
            std::string::npos)
      << Text;

  // Formats without inline stacks say what they flatten.
  std::vector<std::string> Warnings;
  WriteContext Ctx;
  Ctx.Warn = [&](const Twine &W) { Warnings.push_back(W.str()); };
  warnDroppedData(P, "webgrind", Ctx);
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_NE(Warnings[0].find("no inline stacks"), std::string::npos);
}

// An inlinee's values (its total) go with its site: renamed with its callee,
// merged when two sites become one, dropped when the site folds into its
// parent (whose total holds its samples already).
TEST(Rewrite, InlineValuesFollowTheirSites) {
  Profile P;
  P.getOrAddEvent("samples");
  FuncId Main = P.getOrAddFunction(0, 0, P.Strings.intern("main"));
  FuncId Foo = P.getOrAddFunction(0, 0, P.Strings.intern("foo"));
  FuncId Foo2 = P.getOrAddFunction(0, 0, P.Strings.intern("foo.llvm.2"));
  FuncId Bar = P.getOrAddFunction(0, 0, P.Strings.intern("bar"));
  InlineSiteId AtFoo = P.getOrAddInlineSite({0, 4, 0, Foo});
  InlineSiteId AtFoo2 = P.getOrAddInlineSite({0, 4, 0, Foo2});
  InlineSiteId AtBar = P.getOrAddInlineSite({AtFoo, 2, 1, Bar});
  Part &Pt = P.addPart({PositionKind::LineOffset, PositionKind::Discriminator});
  FunctionData &FD = Pt.getOrCreate(Main);
  FD.values().set(FunctionValueKind::TotalSamples, 100);
  FD.valuesAt(AtFoo).set(FunctionValueKind::TotalSamples, 30);
  FD.valuesAt(AtFoo2).set(FunctionValueKind::TotalSamples, 20);
  FD.valuesAt(AtBar).set(FunctionValueKind::TotalSamples, 5);
  EXPECT_EQ(FD.findValues(AtBar)->get(FunctionValueKind::TotalSamples),
            std::optional<uint64_t>(5));
  EXPECT_EQ(FD.findValues(P.numInlineSites()), nullptr);
  EXPECT_NE(print(P).find("    values inlined at 4 \"foo\", 2.1 \"bar\" : "
                          "total-samples=5\n"),
            std::string::npos)
      << print(P);

  // foo.llvm.2 is foo: the two sites become one and their totals add.
  ASSERT_TRUE(renameFunctions(P, [&](const Function &F) {
    Function G = F;
    if (P.Strings.str(F.Name) == "foo.llvm.2")
      G.Name = P.Strings.intern("foo");
    return G;
  }));
  std::string Text = print(P);
  EXPECT_NE(Text.find("    values inlined at 4 \"foo\" : total-samples=50\n"),
            std::string::npos)
      << Text;

  RowMap M;
  for (FuncId F = 0; F != P.numFunctions(); ++F)
    M.Func.push_back(P.functionName(F) == "foo" ? DroppedFunction : F);
  ASSERT_TRUE(rewriteProfile(P, M, /*DropTotals=*/true));
  Text = print(P);
  EXPECT_EQ(Text.find("total-samples=50"), std::string::npos) << Text;
  EXPECT_NE(Text.find("function \"main\" total-samples=100\n"
                      "    values inlined at 2.1 \"bar\" : total-samples=5\n"),
            std::string::npos)
      << Text;
}

// A weighted merge multiplies the values that merging adds.
TEST(Rewrite, ScaledValuesSaturate) {
  FunctionValues V;
  V.set(FunctionValueKind::FirstLine, 7);
  V.set(FunctionValueKind::HeadSamples, 3);
  V.set(FunctionValueKind::TotalSamples, UINT64_MAX / 2);
  EXPECT_FALSE(V.scale(3));
  EXPECT_EQ(V.get(FunctionValueKind::FirstLine), std::optional<uint64_t>(7));
  EXPECT_EQ(V.get(FunctionValueKind::HeadSamples), std::optional<uint64_t>(9));
  EXPECT_EQ(V.get(FunctionValueKind::TotalSamples),
            std::optional<uint64_t>(UINT64_MAX));
}

// Function values go through copyRows by their kinds' rules.
TEST(Rewrite, MergedFunctionsKeepTheFirstLineAndAddHeadSamples) {
  auto P = parseProfile("events: s\nfl=a.c\nfn=f\n7 1\n6 1\nfn=g\n9 1\n2 1\n");
  Part &Pt = *P->parts().front();
  Pt.getOrCreate(fn(*P, "f")).values().set(FunctionValueKind::HeadSamples, 3);
  Pt.getOrCreate(fn(*P, "g")).values().set(FunctionValueKind::HeadSamples, 4);
  ASSERT_TRUE(renameFunctions(*P, [&](const Function &F) {
    Function G = F;
    G.Name = P->Strings.intern("h");
    return G;
  }));
  const FunctionData *H = P->parts().front()->lookup(fn(*P, "h"));
  ASSERT_TRUE(H);
  EXPECT_EQ(H->values().get(FunctionValueKind::FirstLine),
            std::optional<uint64_t>(7));
  EXPECT_EQ(H->values().get(FunctionValueKind::HeadSamples),
            std::optional<uint64_t>(7));
}

} // namespace
