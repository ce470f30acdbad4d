//===- IRPrinter.cpp - Canonical text form of the profile IR --------------===//

#include "profkit/IR/IRPrinter.h"
#include "profkit/IR/Profile.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <map>

using namespace profkit;
using namespace llvm;

namespace {

class Printer {
public:
  Printer(const Profile &P, raw_ostream &OS) : P(P), OS(OS) {}
  void print();

private:
  struct PrintedRow {
    StringRef File;
    SmallVector<uint64_t, 3> Position;
    std::string Text;
    bool operator<(const PrintedRow &O) const {
      return std::tie(File, Position, Text) <
             std::tie(O.File, O.Position, O.Text);
    }
  };

  void printPart(const Part &Pt, unsigned Number);
  void printFunction(const Part &Pt, const FunctionData &FD);
  void printInlineSite(raw_ostream &S, InlineSiteId Site);
  void printValues(const FunctionValues &Values,
                   std::optional<uint64_t> LowestLine);
  std::optional<uint64_t> lowestOwnLine(const Part &Pt,
                                        const FunctionData &FD) const;
  void printFunctionRef(raw_ostream &S, FuncId F);
  void printPosition(raw_ostream &S, ArrayRef<PositionKind> Kinds,
                     ArrayRef<uint64_t> Values);
  void printCosts(raw_ostream &S, ArrayRef<uint64_t> Values);

  const Profile &P;
  raw_ostream &OS;
};

} // namespace

void Printer::printPosition(raw_ostream &S, ArrayRef<PositionKind> Kinds,
                            ArrayRef<uint64_t> Values) {
  for (size_t I = 0; I != Kinds.size(); ++I) {
    S << ' ';
    if (!isAddressKind(Kinds[I]))
      S << Values[I];
    else
      S << format_hex(Values[I], 0);
  }
}

void Printer::printCosts(raw_ostream &S, ArrayRef<uint64_t> Values) {
  for (size_t I = 0, E = P.events().size(); I != E; ++I)
    S << ' ' << (I < Values.size() ? Values[I] : 0);
}

void Printer::printFunctionRef(raw_ostream &S, FuncId F) {
  const Function &Fn = P.function(F);
  S << '"' << P.Strings.str(Fn.Name) << '"';
  if (Fn.Object)
    S << " ob=\"" << P.Strings.str(Fn.Object) << '"';
  if (Fn.File)
    S << " fl=\"" << P.Strings.str(Fn.File) << '"';
}

/// The rows of T with repeated keys summed (saturating; the reader reports
/// overflows).
static std::map<std::vector<uint64_t>, std::vector<uint64_t>>
mergedRows(const RowTable &T) {
  std::map<std::vector<uint64_t>, std::vector<uint64_t>> Rows;
  for (const Row &R : T) {
    std::vector<uint64_t> &Sum =
        Rows[std::vector<uint64_t>(R.Key.begin(), R.Key.end())];
    if (Sum.size() < R.Values.size())
      Sum.resize(R.Values.size());
    for (size_t I = 0; I != R.Values.size(); ++I)
      addCost(Sum[I], R.Values[I]);
  }
  return Rows;
}

/// The lowest line of FD's self rows in its own file, if any. A first line
/// that equals it says nothing the rows do not, so the text leaves it out and
/// stays independent of the order the rows were read in.
std::optional<uint64_t> Printer::lowestOwnLine(const Part &Pt,
                                               const FunctionData &FD) const {
  std::optional<unsigned> LineIdx = Pt.positionIndex(PositionKind::Line);
  if (!LineIdx)
    return std::nullopt;
  RowLayout L = Pt.layout();
  StrId Own = P.function(FD.Id).File;
  std::optional<uint64_t> Lowest;
  for (const Row &R : FD.Self)
    if (L.sourceFile(R) == Own)
      Lowest = std::min(Lowest.value_or(UINT64_MAX), L.position(R)[*LineIdx]);
  return Lowest;
}

