//===- CallgrindWriter.cpp - Writing the callgrind format
//------------------===//
//
// Writes what valgrind's callgrind writes, in a form callgrind_annotate and
// KCachegrind read: `event:` lines before `events:` (callgrind_annotate ends
// the header at `events:`), name compression in callgrind's three shared id
// tables, subposition compression relative to the last self cost line, jcnd=
// in valgrind's followed/executed form, and `totals:` at the end of each part.
//
// Lines are formatted straight into a large buffer that goes to the stream in
// big writes. Large parts are formatted on several threads, in slices of
// functions; the ids of names, given out in order of first use, are filled
// in as the slices are put together in order.
//
//===----------------------------------------------------------------------===//

#include "profkit/Formats/Format.h"
#include "profkit/IR/IRPrinter.h"
#include "profkit/IR/Profile.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/Threads.h"
#include "profkit/Support/TouchedList.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemAlloc.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

using namespace profkit;
using namespace llvm;

namespace {

/// Text being formatted. With a Drain, the buffer goes to that stream
/// whenever it holds 256 KB (writes of that size cost no more than larger
/// ones, and a larger buffer stood out in the peak memory of writing a
/// profile read at 0.6 times its size); without, it grows.
class TextBuffer {
public:
  explicit TextBuffer(raw_ostream *Drain = nullptr) : Drain(Drain) {}
  TextBuffer(const TextBuffer &) = delete;
  TextBuffer &operator=(const TextBuffer &) = delete;
  ~TextBuffer() { free(Begin); }

  /// Makes room for N more characters at Cur.
  void reserve(size_t N) {
    if (LLVM_UNLIKELY(size_t(End - Cur) < N))
      grow(N);
  }
  void append(StringRef S) {
    reserve(S.size());
    if (!S.empty())
      memcpy(Cur, S.data(), S.size());
    Cur += S.size();
  }
  void put(char C) {
    reserve(1);
    *Cur++ = C;
  }
  void flush() {
    if (Drain && Cur != Begin)
      Drain->write(Begin, Cur - Begin);
    Cur = Begin;
  }
  void clear() { Cur = Begin; }
  size_t size() const { return Cur - Begin; }
  const char *data() const { return Begin; }

  char *Cur = nullptr;

private:
  static constexpr size_t DrainSize = size_t(256) << 10;
  void grow(size_t N) {
    if (Drain && size_t(End - Begin) >= DrainSize) {
      flush();
      if (size_t(End - Cur) >= N)
        return;
    }
    size_t Used = Cur - Begin;
    size_t Cap = std::max({2 * size_t(End - Begin), Used + N, size_t(4096)});
    Begin = static_cast<char *>(safe_realloc(Begin, Cap));
    Cur = Begin + Used;
    End = Begin + Cap;
  }

