//===- Profile.cpp - The profile IR ---------------------------------------===//

#include "profkit/IR/Profile.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/xxhash.h"

using namespace profkit;
using namespace llvm;

static uint32_t hashString(StringRef S) { return uint32_t(xxh3_64bits(S)); }

size_t StringPool::slotOf(StringRef S, uint32_t Hash) const {
  size_t Mask = Slots.size() - 1;
  for (size_t I = Hash & Mask;; I = (I + 1) & Mask) {
    uint64_t Slot = Slots[I];
    if (!Slot ||
        (uint32_t(Slot >> 32) == Hash && Strings[uint32_t(Slot) - 1] == S))
      return I;
  }
}

void StringPool::grow() {
  std::vector<uint64_t> Old = std::exchange(
      Slots, std::vector<uint64_t>(std::max<size_t>(64, 2 * Slots.size())));
  size_t Mask = Slots.size() - 1;
  for (uint64_t Slot : Old) {
    if (!Slot)
      continue;
    size_t I = uint32_t(Slot >> 32) & Mask;
    while (Slots[I])
      I = (I + 1) & Mask;
    Slots[I] = Slot;
  }
}

StrId StringPool::intern(StringRef S) {
  if (2 * (Strings.size() + 1) > Slots.size())
    grow();
  uint32_t Hash = hashString(S);
  size_t I = slotOf(S, Hash);
  if (Slots[I])
    return StrId(uint32_t(Slots[I]) - 1);
  assert(Strings.size() < UINT32_MAX && "more strings than ids");
  char *Copy = Bytes.Allocate<char>(S.size() + 1);
  if (!S.empty())
    memcpy(Copy, S.data(), S.size());
  Copy[S.size()] = '\0';
  Strings.emplace_back(Copy, S.size());
  Slots[I] = uint64_t(Hash) << 32 | Strings.size();
  return StrId(Strings.size() - 1);
}

std::optional<StrId> StringPool::lookup(StringRef S) const {
  if (Slots.empty()) // A pool moved from.
    return std::nullopt;
  uint64_t Slot = Slots[slotOf(S, hashString(S))];
  if (!Slot)
    return std::nullopt;
  return StrId(uint32_t(Slot) - 1);
}

StringRef profkit::positionKindName(PositionKind K) {
  switch (K) {
  case PositionKind::Instr:
    return "instr";
  case PositionKind::Line:
    return "line";
  case PositionKind::BB:
    return "bb";
  case PositionKind::LineOffset:
    return "line-offset";
  case PositionKind::Discriminator:
    return "discriminator";
  }
  llvm_unreachable("bad position kind");
}

std::optional<PositionKind> profkit::parsePositionKind(StringRef Name) {
  return StringSwitch<std::optional<PositionKind>>(Name)
      .Cases("instr", "addr", PositionKind::Instr)
      .Case("line", PositionKind::Line)
      .Case("bb", PositionKind::BB)
      .Case("line-offset", PositionKind::LineOffset)
      .Case("discriminator", PositionKind::Discriminator)
      .Default(std::nullopt);
}

void Part::setPositions(ArrayRef<PositionKind> P) {
  assert(Functions.empty() && "positions fixed once the part has data");
  assert(P.size() <= MaxPositions && "a position kind listed twice");
  llvm::copy(P, Positions);
  NumPositions = uint8_t(P.size());
}

std::optional<unsigned> Part::positionIndex(PositionKind K) const {
  ArrayRef<PositionKind> Kinds = positions();
  const PositionKind *It = llvm::find(Kinds, K);
  if (It == Kinds.end())
    return std::nullopt;
  return unsigned(It - Kinds.begin());
}

StringRef profkit::functionValueKindName(FunctionValueKind K) {
  switch (K) {
  case FunctionValueKind::FirstLine:
    return "first-line";
  case FunctionValueKind::HeadSamples:
    return "head-samples";
  case FunctionValueKind::TotalSamples:
    return "total-samples";
  }
  llvm_unreachable("unknown function value kind");
}

InlineSiteId Profile::getOrAddInlineSite(const InlineSite &S) {
  auto [It, New] =
      SiteIndex.try_emplace({S.Parent, S.Line, S.Discriminator, S.Callee},
                            InlineSiteId(Sites.size()));
  if (New)
    Sites.push_back(S);
  return It->second;
}

