//===- profkit-diff.cpp - Compare two profiles ----------------------------===//
//
// profkit-diff BASE NEW: what changed between two profiles of any formats
// profkit reads, function by function: the change of self and inclusive
// cost of each event, largest first, with the totals, and the functions
// that appeared or disappeared. As text, JSON or CSV.
//
//===----------------------------------------------------------------------===//

#include "profkit/Analysis/ProfileDiff.h"
#include "profkit/Formats/Format.h"
#include "profkit/Support/Memory.h"
#include "profkit/Support/OutputFile.h"
#include "profkit/Support/TextFormat.h"
#include "profkit/Support/Threads.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <future>

using namespace profkit;
using namespace llvm;

static cl::OptionCategory Category("profkit-diff options");
static cl::opt<std::string> BasePath(cl::Positional, cl::Required,
                                     cl::desc("<base profile>"),
                                     cl::cat(Category));
static cl::opt<std::string> NewPath(cl::Positional, cl::Required,
                                    cl::desc("<new profile>"),
                                    cl::cat(Category));
static cl::opt<std::string> OutputPath("o",
                                       cl::desc("Output file ('-' for stdout)"),
                                       cl::value_desc("file"), cl::init("-"),
                                       cl::cat(Category));
enum class Form { Text, Json, Csv };
static cl::opt<Form> Format(
    "format", cl::desc("What to write"), cl::init(Form::Text),
    cl::values(clEnumValN(Form::Text, "text", "the largest changes"),
               clEnumValN(Form::Json, "json", "every function"),
               clEnumValN(Form::Csv, "csv", "every function, a row each")),
    cl::cat(Category));
static cl::opt<std::string>
    EventName("event",
              cl::desc("The event the text sorts by and shows (default: "
                       "the first both profiles have)"),
              cl::value_desc("name"), cl::cat(Category));
static cl::opt<unsigned> Top("top",
                             cl::desc("The functions the text shows at most"),
                             cl::init(20), cl::cat(Category));
static cl::opt<double> MinChange(
    "min",
    cl::desc("The change of a function's self cost, in percent of the base "
             "total, the text needs to show it"),
    cl::value_desc("percent"), cl::init(0), cl::cat(Category));

static cl::opt<std::string> StripPath(
    "strip-path",
    cl::desc("Delete the first match of this regex from every file and "
             "object name before matching functions (as merge does)"),
    cl::value_desc("regex"), cl::cat(Category));
static cl::opt<bool> Basename(
    "basename",
    cl::desc("Keep only the last component of file and object names before "
             "matching functions (as merge does)"),
    cl::cat(Category));

static cl::opt<unsigned> Threads(
    "threads", cl::init(0),
    cl::desc("Threads to use at most: the two profiles are read at once "
             "when it allows two (0: every core); the output is the same "
             "for any number"),
    cl::value_desc("N"), cl::cat(Category));

static StringRef ToolName;

[[noreturn]] static void fail(Error E) {
  WithColor::error(errs(), ToolName) << toString(std::move(E)) << '\n';
  exit(1);
}

/// A change with its sign: "+1,234", "-56", "0".
static std::string signedGrouped(int64_t N) {
  uint64_t Abs = N < 0 ? 0 - uint64_t(N) : uint64_t(N);
  return (N < 0 ? "-" : N > 0 ? "+" : "") + groupThousands(Abs);
}

static std::string label(const ProfileDiff::Function &F) {
  std::string S = F.Name;
  StringRef Object = sys::path::filename(F.Object);
  if (!Object.empty() || !F.File.empty())
    S += "  (" +
         (Object.empty()   ? F.File
          : F.File.empty() ? Object.str()
                           : (Object + ": " + F.File).str()) +
         ")";
  if (!F.InBase)
    S += "  [new]";
  if (!F.InNew)
    S += "  [gone]";
  return S;
}

static double percent(int64_t Delta, uint64_t Whole) {
  return Whole ? 100.0 * double(Delta) / double(Whole) : 0.0;
}