  char *Begin = nullptr, *End = nullptr;
  raw_ostream *Drain;
};

/// Digit pairs: most numbers have several digits.
const char Pairs[] = "00010203040506070809101112131415161718192021"
                     "22232425262728293031323334353637383940414243"
                     "44454647484950515253545556575859606162636465"
                     "66676869707172737475767778798081828384858687"
                     "888990919293949596979899";

/// Writes V in decimal at Out (at most 20 characters); returns the end.
inline char *formatDecimal(char *Out, uint64_t V) {
  if (V < 10) {
    *Out = char('0' + V);
    return Out + 1;
  }
  if (V < 100) {
    memcpy(Out, Pairs + 2 * V, 2);
    return Out + 2;
  }
  static constexpr uint64_t Pow10[] = {1,
                                       10,
                                       100,
                                       1000,
                                       10000,
                                       100000,
                                       1000000,
                                       10000000,
                                       100000000,
                                       1000000000,
                                       10000000000,
                                       100000000000,
                                       1000000000000,
                                       10000000000000,
                                       100000000000000,
                                       1000000000000000,
                                       10000000000000000,
                                       100000000000000000,
                                       1000000000000000000,
                                       10000000000000000000u};
  // floor(log10(V)) from floor(log2(V)), corrected by one comparison.
  unsigned T = (64 - __builtin_clzll(V)) * 1233 >> 12;
  unsigned Len = T + (V >= Pow10[T]);
  char *End = Out + Len;
  char *P = End;
  while (V > UINT32_MAX) {
    unsigned R = unsigned(V % 100) * 2;
    V /= 100;
    P -= 2;
    memcpy(P, Pairs + R, 2);
  }
  // Costs mostly fit in 32 bits, where dividing by 100 is cheaper.
  uint32_t W = uint32_t(V);
  while (W >= 100) {
    unsigned R = W % 100 * 2;
    W /= 100;
    P -= 2;
    memcpy(P, Pairs + R, 2);
  }
  if (W >= 10)
    memcpy(P - 2, Pairs + 2 * W, 2);
  else
    P[-1] = char('0' + W);
  return End;
}

/// Writes V as 0x and lower-case hex digits at Out (at most 18 characters).
inline char *formatHex(char *Out, uint64_t V) {
  *Out++ = '0';
  *Out++ = 'x';
  unsigned Len = (64 - __builtin_clzll(V | 1) + 3) / 4;
  char *End = Out + Len;
  do {
    *--End = "0123456789abcdef"[V & 15];
    V >>= 4;
  } while (V);
  return Out + Len;
}

/// callgrind's three id tables: objects, files, functions. Object and file
/// ids stand for names (StrId); a function id stands for a function identity
/// (FuncId: object, file and name), as valgrind gives them out: KCachegrind
/// binds an id to the first function it names and takes every later use of
/// the id for that function, so one id per name string would merge the
/// `(below main)` of a program with libc's.
enum IdTable : uint8_t { ObjectIds, FileIds, FunctionIds };

/// The name an id table's entry stands for.
static StringRef entryName(const Profile &P, IdTable T, uint32_t Entry) {
  return T == FunctionIds ? P.functionName(Entry) : P.Strings.str(Entry);
}

/// The ids of a part, by table and entry (StrId or FuncId); 0 is none yet.
class IdTables {
public:
  explicit IdTables(const Profile &P) {
    Ids[ObjectIds].assign(P.Strings.size(), 0);
    Ids[FileIds].assign(P.Strings.size(), 0);
    Ids[FunctionIds].assign(P.numFunctions(), 0);
  }
  /// The id of Entry; 0 if it has none yet.
  unsigned find(IdTable T, uint32_t Entry) const { return Ids[T][Entry]; }
  /// Gives Entry, which has none, the next id.
  unsigned assign(IdTable T, uint32_t Entry) {
    Used[T].note(Entry);
    return Ids[T][Entry] = ++Given[T];
  }
  /// Forgets every id (a new part), in time proportional to those given
  /// out (a cachegrind file's one part names a million functions).
  void clear() {
    for (unsigned T = 0; T != 3; ++T) {
      std::vector<uint32_t> &Table = Ids[T];
      Used[T].empty([&](uint32_t Entry) { Table[Entry] = 0; },
                    [&] { std::fill(Table.begin(), Table.end(), 0); });
      Given[T] = 0;
    }
  }

private:
  std::vector<uint32_t> Ids[3];
  TouchedList Used[3];
  uint32_t Given[3] = {};
};

/// Writes `(id)`, or `(id) name` at the first use, after a `key=`; nothing
/// for an empty name, which has no compressed form (`(1)` would be a
/// reference). The name is looked up at its first use only: its entry and
/// bytes are cache misses (half of writing a name, reading and writing
/// (a)), where its id is one small table's.
void writeId(TextBuffer &Out, IdTables &Ids, const Profile &P, IdTable T,
             uint32_t Entry) {
  unsigned Id = Ids.find(T, Entry);
  StringRef S; // Written after the id at its first use.
  if (!Id) {
    S = entryName(P, T, Entry);
    if (S.empty())
      return;
    Id = Ids.assign(T, Entry);
  }
  Out.reserve(S.size() + 24);
  char *O = Out.Cur;
  *O++ = '(';
  O = formatDecimal(O, Id);
  *O++ = ')';
  if (!S.empty()) {
    *O++ = ' ';
    memcpy(O, S.data(), S.size());
    O += S.size();
  }
  Out.Cur = O;
}

/// A name of a slice formatted ahead: its `(id)` or `(id) name` goes at
/// Offset once the slices before it have given out their ids.
struct NameRef {
  size_t Offset;
  uint32_t Entry;
  IdTable Table;
};

/// Formats the functions of a part. Names get their ids right away (Ids), or
/// are left as NameRefs for the stitching of slices formatted in parallel.
class Formatter {
public:
  Formatter(const Profile &P, const Part &Pt, const PassParams &Params,
            TextBuffer &Out, IdTables *Ids, std::vector<NameRef> *Refs,
            std::vector<uint64_t> *Sum)
      : P(P), Out(Out), Ids(Ids), Refs(Refs), Sum(Sum),
        NP(Pt.positions().size()),
        CompressNames(Params.getFlag("compress-names")),
        // Without compression, LastPos stays zero: every position absolute.
        NewPos(Params.getFlag("compress-positions") ? LastPos : Discard),
        LineIdx(Pt.positionIndex(PositionKind::Line)) {
    for (unsigned I = 0; I != NP; ++I)
      if (isAddressKind(Pt.positions()[I]))
        HexMask |= 1u << I;
  }

