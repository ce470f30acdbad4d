//===- CallgrindWriter.cpp - Writing the callgrind format
//------------------===//
//
// Writes what valgrind's callgrind writes, in a form callgrind_annotate and
// KCachegrind read: `event:` lines before `events:` (callgrind_annotate ends
// the header at `events:`), name compression in callgrind's three shared id
// tables, subposition compression relative to the last cost line only, jcnd=
// in valgrind's followed/executed form, and `totals:` at the end of each part.
//
//===----------------------------------------------------------------------===//

#include "profkit/Formats/Format.h"
#include "profkit/IR/IRPrinter.h"
#include "profkit/IR/Profile.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace profkit;
using namespace llvm;

namespace {

class CallgrindWriter {
public:
  CallgrindWriter(const Profile &P, raw_ostream &OS, const WriteOptions &Opts)
      : P(P), OS(OS), Opts(Opts) {}
  void write();

private:
  void writePart(const Part &Pt);
  void writeFunction(const Part &Pt, const FunctionData &FD);
  void writeName(StringRef Key, StrId Name, DenseMap<StrId, unsigned> &Ids);
  void writeNumber(uint64_t V, bool Hex);
  char *startLine(size_t Words);
  void endLine(char *End);
  char *formatPosition(char *Out, ArrayRef<uint64_t> Pos, bool Update);
  void writePosition(ArrayRef<uint64_t> Pos, bool Update);
  char *formatCosts(char *Out, ArrayRef<uint64_t> Values);
  void switchSourceFile(StrId File, StrId FunctionFile);

  const Profile &P;
  raw_ostream &OS;
  const WriteOptions &Opts;

  // Per part.
  ArrayRef<PositionKind> Kinds;
  DenseMap<StrId, unsigned> ObjectIds, FileIds, FunctionIds;
  SmallVector<uint64_t, 3> LastPos;
  SmallVector<char, 256> Line; // A line being formatted.
  StrId CurObject = 0, CurFile = 0, CurSource = 0;
};

} // namespace

/// Formats V at Out (at most 20 characters, 18 in hex with its 0x) and
/// returns the end. Digits go straight to Out, back to front.
static char *formatNumber(char *Out, uint64_t V, bool Hex) {
  if (Hex) {
    *Out++ = '0';
    *Out++ = 'x';
    unsigned Len = 1;
    while (Len < 16 && V >> (4 * Len))
      ++Len;
    char *End = Out + Len;
    do {
      *--End = "0123456789abcdef"[V & 15];
      V >>= 4;
    } while (V);
    return Out + Len;
  }
  unsigned Len = 1;
  for (uint64_t Limit = 10; Len < 20 && V >= Limit; Limit *= 10)
    ++Len;
  // Two digits at a time: most costs have several.
  static const char Pairs[] = "00010203040506070809101112131415161718192021"
                              "22232425262728293031323334353637383940414243"
                              "44454647484950515253545556575859606162636465"
                              "66676869707172737475767778798081828384858687"
                              "888990919293949596979899";
  char *End = Out + Len;
  while (V >= 100) {
    unsigned R = unsigned(V % 100) * 2;
    V /= 100;
    *--End = Pairs[R + 1];
    *--End = Pairs[R];
  }
  if (V >= 10) {
    *--End = Pairs[V * 2 + 1];
    *--End = Pairs[V * 2];
  } else {
    *--End = char('0' + V);
  }
  return Out + Len;
}

void CallgrindWriter::writeNumber(uint64_t V, bool Hex) {
  char Buf[24];
  OS.write(Buf, formatNumber(Buf, V, Hex) - Buf);
}

/// Room for a line of this many numbers (each with a sign or separator)
/// and a few more characters.
char *CallgrindWriter::startLine(size_t Words) {
  Line.resize_for_overwrite(24 * (Words + 2));
  return Line.data();
}

void CallgrindWriter::endLine(char *End) {
  *End++ = '\n';
  OS.write(Line.data(), End - Line.data());
}

