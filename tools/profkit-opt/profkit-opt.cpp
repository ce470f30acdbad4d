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
#include "profkit/Passes/PassBuilder.h"
#include "profkit/Passes/PassPlugin.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/Memory.h"
#include "profkit/Support/OutputFile.h"
#include "profkit/Support/Threads.h"
#include "profkit/Transforms/FlattenSamples.h"
#include "profkit/Transforms/Relocate.h"
#include "profkit/Transforms/Utils/Rewrite.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/IR/PassTimingInfo.h"
#include "llvm/IR/PrintPasses.h"
#include "llvm/Pass.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <thread>
#include <unistd.h>

using namespace profkit;
using namespace llvm;

// -help shows these three groups (and the man page follows them).
static cl::OptionCategory Category("Input and output options");
static cl::OptionCategory PipelineCategory("Pass pipeline options");
static cl::OptionCategory AliasCategory(
    "Writer parameter options (aliases of -output-format=NAME<...>)");

// LLVM defines -print-before/-print-after[-all] and -time-passes in the
// libraries profkit-opt links, and profkit-opt uses them as they are.
// -print-pipeline-passes is LLVM's too, in its optimizer's pass builder,
// which profkit-opt does not link: it has its own, by the same name.
static cl::opt<bool> PrintPipelinePasses(
    "print-pipeline-passes",
    cl::desc("Print the pass pipeline with every parameter, as -passes= "
             "reads it, and exit"),
    cl::cat(PipelineCategory));