  /// The object and file lines in effect before the first function: those
  /// of the function before it, or none at the start of a part.
  void startAfter(const Function *Prev) {
    CurObject = Prev ? Prev->Object : 0;
    CurFile = CurSource = Prev ? Prev->File : 0;
  }
  void function(const FunctionData &FD);

  /// Set if a sum of Sum overflowed.
  bool Overflow = false;

private:
  // K is the number of positions when it is a common one (1 to 3), so that
  // their loops unroll; 0 for any other.
  template <unsigned K> unsigned np() const { return K ? K : NP; }
  template <unsigned K>
  char *formatPosition(char *O, const uint64_t *Pos, uint64_t *Update);
  template <unsigned K> char *formatCallSite(char *O, const uint64_t *Pos);
  template <unsigned K> bool before(const Row &A, const Row &B) const;
  template <unsigned K> void rows(const FunctionData &FD, const Function &F);
  static constexpr size_t NoLeadingRow = ~size_t(0);
  size_t leadingSelfRow(const FunctionData &FD, StrId OwnFile,
                        const Row *FirstRow);
  template <unsigned K> void selfRow(const Row &R, StrId FunctionFile);
  template <unsigned K> void callRow(const Row &R, const Function &F);
  template <unsigned K>
  void jumpRow(const Row &R, const FunctionData &FD, StrId FunctionFile);
  void name(StringRef Key, uint32_t Entry, IdTable T);
  void switchSourceFile(StrId File, StrId FunctionFile) {
    if (LLVM_LIKELY(File == CurSource))
      return;
    name(File == FunctionFile ? "fe=" : "fi=", File, FileIds);
    CurSource = File;
  }

  const Profile &P;
  TextBuffer &Out;
  IdTables *Ids;
  std::vector<NameRef> *Refs;
  std::vector<uint64_t> *Sum; // Totals to sum self costs into, if any.
  unsigned NP;                // Positions per key.
  unsigned HexMask = 0;       // Positions written in hex.
  bool CompressNames;
  StrId CurObject = 0, CurFile = 0, CurSource = 0;
  uint64_t LastPos[RowTable::MaxKeyWidth] = {};
  uint64_t Discard[RowTable::MaxKeyWidth];
  uint64_t *NewPos; // Where a cost line's position goes: LastPos or Discard.
  std::optional<unsigned> LineIdx;
  llvm::SmallVector<uint64_t, 8> LeadKey, LeadValues;
};

} // namespace

void Formatter::name(StringRef Key, uint32_t Entry, IdTable T) {
  Out.reserve(Key.size() + 1); // The '\n' after a Ref or an empty name.
  memcpy(Out.Cur, Key.data(), Key.size());
  Out.Cur += Key.size();
  // A name that itself starts with `(` and a digit reads back as an id, so
  // it is written compressed (`(1) (2) name`) even without CompressNames.
  bool Compressed = CompressNames;
  if (!Compressed) {
    StringRef S = entryName(P, T, Entry);
    Compressed = S.size() >= 2 && S[0] == '(' && isDigit(S[1]);
    if (!Compressed) {
      Out.reserve(S.size() + 1);
      if (!S.empty())
        memcpy(Out.Cur, S.data(), S.size());
      Out.Cur += S.size();
    }
  }
  if (Compressed) {
    if (Ids)
      writeId(Out, *Ids, P, T, Entry);
    else
      Refs->push_back({Out.size(), Entry, T});
  }
  *Out.Cur++ = '\n';
}

/// Writes a position: `*` for an unchanged word, `+N`/`-N` when that is no
/// longer than the absolute form, else the absolute value. A cost line's
/// position is stored at Update, a target's (Update null) is not.
template <unsigned K>
LLVM_ATTRIBUTE_ALWAYS_INLINE char *
Formatter::formatPosition(char *O, const uint64_t *Pos, uint64_t *Update) {
  for (unsigned I = 0; I != np<K>(); ++I) {
    if (I)
      *O++ = ' ';
    uint64_t V = Pos[I], Last = LastPos[I];
    bool Hex = HexMask >> I & 1;
    if (Update)
      Update[I] = V;
    if (Last) {
      if (V == Last) {
        *O++ = '*';
        continue;
      }
      uint64_t Diff = V > Last ? V - Last : Last - V;
      if (Diff < (Hex ? 1u << 12 : 1000u)) {
        *O++ = V > Last ? '+' : '-';
        if (Diff < 10)
          *O++ = char('0' + Diff);
        else
          O = formatDecimal(O, Diff);
        continue;
      }
    }
    O = Hex ? formatHex(O, V) : formatDecimal(O, V);
  }
  return O;
}

