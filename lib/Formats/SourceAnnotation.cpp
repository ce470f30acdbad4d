//===- SourceAnnotation.cpp - Source files with their cost ----------------===//
//
// The costliest files of the run, each line with its self cost: the lines
// with cost and `context=` lines around them, runs of other lines elided
// behind a `-- line N ---` separator, as callgrind_annotate --auto=yes
// shows them. A file is read once, a line at a time, and let go before the
// next: sources are never all held.
//
//===----------------------------------------------------------------------===//

#include "profkit/Formats/SourceAnnotation.h"
#include "profkit/Analysis/SourceLines.h"
#include "profkit/IR/Params.h"
#include "profkit/Support/Saturating.h"
#include "profkit/Support/TextFormat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LineIterator.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>

using namespace profkit;
using namespace llvm;

Error profkit::parseSourceOptions(const PassParams &Params, SourceOptions &O) {
  O.Enabled = Params.getFlag("source");
  O.Dirs.clear();
  O.Prefixes.clear();
  SmallVector<StringRef, 4> Items;
  Params.get("source-dir").split(Items, ':', -1, /*KeepEmpty=*/false);
  for (StringRef D : Items)
    O.Dirs.push_back(D.str());
  Items.clear();
  Params.get("source-prefix").split(Items, ',', -1, /*KeepEmpty=*/false);
  for (StringRef Item : Items) {
    auto [Old, New] = Item.split('=');
    if (!Item.contains('=') || Old.empty())
      return Params.invalid("source-prefix",
                            "'" + Item +
                                "' is not OLD=NEW (a path prefix in the "
                                "profile and where its files are now)");
    // A trailing separator would stop the prefix matching the path itself.
    if (Old.size() > 1)
      Old = Old.rtrim('/');
    O.Prefixes.emplace_back(Old.str(), New.str());
  }
  if (Error E = Params.getCount("context", O.Context, "lines"))
    return E;
  if (Error E = Params.getCount("source-files", O.MaxFiles, "files"))
    return E;
  if (Error E = Params.getPercent("hot", O.HotShare))
    return E;
  return Error::success();
}

std::vector<std::string> profkit::sourceCandidates(StringRef Name,
                                                   const SourceOptions &O) {
  std::vector<std::string> Out;
  for (const auto &[Old, New] : O.Prefixes)
    if (Name.starts_with(Old) && (Name.size() == Old.size() ||
                                  Old.back() == '/' || Name[Old.size()] == '/'))
      Out.push_back(New + Name.drop_front(Old.size()).str());
  Out.push_back(Name.str());
  // The path's components without "." ones; a trailing part that climbs
  // out (`../x.h`) is no place to look.
  SmallString<256> Clean(Name);
  sys::path::remove_dots(Clean, /*remove_dot_dot=*/false);
  SmallVector<StringRef, 16> Parts;
  for (auto I = sys::path::begin(Clean), E = sys::path::end(Clean); I != E; ++I)
    if (!sys::path::is_separator((*I)[0]) && !I->ends_with(":"))
      Parts.push_back(*I);
  for (const std::string &Dir : O.Dirs) {
    if (sys::path::is_relative(Name)) {
      SmallString<256> P(Dir);
      sys::path::append(P, Name);
      Out.push_back(std::string(P));
    }
    for (size_t I = sys::path::is_relative(Name) ? 1 : 0; I < Parts.size();
         ++I) {
      if (Parts[I] == "..")
        continue;
      SmallString<256> P(Dir);
      for (StringRef C : ArrayRef(Parts).drop_front(I))
        sys::path::append(P, C);
      Out.push_back(std::string(P));
    }
  }
  return Out;
}

namespace {

double share(uint64_t Part, uint64_t Whole) {
  return Whole ? 100.0 * double(Part) / double(Whole) : 0.0;
}

bool isUnknownFile(StringRef Name) { return Name.empty() || Name == "???"; }

class Annotator {
public:
  Annotator(raw_ostream &OS, const Profile &P, const SourceLines &S,
            const SourceOptions &O, ArrayRef<uint64_t> RunTotal)
      : OS(OS), P(P), S(S), O(O), RunTotal(RunTotal),
        Annotated(S.numEvents(), 0) {}
  void write();

private:
  using File = SourceLines::File;
  void writeFile(const File &F, StringRef Found,
                 std::unique_ptr<MemoryBuffer> Text);
  void writeRow(size_t Entry, ArrayRef<size_t> Widths, size_t LineWidth,
                StringRef Text);
  void writeBlankRow(ArrayRef<size_t> Widths, size_t LineWidth, uint64_t Line,
                     StringRef Text);
  std::string costs(ArrayRef<uint64_t> C) const;
  void addAnnotated(size_t Entry) {
    for (size_t E = 0; E != Annotated.size(); ++E)
      (void)addCost(Annotated[E], S.costs(Entry)[E]);
  }