FunctionValues &FunctionValues::operator=(const FunctionValues &O) {
  if (this == &O)
    return *this;
  release();
  Bits = O.isWide() ? tagWide(new WideValues(*O.wide())) : O.Bits;
  return *this;
}

void FunctionValues::set(FunctionValueKind K, uint64_t V) {
  if (!isWide()) {
    if (K == FunctionValueKind::FirstLine && V <= UINT32_MAX) {
      Bits = narrow(V, present() | bit(K));
      return;
    }
    auto *W = new WideValues{};
    W->Values[unsigned(FunctionValueKind::FirstLine)] = Bits >> 32;
    W->Present = present();
    Bits = tagWide(W);
  }
  wide()->Values[unsigned(K)] = V;
  wide()->Present |= bit(K);
}

void FunctionValues::erase(FunctionValueKind K) {
  if (isWide())
    wide()->Present &= ~bit(K);
  else
    Bits &= ~(uint64_t(bit(K)) << 1);
}

bool FunctionValues::merge(const FunctionValues &Other) {
  bool Ok = true;
  for (unsigned I = 0; I != NumFunctionValueKinds; ++I) {
    auto K = FunctionValueKind(I);
    std::optional<uint64_t> Theirs = Other.get(K);
    if (!Theirs)
      continue;
    std::optional<uint64_t> Ours = get(K);
    if (!Ours) {
      set(K, *Theirs);
      continue;
    }
    switch (K) {
    case FunctionValueKind::FirstLine:
      break;
    case FunctionValueKind::HeadSamples:
    case FunctionValueKind::TotalSamples: {
      uint64_t Sum = *Ours;
      Ok &= addCost(Sum, *Theirs);
      set(K, Sum);
      break;
    }
    }
  }
  return Ok;
}

bool FunctionValues::scale(uint64_t W) {
  bool Ok = true;
  for (FunctionValueKind K :
       {FunctionValueKind::HeadSamples, FunctionValueKind::TotalSamples}) {
    if (std::optional<uint64_t> V = get(K)) {
      uint64_t Product = *V;
      Ok &= scaleCost(Product, W);
      set(K, Product);
    }
  }
  return Ok;
}

static bool siteBefore(const std::pair<InlineSiteId, FunctionValues> &E,
                       InlineSiteId Site) {
  return E.first < Site;
}

RowLayout FunctionData::layout() const {
  // From the self table's key width.
  return RowLayout{Self.keyWidth() - RowLayout{0}.selfWidth()};
}

void FunctionData::ValuesOrBlock::setBlock(CallsBlock *B) {
  if (CallsBlock *Old = block()) {
    B->Calls = std::move(Old->Calls);
    B->Values = std::move(Old->Values);
    Word.Bits = FunctionValues::Empty;
    free(Old);
  } else {
    B->Values = std::move(Word);
  }
  Word.Bits = uint64_t(reinterpret_cast<uintptr_t>(B));
}

void FunctionData::ValuesOrBlock::dropBlock() {
  CallsBlock *B = block();
  if (!B)
    return;
  Word.Bits = FunctionValues::Empty;
  Word = std::move(B->Values);
  free(B);
}

void FunctionData::ValuesOrBlock::reset() {
  if (CallsBlock *B = block()) {
    Word.Bits = FunctionValues::Empty;
    free(B);
  }
}

void FunctionData::ValuesOrBlock::free(CallsBlock *B) {
  switch (B->Kind) {
  case BlockKind::OnHeap:
    delete B;
    break;
  case BlockKind::InArena:
    B->~CallsBlock();
    RowArena::release(reinterpret_cast<uint8_t *>(B));
    break;
  case BlockKind::Rare:
    delete static_cast<RareData *>(B);
    break;
  }
}

FunctionData::RareData &FunctionData::rare() {
  if (RareData *R = Slot.rare())
    return *R;
  auto *R = new RareData(layout());
  Slot.setBlock(R);
  return *R;
}

const RowTable &FunctionData::calls() const {
  static const RowTable None;
  const CallsBlock *B = Slot.block();
  return B ? B->Calls : None;
}

RowTable &FunctionData::makeCalls(RowArena *Arena) {
  if (CallsBlock *B = Slot.block())
    return B->Calls;
  RowLayout L = layout();
  CallsBlock *B =
      Arena ? new (Arena->allocate(sizeof(CallsBlock), alignof(CallsBlock)))
                  CallsBlock(L, BlockKind::InArena)
            : new CallsBlock(L, BlockKind::OnHeap);
  Slot.setBlock(B);
  return B->Calls;
}