/// Writes the position of the line after a `calls=` or jump line. valgrind
/// writes the next line's position relative to the last self cost line's,
/// as profkit reads it; KCachegrind and callgrind_annotate read it relative
/// to this one. So `*` where the two are the same, else the absolute
/// position, and the next line's absolute too.
template <unsigned K>
LLVM_ATTRIBUTE_ALWAYS_INLINE char *
Formatter::formatCallSite(char *O, const uint64_t *Pos) {
  for (unsigned I = 0; I != np<K>(); ++I) {
    if (I)
      *O++ = ' ';
    uint64_t V = Pos[I];
    if (V && V == LastPos[I]) {
      *O++ = '*';
      continue;
    }
    O = HexMask >> I & 1 ? formatHex(O, V) : formatDecimal(O, V);
    LastPos[I] = 0;
  }
  return O;
}

/// Before in source-file-and-position order: the position leads the key.
template <unsigned K>
LLVM_ATTRIBUTE_ALWAYS_INLINE bool Formatter::before(const Row &A,
                                                    const Row &B) const {
  const uint64_t *X = A.Key.data(), *Y = B.Key.data();
  if (X[0] != Y[0])
    return X[0] < Y[0];
  return std::lexicographical_compare(X + 1, X + np<K>() + 1, Y + 1,
                                      Y + np<K>() + 1);
}

template <unsigned K>
LLVM_ATTRIBUTE_ALWAYS_INLINE void Formatter::selfRow(const Row &R,
                                                     StrId FunctionFile) {
  switchSourceFile(RowLayout{np<K>()}.sourceFile(R), FunctionFile);
  const uint64_t *V = R.Values.data();
  size_t N = R.Values.size();
  if (Sum) {
    uint64_t *S = Sum->data();
    for (size_t I = 0, E = std::min(N, Sum->size()); I != E; ++I)
      Overflow |= !addCost(S[I], V[I]);
  }
  while (N && !V[N - 1])
    --N;
  Out.reserve(24 * (np<K>() + N + 2));
  char *O = formatPosition<K>(Out.Cur, R.Key.data(), NewPos);
  for (size_t I = 0; I != N; ++I) {
    *O++ = ' ';
    O = formatDecimal(O, V[I]);
  }
  *O++ = '\n';
  Out.Cur = O;
}

template <unsigned K> void Formatter::callRow(const Row &R, const Function &F) {
  const unsigned NP = np<K>();
  const RowLayout L{NP};
  switchSourceFile(L.sourceFile(R), F.File);
  FuncId CalleeId = L.callee(R);
  const Function &Callee = P.function(CalleeId);
  if (Callee.Object != CurObject)
    name("cob=", Callee.Object, ObjectIds);
  if (Callee.File != CurSource)
    name("cfi=", Callee.File, FileIds);
  name("cfn=", CalleeId, FunctionIds);
  ArrayRef<uint64_t> V =
      R.Values.drop_front(std::min<size_t>(1, R.Values.size()));
  size_t N = V.size();
  while (N && !V[N - 1])
    --N;
  Out.reserve(24 * (2 * NP + N + 4));
  char *O = Out.Cur;
  memcpy(O, "calls=", 6);
  O = formatDecimal(O + 6, R.value(0));
  *O++ = ' ';
  O = formatPosition<K>(O, L.callTarget(R).data(), nullptr);
  *O++ = '\n';
  O = formatCallSite<K>(O, R.Key.data());
  for (size_t I = 0; I != N; ++I) {
    *O++ = ' ';
    O = formatDecimal(O, V[I]);
  }
  *O++ = '\n';
  Out.Cur = O;
}

template <unsigned K>
void Formatter::jumpRow(const Row &R, const FunctionData &FD,
                        StrId FunctionFile) {
  const unsigned NP = np<K>();
  const RowLayout L{NP};
  switchSourceFile(L.sourceFile(R), FunctionFile);
  StrId TargetFile = L.jumpTargetFile(R);
  FuncId Target = L.jumpTargetFunction(R);
  if (TargetFile != CurSource)
    name("jfi=", TargetFile, FileIds);
  if (Target != FD.Id) {
    // There is no "job=": a jump target is named in the object of the last
    // ob= line, which need not be the jumping function's.
    const Function &T = P.function(Target);
    if (T.Object != CurObject) {
      name("ob=", T.Object, ObjectIds);
      CurObject = T.Object;
    }
    name("jfn=", Target, FunctionIds);
  }
  Out.reserve(24 * (2 * NP + 4));
  char *O = Out.Cur;
  if (L.jumpKind(R) == JumpKind::Conditional) {
    memcpy(O, "jcnd=", 5);
    O = formatDecimal(O + 5, R.value(0));
    *O++ = '/';
    O = formatDecimal(O, R.value(1));
  } else {
    memcpy(O, "jump=", 5);
    O = formatDecimal(O + 5, R.value(0));
  }
  *O++ = ' ';
  O = formatPosition<K>(O, L.jumpTarget(R).data(), nullptr);
  *O++ = '\n';
  O = formatCallSite<K>(O, R.Key.data());
  *O++ = '\n';
  Out.Cur = O;
}