/// The chain of call sites from the function's own code: ` 4 "foo" ...,
/// 2.1 "bar" ...` (line, discriminator if any, inlined function).
void Printer::printInlineSite(raw_ostream &S, InlineSiteId Site) {
  const InlineSite &IS = P.inlineSite(Site);
  if (IS.Parent) {
    printInlineSite(S, IS.Parent);
    S << ',';
  }
  S << ' ' << IS.Line;
  if (IS.Discriminator)
    S << '.' << IS.Discriminator;
  S << ' ';
  printFunctionRef(S, IS.Callee);
}

/// ` kind=value` for each value; a first line only when it is not
/// LowestLine, the one a reader of the rows would assume.
void Printer::printValues(const FunctionValues &Values,
                          std::optional<uint64_t> LowestLine) {
  for (unsigned I = 0; I != NumFunctionValueKinds; ++I) {
    auto K = FunctionValueKind(I);
    std::optional<uint64_t> V = Values.get(K);
    if (V && (K != FunctionValueKind::FirstLine || *V != LowestLine))
      OS << ' ' << functionValueKindName(K) << '=' << *V;
  }
}

void Printer::printFunction(const Part &Pt, const FunctionData &FD) {
  OS << "  function ";
  printFunctionRef(OS, FD.Id);
  printValues(FD.values(), lowestOwnLine(Pt, FD));
  OS << '\n';
  for (const auto &[Site, Values] : FD.inlineValues()) {
    OS << "    values inlined at";
    printInlineSite(OS, Site);
    OS << " :";
    printValues(Values, std::nullopt);
    OS << '\n';
  }

  RowLayout L = Pt.layout();
  ArrayRef<PositionKind> Kinds = Pt.positions();
  std::vector<PrintedRow> Rows;
  // Starts the text of a row; the caller appends the rest.
  auto Begin = [&](StringRef Kind, const Row &R) -> std::string & {
    Rows.emplace_back();
    PrintedRow &PR = Rows.back();
    PR.File = P.Strings.str(L.sourceFile(R));
    PR.Position.assign(L.position(R).begin(), L.position(R).end());
    raw_string_ostream S(PR.Text);
    S << "    " << Kind << " \"" << PR.File << '"';
    printPosition(S, Kinds, L.position(R));
    if (InlineSiteId Site = L.inlineSite(R)) {
      S << " inlined at";
      printInlineSite(S, Site);
    }
    return PR.Text;
  };

  for (const auto &[Key, Values] : mergedRows(FD.Self)) {
    Row R{Key, Values};
    raw_string_ostream S(Begin("self", R));
    S << " :";
    printCosts(S, R.Values);
  }
  for (const auto &[Key, Values] : mergedRows(FD.calls())) {
    Row R{Key, Values};
    raw_string_ostream S(Begin("call", R));
    S << " -> ";
    printFunctionRef(S, L.callee(R));
    S << " target";
    printPosition(S, Kinds, L.callTarget(R));
    S << " : calls=" << R.value(0) << " inclusive";
    printCosts(S, R.Values.drop_front(std::min<size_t>(1, R.Values.size())));
  }
  for (const auto &[Key, Values] : mergedRows(FD.jumps())) {
    Row R{Key, Values};
    bool Cond = L.jumpKind(R) == JumpKind::Conditional;
    raw_string_ostream S(Begin(Cond ? "jcnd" : "jump", R));
    S << " -> ";
    printFunctionRef(S, L.jumpTargetFunction(R));
    S << " in \"" << P.Strings.str(L.jumpTargetFile(R)) << "\" target";
    printPosition(S, Kinds, L.jumpTarget(R));
    if (Cond)
      S << " : followed=" << R.value(0) << " executed=" << R.value(1);
    else
      S << " : count=" << R.value(0);
  }
  llvm::sort(Rows);
  for (const PrintedRow &PR : Rows)
    OS << PR.Text << '\n';
}