  raw_ostream &OS;
  const Profile &P;
  const SourceLines &S;
  const SourceOptions &O;
  ArrayRef<uint64_t> RunTotal;
  std::vector<uint64_t> Annotated; // The cost on the lines shown.
  uint64_t Hot = 0;                // The cost that makes a line hot.
};

} // namespace

std::string Annotator::costs(ArrayRef<uint64_t> C) const {
  const std::string &Event = P.events()[O.Event].Name;
  std::string S;
  raw_string_ostream(S) << groupThousands(C[O.Event]) << ' ' << Event
                        << format(" (%.2f%%)",
                                  share(C[O.Event], RunTotal[O.Event]));
  return S;
}

void Annotator::writeRow(size_t Entry, ArrayRef<size_t> Widths,
                         size_t LineWidth, StringRef Text) {
  ArrayRef<uint64_t> C = S.costs(Entry);
  for (size_t E = 0; E != C.size(); ++E)
    OS << right_justify(groupThousands(C[E]), Widths[E]) << ' ';
  uint64_t Mine = C[O.Event];
  if (Mine)
    OS << format("%6.2f%%", share(Mine, RunTotal[O.Event]));
  else
    OS.indent(7);
  OS << (Mine && Mine >= Hot ? " * " : "   ");
  OS << right_justify(utostr(S.line(Entry)), LineWidth) << "  " << Text << '\n';
}

void Annotator::writeBlankRow(ArrayRef<size_t> Widths, size_t LineWidth,
                              uint64_t Line, StringRef Text) {
  for (size_t W : Widths)
    OS << right_justify(".", W) << ' ';
  OS.indent(10) << right_justify(utostr(Line), LineWidth) << "  " << Text
                << '\n';
}

void Annotator::writeFile(const File &F, StringRef Found,
                          std::unique_ptr<MemoryBuffer> Text) {
  StringRef Name = P.Strings.str(F.Name);
  OS << "\n-- " << Name << ": " << costs(F.Total) << '\n';
  if (Found != Name)
    OS << "   read from " << Found << '\n';
  // A source newer than the profile may not be the one that ran.
  sys::fs::file_status SrcStat, ProfStat;
  if (!sys::fs::status(Found, SrcStat) &&
      !sys::fs::status(P.SourceName, ProfStat) &&
      SrcStat.getLastModificationTime() > ProfStat.getLastModificationTime())
    OS << "warning: " << Found
       << " is newer than the profile: the lines may have moved since\n";

  // Entries [Begin, End) of the file; line 0 (no line) first if present.
  size_t Begin = F.Begin, End = F.End, NoLine = End;
  if (Begin != End && S.line(Begin) == 0)
    NoLine = Begin++;
  std::vector<size_t> Widths;
  for (size_t E = 0; E != S.numEvents(); ++E) {
    size_t W = P.events()[E].Name.size();
    for (size_t I = F.Begin; I != F.End; ++I)
      W = std::max(W, groupThousands(S.costs(I)[E]).size());
    Widths.push_back(W);
  }
  size_t LineWidth =
      std::max<size_t>(4, Begin != End ? utostr(S.line(End - 1)).size() : 1);
  for (size_t E = 0; E != S.numEvents(); ++E)
    OS << right_justify(P.events()[E].Name, Widths[E]) << ' ';
  OS << "      %   " << right_justify("line", LineWidth) << "  source\n";

  // Stream the file: print the lines within Context of a line with cost,
  // and stop reading after the last of them.
  uint64_t C = O.Context, Printed = 0;
  size_t Next = Begin; // The first entry not yet printed.
  for (line_iterator It(*Text, /*SkipBlanks=*/false); !It.is_at_eof(); ++It) {
    uint64_t N = It.line_number();
    bool Near = (Next != End && S.line(Next) <= N + C) ||
                (Next != Begin && N <= S.line(Next - 1) + C);
    if (!Near) {
      if (Next == End)
        break;
      continue;
    }
    if (N != Printed + 1)
      OS << "-- line " << N << ' ' << std::string(40, '-') << '\n';
    if (Next != End && N == S.line(Next)) {
      writeRow(Next, Widths, LineWidth, *It);
      addAnnotated(Next++);
    } else {
      writeBlankRow(Widths, LineWidth, N, *It);
    }
    Printed = N;
  }
  if (Next != End) {
    // Costs past the end: the file is not the one profiled.
    size_t Past = End - Next;
    OS << "-- past the end of the file " << std::string(40, '-') << '\n';
    for (; Next != End; ++Next) {
      writeRow(Next, Widths, LineWidth, "<past the end of the file>");
      addAnnotated(Next);
    }
    OS << "warning: " << Past << " line" << (Past == 1 ? "" : "s")
       << " with cost past the end of " << Found
       << ": it is not the source that was profiled (changed since, or "
          "another file of that name)\n";
  }
  if (NoLine != F.End)
    OS << "   " << costs(S.costs(NoLine))
       << " on code of this file with no line in the debug info\n";
}