/// Merges the three sorted tables in source-file-and-position order, self
/// cost first at a position, then calls, then jumps, as callgrind writes
/// them.
template <unsigned K>
void Formatter::rows(const FunctionData &FD, const Function &F) {
  RowTable::iterator S = FD.Self.begin(), SE = FD.Self.end();
  size_t Lead = leadingSelfRow(FD, F.File, S != SE ? &*S : nullptr);
  if (Lead != NoLeadingRow)
    selfRow<K>(Row{LeadKey, LeadValues}, F.File);
  size_t SelfIndex = 0;
  // Inline at each of its three loops: a call per row (saving registers)
  // was 6 % of the writer's instructions. (LLVM's macro adds `inline`,
  // which a lambda cannot take.)
  auto Self = [&](const Row &R) __attribute__((always_inline)) {
    if (SelfIndex++ != Lead)
      selfRow<K>(R, F.File);
  };
  if (FD.calls().empty() && !FD.hasJumps()) {
    for (; S != SE; ++S)
      Self(*S);
    return;
  }
  RowTable::iterator C = FD.calls().begin(), CE = FD.calls().end();
  RowTable::iterator J = FD.jumps().begin(), JE = FD.jumps().end();
  // An iterator's row stays at one address as it advances.
  const Row *CR = C != CE ? &*C : nullptr;
  const Row *JR = J != JE ? &*J : nullptr;
  while (CR || JR) {
    bool Jump = JR && (!CR || before<K>(*JR, *CR));
    const Row &Other = Jump ? *JR : *CR;
    for (; S != SE && !before<K>(Other, *S); ++S)
      Self(*S);
    if (Jump) {
      jumpRow<K>(*JR, FD, F.File);
      if (++J == JE)
        JR = nullptr;
    } else {
      callRow<K>(*CR, F);
      if (++C == CE)
        CR = nullptr;
    }
  }
  for (; S != SE; ++S)
    Self(*S);
}

/// A reader takes a function's first self row in its own file for its first
/// line (FunctionValueKind::FirstLine). When the sorted rows would start
/// elsewhere, the row at the first line goes ahead of them: its index in
/// FD.Self, with its words in LeadKey and LeadValues; else NoLeadingRow.
/// FirstRow is FD.Self's first row, if any: most often the one at the first
/// line, and then the rows need no second look.
size_t Formatter::leadingSelfRow(const FunctionData &FD, StrId OwnFile,
                                 const Row *FirstRow) {
  std::optional<uint64_t> First = FD.values().get(FunctionValueKind::FirstLine);
  if (!First || !LineIdx || !FirstRow)
    return NoLeadingRow;
  if (RowLayout{NP}.sourceFile(*FirstRow) == OwnFile &&
      FirstRow->Key[*LineIdx] == *First)
    return NoLeadingRow;
  size_t Index = 0;
  bool SeenOwn = false;
  for (const Row &R : FD.Self) {
    if (RowLayout{NP}.sourceFile(R) == OwnFile) {
      if (R.Key[*LineIdx] == *First) {
        if (!SeenOwn)
          return NoLeadingRow;
        LeadKey.assign(R.Key.begin(), R.Key.end());
        LeadValues.assign(R.Values.begin(), R.Values.end());
        return Index;
      }
      SeenOwn = true;
    }
    ++Index;
  }
  return NoLeadingRow;
}

void Formatter::function(const FunctionData &FD) {
  const Function &F = P.function(FD.Id);
  if (F.Object != CurObject) {
    name("ob=", F.Object, ObjectIds);
    CurObject = F.Object;
  }
  if (F.File != CurFile) {
    name("fl=", F.File, FileIds);
    CurFile = CurSource = F.File;
  }
  name("fn=", FD.Id, FunctionIds);
  // Readers differ on whether relative positions carry across fn= lines;
  // start every function from absolute positions.
  std::fill(LastPos, LastPos + NP, 0);
  switch (NP) {
  case 1:
    rows<1>(FD, F);
    break;
  case 2:
    rows<2>(FD, F);
    break;
  case 3:
    rows<3>(FD, F);
    break;
  default:
    rows<0>(FD, F);
  }
  // callgrind_annotate keeps the fi= file across the next fn= line; close
  // inlined code as callgrind does.
  switchSourceFile(F.File, F.File);
  // Leave the function's object in effect, as startAfter() assumes, should a
  // jump have named another.
  if (CurObject != F.Object) {
    name("ob=", F.Object, ObjectIds);
    CurObject = F.Object;
  }
}