void FunctionData::setCalls(RowTable &&T) {
  if (!T.empty())
    makeCalls() = std::move(T);
  else if (RareData *R = Slot.rare())
    R->Calls = RowTable(layout().callWidth(), layout().P);
  else
    Slot.dropBlock();
}

RowTable &FunctionData::jumps() { return rare().Jumps; }

const RowTable &FunctionData::jumps() const {
  static const RowTable None;
  const RareData *R = Slot.rare();
  return R ? R->Jumps : None;
}

FunctionValues &FunctionData::valuesAt(InlineSiteId Site) {
  if (!Site)
    return values();
  auto &InlineValues = rare().InlineValues;
  auto It = llvm::lower_bound(InlineValues, Site, siteBefore);
  if (It == InlineValues.end() || It->first != Site)
    It = InlineValues.insert(It, {Site, FunctionValues()});
  return It->second;
}

const FunctionValues *FunctionData::findValues(InlineSiteId Site) const {
  if (!Site)
    return &values();
  auto InlineValues = inlineValues();
  auto It = llvm::lower_bound(InlineValues, Site, siteBefore);
  return It != InlineValues.end() && It->first == Site ? &It->second : nullptr;
}

bool profkit::isFieldHeader(StringRef Key) {
  return Key == "events" || Key == "positions" || Key == "summary" ||
         Key == "totals";
}

/// Gives back V's growth slack if V is small. A profile of many small parts
/// (a dump or thread each) would keep the slack of every part's vectors;
/// the slack of a large vector is mapped but never touched, and copying it
/// would double it for a while. (libstdc++'s shrink_to_fit() does nothing
/// without exceptions.)
template <typename T> static void shrinkIfSmall(std::vector<T> &V) {
  constexpr size_t SmallBytes = size_t(4) << 20;
  if (V.capacity() - V.size() > V.size() / 8 &&
      V.capacity() * sizeof(T) <= SmallBytes)
    std::vector<T>(std::make_move_iterator(V.begin()),
                   std::make_move_iterator(V.end()))
        .swap(V);
}

HeaderLinePool::~HeaderLinePool() {
  for (unsigned C = 0; C != NumChunks && Chunks[C]; ++C)
    delete[] Chunks[C];
}

HeaderLinePool::LineId HeaderLinePool::intern(const HeaderLine &H,
                                              size_t Slot) {
  if (H.Key.size() > UINT32_MAX)
    llvm::report_bad_alloc_error("a header key of 4 GB");
  uint32_t KeySize = uint32_t(H.Key.size());
  std::lock_guard<std::mutex> Guard(Lock);
  LineId *Last = Slot < NumSlots ? &LastInSlot[Slot] : nullptr;
  if (Last && *Last) {
    HeaderLine L = line(*Last - 1);
    if (L.Key == H.Key && L.Value == H.Value)
      return *Last - 1;
  }
  Scratch.assign(reinterpret_cast<const char *>(&KeySize), sizeof(KeySize));
  Scratch += H.Key;
  Scratch += H.Value;
  auto [It, Inserted] = Lines.try_emplace(Scratch, LineId(NumLines));
  if (Inserted) {
    if (NumLines == UINT32_MAX) // The last number is kept for LastInSlot.
      llvm::report_bad_alloc_error("4 G distinct header lines");
    auto [Chunk, Offset] = locate(LineId(NumLines));
    if (!Offset)
      Chunks[Chunk] = new const Entry *[size_t(1) << (Log2FirstChunk + Chunk)];
    Chunks[Chunk][Offset] = &*It;
    ++NumLines;
  }
  if (Last)
    *Last = It->second + 1;
  return It->second;
}

void PartHeader::usePool(IntrusiveRefCntPtr<HeaderLinePool> P) {
  if (P == Pool)
    return;
  IntrusiveRefCntPtr<HeaderLinePool> Old = std::move(Pool);
  Pool = std::move(P);
  for (size_t I = 0; I != Lines.size(); ++I) // Old's lines, kept alive.
    Lines[I] = Pool->intern(Old->line(Lines[I]), I);
}

void PartHeader::push_back(const HeaderLine &H) {
  if (!Pool)
    Pool = new HeaderLinePool;
  Lines.push_back(Pool->intern(H, Lines.size()));
}

