//===- CompressedIds.h - Names of a callgrind part's ids --------*- C++ -*-===//
//
// Private to lib/Formats: the callgrind reader's table of compressed names,
// `(id) name`.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_LIB_FORMATS_COMPRESSEDIDS_H
#define PROFKIT_LIB_FORMATS_COMPRESSEDIDS_H

#include "profkit/IR/Profile.h"
#include "profkit/Support/TouchedList.h"
#include "llvm/ADT/DenseMap.h"
#include <array>
#include <cassert>
#include <memory>
#include <optional>
#include <vector>

namespace profkit::callgrind {

/// The names of a part's compressed ids, `(id) name`. Ids below a bound are
/// kept by chunks of 4096: a chunk whose ids are many takes them in an
/// array, found without hashing (name lines are a tenth of a profile); one
/// whose ids are few, in a table of them all that is hashed. Valgrind's ids
/// are few for their range: a clang compile's `fn=` ids run to 437 K, 25 K
/// of them used, spread evenly, and an array for them took 1.75 MB in every
/// thread reading a piece of the file; profkit's writer numbers names from
/// 1 up, every id used. Ids past the bound, from odd or hostile files, go to
/// a map. Names outlive a part: a new part marks the entries the last one
/// set as earlier names, from a list of them while they are few. Callgrind
/// numbers names across the dumps of a run, and a dump's part names a few
/// dozen functions with ids in the thousands: going over the whole table
/// for each part would cost more than reading it. It defines again every
/// name it uses, mostly with the id an earlier part gave it: earlier()
/// tells the reader which name to compare, not hash.
class CompressedIds {
public:
  /// Names from MaxName up are not kept (the reader refuses so many); nor
  /// are ids of MaxKept and up in the chunks (parseName() checks that ids
  /// are at most UINT32_MAX).
  static constexpr StrId MaxName = (1u << 31) - 2;
  /// Sets Out to the name of Id if this part defined it.
  bool find(uint64_t Id, StrId &Out) const {
    if (Id < MaxKept) {
      uint32_t Entry = entry(uint32_t(Id));
      if (Entry - 1 >= Earlier - 1) // Neither empty nor an earlier part's.
        return false;
      Out = Entry - 1;
      return true;
    }
    return findSparse(Id, Out);
  }
  /// The name an earlier part gave Id, if this part has not defined it.
  std::optional<StrId> earlier(uint64_t Id) const {
    uint32_t Entry = Id < MaxKept ? entry(uint32_t(Id)) : 0;
    if (!(Entry & Earlier) || Entry == Earlier)
      return std::nullopt;
    return (Entry & ~Earlier) - 1;
  }
  /// Gives Id the name S if this part has not named it; returns the name it
  /// has then.
  StrId define(uint64_t Id, StrId S) {
    // An entry holds the name plus one, 0 for none, and the Earlier bit.
    assert(S <= MaxName && "the reader refuses so many names");
    assert(Id <= UINT32_MAX && "DenseMap reserves the largest keys");
    if (Id >= MaxKept)
      return defineSparse(Id, S);
    size_t Index = Id / ChunkSize;
    uint32_t &Name = Index < Arrays.size() && Arrays[Index]
                         ? (*Arrays[Index])[Id % ChunkSize]
                         : entryFor(uint32_t(Id));
    if (Name - 1 >= Earlier - 1) {
      Name = S + 1;
      Set.note(uint32_t(Id));
    }
    return Name - 1;
  }
  /// Makes every id this part named an earlier name (a new part).
  void clear();

private:
  // Ids from MaxKept up, which odd or hostile files have: out of line.
  bool findSparse(uint64_t Id, StrId &Out) const;
  StrId defineSparse(uint64_t Id, StrId S);