/// The bytes of a function's rows, which its text takes about in proportion.
static size_t rowBytes(const FunctionData &FD) {
  return FD.Self.encodedBytes() + FD.calls().encodedBytes() +
         FD.jumps().encodedBytes() + 64;
}

/// Threads to format a profile with. callgrind<threads=N> takes N (1: only
/// the calling thread), for any profile; by default (0), profiles of a
/// megabyte of rows and more take what -threads allows (MaxThreads):
/// starting threads would cost small profiles more than it saves.
static unsigned writeThreads(unsigned Requested, unsigned MaxThreads,
                             size_t Bytes) {
  if (Requested)
    return std::min(Requested, 64u);
  if (Bytes < (size_t(1) << 20))
    return 1;
  return std::min(availableThreads(MaxThreads), 64u);
}

namespace {

/// Functions Begin to End of part K: a slice of the profile holds one such
/// segment of each part it reaches into.
struct Segment {
  size_t K, Begin, End;
};

/// A slice of the profile formatted apart from the others: its segments,
/// its text without the ids of its names, and for each segment where its
/// text and names end and the sums of its self costs.
struct Slice {
  struct SegmentEnd {
    size_t Text, Refs;
    std::vector<uint64_t> Sum;
    bool Overflow;
  };
  size_t Index = 0; // In the profile's slices.
  bool Done = false;
  std::vector<Segment> Segments;
  TextBuffer Text;
  std::vector<NameRef> Refs;
  std::vector<SegmentEnd> Ends; // One for each segment; only grows.
};

class CallgrindWriter {
public:
  CallgrindWriter(const Profile &P, raw_ostream &OS, const PassParams &Params,
                  const WriteContext &Ctx, unsigned Threads)
      : P(P), Params(Params), Ctx(Ctx), Threads(Threads), Out(&OS), Ids(P) {}
  void write();

private:
  /// The part's lines up to its first function, and a fresh sum of its self
  /// costs in Sum when it has no totals.
  void startPart(const Part &Pt, std::vector<uint64_t> &Sum);
  void endPart(const Part &Pt, const std::vector<uint64_t> &Sum, bool Overflow);
  void writeNumbers(StringRef Key, ArrayRef<uint64_t> V);
  void writeInParallel(unsigned Threads, size_t SliceBytes);
  void stitch(const Slice &S, size_t TextFrom, size_t TextTo, size_t RefsFrom,
              size_t RefsTo);

  const Profile &P;
  const PassParams &Params;
  const WriteContext &Ctx;
  unsigned Threads;
  TextBuffer Out;
  IdTables Ids;
  /// The `event:` lines of every part, formatted once: a run that dumped
  /// often has tens of thousands of parts.
  std::string EventLines;
};

} // namespace

void CallgrindWriter::writeNumbers(StringRef Key, ArrayRef<uint64_t> V) {
  Out.append(Key);
  Out.put(':');
  for (size_t I = 0, E = P.events().size(); I != E; ++I) {
    Out.reserve(24);
    *Out.Cur++ = ' ';
    Out.Cur = formatDecimal(Out.Cur, I < V.size() ? V[I] : 0);
  }
  Out.put('\n');
}

void CallgrindWriter::startPart(const Part &Pt, std::vector<uint64_t> &Sum) {
  if (&Pt != P.parts().front().get())
    Out.put('\n');
  // After the first part, the first line must be one that starts a part in
  // the reader, which gives other header lines to the part before: fuzzing
  // (roundtrip) found a part whose header began `summa:`. `positions:` then
  // leads.
  bool PositionsFirst =
      &Pt != P.parts().front().get() && !Pt.Header.empty() &&
      !is_contained({"version", "creator", "cmd", "pid", "thread", "part"},
                    Pt.Header.front().Key);
  auto WritePositions = [&] {
    Out.append("positions:");
    for (PositionKind K : Pt.positions()) {
      Out.put(' ');
      Out.append(positionKindName(K));
    }
    Out.put('\n');
  };
  if (PositionsFirst)
    WritePositions();
  for (const HeaderLine &H : Pt.Header) {
    if (isFieldHeader(H.Key))
      continue;
    Out.append(H.Key);
    Out.append(": ");
    Out.append(H.Value);
    Out.put('\n');
  }
  if (!PositionsFirst)
    WritePositions();
  Out.append(EventLines);
  Out.append("events:");
  for (const EventType &E : P.events()) {
    Out.put(' ');
    Out.append(E.Name);
  }
  Out.put('\n');
  if (Pt.Summary)
    writeNumbers("summary", *Pt.Summary);
  Out.put('\n');

  Ids.clear();
  // Without totals in the part, they are the sums of the self costs,
  // summed as the rows go by.
  Sum.assign(Pt.Totals ? 0 : P.events().size(), 0);
}