void PartHeader::eraseIf(function_ref<bool(const HeaderLine &)> Pred) {
  // The pool keeps the erased lines: it only grows.
  llvm::erase_if(
      Lines, [&](HeaderLinePool::LineId Id) { return Pred(Pool->line(Id)); });
}

void PartHeader::shrink() {
  if (Lines.capacity() - Lines.size() > Lines.size() / 8)
    decltype(Lines)(Lines.begin(), Lines.end()).swap(Lines);
}

StringRef Part::header(StringRef Key) const {
  for (const HeaderLine &H : Header)
    if (H.Key == Key)
      return H.Value;
  return "";
}

LLVM_ATTRIBUTE_ALWAYS_INLINE size_t Part::placeOf(FuncId F) {
  size_t N = Functions.size();
  if (Dense) {
    if (size_t I = densePosition(F); I != N)
      return I;
    if (!N || F == Functions.front().Id + N)
      return N;
    Dense = false;
  } else if (ById) {
    if (size_t I = position(F); I != N)
      return I;
  }
  return indexMap().try_emplace(F, unsigned(N)).first->second;
}

size_t Part::getOrCreateAt(FuncId F) {
  size_t I = placeOf(F);
  if (I == Functions.size())
    Functions.emplace_back(F, layout());
  return I;
}

size_t Part::add(FunctionData &&FD) {
  size_t I = placeOf(FD.Id);
  assert(I == Functions.size() && "a function the part has already");
  Functions.emplace_back(std::move(FD));
  return I;
}

DenseMap<FuncId, unsigned> &Part::indexMap() {
  if (Index)
    return *Index;
  Index = std::make_unique<DenseMap<FuncId, unsigned>>();
  size_t N = Functions.size();
  Index->reserve(N + 1);
  for (size_t I = 0; I != N; ++I)
    Index->try_emplace(Functions[I].Id, unsigned(I));
  ById.reset();
  return *Index;
}

void profkit::copyPartShell(const Part &From, Part &To) {
  To.Header = From.Header;
  To.Summary = From.Summary;
  To.Totals = From.Totals;
  const AddressData &Addresses = From.addresses();
  if (!Addresses.empty() || Addresses.AddressSize)
    To.makeAddresses() = Addresses;
}

const AddressData &Part::addresses() const {
  static const AddressData None;
  return Rare ? Rare->Addresses : None;
}

AddressData &Part::makeAddresses() { return rare().Addresses; }

const std::vector<Interval> &Part::intervals() const {
  static const std::vector<Interval> None;
  return Rare ? Rare->Intervals : None;
}

std::vector<Interval> &Part::makeIntervals() { return rare().Intervals; }

Part::RareData &Part::rare() {
  if (!Rare)
    Rare = std::make_unique<RareData>();
  return *Rare;
}

Part profkit::copyPartShell(const Part &From,
                            ArrayRef<PositionKind> Positions) {
  Part To(Positions);
  copyPartShell(From, To);
  return To;
}

FunctionDataVector Part::takeFunctions() {
  Index.reset();
  ById.reset();
  Dense = true;
  return std::move(Functions);
}

size_t Part::position(FuncId F) const {
  if (Dense)
    return densePosition(F);
  size_t N = Functions.size();
  if (ById) {
    size_t Low = 0, High = N; // The first of id F or above.
    while (Low != High) {
      size_t Mid = (Low + High) / 2;
      if (Functions[byId(Mid)].Id < F)
        Low = Mid + 1;
      else
        High = Mid;
    }
    return Low != N && Functions[byId(Low)].Id == F ? byId(Low) : N;
  }
  if (!Index) { // A small part, read.
    for (size_t I = 0; I != N; ++I)
      if (Functions[I].Id == F)
        return I;
    return N;
  }
  auto It = Index->find(F);
  return It == Index->end() ? N : It->second;
}

const FunctionData *Part::lookup(FuncId F) const {
  size_t I = position(F);
  return I == Functions.size() ? nullptr : &Functions[I];
}

std::vector<uint64_t> Part::computeTotals(size_t NumEvents,
                                          bool &Overflow) const {
  std::vector<uint64_t> Sum(NumEvents);
  for (const FunctionData &FD : Functions)
    for (const Row &R : FD.Self)
      for (size_t I = 0, E = R.Values.size(); I != E; ++I)
        Overflow |= !addCost(Sum[I], R.Values[I]);
  return Sum;
}

