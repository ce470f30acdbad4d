//===- BuildReportWriter.cpp - The build report, as text or JSON ----------===//
//
// Writes BuildReport: as text, the top rows of each of ClangBuildAnalyzer's
// sections with their share of the build's compile time; as JSON, every
// row, for CI dashboards (the shape is in docs/BuildProfiling.md). Times in
// the text are rounded to the millisecond; JSON gives them to the µs.
//
//===----------------------------------------------------------------------===//

#include "profkit/Analysis/BuildReport.h"
#include "profkit/Formats/Format.h"
#include "profkit/Support/Error.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace profkit;
using namespace llvm;

namespace {

/// µs as milliseconds with three decimals: exact, and never a float.
void writeMs(json::OStream &J, uint64_t Us) {
  J.rawValue([&](raw_ostream &OS) {
    OS << format("%llu.%03llu", (unsigned long long)(Us / 1000),
                 (unsigned long long)(Us % 1000));
  });
}

void writeRows(json::OStream &J, StringRef Key,
               ArrayRef<BuildReport::Entry> Rows, StringRef NameKey,
               bool WithCount, bool WithFile) {
  J.attributeArray(Key, [&] {
    for (const BuildReport::Entry &E : Rows)
      J.object([&] {
        J.attribute(NameKey, E.Name);
        J.attributeBegin("ms");
        writeMs(J, E.Us);
        J.attributeEnd();
        if (WithCount)
          J.attribute("count", int64_t(E.Count));
        if (WithFile)
          J.attribute("file", E.File);
      });
  });
}

void writeJson(const BuildReport &R, raw_ostream &OS) {
  json::OStream J(OS, 1);
  J.object([&] {
    J.attribute("compilations", int64_t(R.Compilations));
    J.attributeBegin("frontend_ms");
    writeMs(J, R.FrontendUs);
    J.attributeEnd();
    J.attributeBegin("backend_ms");
    writeMs(J, R.BackendUs);
    J.attributeEnd();
    writeRows(J, "files_frontend", R.FilesFrontend, "file", false, false);
    writeRows(J, "files_backend", R.FilesBackend, "file", false, false);
    writeRows(J, "templates", R.Templates, "name", true, false);
    writeRows(J, "template_sets", R.TemplateSets, "name", true, false);
    writeRows(J, "functions", R.Functions, "name", false, true);
    writeRows(J, "function_sets", R.FunctionSets, "name", true, false);
    J.attributeArray("headers", [&] {
      for (const BuildReport::Header &H : R.Headers)
        J.object([&] {
          J.attribute("file", H.File);
          J.attributeBegin("ms");
          writeMs(J, H.Us);
          J.attributeEnd();
          J.attribute("count", int64_t(H.Count));
          J.attribute("direct", H.Direct);
          J.attributeArray("included_via", [&] {
            for (const BuildReport::Chain &C : H.Chains)
              J.object([&] {
                J.attributeArray("chain", [&] {
                  for (const std::string &F : C.Files)
                    J.value(F);
                });
                J.attribute("count", int64_t(C.Count));
                J.attributeBegin("ms");
                writeMs(J, C.Us);
                J.attributeEnd();
              });
          });
        });
    });
    if (!R.Steps.empty()) {
      J.attributeBegin("steps_elapsed_ms");
      writeMs(J, R.StepsElapsedUs);
      J.attributeEnd();
      writeRows(J, "steps", R.Steps, "output", false, false);
    }
  });
  OS << '\n';
}

class TextWriter {
public:
  TextWriter(const BuildReport &R, raw_ostream &OS, unsigned Top,
             unsigned ChainsShown, unsigned MaxName)
      : R(R), OS(OS), Top(Top), ChainsShown(ChainsShown), MaxName(MaxName),
        Build(R.FrontendUs + R.BackendUs) {}
  void write();

private:
  static uint64_t roundMs(uint64_t Us) { return (Us + 500) / 1000; }
  /// `  1234 ms  12.3%  `: a row's time and its share of Whole (the
  /// compile time; for build steps, theirs).
  void time(uint64_t Us, uint64_t Whole) {
    OS << format("%8llu ms", (unsigned long long)roundMs(Us));
    if (Whole)
      OS << format(" %5.1f%%", 100.0 * double(Us) / double(Whole));
    OS << "  ";
  }
  void heading(StringRef Title, size_t Shown, size_t All) {
    OS << "\n**** " << Title;
    if (Shown < All)
      OS << " (top " << Shown << " of " << All << ")";
    OS << ":\n";
  }
  /// A name cut to MaxName characters (0: whole), as ClangBuildAnalyzer
  /// cuts template names.
  void name(StringRef Name) {
    if (MaxName && Name.size() > MaxName)
      OS << Name.take_front(MaxName > 3 ? MaxName - 3 : 0) << "...";
    else
      OS << Name;
  }
  void rows(StringRef Title, ArrayRef<BuildReport::Entry> Rows, bool Counts,
            bool Files, uint64_t Whole);
  void headers();