void CallgrindWriter::endPart(const Part &Pt, const std::vector<uint64_t> &Sum,
                              bool Overflow) {
  if (Pt.Totals) {
    writeNumbers("\ntotals", *Pt.Totals);
  } else {
    if (Overflow)
      Ctx.Warn("the totals of a part overflow 64 bits; written saturated");
    writeNumbers("\ntotals", Sum);
  }
}

/// Writes the text of a slice from TextFrom to TextTo, with the ids of its
/// names RefsFrom to RefsTo in it, given out as they come.
void CallgrindWriter::stitch(const Slice &S, size_t TextFrom, size_t TextTo,
                             size_t RefsFrom, size_t RefsTo) {
  const char *Base = S.Text.data(), *From = Base + TextFrom;
  for (size_t I = RefsFrom; I != RefsTo; ++I) {
    const NameRef &R = S.Refs[I];
    Out.append(StringRef(From, Base + R.Offset - From));
    writeId(Out, Ids, P, R.Table, R.Entry);
    From = Base + R.Offset;
  }
  Out.append(StringRef(From, Base + TextTo - From));
}

/// Formats the functions of every part in slices on Threads threads (this
/// one among them) and writes the parts with their slices in order as they
/// are done. A run that dumped often has tens of thousands of parts of a
/// few dozen functions: a slice spans parts, in a segment of each, so that
/// slices are few enough for their bookkeeping not to count. Slices are cut
/// as they are taken, and at most a few are formatted ahead of the one being
/// written, so memory stays bounded however large the profile.
void CallgrindWriter::writeInParallel(unsigned Threads, size_t SliceBytes) {
  const auto &Parts = P.parts();
  std::vector<Slice> Slots(2 * Threads);

  // Guarded by M: where the next slice starts (function AtFunction of part
  // AtPart), its index, how many slices are written (their slots are free),
  // and the slots' Index, Done and Segments.
  std::mutex M;
  std::condition_variable CV;
  size_t AtPart = 0, AtFunction = 0, Next = 0, Written = 0;
  auto AllTaken = [&] { return AtPart == Parts.size(); };
  auto CanTake = [&] { return !AllTaken() && Next < Written + Slots.size(); };
  // Cuts the next slice into slot S. Every part has a segment, an empty one
  // if it has no functions, so that its header and totals are written in
  // their turn.
  auto Cut = [&](Slice &S) {
    S.Segments.clear();
    size_t Bytes = 0;
    do {
      const auto &Fns = Parts[AtPart]->functions();
      size_t E = AtFunction;
      while (E != Fns.size() && Bytes < SliceBytes)
        Bytes += rowBytes(Fns[E++]);
      S.Segments.push_back({AtPart, AtFunction, E});
      AtFunction = E;
      if (E == Fns.size())
        ++AtPart, AtFunction = 0;
    } while (!AllTaken() && Bytes < SliceBytes);
  };
  // Formats slot S's slice, which no one else is using.
  auto Format = [&](Slice &S) {
    S.Text.clear();
    S.Refs.clear();
    if (S.Ends.size() < S.Segments.size())
      S.Ends.resize(S.Segments.size());
    for (size_t J = 0; J != S.Segments.size(); ++J) {
      auto [K, B, E] = S.Segments[J];
      const Part &Pt = *Parts[K];
      Slice::SegmentEnd &End = S.Ends[J];
      End.Sum.assign(Pt.Totals ? 0 : P.events().size(), 0);
      Formatter Fmt(P, Pt, Params, S.Text, nullptr, &S.Refs,
                    Pt.Totals ? nullptr : &End.Sum);
      // The object and file lines in effect at a function boundary are
      // those of the function before.
      const auto &Fns = Pt.functions();
      Fmt.startAfter(B ? &P.function(Fns[B - 1].Id) : nullptr);
      for (size_t F = B; F != E; ++F)
        Fmt.function(Fns[F]);
      End.Text = S.Text.size();
      End.Refs = S.Refs.size();
      End.Overflow = Fmt.Overflow;
    }
  };
  // Takes the next slice and formats it, with L unlocked meanwhile.
  auto TakeOne = [&](std::unique_lock<std::mutex> &L) {
    Slice &S = Slots[Next % Slots.size()];
    S.Index = Next++;
    S.Done = false;
    Cut(S);
    L.unlock();
    Format(S);
    L.lock();
    S.Done = true;
    CV.notify_all();
  };
  auto Worker = [&] {
    std::unique_lock<std::mutex> L(M);
    for (;;) {
      CV.wait(L, [&] { return AllTaken() || CanTake(); });
      if (AllTaken())
        return;
      TakeOne(L);
    }
  };
  std::vector<std::thread> Workers;
  for (unsigned T = 1; T < Threads; ++T)
    Workers.emplace_back(Worker);

  std::vector<uint64_t> Sum;
  bool Overflow = false;
  for (size_t I = 0;; ++I) {
    Slice &S = Slots[I % Slots.size()];
    {
      // Help with the formatting while slice I is not done.
      std::unique_lock<std::mutex> L(M);
      while (!(S.Index == I && S.Done)) {
        if (I == Next && AllTaken())
          break; // Every slice is written.
        if (CanTake())
          TakeOne(L);
        else
          CV.wait(L);
      }
      if (!(S.Index == I && S.Done))
        break;
    }
    size_t Text = 0, Refs = 0;
    for (size_t J = 0; J != S.Segments.size(); ++J) {
      auto [K, B, E] = S.Segments[J];
      const Part &Pt = *Parts[K];
      if (B == 0) {
        startPart(Pt, Sum);
        Overflow = false;
      }
      const Slice::SegmentEnd &End = S.Ends[J];
      stitch(S, Text, End.Text, Refs, End.Refs);
      Text = End.Text;
      Refs = End.Refs;
      for (size_t V = 0; V != Sum.size(); ++V)
        Overflow |= !addCost(Sum[V], End.Sum[V]);
      Overflow |= End.Overflow;
      if (E == Pt.functions().size())
        endPart(Pt, Sum, Overflow);
    }
    {
      std::lock_guard<std::mutex> L(M);
      ++Written;
    }
    CV.notify_all();
  }
  for (std::thread &T : Workers)
    T.join();
}