bool Part::finalize() {
  bool Ok = true;
  for (FunctionData &FD : Functions) {
    Ok &= FD.Self.finalize();
    if (FD.hasCalls())
      Ok &= FD.makeCalls().finalize();
    if (FD.hasJumps())
      Ok &= FD.jumps().finalize();
  }
  return Ok;
}

void Part::shrink() {
  for (FunctionData &FD : Functions) {
    FD.Self.shrink();
    if (FD.hasCalls())
      FD.makeCalls().shrink();
    else
      FD.setCalls(RowTable()); // Frees a table left empty.
    if (FD.hasJumps())
      FD.jumps().shrink();
  }
  Functions.shrink();
  Header.shrink();
  // The positions of a small part's functions took 2 MB and a heap block
  // each in a run of many dumps (bench/make-shapes.sh's (c)).
  if (Index && Functions.size() <= MaxSearchedThrough) {
    Index.reset();
  } else if (Index) {
    // Sorted as words of the id above the position, which compare without
    // a look at the functions in their chunks.
    std::vector<uint64_t> Keyed;
    Keyed.reserve(Index->size());
    for (const auto &[F, Position] : *Index)
      Keyed.push_back(uint64_t(F) << 32 | Position);
    Index.reset();
    llvm::sort(Keyed);
    bool Narrow = narrowById();
    ById.reset(new uint8_t[Keyed.size() * (Narrow ? 2 : 4)]);
    for (size_t I = 0; I != Keyed.size(); ++I)
      if (Narrow)
        reinterpret_cast<uint16_t *>(ById.get())[I] = uint16_t(Keyed[I]);
      else
        reinterpret_cast<uint32_t *>(ById.get())[I] = uint32_t(Keyed[I]);
  }
}

unsigned Profile::getOrAddEvent(StringRef Name) {
  auto [It, Inserted] = EventIndex.try_emplace(Name, unsigned(Events.size()));
  if (Inserted)
    Events.push_back(EventType{Name.str(), ""});
  return It->second;
}

std::optional<unsigned> Profile::findEvent(StringRef Name) const {
  auto It = EventIndex.find(Name);
  if (It == EventIndex.end())
    return std::nullopt;
  return It->second;
}

uint32_t Profile::hashIds(StrId Object, StrId File, StrId Name) {
  uint64_t Hash = (uint64_t(Object) << 32 | File) * 0x9E3779B97F4A7C15 ^
                  uint64_t(Name) * 0xC2B2AE3D27D4EB4F;
  return uint32_t(Hash ^ Hash >> 31);
}

size_t Profile::findSlot(uint32_t Hash, StrId Object, StrId File,
                         StrId Name) const {
  size_t Mask = FunctionSlots.size() - 1;
  for (size_t Slot = Hash & Mask;; Slot = (Slot + 1) & Mask) {
    const FunctionSlot &S = FunctionSlots[Slot];
    if (S.F == NoFunction)
      return Slot;
    if (S.Hash != Hash)
      continue;
    const Function &Fn = Functions[S.F];
    if (Fn.Name == Name && Fn.File == File && Fn.Object == Object)
      return Slot;
  }
}

Profile::FunctionSlot &Profile::slotFor(StrId Object, StrId File, StrId Name,
                                        uint32_t &Hash) {
  Hash = hashIds(Object, File, Name);
  // At most seven eighths full, as many slots as 4-byte ids took at half
  // full: a slot in use costs a look at its hash, most probes staying in
  // one or two cache lines.
  if (8 * (NumInSlots + 1) > 7 * FunctionSlots.size())
    grow();
  return FunctionSlots[findSlot(Hash, Object, File, Name)];
}

void Profile::grow() {
  std::vector<FunctionSlot> Old = std::exchange(
      FunctionSlots,
      std::vector<FunctionSlot>(std::max<size_t>(64, 2 * FunctionSlots.size()),
                                FunctionSlot{NoFunction, 0}));
  size_t Mask = FunctionSlots.size() - 1;
  for (const FunctionSlot &S : Old) {
    if (S.F == NoFunction)
      continue;
    size_t Slot = S.Hash & Mask; // The ids in the table differ.
    while (FunctionSlots[Slot].F != NoFunction)
      Slot = (Slot + 1) & Mask;
    FunctionSlots[Slot] = S;
  }
}

void Profile::indexByName(FuncId F) {
  const Function &Fn = Functions[F];
  if (Fn.Name >= ByName.size())
    ByName.resize(Fn.Name + 1, FirstOfName{0, 0, NoFunction});
  if (ByName[Fn.Name].F == NoFunction)
    ByName[Fn.Name] = {Fn.Object, Fn.File, F};
}