static cl::list<std::string> Inputs(cl::Positional, cl::ZeroOrMore,
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
static cl::opt<bool> PrintFormats("print-formats",
                                  cl::desc("Print every format, with its "
                                           "writer's parameters, and exit"),
                                  cl::cat(Category));
static cl::opt<bool> PrintIR("print-ir",
                             cl::desc("Write the profile IR as text instead "
                                      "of a profile"),
                             cl::cat(Category));
static cl::opt<bool>
    DisableOutput("disable-output",
                  cl::desc("Read and transform, but write nothing"),
                  cl::cat(Category));
static cl::opt<bool> PrintPasses("print-passes",
                                 cl::desc("Print every pass and analysis, "
                                          "with its parameters, and exit"),
                                 cl::cat(PipelineCategory));
static cl::opt<bool>
    DebugPM("debug-pass-manager",
            cl::desc("Print each pass and analysis as it runs"),
            cl::cat(PipelineCategory));
static cl::list<std::string>
    PassPlugins("load-pass-plugin",
                cl::desc("Load a pass plugin (a shared library)"),
                cl::value_desc("lib.so"), cl::cat(PipelineCategory));
static cl::opt<std::string> Passes("passes",
                                   cl::desc("The pass pipeline to run"),
                                   cl::value_desc("pipeline"),
                                   cl::cat(PipelineCategory));
// The writers' parameters as options of their own, from before
// -output-format=NAME<params>: each sets one parameter (writerAliases()).
static cl::opt<bool>
    CompressNames("compress-names", cl::init(true),
                  cl::desc("Alias of callgrind<[no-]compress-names>"),
                  cl::cat(AliasCategory));
static cl::opt<bool>
    CompressPositions("compress-positions", cl::init(true),
                      cl::desc("Alias of callgrind<[no-]compress-positions>"),
                      cl::cat(AliasCategory));
static cl::opt<unsigned> WriteThreads("write-threads",
                                      cl::desc("Alias of callgrind<threads=N>"),
                                      cl::value_desc("N"),
                                      cl::cat(AliasCategory));
static cl::opt<std::string> Event("event",
                                  cl::desc("Alias of webgrind<event=NAME>"),
                                  cl::value_desc("name"),
                                  cl::cat(AliasCategory));
static cl::opt<unsigned>
    WebgrindVersion("webgrind-version",
                    cl::desc("Alias of webgrind<version=N>"),
                    cl::cat(AliasCategory));
static cl::opt<bool> WebgrindScale("webgrind-scale",
                                   cl::desc("Alias of webgrind<[no-]scale>"),
                                   cl::cat(AliasCategory));
static cl::opt<std::string>
    GmonFormat("gmon-format", cl::desc("Alias of gmon<format=gnu|bsd>"),
               cl::value_desc("gnu|bsd"), cl::cat(AliasCategory));
static cl::opt<std::string>
    Binary("binary",
           cl::desc("The program the profile belongs to: gmon.out address "
                    "size and byte order; relocates every input against its "
                    "symbols as it is read, unless the pipeline has a "
                    "relocate pass (whose binary= it then defaults)"),
           cl::value_desc("program"), cl::cat(Category));
static cl::opt<bool> DemangleSymbols(
    "demangle", cl::init(true),
    cl::desc("-binary: name functions by their demangled symbols, as gprof "
             "does (-demangle=false keeps them mangled)"),
    cl::cat(Category));
static cl::opt<uint64_t> MaxMemory(
    "max-memory",
    cl::desc("Fail on input that needs more than this many MiB: a line or "
             "binary file held at once, or the profile read from it "
             "(0: no limit; default: half the physical memory)"),
    cl::value_desc("MiB"), cl::cat(Category));

static cl::opt<unsigned> ReadThreads(
    "read-threads", cl::init(0),
    cl::desc("Threads to read callgrind with, a piece of the file each (0: "
             "one for every 8 MB of a file, as many as -threads allows, 8 "
             "at most; 1: the main thread only; N: N pieces of any file, "
             "2 at most of gzip data, with a note when it cannot be split "
             "so; "
             "given, merge reads its later inputs whole, not in slices), "
             "or a directory of time traces (0: what -threads allows)"),
    cl::value_desc("N"), cl::cat(Category));

static cl::opt<uint64_t> SliceBytes(
    "slice-bytes", cl::init(4 << 20), cl::Hidden,
    cl::desc("merge: take a callgrind input after the first in slices of "
             "about this many bytes of function data as it is read (tests "
             "give 1 to slice at every function)"),
    cl::value_desc("N"), cl::cat(Category));

static cl::opt<unsigned> Threads(
    "threads", cl::init(0),
    cl::desc("Threads to use at most: to read a file in pieces, to read "
             "an input while merge merges it slice by slice (or the next "
             "while merge merges the last), to copy what merge adds, to "
             "write (0: every core; -read-threads and -write-threads choose "
             "for one step); the output is the same for any number"),
    cl::value_desc("N"), cl::cat(Category));

static StringRef ToolName;
static void warn(const Twine &Msg);

static std::string flagParam(StringRef Name, bool On) {
  return ((On ? "" : "no-") + Name).str();
}

/// Sets the writer's parameter of each alias option given, and warns about
/// those given for an output that does not use them (Spec null: nothing is
/// written).
static Error applyWriterAliases(OutputSpec *Spec) {
  struct WriterAlias {
    const cl::Option &Opt;
    StringRef Format;
    std::function<std::string()> Param; // `key=value`, `flag`, `no-flag`
  };
  const WriterAlias Aliases[] = {
      {CompressNames, "callgrind",
       [] { return flagParam("compress-names", CompressNames); }},
      {CompressPositions, "callgrind",
       [] { return flagParam("compress-positions", CompressPositions); }},
      {WriteThreads, "callgrind",
       [] { return "threads=" + utostr(WriteThreads); }},
      {Event, "webgrind", [] { return "event=" + Event; }},
      {WebgrindVersion, "webgrind",
       [] { return "version=" + utostr(WebgrindVersion); }},
      {WebgrindScale, "webgrind",
       [] { return flagParam("scale", WebgrindScale); }},
      {GmonFormat, "gmon", [] { return "format=" + GmonFormat; }},
  };
  for (const WriterAlias &A : Aliases) {
    if (!A.Opt.getNumOccurrences())
      continue;
    if (Spec && Spec->Format->Name == A.Format) {
      if (Error E = Spec->Params.set(A.Param()))
        return E;
      continue;
    }
    warn("-" + A.Opt.ArgStr + " is ignored: " +
         (Spec ? "the " + Spec->Format->Name + " output does not use it"
               : Twine("no profile is written")));
  }
  return Error::success();
}

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
static void printIRDump(StringRef When, StringRef PassID, const Any &IR) {
  if (const Profile *P = unwrapProfile(IR)) {
    errs() << "; *** IR Dump " << When << ' ' << PassID << " ***\n";
    printIR(*P, errs());
  }
}

static StringRef unitName(const Any &IR) {
  const Profile *P = unwrapProfile(IR);
  return P && !P->SourceName.empty() ? StringRef(P->SourceName) : "<profile>";
}

static void registerInstrumentation(PassInstrumentationCallbacks &PIC) {
  PIC.registerBeforeNonSkippedPassCallback([](StringRef PassID, Any IR) {
    if (DebugPM)
      errs() << "Running pass: " << PassID << " on " << unitName(IR) << '\n';
    if (shouldPrintBeforeAll() || shouldPrintBeforePass(PassID))
      printIRDump("Before", PassID, IR);
  });
  PIC.registerAfterPassCallback(
      [](StringRef PassID, Any IR, const PreservedAnalyses &) {
        if (shouldPrintAfterAll() || shouldPrintAfterPass(PassID))
          printIRDump("After", PassID, IR);
      });
  if (!DebugPM)
    return;
  PIC.registerBeforeAnalysisCallback([](StringRef Name, Any IR) {
    errs() << "Running analysis: " << Name << " on " << unitName(IR) << '\n';
  });
  PIC.registerAnalysisInvalidatedCallback([](StringRef Name, Any IR) {
    errs() << "Invalidating analysis: " << Name << " on " << unitName(IR)
           << '\n';
  });
}

/// The driver's read stage: reads an input and, when -binary is given and
/// the pipeline has no relocate pass, relocates it against the program.
struct InputReader {
  using Diagnose = std::function<void(const Twine &)>;
  ReadOptions Read;
  bool Relocate = false;
  /// The threads of a read beside another read (Read.MaxThreads: alone).
  unsigned MaxThreadsBeside = 0;
  /// The function data of a slice (-slice-bytes: a few megabytes, as the
  /// slices on their way are what merge holds of an input besides its
  /// names).
  uint64_t SliceBytes = 0;
  /// Reads Path, with its warnings and notes to Warn and Note; Beside: while
  /// another input is read.
  /// Slice: hands the profile over in slices as it is read
  /// (ReadOptions::Slice).
  Expected<std::unique_ptr<Profile>>
  read(StringRef Path, const Diagnose &Warn, const Diagnose &Note,
       bool Beside = false,
       std::function<Error(ProfileSlice &)> Slice = nullptr) const {
    ReadOptions Opts = Read;
    Opts.Warn = Warn;
    Opts.Note = Note;
    if (Beside)
      Opts.MaxThreads = MaxThreadsBeside;
    Opts.Slice = std::move(Slice);
    Opts.SliceBytes = SliceBytes;
    Expected<std::unique_ptr<Profile>> P = readProfile(Path, Opts);
    if (!P || !Relocate)
      return P;
    RelocateOptions RelOpts;
    RelOpts.Warn = Warn;
    RelOpts.Note = Note;
    RelOpts.Demangle = DemangleSymbols;
    if (Error E = relocate(**P, Binary, RelOpts))
      return std::move(E);
    return P;
  }
  Expected<std::unique_ptr<Profile>> read(StringRef Path,
                                          bool Beside = false) const {
    return read(Path, warn, note, Beside);
  }
};

using Diagnostics = std::vector<std::pair<bool, std::string>>; // Warning?

/// What a read on another thread reports to: Held, in order.
static InputReader::Diagnose holdIn(Diagnostics &Held, bool IsWarning) {
  return [&Held, IsWarning](const Twine &Msg) {
    Held.emplace_back(IsWarning, Msg.str());
  };
}

/// Reports diagnostics held back from another thread, in their order.
static void release(const Diagnostics &Held) {
  for (const auto &[IsWarning, Text] : Held)
    (IsWarning ? warn : note)(Text);
}

/// Slices of an input read on another thread, on their way to the pass:
/// at most two wait, so that memory holds a few slices of the input, not
/// the input. Each carries the diagnostics of the reading before it.
class SliceChannel {
public:
  struct Item {
    ProfileSlice Slice;
    Diagnostics Held;
    bool Last = false;
    Error Failure = Error::success(); // Of the reading, with Last.
  };
  /// Waits for room; fails once the pass stopped taking slices.
  Error push(Item I) {
    std::unique_lock<std::mutex> Lock(Mutex);
    Room.wait(Lock, [&] { return Items.size() < 2 || Cancelled; });
    if (Cancelled)
      return createStringError(inconvertibleErrorCode(), "cancelled");
    Items.push_back(std::move(I));
    Ready.notify_one();
    return Error::success();
  }
  /// The reading's end, which never waits.
  void pushLast(Item I) {
    std::lock_guard<std::mutex> Lock(Mutex);
    I.Last = true;
    Items.push_back(std::move(I));
    Ready.notify_one();
  }
  Item pop() {
    std::unique_lock<std::mutex> Lock(Mutex);
    Ready.wait(Lock, [&] { return !Items.empty(); });
    Item I = std::move(Items.front());
    Items.pop_front();
    Room.notify_one();
    return I;
  }
  /// The pass failed: the reading stops at its next slice.
  void cancel() {
    std::lock_guard<std::mutex> Lock(Mutex);
    Cancelled = true;
    Room.notify_one();
  }

private:
  std::mutex Mutex;
  std::condition_variable Ready, Room;
  std::deque<Item> Items;
  bool Cancelled = false;
};

/// The inputs after the first, for the pass that takes them, whole
/// (PassContext::NextInput) or in slices as they are read
/// (PassContext::NextInputInSlices, takeInSlices()). Whole: when -threads
/// allows two, the next input is read on threads of its own while the
/// first is read and while the pass merges the one before: one input
/// ahead, so that memory holds one more input, not all of them. The second
/// input and the first are read at once on half the threads each; a later one
/// on all of them, as the merge of the one before takes less time than reading
/// it. The warnings and notes of an input read ahead wait until the pass takes
/// it, so they come in the order of reading one at a time.
class InputQueue {
public:
  InputQueue(const InputReader &Reader, ArrayRef<std::string> Paths,
             bool ReadAhead)
      : Reader(Reader), Paths(Paths), ReadAhead(ReadAhead) {
    startNext();
  }
  ~InputQueue() {
    if (Ahead.valid()) // A pass failed before taking it.
      consumeError(Ahead.get().P.takeError());
  }
  /// The next input; null after the last.
  Expected<std::unique_ptr<Profile>> take() {
    if (!Ahead.valid()) {
      if (Next >= Paths.size())
        return nullptr;
      return Reader.read(Paths[Next++]);
    }
    Result R = Ahead.get();
    release(R.Held);
    startNext();
    return std::move(R.P);
  }

  /// The next input in slices (PassContext::NextInputInSlices), read beside
  /// the pass on a thread of its own when Beside; false after the last.
  Expected<bool> takeInSlices(function_ref<Error(ProfileSlice &)> Take,
                              bool Beside) {
    if (Next >= Paths.size())
      return false;
    StringRef Path = Paths[Next++];
    if (!Beside) {
      Expected<std::unique_ptr<Profile>> P =
          Reader.read(Path, warn, note, /*Beside=*/false, Take);
      if (!P)
        return P.takeError();
      ProfileSlice Last;
      Last.Rest = std::move(*P);
      if (Error E = Take(Last))
        return std::move(E);
      return true;
    }
    SliceChannel Channel;
    std::thread Reading([&] {
      Diagnostics Held;
      auto Hand = [&](ProfileSlice &S) {
        return Channel.push({std::move(S), std::exchange(Held, {})});
      };
      Expected<std::unique_ptr<Profile>> P =
          Reader.read(Path, holdIn(Held, true), holdIn(Held, false),
                      /*Beside=*/false, Hand);
      SliceChannel::Item Last;
      if (P)
        Last.Slice.Rest = std::move(*P);
      else
        Last.Failure = P.takeError();
      Last.Held = std::move(Held);
      Channel.pushLast(std::move(Last));
    });
    Error Failure = Error::success();
    bool SawLast = false;
    while (!SawLast) {
      SliceChannel::Item I = Channel.pop();
      release(I.Held);
      SawLast = I.Last;
      if (I.Failure) {
        Failure = std::move(I.Failure);
        break;
      }
      if (Error E = Take(I.Slice)) {
        Failure = std::move(E);
        break;
      }
    }
    if (!SawLast) {
      // The pass failed: the reading stops at its next slice, with an
      // error that the pass's stands for.
      Channel.cancel();
      Reading.join();
      while (true) {
        SliceChannel::Item I = Channel.pop();
        if (I.Last) {
          consumeError(std::move(I.Failure));
          break;
        }
      }
    } else {
      Reading.join();
    }
    if (Failure)
      return std::move(Failure);
    return true;
  }

private:
  struct Result {
    Expected<std::unique_ptr<Profile>> P;
    Diagnostics Held;
  };
  void startNext() {
    if (!ReadAhead || Next >= Paths.size())
      return;
    bool BesideFirst = Next == 1;
    StringRef Path = Paths[Next++];
    Ahead = std::async(std::launch::async, [this, Path, BesideFirst] {
      Diagnostics Held;
      Expected<std::unique_ptr<Profile>> P = Reader.read(
          Path, holdIn(Held, true), holdIn(Held, false), BesideFirst);
      return Result{std::move(P), std::move(Held)};
    });
  }
  const InputReader &Reader;
  ArrayRef<std::string> Paths;
  bool ReadAhead;
  size_t Next = 1;
  std::future<Result> Ahead;
};

static Error run(const OutputSpec *Writer, ProfilePassManager &PM,
                 const InputReader &Reader, PassContext &Ctx, bool ReadAhead,
                 bool InSlices) {
  // The second input is read beside the first, unless it is read in slices
  // after it: then beside the pass, which merges each as it comes.
  InputQueue Queue(Reader, Inputs, ReadAhead && !InSlices);
  Ctx.NextInput = [&] { return Queue.take(); };
  if (InSlices)
    Ctx.NextInputInSlices = [&](function_ref<Error(ProfileSlice &)> Take) {
      return Queue.takeInSlices(Take, /*Beside=*/ReadAhead);
    };
  Expected<std::unique_ptr<Profile>> P =
      Reader.read(Inputs.front(), /*Beside=*/ReadAhead && !InSlices);
  if (!P)
    return P.takeError();
  // The process ends right after this: let the system take the profile's
  // memory back at once instead of freeing its tables one by one (a few
  // percent of the time of reading a large profile, in cache misses).
  auto Bury = make_scope_exit([&] { BuryPointer(std::move(*P)); });

  PassInstrumentationCallbacks PIC;
  registerInstrumentation(PIC);
  TimePassesHandler Timing(TimePassesIsEnabled);
  Timing.registerCallbacks(PIC);
  ProfileAnalysisManager AM(&PIC);
  if (Expected<PreservedAnalyses> PA = PM.run(**P, AM, &PIC); !PA)
    return PA.takeError();
  Timing.print();
  if (DisableOutput)
    return Error::success();
  Expected<std::unique_ptr<OutputFile>> Out = OutputFile::create(OutputPath);
  if (!Out)
    return Out.takeError();
  // Binary data would garble the terminal (opt refuses bitcode likewise).
  if (Writer && Writer->Format->Binary && (*Out)->isDisplayed())
    return createStringError(make_error_code(ErrorCode::InvalidArgument),
                             "the %s output is binary: refusing to write it "
                             "to a terminal; give -o FILE",
                             Writer->Format->Name.str().c_str());
  if (PrintIR) {
    printIR(**P, (*Out)->os());
  } else {
    // Only sampleprof holds line offsets, discriminators and inline sites;
    // other writers get a sample profile placed by line, so that a viewer
    // shows an AutoFDO profile.
    if (Writer->Format->Name != "sampleprof" && !flattenSamples(**P, note))
      return overflowError("flatten-samples");
    WriteContext WCtx;
    WCtx.Binary = Binary;
    WCtx.Warn = warn;
    WCtx.MaxThreads = Threads;
    if (Error E =
            Writer->Format->Write(**P, (*Out)->os(), Writer->Params, WCtx))
      return E;
  }
  return (*Out)->commit();
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  giveFreedMemoryBack();
  ToolName = sys::path::filename(argv[0]);
  // Options libLLVM defines that profkit-opt implements for profiles. LLVM
  // hides most of them; here they are the tool's own, so -help shows them.
  for (const char *Name : {"print-after-all", "print-before-all",
                           "print-before", "print-after", "time-passes"}) {
    auto &Opts = cl::getRegisteredOptions();
    auto It = Opts.find(Name);
    if (It == Opts.end())
      continue;
    It->second->addCategory(PipelineCategory);
    It->second->setHiddenFlag(cl::NotHidden);
  }
  cl::HideUnrelatedOptions({&Category, &PipelineCategory, &AliasCategory});
  cl::SetVersionPrinter(printVersion);
  // cl::opt keeps the StringRef, so the text must outlive parsing.
  static std::string FormatHelp =
      "Format of the output profile, with its parameters "
      "(-print-formats): " +
      writableFormatNames();
  OutputFormat.setDescription(FormatHelp);
  cl::ParseCommandLineOptions(
      argc, argv,
      "profkit-opt: read profiles, run a pass pipeline, write a profile\n");

  for (const std::string &Path : PassPlugins) {
    Expected<PassPlugin> Plugin = PassPlugin::load(Path);
    if (!Plugin)
      fail(Plugin.takeError());
    Plugin->registerCallbacks(profkit::PassRegistry::get());
  }
  if (PrintPasses) {
    profkit::PassRegistry::get().print(outs());
    return 0;
  }
  if (PrintFormats) {
    printFormats(outs());
    return 0;
  }

  InputReader Reader;
  Reader.Read.Warn = warn;
  Reader.Read.Note = note;
  Reader.Read.Threads = ReadThreads;
  Reader.Read.MaxThreads = Threads;
  // Inputs that are not read in slices: the first two of several are read
  // at once (InputQueue), each on half the threads: more would only take
  // turns on the cores, and cost memory (a file read in more pieces holds
  // more copies of its names).
  bool ReadAhead = Inputs.size() > 1 && availableThreads(Threads) > 1;
  Reader.MaxThreadsBeside = std::max(1u, availableThreads(Threads) / 2);
  Reader.Read.Binary = Binary;
  if (MaxMemory.getNumOccurrences())
    Reader.Read.MaxMemory =
        MaxMemory > (UINT64_MAX >> 20) ? 0 : MaxMemory << 20;
  else // Half the physical memory: fail cleanly before the machine swaps.
    Reader.Read.MaxMemory =
        uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE)) / 2;
  // A slice takes a small share of the memory limit.
  Reader.SliceBytes =
      Reader.Read.MaxMemory
          ? std::min<uint64_t>(SliceBytes, Reader.Read.MaxMemory / 8)
          : SliceBytes;
  PassContext Ctx;
  Ctx.Threads = availableThreads(Threads);
  Ctx.Warn = warn;
  Ctx.Note = note;
  Ctx.Binary = Binary;
  ProfilePassManager PM;
  if (Error E = parsePassPipeline(PM, Passes, Ctx))
    fail(std::move(E));
  std::optional<OutputSpec> Writer;
  if (!PrintIR && !DisableOutput) {
    Expected<OutputSpec> Spec = parseOutputSpec(OutputFormat);
    if (!Spec)
      fail(Spec.takeError());
    Writer = std::move(*Spec);
  }
  if (Error E = applyWriterAliases(Writer ? &*Writer : nullptr))
    fail(std::move(E));
  // A writer of what a pass makes (sampleprof) gets that pass last, unless
  // the pipeline runs it.
  if (Writer && !Writer->Format->RequiredPass.empty() &&
      none_of(PM.passes(), [&](const auto &Pass) {
        return Pass->name() == Writer->Format->RequiredPass;
      }))
    if (Error E = parsePassPipeline(PM, Writer->Format->RequiredPass, Ctx))
      fail(std::move(E));
  if (PrintPipelinePasses) {
    PM.printPipeline(outs());
    outs() << '\n';
    return 0;
  }
  if (Inputs.empty()) {
    errs() << ToolName
           << ": Not enough positional command line arguments specified!\n";
    return 1;
  }
  // gprof takes the program first (`gprof PROG gmon.out`); profkit-opt
  // takes it as -binary.
  for (const std::string &Path : Inputs) {
    file_magic Magic;
    if (Path != "-" && !identify_magic(Path, Magic) &&
        (Magic == file_magic::elf_executable ||
         Magic == file_magic::elf_shared_object))
      fail(Path +
           " is an executable, not a profile; give it as -binary=" + Path);
  }
  // Which passes take the extra inputs, and which relocate, the registry
  // says (PassRegistry.def's traits).
  const profkit::PassRegistry &Registry = profkit::PassRegistry::get();
  auto PipelineHas = [&](profkit::PassInfo::Trait T) {
    return any_of(PM.passes(), [&](const auto &Pass) {
      return Registry.hasTrait(*Pass, T);
    });
  };
  if (Inputs.size() > 1 &&
      (PM.empty() || !Registry.hasTrait(*PM.passes().front(),
                                        profkit::PassInfo::TakesInputs))) {
    std::string Merge =
        join(Registry.passesWith(profkit::PassInfo::TakesInputs), "' or '");
    fail(Twine(Inputs.size()) + " inputs given, but the pipeline " +
         (PipelineHas(profkit::PassInfo::TakesInputs)
              ? "does not start with '" + Merge + "'"
              : "has no '" + Merge + "' pass") +
         " to combine them");
  }

  // -binary without a relocating pass relocates every input as it is read,
  // before the pipeline runs; with one, the pass does it (its binary=
  // defaults to -binary). Either way -binary gives gmon.out's address layout.
  Reader.Relocate =
      !Binary.empty() && !PipelineHas(profkit::PassInfo::Relocates);

  // The inputs after the first go to the pass in slices as they are read,
  // unless relocated (which needs the whole profile) or read in the pieces
  // -read-threads asks for.
  bool InSlices = !Reader.Relocate && !ReadThreads;
  if (Error E = run(Writer ? &*Writer : nullptr, PM, Reader, Ctx, ReadAhead,
                    InSlices))
    fail(std::move(E));
  return 0;
}
