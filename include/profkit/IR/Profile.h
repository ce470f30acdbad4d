//===- Profile.h - The profile IR ------------------------------*- C++ -*-===//
//
// One in-memory model that every reader fills and every pass and writer
// consumes. See docs/IR.md for the model and its text form.
//
//   Profile
//     strings (interned once), event types, derived events,
//     functions: identity (object, file, name), interned
//     parts: one per thread / dump / appended run
//       header lines in order, positions (instr, line, bb), summary, totals
//       per function: RowTables of self costs, calls and jumps
//       address-level data not yet tied to functions (AddressData)
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_IR_PROFILE_H
#define PROFKIT_IR_PROFILE_H

#include "profkit/IR/AddressData.h"
#include "profkit/IR/RowTable.h"
#include "profkit/Support/ChunkedVector.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/iterator.h"
#include "llvm/Support/Allocator.h"
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace profkit {

/// An interned string. 0 is the empty string.
using StrId = uint32_t;
/// A function of the profile; an index into Profile::functions().
using FuncId = uint32_t;
/// Where inlined code sits (Profile::inlineSite()); 0: the function's own
/// code.
using InlineSiteId = uint32_t;

/// Interns strings once per profile; ids are dense and stable.
class StringPool {
public:
  StringPool() { intern(""); }
  StrId intern(llvm::StringRef S);
  llvm::StringRef str(StrId Id) const { return Strings[Id]; }
  std::optional<StrId> lookup(llvm::StringRef S) const;
  size_t size() const { return Strings.size(); }

private:
  /// The slot that holds S, or the empty one where it would go.
  size_t slotOf(llvm::StringRef S, uint32_t Hash) const;
  void grow();

  /// An open-addressed table of words (hash << 32 | id + 1), 0 when empty,
  /// at most half full: a lookup reads a slot, then the string's bytes if
  /// the hash matches (a StringMap reads a bucket, its hash and its entry:
  /// a cache miss each, in the table of a large profile, when readers look
  /// up a name at each `fn=` line of an uncompressed file).
  std::vector<uint64_t> Slots;
  std::vector<llvm::StringRef> Strings;
  llvm::BumpPtrAllocator Bytes; // Each string's, with a NUL after them.
};

/// What a word of a row's position is. Instr, Line and BB are callgrind's;
/// LineOffset and Discriminator place an LLVM sample profile's counts (a line
/// relative to the function's start line, and which of the line's blocks).
enum class PositionKind : uint8_t {
  Instr,
  Line,
  BB,
  LineOffset,
  Discriminator
};
llvm::StringRef positionKindName(PositionKind K);
std::optional<PositionKind> parsePositionKind(llvm::StringRef Name);
/// Is it a program address (written in hex)?
inline bool isAddressKind(PositionKind K) {
  return K == PositionKind::Instr || K == PositionKind::BB;
}
/// Can the callgrind format hold it?
inline bool isCallgrindKind(PositionKind K) {
  return K == PositionKind::Instr || K == PositionKind::Line ||
         K == PositionKind::BB;
}

/// An event that has a column in every cost vector.
struct EventType {
  std::string Name;
  std::string LongName; // From `event: Name : Long name`; may be empty.
};

/// An `event:` declaration without a column: a formula over other events
/// (`event: Sum = Ir + 2 * Dr`), or a long name given to an event that no
/// `events:` line lists.
struct EventDecl {
  std::string Name;
  std::string Formula;
  std::string LongName;
};

/// A function's identity.
struct Function {
  StrId Object;
  StrId File;
  StrId Name;
};

enum class JumpKind : uint8_t { Jump = 0, Conditional = 1 };

/// Where the words of a row's key are. P is the part's number of positions.
///   self: [Pos*P, SourceFile, Site]                     values: costs
///   call: [Pos*P, SourceFile, Site, Callee, Target*P]   values: count,
///                                                       inclusive
///   jump: [Pos*P, SourceFile, Site, Kind, TargetFunction, TargetFile,
///          Target*P]  values: Jump: count; Conditional: followed, executed
/// SourceFile is the file the position is in: the function's own file, or the
/// file of code inlined into it (`fi=`/`fe=`). Site is the inline site the
/// code belongs to (0: the function's own code), so an inlinee's lines never
/// collide with the caller's. The position leads, so rows that a profiler
/// lists by address arrive in key order even when inlined code switches the
/// file, and the tables need no re-sorting. Only RowLayout and the key
/// builders below know this order.
struct RowLayout {
  unsigned P;
  unsigned selfWidth() const { return 2 + P; }
  unsigned callWidth() const { return 3 + 2 * P; }
  unsigned jumpWidth() const { return 5 + 2 * P; }
  llvm::ArrayRef<uint64_t> position(const Row &R) const {
    return R.Key.take_front(P);
  }
  StrId sourceFile(const Row &R) const { return StrId(R.Key[P]); }
  InlineSiteId inlineSite(const Row &R) const {
    return InlineSiteId(R.Key[1 + P]);
  }
  /// A call or jump row's words that a self row at its place has.
  llvm::ArrayRef<uint64_t> place(const Row &R) const {
    return R.Key.take_front(selfWidth());
  }
  /// Sets the place words after the position of a key being written in
  /// place (the callgrind reader's fast path; others use the builders).
  void setPlace(uint64_t *Key, StrId File, InlineSiteId Site) const {
    Key[P] = File;
    Key[1 + P] = Site;
  }
  FuncId callee(const Row &R) const { return FuncId(R.Key[2 + P]); }
  llvm::ArrayRef<uint64_t> callTarget(const Row &R) const {
    return R.Key.slice(3 + P, P);
  }
  JumpKind jumpKind(const Row &R) const { return JumpKind(R.Key[2 + P]); }
  FuncId jumpTargetFunction(const Row &R) const { return FuncId(R.Key[3 + P]); }
  StrId jumpTargetFile(const Row &R) const { return StrId(R.Key[4 + P]); }
  llvm::ArrayRef<uint64_t> jumpTarget(const Row &R) const {
    return R.Key.slice(5 + P, P);
  }
};

/// Code inlined into a function: the call site in the code around it (its
/// parent site, 0 for the function's own code) and the function inlined
/// there. A chain of sites is an inline stack, as an LLVM sample profile
/// nests inlinees under call sites. Line is in the part's line kind (an
/// absolute line, or a line offset from the parent's start line).
struct InlineSite {
  InlineSiteId Parent = 0;
  uint64_t Line = 0;
  uint64_t Discriminator = 0;
  FuncId Callee = 0;
  bool operator==(const InlineSite &O) const {
    return Parent == O.Parent && Line == O.Line &&
           Discriminator == O.Discriminator && Callee == O.Callee;
  }
};

/// A value a function has in a part besides its rows. Each kind has one rule
/// for combining the values of two parts or two functions that merge, so
/// every pass that merges keeps them without knowing them.
enum class FunctionValueKind : uint8_t {
  /// The line of the function's first self row in its own file, in the order
  /// the profiler wrote the rows: valgrind's lowest address, Xdebug's first
  /// call of an internal function. Rows are kept sorted, so only the reader
  /// knows it. Merging keeps the first.
  FirstLine,
  /// Samples at the function's entry (LLVM sample profiles). Merging adds.
  HeadSamples,
  /// All samples of the function's code, its inlinees' included (an LLVM
  /// sample profile's total: the sum over instructions, where body samples
  /// take a line's maximum). Merging adds.
  TotalSamples,
};
constexpr unsigned NumFunctionValueKinds = 3;
/// The kind's name in the IR's text form: first-line, head-samples,
/// total-samples.
llvm::StringRef functionValueKindName(FunctionValueKind K);

/// The values of one function in one part, at most one of each kind.
class FunctionValues {
public:
  FunctionValues() = default;
  FunctionValues(const FunctionValues &O) { *this = O; }
  /// Leaves O empty.
  FunctionValues(FunctionValues &&O) noexcept
      : Bits(std::exchange(O.Bits, Empty)) {}
  FunctionValues &operator=(const FunctionValues &O);
  /// Leaves O empty.
  FunctionValues &operator=(FunctionValues &&O) noexcept {
    if (this != &O) {
      release();
      Bits = std::exchange(O.Bits, Empty);
    }
    return *this;
  }
  ~FunctionValues() { release(); }

  std::optional<uint64_t> get(FunctionValueKind K) const {
    if (!(present() & bit(K)))
      return std::nullopt;
    return isWide() ? wide()->Values[unsigned(K)] : Bits >> 32;
  }
  void set(FunctionValueKind K, uint64_t V);
  void erase(FunctionValueKind K);
  bool empty() const { return !present(); }
  /// Combines Other's values into these by each kind's rule. Returns false
  /// if a sum overflowed 64 bits (it then saturates).
  [[nodiscard]] bool merge(const FunctionValues &Other);
  /// Multiplies the values that merging adds by W (a weighted merge).
  /// Returns false if a product overflowed (it then saturates).
  [[nodiscard]] bool scale(uint64_t W);

private:
  friend struct FunctionData; // Tells its values from its block's address.
  static uint8_t bit(FunctionValueKind K) { return uint8_t(1u << unsigned(K)); }
  // Every function of a part has these, and most have one value at most:
  // the first line (callgrind) or none (time traces). While that line fits
  // 32 bits, the values are one word: the line, the bits of the kinds
  // present, and a set low bit. Sample counts, or a longer line, move them
  // to a WideValues the word then points to, tagged WideTag. So the word's
  // two low bits are never both clear, which FunctionData relies on.
  struct WideValues {
    uint64_t Values[NumFunctionValueKinds];
    uint8_t Present;
  };
  static constexpr uint64_t Empty = 1;
  static constexpr uint64_t WideTag = 2;
  static uint64_t narrow(uint64_t Line, uint8_t Present) {
    return Line << 32 | uint64_t(Present) << 1 | 1;
  }
  static uint64_t tagWide(WideValues *W) {
    return uint64_t(reinterpret_cast<uintptr_t>(W)) | WideTag;
  }
  bool isWide() const { return (Bits & 3) == WideTag; }
  WideValues *wide() const {
    return reinterpret_cast<WideValues *>(uintptr_t(Bits & ~uint64_t(3)));
  }
  uint8_t present() const {
    return isWide() ? wide()->Present : uint8_t(Bits >> 1);
  }
  void release() {
    if (isWide())
      delete wide();
    Bits = Empty;
  }
  uint64_t Bits = Empty;
};

/// Builds the key of a row for a part's layout. Readers and passes say what
/// each word is (position, source file, callee, ...), never where it goes:
/// RowLayout's accessors read keys, these write them, and the two are the
/// only code that knows the word order.
class RowKeyBuilder {
public:
  llvm::ArrayRef<uint64_t> key() const { return Words; }
  /// The position, one word per position kind of the part, in its order.
  llvm::MutableArrayRef<uint64_t> position() {
    return llvm::MutableArrayRef<uint64_t>(Words).take_front(P);
  }
  void setSourceFile(StrId File) { Words[P] = File; }
  void setInlineSite(InlineSiteId Site) { Words[1 + P] = Site; }

protected:
  RowKeyBuilder(unsigned P, unsigned Width) : P(P), Words(Width, 0) {}
  /// A key of zeros again, in place: a reader starts one at every call and
  /// jump line, where building a new one and moving it took a tenth of the
  /// line's work.
  void reset(unsigned NewP, unsigned Width) {
    P = NewP;
    Words.assign(Width, 0);
  }
  unsigned P;
  llvm::SmallVector<uint64_t, 12> Words;
};

struct SelfKey : RowKeyBuilder {
  explicit SelfKey(const RowLayout &L) : RowKeyBuilder(L.P, L.selfWidth()) {}
};

struct CallKey : RowKeyBuilder {
  explicit CallKey(const RowLayout &L) : RowKeyBuilder(L.P, L.callWidth()) {}
  void reset(const RowLayout &L) { RowKeyBuilder::reset(L.P, L.callWidth()); }
  void setCallee(FuncId F) { Words[2 + P] = F; }
  /// The callee's position the call enters (calls= target).
  llvm::MutableArrayRef<uint64_t> target() {
    return llvm::MutableArrayRef<uint64_t>(Words).slice(3 + P, P);
  }
};

struct JumpKey : RowKeyBuilder {
  explicit JumpKey(const RowLayout &L) : RowKeyBuilder(L.P, L.jumpWidth()) {}
  void reset(const RowLayout &L) { RowKeyBuilder::reset(L.P, L.jumpWidth()); }
  void setKind(JumpKind K) { Words[2 + P] = uint64_t(K); }
  void setTargetFunction(FuncId F) { Words[3 + P] = F; }
  void setTargetFile(StrId File) { Words[4 + P] = File; }
  llvm::MutableArrayRef<uint64_t> target() {
    return llvm::MutableArrayRef<uint64_t>(Words).slice(5 + P, P);
  }
};

/// When a function ran, as a time trace or a build log records it: one
/// top-level interval (a TU's compilation, a ninja edge). The rows hold the
/// aggregate (self time, calls with counts and inclusive time); intervals
/// keep the wall-clock placement the aggregate loses, which elapsed time and
/// parallelism need. See docs/IR.md.
struct Interval {
  FuncId Function;
  uint32_t Thread = 0;
  uint64_t Start = 0, Duration = 0; // In the unit of the part's first event.
};

/// The data of one function in one part.
struct FunctionData {
  FunctionData(FuncId Id, const RowLayout &L)
      : Self(L.selfWidth(), L.P), Id(Id) {}
  // The id takes the table's padding: a function's data is 32 bytes.
  [[no_unique_address]] RowTable Self;
  FuncId Id;
  /// The call rows: empty if there are none. A cachegrind profile's
  /// functions, and half of a callgrind part's, call nothing, and an empty
  /// table would be most of the function's data.
  const RowTable &calls() const;
  /// The call table to add rows to, made if missing; in Arena if given (a
  /// reader's: a block each would cost malloc's rounding).
  RowTable &makeCalls(RowArena *Arena = nullptr);
  /// Replaces the call rows with T's.
  void setCalls(RowTable &&T);
  bool hasCalls() const {
    const CallsBlock *B = Slot.block();
    return B && !B->Calls.empty();
  }
  /// The jump rows (callgrind --collect-jumps), made on first use: most
  /// functions of most profiles have none.
  RowTable &jumps();
  const RowTable &jumps() const;
  bool hasJumps() const {
    const RareData *R = Slot.rare();
    return R && !R->Jumps.empty();
  }
  /// The function's own values. They move when the function's call table,
  /// jump table or first inline site's values are made: a reference to them
  /// does not outlive makeCalls(), setCalls(), jumps() or valuesAt().
  FunctionValues &values() { return Slot.values(); }
  const FunctionValues &values() const {
    return const_cast<FunctionData *>(this)->Slot.values();
  }
  /// The values of the code inlined into it, by inline site (never 0), in
  /// increasing site order.
  llvm::ArrayRef<std::pair<InlineSiteId, FunctionValues>> inlineValues() const {
    const RareData *R = Slot.rare();
    return R ? llvm::ArrayRef(R->InlineValues)
             : llvm::ArrayRef<std::pair<InlineSiteId, FunctionValues>>();
  }
  /// The values of the code at Site (0: the function's own), created empty
  /// if missing.
  FunctionValues &valuesAt(InlineSiteId Site);
  /// The values of the code at Site, or nullptr.
  const FunctionValues *findValues(InlineSiteId Site) const;

private:
  enum class BlockKind : uint8_t { OnHeap, InArena, Rare };
  /// A function's calls with its values: the block its data points to once
  /// it calls something.
  struct CallsBlock {
    CallsBlock(const RowLayout &L, BlockKind Kind)
        : Calls(L.callWidth(), L.P), Kind(Kind) {}
    // The kind takes the table's padding: the block is 32 bytes.
    [[no_unique_address]] RowTable Calls;
    BlockKind Kind;
    FunctionValues Values;
  };
  static_assert(sizeof(CallsBlock) <= 32, "half a callgrind part's functions");
  /// What few functions have (jumps, inlined code's values), with the calls
  /// and values: a part of a build holds a million functions' data, and
  /// these would be most of it.
  struct RareData : CallsBlock {
    explicit RareData(const RowLayout &L)
        : CallsBlock(L, BlockKind::Rare), Jumps(L.jumpWidth(), L.P) {}
    RowTable Jumps;
    llvm::SmallVector<std::pair<InlineSiteId, FunctionValues>, 0> InlineValues;
  };
  /// The function's values in place, or the address of the block that
  /// holds them with its calls: a function that calls nothing pays one word
  /// for both. A FunctionValues word never has its two low bits clear, a
  /// block's address always does.
  class ValuesOrBlock {
  public:
    ValuesOrBlock() = default;
    ValuesOrBlock(ValuesOrBlock &&) = default; // The word moves either way.
    ValuesOrBlock &operator=(ValuesOrBlock &&O) noexcept {
      if (this != &O) {
        reset();
        Word = std::move(O.Word);
      }
      return *this;
    }
    ~ValuesOrBlock() { reset(); }
    CallsBlock *block() const {
      return Word.Bits & 3
                 ? nullptr
                 : reinterpret_cast<CallsBlock *>(uintptr_t(Word.Bits));
    }
    RareData *rare() const {
      CallsBlock *B = block();
      return B && B->Kind == BlockKind::Rare ? static_cast<RareData *>(B)
                                             : nullptr;
    }
    FunctionValues &values() {
      CallsBlock *B = block();
      return B ? B->Values : Word;
    }
    /// Moves the calls and values into B, which takes the place of the
    /// block or values there were.
    void setBlock(CallsBlock *B);
    /// Frees the block, keeping its values in place.
    void dropBlock();

  private:
    /// Frees the block, if any, leaving empty values.
    void reset();
    static void free(CallsBlock *B);
    FunctionValues Word;
  };
  RareData &rare();
  RowLayout layout() const;
  ValuesOrBlock Slot;
};
static_assert(sizeof(FunctionData) <= 32, "a profile holds millions");

/// A header line of a part: views of its text, which lives as long as a
/// part whose header holds the line.
struct HeaderLine {
  llvm::StringRef Key;
  llvm::StringRef Value;
};

/// Header lines kept once for the parts that share the pool: a run of many
/// dumps repeats the same dozen lines (the command, the cache descriptions,
/// the trigger) in each of tens of thousands of parts, a dump's threads
/// even its time range. Parts from any thread may share one pool. A line is
/// named by its number in the pool, in 4 bytes where its address took 8.
class HeaderLinePool : public llvm::ThreadSafeRefCountedBase<HeaderLinePool> {
public:
  using LineId = uint32_t;
  HeaderLinePool() = default;
  HeaderLinePool(const HeaderLinePool &) = delete;
  HeaderLinePool &operator=(const HeaderLinePool &) = delete;
  ~HeaderLinePool();
  /// The number of the pool's copy of H, the Slot-th line of its header:
  /// most often the line the last header had there, which is then found
  /// without a lookup.
  LineId intern(const HeaderLine &H, size_t Slot);
  /// Safe beside another thread's intern(): a line's place never changes.
  HeaderLine line(LineId Id) const {
    auto [Chunk, Offset] = locate(Id);
    llvm::StringRef Text = Chunks[Chunk][Offset]->getKey();
    uint32_t KeySize;
    memcpy(&KeySize, Text.data(), sizeof(KeySize));
    Text = Text.drop_front(sizeof(KeySize));
    return {Text.take_front(KeySize), Text.drop_front(KeySize)};
  }

private:
  /// A line in the pool: the key's size in 4 bytes, the key, the value.
  using Entry = llvm::StringMapEntry<LineId>;
  /// The lines by number, in chunks of 16, 32, ... entries: a chunk
  /// never moves, so that line() needs no lock.
  static constexpr unsigned Log2FirstChunk = 4;
  static constexpr unsigned NumChunks = 33 - Log2FirstChunk;
  static std::pair<unsigned, size_t> locate(LineId Id) {
    size_t Biased = size_t(Id) + (size_t(1) << Log2FirstChunk);
    unsigned High = llvm::Log2_64(Biased);
    return {High - Log2FirstChunk, Biased - (size_t(1) << High)};
  }
  std::mutex Lock;
  llvm::StringMap<LineId, llvm::BumpPtrAllocator> Lines;
  const Entry **Chunks[NumChunks] = {};
  size_t NumLines = 0;
  std::string Scratch; // The key of the line being looked up.
  static constexpr size_t NumSlots = 16;
  /// One past the number of the line last interned at each slot, or 0.
  LineId LastInSlot[NumSlots] = {};
};

/// The header lines of a part, in file order. A profile may hold tens of
/// thousands of parts (a dump or thread each) of ten short lines or so:
/// each is the number of its line in a pool of lines the parts share.
class PartHeader {
public:
  size_t size() const { return Lines.size(); }
  bool empty() const { return Lines.empty(); }
  HeaderLine operator[](size_t I) const { return Pool->line(Lines[I]); }
  HeaderLine front() const { return (*this)[0]; }
  /// Keeps the lines added from now on in Pool (the header's own, made at
  /// the first line, if none is given).
  void usePool(llvm::IntrusiveRefCntPtr<HeaderLinePool> P);
  /// Copies the line's text into the pool.
  void push_back(const HeaderLine &H);
  /// Removes the lines Pred holds for.
  void eraseIf(llvm::function_ref<bool(const HeaderLine &)> Pred);
  /// Makes room for NumLines lines.
  void reserve(size_t NumLines) { Lines.reserve(NumLines); }
  /// Gives back the slack of a small header.
  void shrink();

  class iterator
      : public llvm::iterator_facade_base<iterator, std::forward_iterator_tag,
                                          HeaderLine, std::ptrdiff_t,
                                          HeaderLine *, HeaderLine> {
  public:
    iterator(const PartHeader &H, size_t I) : H(&H), I(I) {}
    HeaderLine operator*() const { return (*H)[I]; }
    iterator &operator++() {
      ++I;
      return *this;
    }
    bool operator==(const iterator &O) const { return I == O.I; }

  private:
    const PartHeader *H;
    size_t I;
  };
  iterator begin() const { return iterator(*this, 0); }
  iterator end() const { return iterator(*this, size()); }

private:
  llvm::IntrusiveRefCntPtr<HeaderLinePool> Pool;
  llvm::SmallVector<HeaderLinePool::LineId, 0> Lines;
};

/// Is Key one of the header lines the IR holds in fields of a part and of
/// the profile (events, positions, summary, totals)? A reader may keep such
/// a line's text in Part::Header too, to write it back as it was (webgrind);
/// writers that write the fields skip it.
bool isFieldHeader(llvm::StringRef Key);

/// The functions' data of a part: chunks that double up to 32,768 functions
/// (1 MB), then stay that size.
using FunctionDataVector = ChunkedVector<FunctionData, 2, 15>;

/// One thread, dump or appended run of a profile.
class Part {
public:
  explicit Part(llvm::ArrayRef<PositionKind> Positions = {PositionKind::Line}) {
    setPositions(Positions);
  }

  /// Header lines in file order. events/positions/summary/totals have fields
  /// of their own (see isFieldHeader).
  PartHeader Header;
  /// A part's summary or totals line. One event (Ir) is held in place: a
  /// run of many dumps has tens of thousands of parts with both lines.
  using CostLine = llvm::SmallVector<uint64_t, 1>;
  std::optional<CostLine> Summary; // In profile event order.
  std::optional<CostLine> Totals;  // As the file gave them.

  llvm::ArrayRef<PositionKind> positions() const {
    return {Positions, NumPositions};
  }
  /// Only valid while the part has no function data. The kinds are
  /// distinct.
  void setPositions(llvm::ArrayRef<PositionKind> P);
  RowLayout layout() const { return RowLayout{NumPositions}; }
  /// The index of a position kind in positions(), if the part has it.
  std::optional<unsigned> positionIndex(PositionKind K) const;

  /// The first header value with this key, or "".
  llvm::StringRef header(llvm::StringRef Key) const;

  /// A part read (shrink()) with at most this many functions finds one by
  /// looking through them, with no map: a run of many dumps holds tens of
  /// thousands of parts of a few dozen functions.
  static constexpr size_t MaxSearchedThrough = 64;
  FunctionData &getOrCreate(FuncId F) { return Functions[getOrCreateAt(F)]; }
  /// The position of F's data in functions(), made if missing.
  size_t getOrCreateAt(FuncId F);
  /// Moves in the data of a function the part does not have; returns its
  /// position (a tail's functions joining the head's part).
  size_t add(FunctionData &&FD);
  const FunctionData *lookup(FuncId F) const;
  /// A function's data stays in place as functions are added (a part keeps
  /// it in chunks) until shrink(), which may gather it into one.
  FunctionDataVector &functions() { return Functions; }
  const FunctionDataVector &functions() const { return Functions; }
  /// Moves every function's data out, leaving the part as if it had none
  /// (a reader handing the profile over in slices).
  FunctionDataVector takeFunctions();

  /// Sums of all self costs, in profile event order. Sets Overflow on a
  /// 64-bit overflow.
  std::vector<uint64_t> computeTotals(size_t NumEvents, bool &Overflow) const;
  /// Finalizes every table (each key in one row); false if a sum overflowed.
  [[nodiscard]] bool finalize();
  /// Gives back the slack of every table, once the part is read.
  void shrink();

  /// Data by address, not yet tied to functions (gmon.out).
  const AddressData &addresses() const;
  /// The data by address to change, made if missing.
  AddressData &makeAddresses();
  /// Top-level intervals of a time trace or build log, in no order.
  const std::vector<Interval> &intervals() const;
  /// The intervals to change, made if missing.
  std::vector<Interval> &makeIntervals();

private:
  /// What only parts of a gmon.out, a time trace or a build log have, apart:
  /// a run of many dumps has tens of thousands of parts.
  struct RareData {
    AddressData Addresses;
    std::vector<Interval> Intervals;
  };
  RareData &rare();
  std::unique_ptr<RareData> Rare;
  /// One of each kind at most.
  static constexpr unsigned MaxPositions = 5;
  PositionKind Positions[MaxPositions] = {};
  uint8_t NumPositions = 0;
  FunctionDataVector Functions;
  /// Where each function's data is in Functions. While every function's id
  /// is the first one's plus its position (a compilation of a time trace
  /// adds its new functions in order), that sum is the index and the map
  /// stays empty: a build's million functions need no map.
  std::unique_ptr<llvm::DenseMap<FuncId, unsigned>> Index;
  /// Once the part is read (shrink()), the map becomes this: the positions
  /// of Functions in the order of their ids, in 2 bytes each below 65,536
  /// functions, else in 4 (a dump or thread each, a profile holds tens of
  /// thousands of parts of a few dozen functions), or nothing in a part of
  /// at most MaxSearchedThrough. Adding a function makes the map again.
  std::unique_ptr<uint8_t[]> ById;
  bool Dense = true;
  bool narrowById() const { return Functions.size() <= 0x10000; }
  unsigned byId(size_t I) const {
    return narrowById() ? reinterpret_cast<const uint16_t *>(ById.get())[I]
                        : reinterpret_cast<const uint32_t *>(ById.get())[I];
  }
  /// The map, made from the functions if the part has none (while dense,
  /// or once read, when it frees ById).
  llvm::DenseMap<FuncId, unsigned> &indexMap();
  /// The position of F in Functions, or Functions.size().
  size_t position(FuncId F) const;
  /// The position of F's data, or functions().size(), where F is then
  /// noted as going: the caller adds its data there.
  size_t placeOf(FuncId F);
  /// The position of F while the part is dense, or Functions.size().
  size_t densePosition(FuncId F) const {
    size_t N = Functions.size();
    return N && F >= Functions.front().Id && F - Functions.front().Id < N
               ? F - Functions.front().Id
               : N;
  }
};

/// Sets To's header, summary, totals and address data to From's; its
/// function data stays.
void copyPartShell(const Part &From, Part &To);
/// A new part with From's header, summary, totals and address data, and
/// the given positions, but no function data.
Part copyPartShell(const Part &From, llvm::ArrayRef<PositionKind> Positions);

class Profile {
public:
  StringPool Strings;
  std::vector<EventDecl> EventDecls;

  llvm::ArrayRef<EventType> events() const { return Events; }
  /// Returns the column of the event, adding it if it is new.
  unsigned getOrAddEvent(llvm::StringRef Name);
  std::optional<unsigned> findEvent(llvm::StringRef Name) const;
  void setEventLongName(unsigned Column, llvm::StringRef LongName) {
    Events[Column].LongName = LongName.str();
  }

  FuncId getOrAddFunction(StrId Object, StrId File, StrId Name);
  /// The same, looking first at Hint, the function these ids likely name:
  /// merging profiles of one program meets their functions in one order, and
  /// a look at the next one costs less than a hash lookup.
  FuncId getOrAddFunction(StrId Object, StrId File, StrId Name, FuncId Hint);
  /// Frees the index of functions by their ids, which the next lookup that
  /// needs it makes again: a merge holds each input, whose functions it
  /// never looks up once they are mapped, beside the merged profile.
  void releaseFunctionIndex();
  /// Frees every name and function, keeping the events and the parts, whose
  /// ids then name nothing: for a profile whose parts go to one that has
  /// all its names (a reader of a file's first piece, whose names the next
  /// piece's reader took too).
  void releaseNames();
  /// Adds a function the caller knows is new (of an object no function has
  /// yet; a directory of time traces adds a million such). It is indexed
  /// when getOrAddFunction() next looks.
  FuncId addNewFunction(StrId Object, StrId File, StrId Name) {
    if (HaveFreshFile && File == FreshFile)
      HaveFreshFile = false; // Its functions are no longer all in FreshByName.
    return appendFunction(Object, File, Name);
  }
  /// Makes room for N functions in all: their memory is mapped at once and
  /// touched as it is used, saving the copies of a vector that doubles.
  void reserveFunctions(size_t N) { Functions.reserve(N); }
  size_t functionCapacity() const { return Functions.capacity(); }
  const Function &function(FuncId F) const { return Functions[F]; }
  size_t numFunctions() const { return Functions.size(); }
  llvm::StringRef functionName(FuncId F) const {
    return Strings.str(Functions[F].Name);
  }

  /// The id of an inline site, adding it if it is new; never 0.
  InlineSiteId getOrAddInlineSite(const InlineSite &S);
  /// Site 0 is the function's own code (a site of no callee).
  const InlineSite &inlineSite(InlineSiteId Id) const { return Sites[Id]; }
  size_t numInlineSites() const { return Sites.size(); }

  Part &addPart(llvm::ArrayRef<PositionKind> Positions = {PositionKind::Line});
  std::vector<std::unique_ptr<Part>> &parts() { return Parts; }
  const std::vector<std::unique_ptr<Part>> &parts() const { return Parts; }

  /// Where the profile came from (for diagnostics); not part of the IR.
  std::string SourceName;

private:
  std::vector<EventType> Events;
  llvm::StringMap<unsigned> EventIndex;
  // SmallVector reallocates in place (mremap) where std::vector copies:
  // a million functions would be held twice while the table doubles.
  llvm::SmallVector<Function, 0> Functions;
  /// The functions by their three ids: an open-addressing table of function
  /// ids, each with 32 bits of the hash of its ids (a DenseMap keyed by the
  /// ids took 16 bytes a slot, and a cachegrind file holds a million
  /// functions). A probe compares hashes and looks at a function only when
  /// they match: reading the ids of the function in every slot probed was a
  /// cache miss a slot, a third of the time of looking functions up. The
  /// hash also places a slot when the table grows. The size is a power of
  /// two.
  struct FunctionSlot {
    FuncId F;
    uint32_t Hash;
  };
  std::vector<FunctionSlot> FunctionSlots;
  size_t NumInSlots = 0;
  static uint32_t hashIds(StrId Object, StrId File, StrId Name);
  /// The slot of the function of these ids, or the empty one it would take.
  size_t findSlot(uint32_t Hash, StrId Object, StrId File, StrId Name) const;
  /// Makes room for one more function, then the slot of these ids, and
  /// their hash.
  FunctionSlot &slotFor(StrId Object, StrId File, StrId Name, uint32_t &Hash);
  /// Doubles FunctionSlots.
  void grow();
  /// Enters F, not yet in FunctionSlots, in ByName.
  void indexByName(FuncId F);
  /// Enters the functions added since the last lookup in the index, in one
  /// batch whose cache misses overlap.
  void indexNewFunctions();
  FuncId appendFunction(StrId Object, StrId File, StrId Name) {
    if (File >= FileHasFunctions.size())
      FileHasFunctions.resize(std::max<size_t>(64, 2 * size_t(File) + 2));
    FileHasFunctions.set(File);
    Functions.push_back(Function{Object, File, Name});
    return FuncId(Functions.size() - 1);
  }
  /// The function of these ids in FreshFile, added if missing.
  FuncId getOrAddFreshFunction(StrId Object, StrId Name);
  /// The files that have functions, by the file's id.
  llvm::BitVector FileHasFunctions;
  /// The last file looked up that had no function before: a cachegrind
  /// file names each of its files once, above the file's functions, all new.
  /// They are found among themselves by name, in FreshByName, instead of in
  /// the index, whose every lookup is a cache miss in a large profile; the
  /// index takes them in a batch when it is next needed.
  StrId FreshFile = 0;
  bool HaveFreshFile = false;
  /// The last function added in a fresh file, by its name's id. Names are
  /// looked up in about the order they were added (a new file's new names,
  /// or the names of a file that repeats another's functions), so that
  /// these lookups go through the array rather than all over a hash table,
  /// which a file of thousands of functions (`???`, code without debug
  /// information) outgrows the cache with.
  std::vector<FuncId> FreshByName;

  /// The first function of each name, by the name's id: most names name one
  /// function, found here with one look instead of hashing the three ids
  /// (readers look functions up at every call line).
  struct FirstOfName {
    StrId Object, File;
    FuncId F;
  };
  static constexpr FuncId NoFunction = ~FuncId(0);
  std::vector<FirstOfName> ByName;
  size_t NumIndexed = 0; // Functions in FunctionSlots and ByName.
  /// No two of the first DistinctIds functions have equal ids (a hint
  /// below it needs no index).
  size_t DistinctIds = 0;
  std::vector<InlineSite> Sites = {InlineSite()};
  llvm::DenseMap<std::tuple<InlineSiteId, uint64_t, uint64_t, FuncId>,
                 InlineSiteId>
      SiteIndex;
  std::vector<std::unique_ptr<Part>> Parts;
};

/// Is P shaped as an LLVM sample profile: one part, placed by line offset
/// and discriminator?
bool isSampleProfileShaped(const Profile &P);

} // namespace profkit

#endif