void Annotator::write() {
  const std::string &Event = P.events()[O.Event].Name;
  OS << "\nAnnotated source";
  if (!S.hasLines()) {
    OS << "\n\nnote: the profile has no source lines"
       << (S.partsWithoutLines() ? " (its positions are not lines)"
                                 : " (every line is 0)")
       << ": nothing to annotate\n";
    return;
  }
  Hot = uint64_t(std::ceil(O.HotShare / 100 * double(RunTotal[O.Event])));
  Hot = std::max<uint64_t>(Hot, 1);

  // The known files with cost, costliest first.
  std::vector<const File *> Files;
  std::vector<uint64_t> Unknown(S.numEvents(), 0);
  for (const File &F : S.files()) {
    if (isUnknownFile(P.Strings.str(F.Name))) {
      for (size_t E = 0; E != Unknown.size(); ++E)
        Unknown[E] += F.Total[E];
      continue;
    }
    if (llvm::any_of(F.Total, [](uint64_t C) { return C != 0; }))
      Files.push_back(&F);
  }
  llvm::stable_sort(Files, [&](const File *A, const File *B) {
    return A->Total[O.Event] > B->Total[O.Event];
  });
  size_t Shown = std::min<size_t>(O.MaxFiles, Files.size());
  OS << ": the " << Shown << " of " << Files.size()
     << " files with the most self " << Event;
  if (Shown != Files.size()) {
    uint64_t Rest = 0;
    for (const File *F : ArrayRef(Files).drop_front(Shown))
      Rest += F->Total[O.Event];
    OS << " (" << Files.size() - Shown << " left out, with "
       << groupThousands(Rest) << ' ' << Event
       << format(", %.2f%%", share(Rest, RunTotal[O.Event]))
       << "; source-files=N shows more)";
  }
  OS << "\n  each line's self cost, its share of the run's " << Event
     << ", * for a line with at least " << format("%.2f", O.HotShare)
     << "% of it\n";
  if (S.partsWithoutLines())
    OS << "note: " << S.partsWithoutLines()
       << " parts of the profile have no line positions: their cost is not "
          "shown here\n";
  if (Unknown[O.Event])
    OS << "note: " << costs(Unknown) << " is in code of no known file\n";

  std::vector<std::pair<const File *, std::string>> Missing;
  for (const File *F : ArrayRef(Files).take_front(Shown)) {
    StringRef Name = P.Strings.str(F->Name);
    std::string Why = "not found";
    bool Done = false;
    for (const std::string &Path : sourceCandidates(Name, O)) {
      if (!sys::fs::is_regular_file(Path))
        continue;
      ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
          MemoryBuffer::getFile(Path, /*IsText=*/true);
      if (!Buf) {
        Why = Path + ": " + Buf.getError().message();
        break;
      }
      writeFile(*F, Path, std::move(*Buf));
      Done = true;
      break;
    }
    if (!Done)
      Missing.emplace_back(F, Why);
  }

  if (!Missing.empty()) {
    uint64_t Cost = 0;
    for (const auto &M : Missing)
      Cost += M.first->Total[O.Event];
    OS << "\nNot found: " << Missing.size() << " file"
       << (Missing.size() == 1 ? "" : "s") << " with " << groupThousands(Cost)
       << ' ' << Event << format(" (%.2f%%)", share(Cost, RunTotal[O.Event]))
       << "\n  looked for ";
    ListSeparator LS("; ");
    for (const auto &[Old, New] : O.Prefixes)
      OS << LS << "with " << Old << " replaced by " << New;
    OS << LS << "as named (relative paths from the current directory)";
    for (const std::string &D : O.Dirs)
      OS << LS << "in " << D << " (with the path and its trailing parts)";
    OS << '\n';
    for (const auto &[F, Why] : Missing) {
      OS << right_justify(groupThousands(F->Total[O.Event]), 16)
         << format(" %6.2f%%  ", share(F->Total[O.Event], RunTotal[O.Event]))
         << P.Strings.str(F->Name);
      if (Why != "not found")
        OS << "  (" << Why << ')';
      OS << '\n';
    }
  }
  OS << "\nThe lines shown hold " << costs(Annotated) << '\n';
}

void profkit::writeAnnotatedSource(raw_ostream &OS, const Profile &P,
                                   const SourceLines &S, const SourceOptions &O,
                                   ArrayRef<uint64_t> RunTotal) {
  Annotator(OS, P, S, O, RunTotal).write();
}

void profkit::writeSourceLinesJson(json::OStream &J, const Profile &P,
                                   const SourceLines &S) {
  J.attributeArray("lines", [&] {
    for (const SourceLines::File &F : S.files())
      for (size_t I = F.Begin; I != F.End; ++I)
        J.object([&] {
          J.attribute("file", P.Strings.str(F.Name));
          J.attribute("line",
                      int64_t(std::min<uint64_t>(S.line(I), INT64_MAX)));
          J.attributeArray("self", [&] {
            for (uint64_t C : S.costs(I))
              J.value(int64_t(std::min<uint64_t>(C, INT64_MAX)));
          });
        });
  });
}