static void writeText(const ProfileDiff &D, unsigned E, raw_ostream &OS) {
  OS << "profkit-diff " << BasePath << " -> " << NewPath << '\n';
  OS << "events:";
  for (const std::string &Ev : D.Events)
    OS << ' ' << Ev;
  if (!D.OnlyInBase.empty())
    OS << " (only in the base: " << join(D.OnlyInBase, " ") << ')';
  if (!D.OnlyInNew.empty())
    OS << " (only in the new: " << join(D.OnlyInNew, " ") << ')';
  OS << '\n';
  for (size_t I = 0; I != D.Events.size(); ++I) {
    int64_t Delta = costDelta(D.BaseTotals[I], D.NewTotals[I]);
    OS << "total " << D.Events[I] << ": " << groupThousands(D.BaseTotals[I])
       << " -> " << groupThousands(D.NewTotals[I]) << " ("
       << signedGrouped(Delta)
       << format(", %+.2f%%)\n", percent(Delta, D.BaseTotals[I]));
  }
  std::vector<const ProfileDiff::Function *> Changed;
  for (const ProfileDiff::Function &F : D.Functions)
    if (F.BaseSelf[E] != F.NewSelf[E] ||
        F.BaseInclusive[E] != F.NewInclusive[E])
      Changed.push_back(&F);
  auto Size = [&](const ProfileDiff::Function *F) {
    int64_t S = costDelta(F->BaseSelf[E], F->NewSelf[E]);
    return S < 0 ? 0 - uint64_t(S) : uint64_t(S);
  };
  llvm::stable_sort(Changed, [&](auto *A, auto *B) {
    if (Size(A) != Size(B))
      return Size(A) > Size(B);
    return A->Name < B->Name;
  });
  std::vector<const ProfileDiff::Function *> Shown;
  for (const ProfileDiff::Function *F : Changed)
    if (Shown.size() < Top &&
        100.0 * double(Size(F)) >= MinChange * double(D.BaseTotals[E]))
      Shown.push_back(F);
  OS << "\nFunctions by change of self " << D.Events[E] << ": the top "
     << Shown.size() << " of " << Changed.size() << " that changed\n\n";
  OS << right_justify("self change", 16) << right_justify("%", 10)
     << right_justify("incl. change", 16) << right_justify("base self", 16)
     << right_justify("new self", 16) << "  function\n";
  for (const ProfileDiff::Function *F : Shown) {
    int64_t S = costDelta(F->BaseSelf[E], F->NewSelf[E]);
    int64_t I = costDelta(F->BaseInclusive[E], F->NewInclusive[E]);
    OS << right_justify(signedGrouped(S), 16)
       << format(" %+8.2f%%", percent(S, D.BaseTotals[E]))
       << right_justify(signedGrouped(I), 16)
       << right_justify(groupThousands(F->BaseSelf[E]), 16)
       << right_justify(groupThousands(F->NewSelf[E]), 16) << "  " << label(*F)
       << '\n';
  }
}

static void writeJson(const ProfileDiff &D, raw_ostream &OS) {
  json::OStream J(OS, 1);
  auto Deltas = [&](StringRef Key, ArrayRef<uint64_t> Base,
                    ArrayRef<uint64_t> New) {
    J.attributeArray(Key, [&] {
      for (size_t I = 0; I != Base.size(); ++I)
        J.value(costDelta(Base[I], New[I]));
    });
  };
  auto Costs = [&](StringRef Key, ArrayRef<uint64_t> V) {
    J.attributeArray(Key, [&] {
      for (uint64_t X : V)
        J.value(int64_t(std::min<uint64_t>(X, INT64_MAX)));
    });
  };
  J.object([&] {
    J.attributeArray("events", [&] {
      for (const std::string &E : D.Events)
        J.value(E);
    });
    Costs("base_totals", D.BaseTotals);
    Costs("new_totals", D.NewTotals);
    J.attributeArray("functions", [&] {
      for (const ProfileDiff::Function &F : D.Functions)
        J.object([&] {
          J.attribute("name", F.Name);
          J.attribute("file", F.File);
          J.attribute("object", F.Object);
          J.attribute("status", !F.InBase  ? "appeared"
                                : !F.InNew ? "disappeared"
                                           : "both");
          Deltas("self_delta", F.BaseSelf, F.NewSelf);
          Deltas("inclusive_delta", F.BaseInclusive, F.NewInclusive);
          Costs("base_self", F.BaseSelf);
          Costs("new_self", F.NewSelf);
        });
    });
  });
  OS << '\n';
}