  const BuildReport &R;
  raw_ostream &OS;
  unsigned Top, ChainsShown, MaxName;
  uint64_t Build;
};

void TextWriter::rows(StringRef Title, ArrayRef<BuildReport::Entry> Rows,
                      bool Counts, bool Files, uint64_t Whole) {
  if (Rows.empty())
    return;
  size_t Shown = std::min<size_t>(Top, Rows.size());
  heading(Title, Shown, Rows.size());
  for (const BuildReport::Entry &E : Rows.take_front(Shown)) {
    time(E.Us, Whole);
    name(E.Name);
    if (Counts)
      OS << " (" << E.Count << " times, avg " << roundMs(E.Us / E.Count)
         << " ms)";
    if (Files)
      OS << " (" << E.File << ')';
    OS << '\n';
  }
}

void TextWriter::headers() {
  // As ClangBuildAnalyzer: the headers a source file includes itself; the
  // JSON has every header.
  std::vector<const BuildReport::Header *> Direct;
  for (const BuildReport::Header &H : R.Headers)
    if (H.Direct)
      Direct.push_back(&H);
  if (Direct.empty())
    return;
  size_t Shown = std::min<size_t>(Top, Direct.size());
  heading("Expensive headers", Shown, Direct.size());
  for (const BuildReport::Header *H : ArrayRef(Direct).take_front(Shown)) {
    time(H->Us, Build);
    OS << H->File << " (included " << H->Count << " times, avg "
       << roundMs(H->Us / H->Count) << " ms), included via:\n";
    size_t Chains = std::min<size_t>(ChainsShown, H->Chains.size());
    for (const BuildReport::Chain &C : ArrayRef(H->Chains).take_front(Chains)) {
      OS << format("%10llux: ", (unsigned long long)C.Count);
      if (C.Files.empty())
        OS << "<direct include>";
      ListSeparator Space(" ");
      for (const std::string &F : C.Files)
        OS << Space << sys::path::filename(F, sys::path::Style::posix);
      OS << '\n';
    }
    if (Chains < H->Chains.size())
      OS << "            ... " << H->Chains.size() - Chains << " more\n";
  }
}

void TextWriter::write() {
  OS << "**** Time summary:\n"
     << "Compilations: " << R.Compilations << '\n'
     << format("  Parsing (frontend):        %9.1f s\n",
               double(R.FrontendUs) / 1e6)
     << format("  Codegen & opts (backend):  %9.1f s\n",
               double(R.BackendUs) / 1e6);
  if (!R.Steps.empty())
    OS << format("  Build steps (.ninja_log):  %9zu, %.1f s elapsed\n",
                 R.Steps.size(), double(R.StepsElapsedUs) / 1e6);
  rows("Files that took longest to parse (compiler frontend)", R.FilesFrontend,
       false, false, Build);
  rows("Files that took longest to codegen (compiler backend)", R.FilesBackend,
       false, false, Build);
  rows("Templates that took longest to instantiate", R.Templates, true, false,
       Build);
  rows("Template sets that took longest to instantiate", R.TemplateSets, true,
       false, Build);
  rows("Functions that took longest to compile", R.Functions, false, true,
       Build);
  rows("Function sets that took longest to compile / optimize", R.FunctionSets,
       true, false, Build);
  headers();
  uint64_t StepsUs = 0;
  for (const BuildReport::Entry &E : R.Steps)
    StepsUs += E.Us;
  rows("Build steps that took longest (.ninja_log)", R.Steps, false, false,
       StepsUs);
}

} // namespace

Error profkit::writeBuildReport(const Profile &P, raw_ostream &OS,
                                const PassParams &Params,
                                const WriteContext &) {
  StringRef Format = Params.get("format");
  if (Format != "text" && Format != "json")
    return Params.invalid("format", "'" + Format +
                                        "' is not a report format (text or "
                                        "json)");
  unsigned Top, Chains, MaxName;
  for (auto [Name, Value] :
       {std::pair{"top", &Top}, {"chains", &Chains}, {"max-name", &MaxName}})
    if (Params.get(Name).getAsInteger(10, *Value))
      return Params.invalid(Name, "'" + Params.get(Name) + "' is not a number");
  Expected<BuildReport> R = BuildReport::compute(P);
  if (!R)
    return R.takeError();
  if (Format == "json")
    writeJson(*R, OS);
  else
    TextWriter(*R, OS, Top, Chains, MaxName).write();
  return Error::success();
}
