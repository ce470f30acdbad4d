//===- profkit-opt.cpp - Read, transform and write profiles ---------------===//
//
// profkit-opt [options] <input>... -o <output>
//
// Reads each input (format detected from its contents), runs the pass
// pipeline, and writes the result in the chosen format, or as the IR's text
// form with -print-ir.
//
//===----------------------------------------------------------------------===//

#include "profkit/Formats/Format.h"
#include "profkit/IR/IRPrinter.h"
#include "profkit/IR/Profile.h"
#include "profkit/Support/OutputFile.h"
#include "profkit/Transforms/Relocate.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <unistd.h>

using namespace profkit;
using namespace llvm;

static cl::OptionCategory Category("profkit-opt options");

static cl::list<std::string> Inputs(cl::Positional, cl::OneOrMore,
                                    cl::desc("<input profiles>"),
                                    cl::cat(Category));
static cl::opt<std::string> OutputPath("o",
                                       cl::desc("Output file ('-' for stdout)"),
                                       cl::value_desc("file"), cl::init("-"),
                                       cl::cat(Category));
static cl::opt<std::string>
    OutputFormat("output-format", cl::desc("Format of the output profile"),
                 cl::value_desc("format"), cl::init("callgrind"),
                 cl::cat(Category));
static cl::opt<bool> PrintIR("print-ir",
                             cl::desc("Write the profile IR as text instead "
                                      "of a profile"),
                             cl::cat(Category));
static cl::opt<bool>
    DisableOutput("disable-output",
                  cl::desc("Read and transform, but write nothing"),
                  cl::cat(Category));
static cl::opt<std::string> Passes("passes",
                                   cl::desc("The pass pipeline to run"),
                                   cl::value_desc("pipeline"),
                                   cl::cat(Category));
static cl::opt<bool>
    CompressNames("compress-names", cl::init(true),
                  cl::desc("callgrind output: compress repeated names to (id)"),
                  cl::cat(Category));
static cl::opt<bool> CompressPositions(
    "compress-positions", cl::init(true),
    cl::desc("callgrind output: write positions relative to the last one"),
    cl::cat(Category));

static cl::opt<std::string>
    Event("event",
          cl::desc("The event to write, for output formats that hold "
                   "one (webgrind); default: the first"),
          cl::value_desc("name"), cl::cat(Category));
static cl::opt<unsigned> WebgrindVersion(
    "webgrind-version", cl::init(7),
    cl::desc("webgrind output: the format version to write (5, 6 or 7)"),
    cl::cat(Category));
static cl::opt<bool> WebgrindScale(
    "webgrind-scale",
    cl::desc("webgrind output: divide costs by a power of ten when some are "
             "over 2^32-1, instead of saturating them"),
    cl::cat(Category));
static cl::opt<std::string>
    Binary("binary",
           cl::desc("The program the profile belongs to: gmon.out address "
                    "size and byte order; relocate addresses to functions "
                    "(and functions to addresses) against its symbols"),
           cl::value_desc("program"), cl::cat(Category));
static cl::opt<std::string>
    GmonFormat("gmon-format", cl::init("gnu"),
               cl::desc("gmon output: gnu or bsd (4.4BSD)"),
               cl::value_desc("gnu|bsd"), cl::cat(Category));

static cl::opt<uint64_t> MaxMemory(
    "max-memory",
    cl::desc("Fail on input that needs more than this many MiB: a line or "
             "binary file held at once, or the profile read from it "
             "(0: no limit; default: half the physical memory)"),
    cl::value_desc("MiB"), cl::cat(Category));

static StringRef ToolName;

static void warn(const Twine &Msg) {
  WithColor::warning(errs(), ToolName) << Msg << '\n';
}

static void note(const Twine &Msg) {
  WithColor::note(errs(), ToolName) << Msg << '\n';
}

[[noreturn]] static void fail(const Twine &Msg) {
  WithColor::error(errs(), ToolName) << Msg << '\n';
  exit(1);
}

[[noreturn]] static void fail(Error E) {
  std::string Msg = toString(std::move(E));
  fail(Msg);
}

static void printVersion(raw_ostream &OS) {
  OS << "profkit version " << PROFKIT_VERSION << " (LLVM "
     << LLVM_VERSION_STRING << ")\n";
}

/// Reads, transforms and writes. Returns instead of exiting, so that a
/// failed run discards its temporary output file.
static Error run(const FormatInfo *Writer) {
  ReadOptions RO;
  RO.Warn = warn;
  RO.Note = note;
  RO.Binary = Binary;
  if (MaxMemory.getNumOccurrences())
    RO.MaxMemory = MaxMemory > (UINT64_MAX >> 20) ? 0 : MaxMemory << 20;
  else // Half the physical memory: fail cleanly before the machine swaps.
    RO.MaxMemory =
        uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE)) / 2;
  Expected<std::unique_ptr<Profile>> P = readProfile(Inputs.front(), RO);
  if (!P)
    return P.takeError();
  // Until the pipeline has a `relocate` pass, -binary relocates after reading.
  if (!Binary.empty()) {
    RelocateOptions RelOpts;
    RelOpts.Warn = warn;
    RelOpts.Note = note;
    if (Error E = relocate(**P, Binary, RelOpts))
      return E;
  }
  if (DisableOutput)
    return Error::success();

  Expected<std::unique_ptr<OutputFile>> Out = OutputFile::create(OutputPath);
  if (!Out)
    return Out.takeError();
  if (PrintIR) {
    printIR(**P, (*Out)->os());
  } else {
    WriteOptions WO;
    WO.CompressNames = CompressNames;
    WO.CompressPositions = CompressPositions;
    WO.Warn = warn;
    WO.Event = Event;
    WO.WebgrindVersion = WebgrindVersion;
    WO.WebgrindScale = WebgrindScale;
    WO.Binary = Binary;
    WO.GmonFormat = GmonFormat;
    if (Error E = Writer->Write(**P, (*Out)->os(), WO))
      return E;
  }
  return (*Out)->commit();
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  ToolName = sys::path::filename(argv[0]);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(printVersion);
  std::string Formats;
  for (const FormatInfo &F : formats())
    if (F.Write)
      Formats += (Formats.empty() ? "" : ", ") + F.Name.str();
  // cl::opt keeps the StringRef, so the text must outlive parsing.
  static std::string FormatHelp = "Format of the output profile: " + Formats;
  OutputFormat.setDescription(FormatHelp);
  cl::ParseCommandLineOptions(
      argc, argv,
      "profkit-opt: read profiles, run a pass pipeline, write a profile\n");

  if (!Passes.empty())
    fail("unknown pass name '" +
         StringRef(Passes).split(',').first.split('<').first + "'");
  if (Inputs.size() > 1)
    fail(Twine(Inputs.size()) +
         " inputs given, but the pipeline has no 'merge' pass to combine them");

  const FormatInfo *Writer = nullptr;
  if (!PrintIR && !DisableOutput) {
    Writer = findFormat(OutputFormat);
    if (!Writer || !Writer->Write)
      fail("unknown output format '" + OutputFormat + "' (known: " + Formats +
           ")");
  }

  if (Error E = run(Writer))
    fail(std::move(E));
  return 0;
}
