//===- ProfileTest.cpp - Tests of the profile IR --------------------------===//

#include "profkit/IR/Profile.h"
#include "profkit/Formats/Format.h"
#include "profkit/IR/IRPrinter.h"
#include "profkit/Support/InputStream.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <array>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <thread>

using namespace profkit;
using namespace llvm;

namespace {

TEST(StringPool, InternsOnce) {
  StringPool S;
  EXPECT_EQ(S.intern(""), 0u);
  StrId A = S.intern("main");
  EXPECT_EQ(S.intern("main"), A);
  EXPECT_NE(S.intern("fib"), A);
  EXPECT_EQ(S.str(A), "main");
  EXPECT_EQ(S.lookup("fib"), std::optional<StrId>(2));
  EXPECT_FALSE(S.lookup("nope"));
}

TEST(StringPool, KeepsEveryIdAsItGrows) {
  // Enough strings for the table to grow many times, with prefixes of each
  // other and the same bytes in other lengths; each keeps its id and its
  // bytes, NUL after them.
  StringPool S;
  std::vector<std::string> Made;
  for (unsigned I = 0; I != 100000; ++I)
    Made.push_back(std::string(I % 7, 'x') + std::to_string(I / 3));
  std::vector<StrId> Ids;
  for (const std::string &M : Made)
    Ids.push_back(S.intern(M));
  for (size_t I = 0; I != Made.size(); ++I) {
    ASSERT_EQ(S.intern(Made[I]), Ids[I]);
    ASSERT_EQ(S.lookup(Made[I]), std::optional<StrId>(Ids[I]));
    ASSERT_EQ(S.str(Ids[I]), Made[I]);
    ASSERT_EQ(S.str(Ids[I]).data()[Made[I].size()], '\0');
  }
  std::set<StrId> Distinct(Ids.begin(), Ids.end());
  std::set<std::string> Strings(Made.begin(), Made.end());
  EXPECT_EQ(Distinct.size(), Strings.size());
  EXPECT_EQ(S.size(), Strings.size() + !Strings.count(""));
  EXPECT_FALSE(S.lookup("xxxxxxx0"));

  // The pool moved to has every string; the one moved from, none.
  StringPool Moved = std::move(S);
  EXPECT_EQ(Moved.lookup(Made[5]), std::optional<StrId>(Ids[5]));
  EXPECT_FALSE(S.lookup(Made[5])); // NOLINT(bugprone-use-after-move)
}

TEST(Profile, FunctionIdentityIsObjectFileName) {
  Profile P;
  StrId Ob = P.Strings.intern("a.out"), F1 = P.Strings.intern("a.c"),
        F2 = P.Strings.intern("b.c"), N = P.Strings.intern("helper");
  FuncId A = P.getOrAddFunction(Ob, F1, N);
  EXPECT_EQ(P.getOrAddFunction(Ob, F1, N), A);
  FuncId B = P.getOrAddFunction(Ob, F2, N);
  FuncId C = P.getOrAddFunction(0, F1, N);
  EXPECT_NE(B, A); // static helper in b.c
  EXPECT_NE(C, A);
  EXPECT_NE(C, B);
  // The second and third of a name are found again, the first still is.
  EXPECT_EQ(P.getOrAddFunction(Ob, F2, N), B);
  EXPECT_EQ(P.getOrAddFunction(0, F1, N), C);
  EXPECT_EQ(P.getOrAddFunction(Ob, F1, N), A);
  EXPECT_EQ(P.numFunctions(), 3u);
  // A name interned after others, looked up first as one function's file.
  StrId Late = P.Strings.intern("late");
  FuncId D = P.getOrAddFunction(Ob, Late, N);
  FuncId E = P.getOrAddFunction(Ob, F1, Late);
  EXPECT_NE(D, E);
  EXPECT_EQ(P.function(E).Name, Late);
  EXPECT_EQ(P.getOrAddFunction(Ob, F1, Late), E);
  EXPECT_EQ(P.numFunctions(), 5u);
}

TEST(Profile, FindsEveryOneOfManyFunctionsOfAName) {
  // cachegrind's files repeat a name in many files: the index grows many
  // times, and every function stays found.
  Profile P;
  StrId Ob = P.Strings.intern("a.out"), N = P.Strings.intern("helper");
  std::vector<StrId> Files;
  for (unsigned I = 0; I != 5000; ++I)
    Files.push_back(P.Strings.intern("f" + std::to_string(I) + ".c"));
  for (unsigned I = 0; I != 5000; ++I)
    EXPECT_EQ(P.getOrAddFunction(Ob, Files[I], N), I);
  // Functions the reader adds without a look are found too, the first of
  // equal ids winning.
  FuncId Added = P.addNewFunction(0, Files[0], N);
  P.addNewFunction(0, Files[0], N);
  for (unsigned I = 0; I != 5000; ++I)
    EXPECT_EQ(P.getOrAddFunction(Ob, Files[I], N), I);
  EXPECT_EQ(P.getOrAddFunction(0, Files[0], N), Added);
  EXPECT_EQ(P.numFunctions(), 5002u);
}

TEST(Profile, AHintedLookupFindsWhatAnUnhintedOneFinds) {
  Profile P;
  StrId Ob = P.Strings.intern("a.out"), F1 = P.Strings.intern("a.c"),
        F2 = P.Strings.intern("b.c"), N = P.Strings.intern("f");
  FuncId A = P.getOrAddFunction(Ob, F1, N);
  FuncId B = P.getOrAddFunction(Ob, F2, N);
  EXPECT_EQ(P.getOrAddFunction(Ob, F2, N, B), B);  // The hint is right.
  EXPECT_EQ(P.getOrAddFunction(Ob, F2, N, A), B);  // Wrong.
  EXPECT_EQ(P.getOrAddFunction(Ob, F1, N, 99), A); // Past the end.
  FuncId C = P.getOrAddFunction(0, F1, N, A);      // New.
  EXPECT_EQ(C, 2u);
  // With two functions of equal ids, the first wins, whatever the hint.
  FuncId Twin = P.addNewFunction(Ob, F2, N);
  EXPECT_EQ(P.getOrAddFunction(Ob, F2, N, Twin), B);
  EXPECT_EQ(P.getOrAddFunction(Ob, F2, N, Twin), B);
  EXPECT_EQ(P.numFunctions(), 4u);
  // Without its index, a profile finds its functions as before.
  P.releaseFunctionIndex();
  EXPECT_EQ(P.getOrAddFunction(Ob, F2, N, B), B);
  EXPECT_EQ(P.getOrAddFunction(Ob, F2, N, Twin), B);
  P.releaseFunctionIndex();
  EXPECT_EQ(P.getOrAddFunction(Ob, F1, N), A);
  EXPECT_EQ(P.getOrAddFunction(0, F1, N), C);
  EXPECT_EQ(P.getOrAddFunction(Ob, F2, N), B);
  EXPECT_EQ(P.getOrAddFunction(0, F2, N), 4u);
}

TEST(Profile, FindsFunctionsAsALinearSearchWould) {
  // Lookups mixed as readers mix them: cachegrind's files of new functions
  // (found among themselves until the index takes them), calls into other
  // files, functions added without a look, hints right and wrong, the
  // index released. Each answer must be the first function of its ids, as
  // a search of the list finds it, and a new one only if there is none.
  Profile P;
  std::vector<StrId> Ids;
  for (unsigned I = 0; I != 12; ++I)
    Ids.push_back(P.Strings.intern("s" + std::to_string(I)));
  std::vector<std::array<StrId, 3>> Model;
  std::map<std::array<StrId, 3>, FuncId> FirstOf;
  auto Find = [&](std::array<StrId, 3> K) -> FuncId {
    auto [It, New] = FirstOf.try_emplace(K, FuncId(Model.size()));
    if (New)
      Model.push_back(K);
    return It->second;
  };
  // A file of many functions, found again; another of the same names, as a
  // file repeated under another name; a name of two objects in a file.
  StrId Big = P.Strings.intern("???"), Copy = P.Strings.intern("copy/???");
  std::vector<StrId> Names;
  for (unsigned I = 0; I != 70000; ++I)
    Names.push_back(P.Strings.intern("f" + std::to_string(I)));
  for (StrId File : {Big, Big, Copy})
    for (StrId N : Names)
      ASSERT_EQ(P.getOrAddFunction(Ids[0], File, N), Find({Ids[0], File, N}));
  for (StrId Ob : {Ids[1], Ids[0], Ids[1]})
    for (StrId N : ArrayRef(Names).take_front(100))
      ASSERT_EQ(P.getOrAddFunction(Ob, Copy, N), Find({Ob, Copy, N}));
  std::mt19937 Rng(19);
  auto Pick = [&](unsigned N) { return Ids[Rng() % N]; };
  for (unsigned Step = 0; Step != 20000; ++Step) {
    // Files from a pool that grows: most are new for a while.
    StrId File = Ids[std::min<size_t>(Ids.size() - 1, Step / 1500 + Rng() % 3)];
    std::array<StrId, 3> K = {Pick(3), File, Pick(12)};
    switch (Rng() % 16) {
    case 0: {
      FuncId F = P.addNewFunction(K[0], K[1], K[2]);
      FirstOf.try_emplace(K, FuncId(Model.size()));
      Model.push_back(K);
      ASSERT_EQ(F, Model.size() - 1);
      break;
    }
    case 1:
      P.releaseFunctionIndex();
      break;
    case 2:
    case 3: {
      FuncId Hint = FuncId(Rng() % (Model.size() + 2));
      ASSERT_EQ(P.getOrAddFunction(K[0], K[1], K[2], Hint), Find(K));
      break;
    }
    default:
      ASSERT_EQ(P.getOrAddFunction(K[0], K[1], K[2]), Find(K)) << Step;
    }
    if (Step % 1500 == 0) // A new file, as a cachegrind file goes on.
      Ids.push_back(P.Strings.intern("file" + std::to_string(Step)));
  }
  EXPECT_EQ(P.numFunctions(), Model.size());
}

TEST(Part, FindsEveryFunctionWhetherAddedInOrderOrNot) {
  Part Pt;
  // In order from 10 (the part needs no map), then a gap, then earlier ids.
  for (FuncId F : {10u, 11u, 12u})
    Pt.getOrCreate(F);
  EXPECT_EQ(Pt.lookup(9), nullptr);
  EXPECT_EQ(Pt.lookup(13), nullptr);
  EXPECT_EQ(&Pt.getOrCreate(11), Pt.lookup(11));
  EXPECT_EQ(Pt.functions().size(), 3u);
  for (FuncId F : {20u, 3u, 12u, 13u})
    Pt.getOrCreate(F);
  ASSERT_EQ(Pt.functions().size(), 6u);
  for (FuncId F : {10u, 11u, 12u, 13u, 20u, 3u}) {
    const FunctionData *FD = Pt.lookup(F);
    ASSERT_NE(FD, nullptr);
    EXPECT_EQ(FD->Id, F);
  }
  EXPECT_EQ(Pt.lookup(14), nullptr);
  EXPECT_EQ(Pt.lookup(0), nullptr);
  // Once read, the part finds its functions by looking through them (it is
  // small), and adding one more makes the map again.
  Pt.shrink();
  for (FuncId F : {10u, 11u, 12u, 13u, 20u, 3u})
    EXPECT_EQ(Pt.lookup(F)->Id, F);
  EXPECT_EQ(Pt.lookup(4), nullptr);
  EXPECT_EQ(Pt.lookup(21), nullptr);
  EXPECT_EQ(&Pt.getOrCreate(20), Pt.lookup(20));
  EXPECT_EQ(Pt.functions().size(), 6u);
  EXPECT_EQ(Pt.getOrCreate(4).Id, 4u);
  for (FuncId F : {10u, 11u, 12u, 13u, 20u, 3u, 4u})
    EXPECT_EQ(Pt.lookup(F)->Id, F);
  EXPECT_EQ(Pt.functions().size(), 7u);
}

TEST(Part, FindsItsFunctionsOnEitherSideOfTwoBytePositions) {
  // Positions in id order take 2 bytes each up to 65,536 functions, 4 past.
  for (size_t N : {size_t(0x10000), size_t(0x10001)}) {
    Part Pt;
    for (size_t I = 0; I != N; ++I) // Descending: the part needs its map.
      Pt.getOrCreate(FuncId(2 * (N - I)));
    Pt.shrink();
    for (size_t I = 0; I < N; I += 97) {
      FuncId F = FuncId(2 * (N - I));
      const FunctionData *FD = Pt.lookup(F);
      ASSERT_NE(FD, nullptr) << N << " " << F;
      EXPECT_EQ(FD, &Pt.functions()[I]);
      EXPECT_EQ(Pt.lookup(F + 1), nullptr);
    }
    EXPECT_EQ(Pt.lookup(FuncId(2))->Id, 2u);
    EXPECT_EQ(Pt.lookup(0), nullptr);
    EXPECT_EQ(Pt.getOrCreate(1).Id, 1u); // The map again, from either width.
    EXPECT_EQ(Pt.lookup(FuncId(2 * N))->Id, 2 * N);
    EXPECT_EQ(Pt.functions().size(), N + 1);
  }
}

TEST(Part, FindsItsFunctionsOnEitherSideOfTheSearchedThroughSize) {
  // Up to MaxSearchedThrough functions a read part looks through them; past
  // it, through the positions in id order.
  for (size_t N : {Part::MaxSearchedThrough, Part::MaxSearchedThrough + 1}) {
    Part Pt;
    for (size_t I = 0; I != N; ++I) // Descending: the part needs its map.
      Pt.getOrCreate(FuncId(2 * (N - I)));
    Pt.shrink();
    for (size_t I = 0; I != N; ++I) {
      FuncId F = FuncId(2 * (N - I));
      EXPECT_EQ(Pt.lookup(F), &Pt.functions()[I]) << N << " " << F;
      EXPECT_EQ(Pt.lookup(F + 1), nullptr);
    }
    EXPECT_EQ(Pt.lookup(0), nullptr);
    EXPECT_EQ(&Pt.getOrCreate(FuncId(2)), Pt.lookup(2));
    EXPECT_EQ(Pt.functions().size(), N);
    EXPECT_EQ(Pt.getOrCreate(1).Id, 1u); // The map again.
    EXPECT_EQ(Pt.lookup(FuncId(2 * N))->Id, 2 * N);
    EXPECT_EQ(Pt.functions().size(), N + 1);
  }
}

TEST(Part, TakingItsFunctionsLeavesItAsIfItHadNone) {
  // Whatever index the part had made (none, the map, the sorted array), a
  // function taken out is no longer found, and one added again is new.
  for (int Index = 0; Index != 3; ++Index) {
    Part Pt;
    for (FuncId F : {5u, 6u, 7u})
      Pt.getOrCreate(F).values().set(FunctionValueKind::FirstLine, F);
    if (Index >= 1)
      Pt.getOrCreate(2);
    if (Index == 2)
      Pt.shrink();
    FunctionDataVector Taken = Pt.takeFunctions();
    EXPECT_EQ(Taken.size(), Index ? 4u : 3u);
    EXPECT_EQ(Taken[1].values().get(FunctionValueKind::FirstLine), 6u);
    EXPECT_TRUE(Pt.functions().empty());
    for (FuncId F : {2u, 5u, 6u, 7u})
      EXPECT_EQ(Pt.lookup(F), nullptr);
    FunctionData &FD = Pt.getOrCreate(6);
    EXPECT_FALSE(FD.values().get(FunctionValueKind::FirstLine));
    EXPECT_EQ(Pt.lookup(6), &FD);
    EXPECT_EQ(Pt.getOrCreate(2).Id, 2u);
    EXPECT_EQ(Pt.functions().size(), 2u);
  }
}

TEST(PartHeader, KeepsEachLineAsWrittenThroughCopiesAndErasures) {
  PartHeader H;
  EXPECT_TRUE(H.empty());
  std::string Long(300, 'x');
  H.push_back({"cmd", Long});
  H.push_back({"desc", ""});
  H.push_back({"", "a value without a key"});
  H.push_back({"part", "2"});
  H.shrink();
  PartHeader Copy = H;
  H.eraseIf([](const HeaderLine &L) { return L.Key == "desc"; });
  ASSERT_EQ(H.size(), 3u);
  EXPECT_EQ(H.front().Value, Long);
  EXPECT_EQ(H[1].Value, "a value without a key");
  EXPECT_EQ(H[2].Key, "part");
  std::vector<std::string> Keys;
  for (const HeaderLine &L : Copy)
    Keys.push_back((L.Key + "=" + L.Value).str());
  EXPECT_EQ(Keys,
            (std::vector<std::string>{
                "cmd=" + Long, "desc=", "=a value without a key", "part=2"}));
}

TEST(PartHeader, SharesAPoolsLinesAndOutlivesAPoolItLeaves) {
  llvm::IntrusiveRefCntPtr<HeaderLinePool> Pool(new HeaderLinePool);
  PartHeader A, B;
  A.usePool(Pool);
  B.usePool(Pool);
  A.push_back({"desc", "Trigger: --dump-every-bb=2000000"});
  B.push_back({"desc", "Trigger: --dump-every-bb=2000000"});
  // A key and value that run together as the first line's do: still apart.
  B.push_back({"descT", "rigger: --dump-every-bb=2000000"});
  EXPECT_EQ(A[0].Value.data(), B[0].Value.data()); // One copy of the line.
  EXPECT_EQ(B[1].Key, "descT");
  {
    PartHeader C;
    C.push_back({"part", "1"});
    C.push_back({"thread", "2"});
    // C's own pool goes when C moves its lines into the shared one.
    C.usePool(Pool);
    A = C;
  }
  Pool.reset(); // The headers keep it alive.
  ASSERT_EQ(A.size(), 2u);
  EXPECT_EQ(A[1].Key, "thread");
  EXPECT_EQ(A[1].Value, "2");
  EXPECT_EQ(B[0].Key, "desc");
}

TEST(PartHeader, ReadsItsLinesWhileAnotherThreadAddsToThePool) {
  // Thousands of distinct lines fill many of the pool's chunks of line
  // addresses; each header reads its lines as the other thread adds more.
  llvm::IntrusiveRefCntPtr<HeaderLinePool> Pool(new HeaderLinePool);
  constexpr unsigned NumLines = 5000;
  auto Fill = [&](PartHeader &H, const char *Key) {
    H.usePool(Pool);
    for (unsigned I = 0; I != NumLines; ++I) {
      H.push_back({Key, std::to_string(I)});
      HeaderLine L = H[I / 2];
      if (L.Key != Key || L.Value != std::to_string(I / 2))
        return false;
    }
    return true;
  };
  PartHeader A, B;
  bool OkA = false, OkB = false;
  std::thread Other([&] { OkB = Fill(B, "b"); });
  OkA = Fill(A, "a");
  Other.join();
  EXPECT_TRUE(OkA);
  EXPECT_TRUE(OkB);
  ASSERT_EQ(A.size(), NumLines);
  for (unsigned I = 0; I != NumLines; ++I) {
    EXPECT_EQ(A[I].Value, std::to_string(I));
    EXPECT_EQ(B[I].Key, "b");
  }
}

TEST(Profile, EventsAreMatchedByName) {
  Profile P;
  EXPECT_EQ(P.getOrAddEvent("Ir"), 0u);
  EXPECT_EQ(P.getOrAddEvent("Dr"), 1u);
  EXPECT_EQ(P.getOrAddEvent("Ir"), 0u);
  EXPECT_EQ(P.findEvent("Dr"), std::optional<unsigned>(1));
  EXPECT_FALSE(P.findEvent("Dw"));
}

TEST(Profile, PartTotalsSumSelfCostsOnly) {
  Profile P;
  P.getOrAddEvent("Ir");
  Part &Pt = P.addPart({PositionKind::Line});
  FuncId F = P.getOrAddFunction(0, 0, P.Strings.intern("f"));
  FuncId G = P.getOrAddFunction(0, 0, P.Strings.intern("g"));
  FunctionData &FD = Pt.getOrCreate(F);
  ASSERT_TRUE(FD.Self.add({1, 0, 0}, {10})); // line 1, file "", no site
  ASSERT_TRUE(FD.Self.add({2, 0, 0}, {5}));
  ASSERT_TRUE(
      FD.makeCalls().add({2, 0, 0, G, 0}, {1, 1000})); // inclusive, not self
  bool Overflow = false;
  EXPECT_EQ(Pt.computeTotals(1, Overflow), std::vector<uint64_t>{15});
  EXPECT_FALSE(Overflow);
  EXPECT_EQ(Pt.lookup(G), nullptr);
  EXPECT_EQ(Pt.lookup(F), &FD);
}

TEST(Profile, PrintIsIndependentOfInputOrder) {
  auto Read = [](StringRef Text) {
    auto In = InputStream::fromBuffer(Text, "mem");
    Expected<std::unique_ptr<Profile>> P = readProfile(*In, ReadOptions());
    EXPECT_TRUE(bool(P)) << toString(P.takeError());
    std::string S;
    raw_string_ostream OS(S);
    printIR(**P, OS);
    return S;
  };
  std::string A = Read("events: Ir\nfl=a.c\nfn=f\n1 1\n2 2\nfn=g\n3 3\n");
  std::string B = Read("events: Ir\nfl=a.c\nfn=g\n3 3\nfn=f\n1 1\n2 2\n");
  EXPECT_EQ(A, B);
  // f's first row is not its lowest line: the text says where it began.
  std::string C = Read("events: Ir\nfl=a.c\nfn=g\n3 3\nfn=f\n2 2\n1 1\n");
  EXPECT_NE(A, C);
  EXPECT_NE(C.find("function \"f\" fl=\"a.c\" first-line=2\n"),
            std::string::npos)
      << C;
  EXPECT_NE(A, Read("events: Ir\nfl=a.c\nfn=g\n3 3\nfn=f\n2 2\n1 2\n"));
}

TEST(PositionKind, SampleProfilePositionsAreDecimalAndNotCallgrinds) {
  for (PositionKind K :
       {PositionKind::Instr, PositionKind::Line, PositionKind::BB,
        PositionKind::LineOffset, PositionKind::Discriminator})
    EXPECT_EQ(parsePositionKind(positionKindName(K)), K);
  EXPECT_FALSE(isCallgrindKind(PositionKind::LineOffset));
  EXPECT_FALSE(isAddressKind(PositionKind::Discriminator));

  Profile P;
  P.getOrAddEvent("samples");
  FuncId F =
      P.getOrAddFunction(0, P.Strings.intern("a.c"), P.Strings.intern("main"));
  Part &Pt = P.addPart({PositionKind::LineOffset, PositionKind::Discriminator});
  SelfKey K(Pt.layout());
  K.position()[0] = 3;
  K.position()[1] = 2;
  K.setSourceFile(P.function(F).File);
  uint64_t Samples[] = {40};
  ASSERT_TRUE(Pt.getOrCreate(F).Self.add(K.key(), Samples));
  ASSERT_TRUE(Pt.finalize());
  std::string Text;
  raw_string_ostream OS(Text);
  printIR(P, OS);
  EXPECT_NE(Text.find("positions: line-offset discriminator\n"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("self \"a.c\" 3 2 : 40\n"), std::string::npos) << Text;

  // callgrind has no such positions: its reader and writer refuse them.
  std::string Out;
  raw_string_ostream COS(Out);
  Error E =
      findFormat("callgrind")->Write(P, COS, PassParams(), WriteContext());
  EXPECT_EQ(toString(std::move(E)),
            "the callgrind format cannot hold line-offset positions");
  auto In =
      InputStream::fromBuffer("positions: line-offset\nevents: s\n", "mem");
  Expected<std::unique_ptr<Profile>> R = readProfile(*In, ReadOptions());
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(toString(R.takeError()),
            "mem:1: unknown position kind 'line-offset'");
}

TEST(Interval, WritersWithoutATimelineSaySoOnce) {
  auto In = InputStream::fromBuffer("events: us\nfl=a.c\nfn=cc1\n0 9\n", "mem");
  Expected<std::unique_ptr<Profile>> P = readProfile(*In, ReadOptions());
  ASSERT_TRUE(bool(P));
  Part &Pt = *(*P)->parts().front();
  Pt.makeIntervals() = {{0, 0, 0, 4}, {0, 1, 2, 5}};
  std::vector<std::string> Warnings;
  WriteContext Ctx;
  Ctx.Warn = [&](const Twine &W) { Warnings.push_back(W.str()); };
  std::string Out;
  raw_string_ostream OS(Out);
  const FormatInfo *W = findFormat("callgrind");
  PassParams Params(W->Name, W->Params, "output format");
  ASSERT_FALSE(bool(W->Write(**P, OS, Params, Ctx)));
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_EQ(Warnings[0], "the callgrind format has no timeline: 2 intervals "
                         "(when each ran) are not written; their costs are");
}

TEST(RowKeyBuilder, WhatIsWrittenIsWhatTheLayoutReads) {
  RowLayout L{2};
  CallKey C(L);
  C.position()[0] = 0x401000;
  C.position()[1] = 12;
  C.setSourceFile(7);
  C.setCallee(3);
  C.target()[0] = 0x402000;
  C.target()[1] = 40;
  Row R{C.key(), {}};
  ASSERT_EQ(C.key().size(), L.callWidth());
  EXPECT_EQ(L.position(R), ArrayRef<uint64_t>({0x401000, 12}));
  EXPECT_EQ(L.sourceFile(R), 7u);
  EXPECT_EQ(L.callee(R), 3u);
  EXPECT_EQ(L.callTarget(R), ArrayRef<uint64_t>({0x402000, 40}));

  JumpKey J(L);
  J.position()[1] = 5;
  J.setSourceFile(2);
  J.setKind(JumpKind::Conditional);
  J.setTargetFunction(4);
  J.setTargetFile(9);
  J.target()[1] = 8;
  Row JR{J.key(), {}};
  ASSERT_EQ(J.key().size(), L.jumpWidth());
  EXPECT_EQ(L.jumpKind(JR), JumpKind::Conditional);
  EXPECT_EQ(L.jumpTargetFunction(JR), 4u);
  EXPECT_EQ(L.jumpTargetFile(JR), 9u);
  EXPECT_EQ(L.jumpTarget(JR), ArrayRef<uint64_t>({0, 8}));

  SelfKey S(L);
  S.setSourceFile(1);
  S.setInlineSite(6);
  EXPECT_EQ(S.key(), ArrayRef<uint64_t>({0, 0, 1, 6}));
  EXPECT_EQ(L.inlineSite(Row{S.key(), {}}), 6u);
  EXPECT_EQ(L.inlineSite(R), 0u);
}

TEST(FunctionValues, EachKindMergesByItsRule) {
  FunctionValues A, B;
  EXPECT_TRUE(A.empty());
  B.set(FunctionValueKind::FirstLine, 3);
  B.set(FunctionValueKind::HeadSamples, 6);
  // An absent value takes the other's.
  EXPECT_TRUE(A.merge(B));
  EXPECT_EQ(A.get(FunctionValueKind::FirstLine), std::optional<uint64_t>(3));
  EXPECT_EQ(A.get(FunctionValueKind::HeadSamples), std::optional<uint64_t>(6));
  // The first line stays the first; head samples add up.
  FunctionValues C;
  C.set(FunctionValueKind::FirstLine, 1);
  C.set(FunctionValueKind::HeadSamples, 5);
  EXPECT_TRUE(A.merge(C));
  EXPECT_EQ(A.get(FunctionValueKind::FirstLine), std::optional<uint64_t>(3));
  EXPECT_EQ(A.get(FunctionValueKind::HeadSamples), std::optional<uint64_t>(11));
  A.erase(FunctionValueKind::FirstLine);
  EXPECT_FALSE(A.get(FunctionValueKind::FirstLine));
}

TEST(FunctionValues, EveryValueKeepsItsSizeAndCopiesApart) {
  // A first line kept small, then beside a sample count; a line past 32
  // bits; each copy independent of its source.
  FunctionValues A;
  A.set(FunctionValueKind::FirstLine, 7);
  FunctionValues B = A;
  B.set(FunctionValueKind::TotalSamples, uint64_t(1) << 40);
  EXPECT_EQ(B.get(FunctionValueKind::FirstLine), std::optional<uint64_t>(7));
  EXPECT_EQ(B.get(FunctionValueKind::TotalSamples),
            std::optional<uint64_t>(uint64_t(1) << 40));
  EXPECT_FALSE(A.get(FunctionValueKind::TotalSamples));
  FunctionValues C;
  C.set(FunctionValueKind::FirstLine, UINT64_MAX);
  EXPECT_EQ(C.get(FunctionValueKind::FirstLine),
            std::optional<uint64_t>(UINT64_MAX));
  FunctionValues D = C;
  D.set(FunctionValueKind::FirstLine, 1);
  EXPECT_EQ(C.get(FunctionValueKind::FirstLine),
            std::optional<uint64_t>(UINT64_MAX));
  EXPECT_EQ(D.get(FunctionValueKind::FirstLine), std::optional<uint64_t>(1));
  A = D;
  EXPECT_EQ(A.get(FunctionValueKind::FirstLine), std::optional<uint64_t>(1));
  EXPECT_FALSE(A.get(FunctionValueKind::HeadSamples));
  // A move takes the values along and leaves none behind.
  FunctionValues E = std::move(B);
  EXPECT_EQ(E.get(FunctionValueKind::TotalSamples),
            std::optional<uint64_t>(uint64_t(1) << 40));
  EXPECT_TRUE(B.empty());
}

TEST(FunctionValues, ErasingOneKindKeepsTheOthers) {
  FunctionValues A;
  A.set(FunctionValueKind::FirstLine, 9);
  A.erase(FunctionValueKind::FirstLine);
  EXPECT_TRUE(A.empty());
  A.set(FunctionValueKind::FirstLine, 4);
  A.set(FunctionValueKind::TotalSamples, 12);
  A.erase(FunctionValueKind::FirstLine);
  EXPECT_FALSE(A.get(FunctionValueKind::FirstLine));
  EXPECT_EQ(A.get(FunctionValueKind::TotalSamples),
            std::optional<uint64_t>(12));
}

TEST(FunctionData, JumpsTakeTheLayoutOfTheSelfRows) {
  // The jump table is made on first use, with the key width of the part's
  // layout, which the function knows from its self rows alone.
  RowLayout L{2};
  FunctionData FD(0, L);
  EXPECT_EQ(FD.jumps().keyWidth(), L.jumpWidth());
  FunctionData Released(1, L);
  Released.Self.clear();
  EXPECT_EQ(Released.jumps().keyWidth(), L.jumpWidth());
}

TEST(FunctionValues, AnOverflowingSumSaturatesAndFails) {
  FunctionValues A, B;
  A.set(FunctionValueKind::HeadSamples, UINT64_MAX - 1);
  B.set(FunctionValueKind::HeadSamples, 2);
  EXPECT_FALSE(A.merge(B));
  EXPECT_EQ(A.get(FunctionValueKind::HeadSamples),
            std::optional<uint64_t>(UINT64_MAX));
}

} // namespace

TEST(FunctionData, CallTableMadeForCallRowsOnly) {
  // A function that calls nothing holds no call table: reading it, or
  // finishing and shrinking its part, makes none.
  RowLayout L{1};
  Profile P;
  Part &Pt = P.addPart({PositionKind::Line});
  FunctionData &Leaf = Pt.getOrCreate(0);
  EXPECT_TRUE(Leaf.calls().empty());
  EXPECT_EQ(Leaf.calls().size(), 0u);
  ASSERT_TRUE(Pt.finalize());
  Pt.shrink();
  EXPECT_FALSE(Pt.functions()[0].hasCalls());
  // The first call row makes it, with the part's layout.
  FunctionData &Caller = Pt.getOrCreate(1);
  RowTable &Calls = Caller.makeCalls();
  EXPECT_EQ(Calls.keyWidth(), L.callWidth());
  CallKey K(L);
  K.setCallee(0);
  ASSERT_TRUE(Calls.add(K.key(), {1, 5}));
  EXPECT_TRUE(Caller.hasCalls());
  EXPECT_EQ(Caller.calls().size(), 1u);
  // Rows replaced by none free it.
  Caller.setCalls(RowTable(L.callWidth(), L.P));
  EXPECT_FALSE(Caller.hasCalls());
  EXPECT_TRUE(Caller.calls().empty());
}

TEST(FunctionData, CallsOutliveTheJumpsAndInlineValuesMadeAfterThem) {
  // A function's calls move into the block that also holds its jumps and
  // inline values when it first needs those.
  RowLayout L{1};
  FunctionData FD(0, L);
  CallKey K(L);
  K.setCallee(3);
  ASSERT_TRUE(FD.makeCalls().add(K.key(), {2, 9}));
  FD.valuesAt(7).set(FunctionValueKind::FirstLine, 40);
  EXPECT_TRUE(FD.jumps().empty());
  ASSERT_EQ(FD.calls().size(), 1u);
  EXPECT_EQ((*FD.calls().begin()).value(1), 9u);
  ASSERT_EQ(FD.inlineValues().size(), 1u);
  // Moved, the function keeps all of it; its calls replaced by none leave
  // the rest.
  FunctionData Moved = std::move(FD);
  EXPECT_TRUE(Moved.hasCalls());
  Moved.setCalls(RowTable(L.callWidth(), L.P));
  EXPECT_FALSE(Moved.hasCalls());
  EXPECT_EQ(Moved.findValues(7)->get(FunctionValueKind::FirstLine),
            std::optional<uint64_t>(40));
}

TEST(FunctionData, ItsValuesFollowItThroughEveryBlockItHolds) {
  // A function keeps its values in place until it calls something; then
  // they move into the block of its calls (on the heap, in an arena, or
  // with its jumps), and back when the calls go.
  RowLayout L{1};
  CallKey K(L);
  K.setCallee(2);
  auto Line = [](const FunctionData &FD) {
    return FD.values().get(FunctionValueKind::FirstLine);
  };
  std::optional<FunctionData> Survivor;
  for (bool InArena : {false, true}) {
    RowArena Arena;
    FunctionData FD(0, L);
    FD.values().set(FunctionValueKind::FirstLine, 12);
    ASSERT_TRUE(FD.makeCalls(InArena ? &Arena : nullptr).add(K.key(), {1, 3}));
    EXPECT_EQ(Line(FD), std::optional<uint64_t>(12));
    // Values too wide for one word, in the block.
    FD.values().set(FunctionValueKind::TotalSamples, uint64_t(1) << 40);
    FunctionData Moved = std::move(FD);
    EXPECT_FALSE(Line(FD));
    EXPECT_FALSE(FD.hasCalls());
    EXPECT_EQ(Moved.values().get(FunctionValueKind::TotalSamples),
              std::optional<uint64_t>(uint64_t(1) << 40));
    // Jumps take calls and values along.
    EXPECT_TRUE(Moved.jumps().empty());
    EXPECT_EQ(Moved.calls().size(), 1u);
    EXPECT_EQ(Line(Moved), std::optional<uint64_t>(12));
    // No calls: with jumps the block stays, without it goes.
    Moved.setCalls(RowTable());
    EXPECT_EQ(Line(Moved), std::optional<uint64_t>(12));
    FunctionData Plain(1, L);
    Plain.values().set(FunctionValueKind::FirstLine, 5);
    ASSERT_TRUE(Plain.makeCalls(InArena ? &Arena : nullptr).add(K.key(), {1}));
    Plain.setCalls(RowTable());
    EXPECT_FALSE(Plain.hasCalls());
    EXPECT_EQ(Line(Plain), std::optional<uint64_t>(5));
    // A function outlives the arena its block came from.
    Plain.makeCalls(InArena ? &Arena : nullptr);
    Survivor.emplace(std::move(Plain));
  }
  EXPECT_TRUE(Survivor->calls().empty());
  EXPECT_EQ(Line(*Survivor), std::optional<uint64_t>(5));
}