void CallgrindWriter::writeName(StringRef Key, StrId Name,
                                DenseMap<StrId, unsigned> &Ids) {
  OS << Key << '=';
  StringRef S = P.Strings.str(Name);
  // An empty name has no compressed form: `(1)` would be a reference.
  // A name that itself starts with `(` and a digit reads back as an id, so
  // it is written compressed (`(1) (2) name`) even without CompressNames.
  bool LooksLikeId = S.size() >= 2 && S[0] == '(' && isDigit(S[1]);
  if ((!Opts.CompressNames && !LooksLikeId) || S.empty()) {
    OS << S << '\n';
    return;
  }
  auto [It, Inserted] = Ids.try_emplace(Name, unsigned(Ids.size() + 1));
  OS << '(';
  writeNumber(It->second, false);
  OS << ')';
  if (Inserted)
    OS << ' ' << S;
  OS << '\n';
}

char *CallgrindWriter::formatPosition(char *Out, ArrayRef<uint64_t> Pos,
                                      bool Update) {
  for (size_t I = 0; I != Pos.size(); ++I) {
    if (I)
      *Out++ = ' ';
    uint64_t V = Pos[I], Last = LastPos[I];
    bool Hex = Kinds[I] != PositionKind::Line;
    if (Update)
      LastPos[I] = V;
    if (Opts.CompressPositions && Last) {
      uint64_t Diff = V >= Last ? V - Last : Last - V;
      if (!Diff) {
        *Out++ = '*';
        continue;
      }
      // Relative when it is no longer than the absolute form.
      if (Diff < (Hex ? 1u << 12 : 1000u)) {
        *Out++ = V >= Last ? '+' : '-';
        Out = formatNumber(Out, Diff, false);
        continue;
      }
    }
    Out = formatNumber(Out, V, Hex);
  }
  return Out;
}

/// Writes a position on a line of its own.
void CallgrindWriter::writePosition(ArrayRef<uint64_t> Pos, bool Update) {
  endLine(formatPosition(startLine(Pos.size()), Pos, Update));
}

char *CallgrindWriter::formatCosts(char *Out, ArrayRef<uint64_t> Values) {
  size_t N = Values.size();
  while (N && !Values[N - 1])
    --N;
  for (size_t I = 0; I != N; ++I) {
    *Out++ = ' ';
    Out = formatNumber(Out, Values[I], false);
  }
  return Out;
}

void CallgrindWriter::switchSourceFile(StrId File, StrId FunctionFile) {
  if (File == CurSource)
    return;
  writeName(File == FunctionFile ? "fe" : "fi", File, FileIds);
  CurSource = File;
}

void CallgrindWriter::writeFunction(const Part &Pt, const FunctionData &FD) {
  const Function &F = P.function(FD.Id);
  if (F.Object != CurObject) {
    writeName("ob", F.Object, ObjectIds);
    CurObject = F.Object;
  }
  if (F.File != CurFile) {
    writeName("fl", F.File, FileIds);
    CurFile = CurSource = F.File;
  }
  writeName("fn", F.Name, FunctionIds);
  // Readers differ on whether relative positions carry across fn= lines;
  // start every function from absolute positions.
  std::fill(LastPos.begin(), LastPos.end(), 0);

  RowLayout L = Pt.layout();
  unsigned PosWords = 1 + L.P; // Position and source file lead every key.
  RowTable::iterator S = FD.Self.begin(), SE = FD.Self.end();
  RowTable::iterator C = FD.Calls.begin(), CE = FD.Calls.end();
  RowTable::iterator J = FD.Jumps.begin(), JE = FD.Jumps.end();
  auto Before = [&](const Row &A, const Row &B) {
    return std::lexicographical_compare(A.Key.begin(), A.Key.begin() + PosWords,
                                        B.Key.begin(),
                                        B.Key.begin() + PosWords);
  };
  // Merge the three sorted tables in source-file-and-position order, self
  // cost first at a position, as callgrind writes them.
  for (;;) {
    const Row *Next = nullptr;
    int Which = -1;
    if (S != SE)
      Next = &*S, Which = 0;
    if (C != CE && (!Next || Before(*C, *Next)))
      Next = &*C, Which = 1;
    if (J != JE && (!Next || Before(*J, *Next)))
      Next = &*J, Which = 2;
    if (!Next)
      break;
    const Row &R = *Next;
    switchSourceFile(L.sourceFile(R), F.File);
    if (Which == 0) {
      char *Out = startLine(L.P + R.Values.size());
      Out = formatPosition(Out, L.position(R), true);
      endLine(formatCosts(Out, R.Values));
      ++S;
    } else if (Which == 1) {
      const Function &Callee = P.function(L.callee(R));
      if (Callee.Object != F.Object)
        writeName("cob", Callee.Object, ObjectIds);
      if (Callee.File != CurSource)
        writeName("cfi", Callee.File, FileIds);
      writeName("cfn", Callee.Name, FunctionIds);
      OS << "calls=";
      writeNumber(R.value(0), false);
      OS << ' ';
      writePosition(L.callTarget(R), false);
      char *Out = startLine(L.P + R.Values.size());
      Out = formatPosition(Out, L.position(R), true);
      endLine(formatCosts(
          Out, R.Values.drop_front(std::min<size_t>(1, R.Values.size()))));
      ++C;
    } else {
      StrId TargetFile = L.jumpTargetFile(R);
      FuncId Target = L.jumpTargetFunction(R);
      if (TargetFile != CurSource)
        writeName("jfi", TargetFile, FileIds);
      if (Target != FD.Id)
        writeName("jfn", P.function(Target).Name, FunctionIds);
      if (L.jumpKind(R) == JumpKind::Conditional) {
        OS << "jcnd=";
        writeNumber(R.value(0), false);
        OS << '/';
        writeNumber(R.value(1), false);
      } else {
        OS << "jump=";
        writeNumber(R.value(0), false);
      }
      OS << ' ';
      writePosition(L.jumpTarget(R), false);
      writePosition(L.position(R), true);
      ++J;
    }
  }
  // callgrind_annotate keeps the fi= file across the next fn= line; close
  // inlined code as callgrind does.
  switchSourceFile(F.File, F.File);
}

