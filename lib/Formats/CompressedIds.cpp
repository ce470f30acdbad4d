//===- CompressedIds.cpp - Names of a callgrind part's ids ----------------===//

#include "CompressedIds.h"
#include "llvm/Support/Process.h"

using namespace profkit;
using namespace profkit::callgrind;

const uint64_t CompressedIds::Seed =
    uint64_t(llvm::sys::Process::GetRandomNumber()) << 32 |
    llvm::sys::Process::GetRandomNumber();

CompressedIds::Slot *CompressedIds::findSlot(std::vector<Slot> &Table,
                                             unsigned Log2, uint32_t Id) {
  size_t I = slotOf(Id, Log2);
  for (unsigned K = 0; K != MaxProbe; ++K, I = (I + 1) & (Table.size() - 1))
    if (!Table[I].Entry || Table[I].Id == Id)
      return &Table[I];
  return nullptr;
}

uint32_t &CompressedIds::entryFor(uint32_t Id) {
  size_t Index = Id / ChunkSize;
  if (Index >= HashedOfChunk.size())
    HashedOfChunk.resize(Index + 1);
  if (NumArrays < FirstArrays || HashedOfChunk[Index] + 1 == ArrayAt) {
    makeArray(Index, Hashed, Log2Hashed);
    return (*Arrays[Index])[Id % ChunkSize];
  }
  if (2 * (NumHashed + 1) > Hashed.size())
    growHashed();
  Slot *S = findSlot(Hashed, Log2Hashed, Id);
  if (S && S->Entry)
    return S->Entry;
  if (!S) { // Too far from where its probe starts.
    makeArray(Index, Hashed, Log2Hashed);
    return (*Arrays[Index])[Id % ChunkSize];
  }
  // New: the caller gives it its entry.
  ++HashedOfChunk[Index];
  ++NumHashed;
  S->Id = Id;
  return S->Entry;
}

void CompressedIds::growHashed() {
  std::vector<Slot> Old = std::move(Hashed);
  unsigned OldLog2 = Log2Hashed;
  Log2Hashed = std::max(Log2Hashed + 1, 6u);
  Hashed.assign(size_t(1) << Log2Hashed, Slot{0, 0});
  NumHashed = 0;
  std::vector<size_t> TooFar; // Chunks of ids with no slot near enough.
  for (const Slot &S : Old) {
    size_t Index = S.Id / ChunkSize;
    if (!S.Entry || (Index < Arrays.size() && Arrays[Index]))
      continue; // Empty, or its chunk's array has it.
    if (Slot *To = findSlot(Hashed, Log2Hashed, S.Id)) {
      *To = S;
      ++NumHashed;
    } else {
      TooFar.push_back(Index);
    }
  }
  for (size_t Index : TooFar)
    if (Index >= Arrays.size() || !Arrays[Index])
      makeArray(Index, Old, OldLog2);
}

void CompressedIds::makeArray(size_t Index, const std::vector<Slot> &Table,
                              unsigned Log2) {
  if (Index >= Arrays.size())
    Arrays.resize(Index + 1);
  auto A = std::make_unique<Chunk>();
  uint32_t First = uint32_t(Index * ChunkSize);
  for (uint32_t I = 0; I != ChunkSize; ++I)
    (*A)[I] = hashedEntry(Table, Log2, First + I);
  Arrays[Index] = std::move(A);
  ++NumArrays;
}

bool CompressedIds::findSparse(uint64_t Id, StrId &Out) const {
  auto It = Sparse.find(Id);
  if (It == Sparse.end())
    return false;
  Out = It->second;
  return true;
}

StrId CompressedIds::defineSparse(uint64_t Id, StrId S) {
  return Sparse.try_emplace(Id, S).first->second;
}

void CompressedIds::clear() {
  Sparse.clear();
  Set.empty(
      [&](uint32_t Id) {
        size_t Index = Id / ChunkSize;
        if (Index < Arrays.size() && Arrays[Index]) {
          (*Arrays[Index])[Id % ChunkSize] |= Earlier;
          return;
        }
        // An id noted is in an array or hashed; marking the empty slot
        // findSlot() gives for a missing one would make it a slot in use.
        Slot *S = Hashed.empty() ? nullptr : findSlot(Hashed, Log2Hashed, Id);
        assert(S && S->Entry && "a noted id is in the table");
        if (S && S->Entry)
          S->Entry |= Earlier;
      },
      [&] {
        for (std::unique_ptr<Chunk> &C : Arrays) // An empty entry stays so.
          if (C)
            for (uint32_t &Name : *C)
              Name |= Earlier;
        for (Slot &S : Hashed)
          if (S.Entry)
            S.Entry |= Earlier;
      });
}
