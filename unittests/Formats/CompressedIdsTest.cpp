//===- CompressedIdsTest.cpp - The callgrind reader's id tables -----------===//

#include "CallgrindReader.h"
#include "gtest/gtest.h"
#include <map>
#include <random>
#include <set>

using namespace profkit;
using namespace profkit::callgrind;

namespace {

// Defines, finds and new parts at random against a map: ids in the chunks
// (some at their edges), past them in the map, and parts of a few ids and
// of many. Ids in the chunks keep the name an earlier part gave them.
TEST(CompressedIds, AgreesWithAMap) {
  CompressedIds Ids;
  std::map<uint64_t, StrId> Model, EarlierModel;
  std::mt19937_64 Random(19);
  const uint64_t Edges[] = {0,       1,         4095, 4096, 4097, (1 << 20) - 1,
                            1 << 20, UINT32_MAX};
  auto AnyId = [&]() -> uint64_t {
    switch (Random() % 4) {
    case 0:
      return Edges[Random() % std::size(Edges)];
    case 1:
      return Random() % 50000;
    case 2:
      return Random() % (3 << 20);
    default:
      return Random() % (uint64_t(UINT32_MAX) + 1);
    }
  };
  auto AnyName = [&]() -> StrId {
    return Random() % 8 ? StrId(Random() % (CompressedIds::MaxName + 1))
                        : CompressedIds::MaxName;
  };
  for (int Step = 0; Step != 200000; ++Step) {
    uint64_t Id = AnyId();
    unsigned Action = Random() % 1000;
    if (Action == 0) {
      Ids.clear();
      for (const auto &[Key, Name] : Model)
        if (Key < (1 << 20)) // The chunks' ids, not the map's.
          EarlierModel[Key] = Name;
      Model.clear();
    } else if (Action < 500) {
      StrId Name = AnyName();
      StrId Had = Model.try_emplace(Id, Name).first->second;
      ASSERT_EQ(Ids.define(Id, Name), Had) << "id " << Id;
    } else {
      StrId Found = 0;
      auto It = Model.find(Id);
      ASSERT_EQ(Ids.find(Id, Found), It != Model.end()) << "id " << Id;
      if (It != Model.end()) {
        ASSERT_EQ(Found, It->second) << "id " << Id;
      }
      auto Before = EarlierModel.find(Id);
      std::optional<StrId> Want;
      if (It == Model.end() && Before != EarlierModel.end())
        Want = Before->second;
      ASSERT_EQ(Ids.earlier(Id), Want) << "id " << Id;
    }
  }
}

// A new part forgets the ids of the one before, in the chunks and past them,
// whether it set few of them or more than the reader lists.
TEST(CompressedIds, NewPartForgets) {
  CompressedIds Ids;
  EXPECT_EQ(Ids.define(7, 3), 3u);
  EXPECT_EQ(Ids.define(7, 5), 3u);
  EXPECT_EQ(Ids.define(8, 5), 5u);
  EXPECT_EQ(Ids.define(UINT32_MAX, 6), 6u);
  Ids.clear();
  StrId Found = 0;
  EXPECT_EQ(Ids.earlier(7), StrId(3));
  EXPECT_EQ(Ids.earlier(UINT32_MAX), std::nullopt);
  EXPECT_FALSE(Ids.find(7, Found));
  EXPECT_FALSE(Ids.find(8, Found));
  EXPECT_FALSE(Ids.find(UINT32_MAX, Found));
  EXPECT_EQ(Ids.define(9, 4), 4u);
  EXPECT_TRUE(Ids.find(9, Found));
  EXPECT_EQ(Found, 4u);
  EXPECT_EQ(Ids.define(7, 2), 2u);

  for (unsigned Many : {4095u, 4096u, 4097u, 20000u}) {
    Ids.clear();
    for (uint32_t Id = 1; Id <= Many; ++Id)
      ASSERT_EQ(Ids.define(Id * 37, Id), Id);
    Ids.clear();
    for (uint32_t Id = 1; Id <= Many; ++Id) {
      ASSERT_FALSE(Ids.find(Id * 37, Found)) << Many << " ids, id " << Id * 37;
      ASSERT_EQ(Ids.earlier(Id * 37), Id) << Many << " ids, id " << Id * 37;
    }
    EXPECT_EQ(Ids.define(37, 9), 9u);
  }
}

// A chunk's ids are hashed while few and move into an array once many: the
// names a part gave them, and those of the part before, move with them.
TEST(CompressedIds, ManyIdsOfAChunkMoveToAnArray) {
  CompressedIds Ids;
  StrId Found = 0;
  // The first chunks to get ids take arrays at once.
  for (uint32_t Chunk = 100; Chunk != 132; ++Chunk)
    ASSERT_EQ(Ids.define(Chunk * 4096, Chunk), Chunk);
  // Ids 8192 to 12287 are the third chunk's: one in eight in one part
  // (hashed), then the others in the next, past the count that moves them
  // all into an array.
  auto InFirstPart = [](uint32_t Id) { return Id % 8 == 0; };
  for (uint32_t Id = 8192; Id < 12288; Id += 8)
    ASSERT_EQ(Ids.define(Id, Id - 8000), Id - 8000);
  EXPECT_EQ(Ids.define(7, 1), 1u);
  Ids.clear();
  for (uint32_t Id = 8192; Id < 12288; ++Id) {
    if (!InFirstPart(Id)) {
      ASSERT_EQ(Ids.define(Id, Id - 8000), Id - 8000);
    }
  }
  for (uint32_t Id = 8192; Id < 12288; ++Id) {
    bool Now = !InFirstPart(Id);
    ASSERT_EQ(Ids.find(Id, Found), Now) << "id " << Id;
    if (Now) {
      ASSERT_EQ(Found, Id - 8000) << "id " << Id;
    }
    ASSERT_EQ(Ids.earlier(Id), Now ? std::nullopt : std::optional(Id - 8000))
        << "id " << Id;
  }
  EXPECT_FALSE(Ids.find(8191, Found));
  EXPECT_FALSE(Ids.find(12288, Found));
  EXPECT_EQ(Ids.earlier(7), StrId(1));
  // A new part marks both kinds of entry earlier.
  EXPECT_EQ(Ids.define(7, 1), 1u);
  Ids.clear();
  EXPECT_EQ(Ids.earlier(8193), StrId(193));
  EXPECT_EQ(Ids.earlier(7), StrId(1));
  EXPECT_FALSE(Ids.find(8193, Found));
  EXPECT_FALSE(Ids.find(7, Found));
}

// Ids that all hash to the first eighth of the table, whatever its size
// (131 K of them): probed one after another, each lookup would go over the
// ones before; their chunks take arrays instead.
TEST(CompressedIds, IdsChosenToCollideStayCheap) {
  CompressedIds Ids;
  std::vector<uint32_t> Chosen;
  for (uint32_t Id = 0; Id != (1u << 20); ++Id)
    if (uint32_t(Id * 0x9E3779B1u) >> 29 == 0)
      Chosen.push_back(Id);
  ASSERT_GT(Chosen.size(), 100000u);
  for (uint32_t Id : Chosen)
    ASSERT_EQ(Ids.define(Id, Id % 1000), Id % 1000);
  StrId Found = 0;
  for (uint32_t Id : Chosen) {
    ASSERT_TRUE(Ids.find(Id, Found)) << "id " << Id;
    ASSERT_EQ(Found, Id % 1000) << "id " << Id;
  }
  EXPECT_FALSE(Ids.find(Chosen.back() + 1, Found));
}

// The tail's set of the head's functions: inserts, lookups and new parts at
// random against a std::set, parts of a few ids and of more than it lists.
TEST(FunctionIdSet, AgreesWithASet) {
  FunctionIdSet Ids;
  std::set<FuncId> Model;
  std::mt19937_64 Random(7);
  for (int Step = 0; Step != 200000; ++Step) {
    // Now and then a part of many functions, mostly few.
    FuncId F = FuncId(Random() % (Step % 50000 < 25000 ? 300 : 900000));
    unsigned Action = Random() % 10000;
    if (Action < 3) {
      Ids.clear();
      Model.clear();
    } else if (Action < 6000) {
      Ids.insert(F);
      Model.insert(F);
    } else {
      ASSERT_EQ(Ids.contains(F), Model.count(F) != 0) << "id " << F;
    }
  }
  for (unsigned Many : {4096u, 4097u, 4098u}) {
    Ids.clear();
    for (FuncId F = 0; F != Many; ++F)
      Ids.insert(F * 3);
    Ids.insert(3); // Already in: listed once.
    Ids.clear();
    for (FuncId F = 0; F != Many; ++F)
      ASSERT_FALSE(Ids.contains(F * 3)) << Many << " ids, id " << F * 3;
  }
}

} // namespace