  static constexpr uint64_t MaxKept = 1 << 20;
  static constexpr size_t ChunkSize = 4096;
  /// A chunk's ids move into an array once they are this many: there they
  /// take 16 KB, hashed 16 to 32 bytes each.
  static constexpr unsigned ArrayAt = 1024;
  /// The first chunks to get ids take arrays at once: a table of a few
  /// thousand ids (a line-level profile's, read part after part) is all
  /// arrays, whose ids a new part marks without hashing them.
  static constexpr unsigned FirstArrays = 4;
  static constexpr uint32_t Earlier = 1u << 31;
  using Chunk = std::array<uint32_t, ChunkSize>;

  uint32_t entry(uint32_t Id) const {
    size_t Index = Id / ChunkSize;
    if (Index < Arrays.size() && Arrays[Index])
      return (*Arrays[Index])[Id % ChunkSize];
    return hashedEntry(Hashed, Log2Hashed, Id);
  }
  /// An id of Hashed and its entry; an empty slot's entry is 0 (an id's
  /// entry is never 0 there).
  struct Slot {
    uint32_t Id, Entry;
  };
  /// Every id in Hashed is at most MaxProbe slots from where its probe
  /// starts: a chunk with an id that would be further takes an array. So no
  /// file can make a lookup long, whatever ids it chooses.
  static constexpr unsigned MaxProbe = 16;
  /// The slot an id's probe starts at in a table of 2^Log2 slots
  /// (Fibonacci hashing: a run of ids, as writers number them, spreads
  /// evenly).
  static size_t slotOf(uint32_t Id, unsigned Log2) {
    return size_t(uint32_t(Id * 0x9E3779B1u) >> (32 - Log2));
  }
  /// The entry of Id in Table, of 2^Log2 slots; 0 if it is not there.
  static uint32_t hashedEntry(const std::vector<Slot> &Table, unsigned Log2,
                              uint32_t Id) {
    if (Table.empty())
      return 0;
    size_t I = slotOf(Id, Log2);
    for (unsigned K = 0; K != MaxProbe; ++K, I = (I + 1) & (Table.size() - 1))
      if (!Table[I].Entry || Table[I].Id == Id)
        return Table[I].Entry;
    return 0;
  }
  /// The entry of Id, whose chunk has no array (it may get one), 0 if it
  /// has none yet.
  uint32_t &entryFor(uint32_t Id);
  /// Id's slot in Table, or the empty one within MaxProbe it would take;
  /// null if there is neither.
  static Slot *findSlot(std::vector<Slot> &Table, unsigned Log2, uint32_t Id);
  void growHashed();
  /// Gives chunk Index an array, with the entries its ids have in Table.
  void makeArray(size_t Index, const std::vector<Slot> &Table, unsigned Log2);

  /// The arrays of chunks with many ids, by the chunk's index; null for the
  /// others, whose ids are in Hashed.
  std::vector<std::unique_ptr<Chunk>> Arrays;
  unsigned NumArrays = 0;
  /// Open addressing, at most half full, 2^Log2Hashed slots. Slots of a
  /// chunk that has since taken an array stay until the table grows.
  std::vector<Slot> Hashed;
  unsigned Log2Hashed = 0;
  size_t NumHashed = 0;
  std::vector<uint16_t> HashedOfChunk; // By the chunk's index.
  TouchedList Set; // The ids set in the chunks since the last clear().
  /// The map's keys hashed with a seed of the process's: DenseMap's hash
  /// of an integer is the same in every process, so a file could carry ids
  /// found, offline, to share one probe sequence.
  struct SeededIdInfo : llvm::DenseMapInfo<uint64_t> {
    static unsigned getHashValue(uint64_t Id) {
      uint64_t H = (Id ^ Seed) * 0xFF51AFD7ED558CCDull;
      return unsigned((H ^ H >> 33) * 0xC4CEB9FE1A85EC53ull >> 32);
    }
  };
  static const uint64_t Seed;
  llvm::DenseMap<uint64_t, StrId, SeededIdInfo> Sparse;
};

} // namespace profkit::callgrind

#endif // PROFKIT_LIB_FORMATS_COMPRESSEDIDS_H