void CallgrindWriter::writePart(const Part &Pt) {
  // After the first part, the first line must be one that starts a part in
  // the reader, which gives other header lines to the part before: fuzzing
  // (roundtrip) found a part whose header began `summa:`. `positions:` then
  // leads.
  bool PositionsFirst =
      &Pt != P.parts().front().get() && !Pt.Header.empty() &&
      !is_contained({"version", "creator", "cmd", "pid", "thread", "part"},
                    Pt.Header.front().Key);
  Kinds = Pt.positions();
  auto WritePositions = [&] {
    OS << "positions:";
    for (PositionKind K : Kinds)
      OS << ' ' << positionKindName(K);
    OS << '\n';
  };
  if (PositionsFirst)
    WritePositions();
  for (const HeaderLine &H : Pt.Header)
    OS << H.Key << ": " << H.Value << '\n';
  if (!PositionsFirst)
    WritePositions();
  printEventLines(P, OS);
  OS << "events:";
  for (const EventType &E : P.events())
    OS << ' ' << E.Name;
  OS << '\n';
  auto WriteAll = [&](StringRef Key, ArrayRef<uint64_t> V) {
    OS << Key << ':';
    for (size_t I = 0, E = P.events().size(); I != E; ++I) {
      OS << ' ';
      writeNumber(I < V.size() ? V[I] : 0, false);
    }
    OS << '\n';
  };
  if (Pt.Summary)
    WriteAll("summary", *Pt.Summary);
  OS << '\n';

  ObjectIds.clear();
  FileIds.clear();
  FunctionIds.clear();
  CurObject = CurFile = CurSource = 0;
  LastPos.assign(Kinds.size(), 0);

  // Blocks in the part's order: the order the input had them in (callgrind
  // groups them by object and file), which callgrind_annotate's
  // last-one-wins bookkeeping of objects depends on.
  for (const FunctionData &FD : Pt.functions())
    writeFunction(Pt, FD);

  if (Pt.Totals) {
    WriteAll("\ntotals", *Pt.Totals);
  } else {
    bool Overflow = false;
    std::vector<uint64_t> Sum = Pt.computeTotals(P.events().size(), Overflow);
    if (Overflow)
      Opts.Warn("the totals of a part overflow 64 bits; written saturated");
    WriteAll("\ntotals", Sum);
  }
}

void CallgrindWriter::write() {
  OS << "# callgrind format\n";
  bool First = true;
  for (const auto &Pt : P.parts()) {
    if (!First)
      OS << '\n';
    First = false;
    writePart(*Pt);
  }
}

Error profkit::writeCallgrind(const Profile &P, raw_ostream &OS,
                              const WriteOptions &Opts) {
  // Fuzzing (roundtrip) found a gmon.out of a header only, read as a profile
  // of no events: its `events:` line would be empty, which no reader takes.
  if (P.events().empty())
    return createStringError(inconvertibleErrorCode(),
                             "the profile has no events; the callgrind format "
                             "needs at least one");
  CallgrindWriter(P, OS, Opts).write();
  return Error::success();
}