static void writeCsv(const ProfileDiff &D, raw_ostream &OS) {
  auto Field = [&](StringRef S) { writeCsvField(OS, S); };
  OS << "name,file,object,status";
  for (const std::string &E : D.Events)
    OS << ",self delta " << E << ",inclusive delta " << E;
  OS << '\n';
  for (const ProfileDiff::Function &F : D.Functions) {
    Field(F.Name);
    OS << ',';
    Field(F.File);
    OS << ',';
    Field(F.Object);
    OS << ',' << (!F.InBase ? "appeared" : !F.InNew ? "disappeared" : "both");
    for (size_t E = 0; E != D.Events.size(); ++E)
      OS << ',' << costDelta(F.BaseSelf[E], F.NewSelf[E]) << ','
         << costDelta(F.BaseInclusive[E], F.NewInclusive[E]);
    OS << '\n';
  }
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  giveFreedMemoryBack();
  ToolName = sys::path::filename(argv[0]);
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "profkit-diff: what changed between two profiles, function by "
      "function\n");
  auto Warn = [](const Twine &Msg) {
    WithColor::warning(errs(), ToolName) << Msg << '\n';
  };
  ReadOptions Read;
  Read.Warn = Warn;
  Read.MaxThreads = Threads;
  // With two threads the new profile is read beside the base, its warnings
  // held back until the base's are out, as reading one after the other
  // gives them.
  std::vector<std::string> NewWarnings;
  ReadOptions NewRead = Read;
  NewRead.Warn = [&](const Twine &Msg) { NewWarnings.push_back(Msg.str()); };
  std::future<Expected<std::unique_ptr<Profile>>> Ahead;
  if (availableThreads(Threads) > 1)
    Ahead = std::async(std::launch::async,
                       [&] { return readProfile(NewPath, NewRead); });
  Expected<std::unique_ptr<Profile>> Base = readProfile(BasePath, Read);
  if (!Base) {
    if (Ahead.valid())
      consumeError(Ahead.get().takeError());
    fail(Base.takeError());
  }
  Expected<std::unique_ptr<Profile>> New =
      Ahead.valid() ? Ahead.get() : readProfile(NewPath, NewRead);
  for (const std::string &W : NewWarnings)
    Warn(W);
  if (!New)
    fail(New.takeError());
  std::optional<Regex> Strip;
  if (!StripPath.empty()) {
    std::string Why;
    if (Regex R(StripPath); !R.isValid(Why))
      fail(createStringError(inconvertibleErrorCode(),
                             "invalid regex '%s' for -strip-path: %s",
                             StripPath.c_str(), Why.c_str()));
    Strip.emplace(StripPath);
  }
  ProfileDiff D = ProfileDiff::compute(
      **Base, **New, PathNormalizer(std::move(Strip), Basename));
  if (D.Events.empty())
    fail(createStringError(inconvertibleErrorCode(),
                           "the two profiles have no event in common"));
  unsigned E = 0;
  if (!EventName.empty()) {
    auto It = find(D.Events, EventName);
    if (It == D.Events.end())
      fail(createStringError(inconvertibleErrorCode(),
                             "no event '%s' in both profiles (they share: "
                             "%s)",
                             EventName.c_str(), join(D.Events, ", ").c_str()));
    E = It - D.Events.begin();
  }
  Expected<std::unique_ptr<OutputFile>> Out = OutputFile::create(OutputPath);
  if (!Out)
    fail(Out.takeError());
  switch (Format) {
  case Form::Text:
    writeText(D, E, (*Out)->os());
    break;
  case Form::Json:
    writeJson(D, (*Out)->os());
    break;
  case Form::Csv:
    writeCsv(D, (*Out)->os());
    break;
  }
  if (Error Err = (*Out)->commit())
    fail(std::move(Err));
  return 0;
}
