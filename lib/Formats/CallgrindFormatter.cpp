//===- CallgrindFormatter.cpp - Formatting callgrind text -----------------===//
//
// The lines of a part's functions as valgrind's callgrind writes them: names
// compressed in callgrind's id tables, positions relative to the last self
// cost line, a function's self, call and jump rows merged in position order.
//
//===----------------------------------------------------------------------===//

#include "CallgrindFormatter.h"
#include "llvm/ADT/StringExtras.h"

using namespace profkit;
using namespace profkit::callgrindwriter;
using namespace llvm;

/// The name an id table's entry stands for.
static StringRef entryName(const Profile &P, IdTable T, uint32_t Entry) {
  return T == FunctionIds ? P.functionName(Entry) : P.Strings.str(Entry);
}

void callgrindwriter::writeId(TextBuffer &Out, IdTables &Ids, const Profile &P,
                              IdTable T, uint32_t Entry) {
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
template <typename K>
LLVM_ATTRIBUTE_ALWAYS_INLINE char *
Formatter::formatPosition(char *O, const uint64_t *Pos, uint64_t *Update) {
  for (unsigned I = 0; I != np<K>(); ++I) {
    if (I)
      *O++ = ' ';
    uint64_t V = Pos[I], Last = LastPos[I];
    bool Hex = hex<K>(I);
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
template <typename K>
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
    O = hex<K>(I) ? formatHex(O, V) : formatDecimal(O, V);
    LastPos[I] = 0;
  }
  return O;
}

/// Before in source-file-and-position order: the position leads the key.
template <typename K>
LLVM_ATTRIBUTE_ALWAYS_INLINE bool Formatter::before(const Row &A,
                                                    const Row &B) const {
  const uint64_t *X = A.Key.data(), *Y = B.Key.data();
  if (X[0] != Y[0])
    return X[0] < Y[0];
  return std::lexicographical_compare(X + 1, X + np<K>() + 1, Y + 1,
                                      Y + np<K>() + 1);
}

template <typename K>
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

template <typename K> void Formatter::callRow(const Row &R, const Function &F) {
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

template <typename K>
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
template <typename K>
void Formatter::rows(const FunctionData &FD, const Function &F) {
  RowTable::iterator S = FD.Self.begin();
  size_t Lead = leadingSelfRow(FD, F.File, !S.atEnd() ? &*S : nullptr);
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
    for (; !S.atEnd(); ++S)
      Self(*S);
    return;
  }
  RowTable::iterator C = FD.calls().begin(), J = FD.jumps().begin();
  // An iterator's row stays at one address as it advances.
  const Row *CR = !C.atEnd() ? &*C : nullptr;
  const Row *JR = !J.atEnd() ? &*J : nullptr;
  while (CR || JR) {
    bool Jump = JR && (!CR || before<K>(*JR, *CR));
    const Row &Other = Jump ? *JR : *CR;
    for (; !S.atEnd() && !before<K>(Other, *S); ++S)
      Self(*S);
    if (Jump) {
      jumpRow<K>(*JR, FD, F.File);
      if ((++J).atEnd())
        JR = nullptr;
    } else {
      callRow<K>(*CR, F);
      if ((++C).atEnd())
        CR = nullptr;
    }
  }
  for (; !S.atEnd(); ++S)
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
  // valgrind's: a line (line-level), an address (--dump-instr=yes), or an
  // address and a line (both).
  switch (NP) {
  case 1:
    if (HexMask)
      rows<Shape<1, 1>>(FD, F);
    else
      rows<Shape<1, 0>>(FD, F);
    break;
  case 2:
    if (HexMask == 1)
      rows<Shape<2, 1>>(FD, F);
    else
      rows<Shape<2>>(FD, F);
    break;
  case 3:
    rows<Shape<3>>(FD, F);
    break;
  default:
    rows<Shape<0>>(FD, F);
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