void Profile::indexNewFunctions() {
  size_t N = Functions.size();
  if (NumIndexed != N) {
    // Room for the batch first, so that the slots can be asked for ahead.
    while (8 * (NumInSlots + N - NumIndexed) > 7 * FunctionSlots.size())
      grow();
    size_t Mask = FunctionSlots.size() - 1;
    constexpr size_t Ahead = 8;
    for (; NumIndexed < N; ++NumIndexed) {
      if (NumIndexed + Ahead < N) {
        const Function &Next = Functions[NumIndexed + Ahead];
        __builtin_prefetch(
            &FunctionSlots[hashIds(Next.Object, Next.File, Next.Name) & Mask]);
      }
      const Function &Fn = Functions[NumIndexed];
      uint32_t Hash = hashIds(Fn.Object, Fn.File, Fn.Name);
      FunctionSlot &S =
          FunctionSlots[findSlot(Hash, Fn.Object, Fn.File, Fn.Name)];
      if (S.F == NoFunction) { // The first of these ids wins.
        S = {FuncId(NumIndexed), Hash};
        ++NumInSlots;
      }
      indexByName(FuncId(NumIndexed));
    }
  }
  if (NumInSlots == NumIndexed) // Every function so far in a slot of its own.
    DistinctIds = NumIndexed;
}

FuncId Profile::getOrAddFreshFunction(StrId Object, StrId Name) {
  if (Name >= FreshByName.size())
    FreshByName.resize(std::max<size_t>(Strings.size(), Name + 1), NoFunction);
  FuncId Last = FreshByName[Name];
  if (Last != NoFunction && Functions[Last].File == FreshFile) {
    if (Functions[Last].Object == Object)
      return Last;
    // A name of functions of two objects in the file: the index tells
    // them apart.
    HaveFreshFile = false;
    return getOrAddFunction(Object, FreshFile, Name);
  }
  FuncId F = appendFunction(Object, FreshFile, Name);
  FreshByName[Name] = F;
  return F;
}

FuncId Profile::getOrAddFunction(StrId Object, StrId File, StrId Name) {
  if (HaveFreshFile && File == FreshFile)
    return getOrAddFreshFunction(Object, Name);
  if (File >= FileHasFunctions.size() || !FileHasFunctions[File]) {
    FreshFile = File;
    HaveFreshFile = true;
    return getOrAddFreshFunction(Object, Name);
  }
  indexNewFunctions();
  if (Name < ByName.size()) {
    const FirstOfName &First = ByName[Name];
    if (First.F != NoFunction && First.Object == Object && First.File == File)
      return First.F;
  }
  uint32_t Hash;
  FunctionSlot &S = slotFor(Object, File, Name, Hash);
  if (S.F != NoFunction)
    return S.F;
  S = {appendFunction(Object, File, Name), Hash};
  ++NumInSlots;
  indexByName(S.F);
  if (++NumIndexed == NumInSlots)
    DistinctIds = NumIndexed;
  return S.F;
}

FuncId Profile::getOrAddFunction(StrId Object, StrId File, StrId Name,
                                 FuncId Hint) {
  // No function before the hint has its ids: it is the first of them.
  if (Hint < DistinctIds) {
    const Function &Fn = Functions[Hint];
    if (Fn.Name == Name && Fn.File == File && Fn.Object == Object)
      return Hint;
  }
  return getOrAddFunction(Object, File, Name);
}

void Profile::releaseFunctionIndex() {
  FunctionSlots = {};
  ByName = {};
  NumInSlots = NumIndexed = 0;
}

void Profile::releaseNames() {
  Strings = StringPool();
  Functions = {};
  releaseFunctionIndex();
  DistinctIds = 0;
  FileHasFunctions = BitVector();
  HaveFreshFile = false;
  FreshByName = {};
}

Part &Profile::addPart(ArrayRef<PositionKind> Positions) {
  Parts.push_back(std::make_unique<Part>(Positions));
  return *Parts.back();
}

bool profkit::isSampleProfileShaped(const Profile &P) {
  PositionKind Shape[] = {PositionKind::LineOffset,
                          PositionKind::Discriminator};
  return P.parts().size() == 1 &&
         P.parts().front()->positions() == ArrayRef(Shape);
}