void CallgrindWriter::write() {
  raw_string_ostream EventOS(EventLines);
  printEventLines(P, EventOS);
  Out.append("# callgrind format\n");
  size_t Bytes = 0, NumFunctions = 0;
  for (const auto &Pt : P.parts()) {
    for (const FunctionData &FD : Pt->functions())
      Bytes += rowBytes(FD);
    NumFunctions += Pt->functions().size();
  }
  unsigned Threads = writeThreads(this->Threads, Ctx.MaxThreads, Bytes);
  if (Threads > 1 && NumFunctions > 1) {
    // Slices small enough to spread the work and to keep the text formatted
    // ahead small (64 KB of rows a slice), large enough that
    // their bookkeeping does not count.
    writeInParallel(Threads, std::clamp<size_t>(Bytes / (8 * Threads), 1,
                                                size_t(64) << 10));
  } else {
    // Blocks in the part's order: the order the input had them in
    // (callgrind groups them by object and file), which callgrind_annotate's
    // last-one-wins bookkeeping of objects depends on.
    std::vector<uint64_t> Sum;
    for (const auto &Pt : P.parts()) {
      startPart(*Pt, Sum);
      Formatter Fmt(P, *Pt, Params, Out, &Ids, nullptr,
                    Pt->Totals ? nullptr : &Sum);
      Fmt.startAfter(nullptr);
      for (const FunctionData &FD : Pt->functions())
        Fmt.function(FD);
      endPart(*Pt, Sum, Fmt.Overflow);
    }
  }
  Out.flush();
}

Error profkit::writeCallgrind(const Profile &P, raw_ostream &OS,
                              const PassParams &Params,
                              const WriteContext &Ctx) {
  if (Error E = requireFunctions(P))
    return E;
  // Fuzzing (roundtrip) found a gmon.out of a header only, read as a profile
  // of no events: its `events:` line would be empty, which no reader takes.
  if (P.events().empty())
    return makeError(ErrorCode::InvalidArgument,
                     "the profile has no events; the callgrind format needs "
                     "at least one");
  for (const auto &Pt : P.parts())
    for (PositionKind K : Pt->positions())
      if (!isCallgrindKind(K))
        return makeError(ErrorCode::InvalidArgument,
                         "the callgrind format cannot hold " +
                             positionKindName(K) + " positions");
  unsigned Threads;
  if (Params.get("threads").getAsInteger(10, Threads))
    return Params.invalid("threads", "expected a whole number");
  warnDroppedData(P, "callgrind", Ctx);
  CallgrindWriter(P, OS, Params, Ctx, Threads).write();
  return Error::success();
}