void Printer::printPart(const Part &Pt, unsigned Number) {
  OS << "\npart " << Number << '\n';
  // The text of lines the IR holds in fields is a format's own copy, to
  // write them back as they were; the fields below print what they say.
  for (const HeaderLine &H : Pt.Header)
    if (!isFieldHeader(H.Key))
      OS << "  header " << H.Key << ": " << H.Value << '\n';
  OS << "  positions:";
  for (PositionKind K : Pt.positions())
    OS << ' ' << positionKindName(K);
  OS << '\n';
  if (Pt.Summary) {
    OS << "  summary:";
    printCosts(OS, *Pt.Summary);
    OS << '\n';
  }
  bool Overflow = false;
  std::vector<uint64_t> Sum = Pt.computeTotals(P.events().size(), Overflow);
  OS << "  totals:";
  printCosts(OS, Sum);
  OS << (Overflow ? " (overflowed)\n" : "\n");
  // Totals the file stated are shown only where they are not the sum, so a
  // file without `totals:` and one with the right `totals:` print the same.
  if (Pt.Totals) {
    std::vector<uint64_t> Given(Pt.Totals->begin(), Pt.Totals->end());
    Given.resize(Sum.size());
    if (Given != Sum) {
      OS << "  stated totals:";
      printCosts(OS, Given);
      OS << '\n';
    }
  }

  if (Pt.addresses().AddressSize)
    OS << "  addresses: " << Pt.addresses().AddressSize * 8 << "-bit "
       << (Pt.addresses().BigEndian ? "big" : "little") << "-endian\n";
  for (const Histogram &H : Pt.addresses().Histograms) {
    OS << "  histogram " << format_hex(H.LowPC, 0) << '-'
       << format_hex(H.HighPC, 0) << " rate=" << H.Rate << " dimension=\""
       << H.Dimension << "\" abbrev=" << H.Abbrev << " bins=" << H.Bins.size()
       << '\n';
    for (size_t I = 0; I != H.Bins.size(); ++I)
      if (H.Bins[I])
        OS << "    bin " << I << ": " << H.Bins[I] << '\n';
  }
  for (const AddressArc &A : Pt.addresses().Arcs)
    OS << "  arc " << format_hex(A.FromPC, 0) << " -> "
       << format_hex(A.SelfPC, 0) << " : count=" << A.Count << '\n';
  for (const BlockCount &B : Pt.addresses().Blocks)
    OS << "  block " << format_hex(B.Address, 0) << " : count=" << B.Count
       << '\n';

  std::vector<std::pair<std::string, const Interval *>> Intervals;
  for (const Interval &I : Pt.intervals()) {
    std::string Ref;
    raw_string_ostream S(Ref);
    printFunctionRef(S, I.Function);
    Intervals.push_back({std::move(Ref), &I});
  }
  llvm::sort(Intervals, [](const auto &A, const auto &B) {
    return std::tie(A.second->Start, A.second->Thread, A.first,
                    A.second->Duration) < std::tie(B.second->Start,
                                                   B.second->Thread, B.first,
                                                   B.second->Duration);
  });
  for (const auto &[Ref, I] : Intervals)
    OS << "  interval " << Ref << " thread=" << I->Thread
       << " start=" << I->Start << " duration=" << I->Duration << '\n';

  std::vector<const FunctionData *> Fns;
  for (const FunctionData &FD : Pt.functions())
    Fns.push_back(&FD);
  auto Key = [&](const FunctionData *FD) {
    const Function &F = P.function(FD->Id);
    return std::make_tuple(P.Strings.str(F.Name), P.Strings.str(F.File),
                           P.Strings.str(F.Object));
  };
  llvm::sort(Fns, [&](const FunctionData *A, const FunctionData *B) {
    return Key(A) < Key(B);
  });
  for (const FunctionData *FD : Fns)
    printFunction(Pt, *FD);
}

void Printer::print() {
  OS << "; profkit IR\nevents:";
  for (const EventType &E : P.events())
    OS << ' ' << E.Name;
  OS << '\n';
  printEventLines(P, OS);
  unsigned N = 0;
  for (const auto &Pt : P.parts())
    printPart(*Pt, ++N);
}

void profkit::printEventLines(const Profile &P, raw_ostream &OS) {
  for (const EventType &E : P.events())
    if (!E.LongName.empty())
      OS << "event: " << E.Name << " : " << E.LongName << '\n';
  for (const EventDecl &D : P.EventDecls) {
    OS << "event: " << D.Name;
    if (!D.Formula.empty())
      OS << " = " << D.Formula;
    if (!D.LongName.empty())
      OS << " : " << D.LongName;
    OS << '\n';
  }
}

void profkit::printIR(const Profile &P, raw_ostream &OS) {
  Printer(P, OS).print();
}
