//===- Registry.cpp - The registry of profile formats ---------------------===//

#include "profkit/Formats/Format.h"
#include "profkit/Support/Error.h"
#include "profkit/Support/InputStream.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <vector>

using namespace profkit;
using namespace llvm;

static std::vector<FormatInfo> builtinFormats() {
  std::vector<FormatInfo> Formats = {
#define PROFKIT_FORMAT(NAME, DESC, DETECT, READ, WRITE, BINARY)                \
  FormatInfo{#NAME, DESC, DETECT, READ, WRITE, BINARY},
#define PROFKIT_READ_FORMAT(NAME, DESC, DETECT, READ)                          \
  FormatInfo{#NAME, DESC, DETECT, READ, nullptr, false},
#define PROFKIT_WRITE_FORMAT(NAME, DESC, WRITE, BINARY)                        \
  FormatInfo{#NAME, DESC, nullptr, nullptr, WRITE, BINARY},
#include "profkit/Formats/Formats.def"
  };
  auto AddParam = [&](StringRef Format, PassParamInfo Info) {
    for (FormatInfo &F : Formats)
      if (F.Name == Format)
        F.Params.push_back(std::move(Info));
  };
#define PROFKIT_FORMAT_PARAM(FORMAT, NAME, META, DEFAULT, DESCRIPTION)         \
  AddParam(#FORMAT, {NAME, META, DEFAULT, DESCRIPTION});
#define PROFKIT_FORMAT_FLAG(FORMAT, NAME, DEFAULT, DESCRIPTION)                \
  AddParam(#FORMAT, {NAME, "", DEFAULT, DESCRIPTION});
#define PROFKIT_FORMAT_PASS(FORMAT, PASS)                                      \
  for (FormatInfo & F : Formats)                                               \
    if (F.Name == #FORMAT)                                                     \
      F.RequiredPass = PASS;
#include "profkit/Formats/Formats.def"
  return Formats;
}

static std::vector<FormatInfo> &registry() {
  static std::vector<FormatInfo> Formats = builtinFormats();
  return Formats;
}

ArrayRef<FormatInfo> profkit::formats() { return registry(); }

void profkit::registerFormat(const FormatInfo &F) { registry().push_back(F); }

const FormatInfo *profkit::findFormat(StringRef Name) {
  for (const FormatInfo &F : registry())
    if (F.Name == Name)
      return &F;
  return nullptr;
}

std::string profkit::writableFormatNames() {
  std::string Names;
  for (const FormatInfo &F : registry())
    if (F.Write)
      Names += (Names.empty() ? "" : ", ") + F.Name.str();
  return Names;
}

Error profkit::requireFunctions(const Profile &P) {
  // gprof's habit is to name the program, so say how.
  if (any_of(P.parts(), [](const auto &Pt) {
        return Pt->functions().empty() && Pt->addresses().hasAddresses();
      }))
    return makeError(ErrorCode::InvalidArgument,
                     P.SourceName +
                         " holds program addresses, not functions: give the "
                         "profiled program as -binary=PROG to tie them to its "
                         "functions");
  return Error::success();
}

void profkit::warnDroppedData(const Profile &P, StringRef Format,
                              const WriteContext &Ctx) {
  size_t N = 0;
  for (const auto &Pt : P.parts())
    N += Pt->intervals().size();
  if (N)
    Ctx.Warn("the " + Format + " format has no timeline: " + Twine(N) +
             " intervals (when each ran) are not written; their costs are");
  if (P.numInlineSites() > 1)
    Ctx.Warn("the " + Format +
             " format has no inline stacks: inlined code is written as the "
             "code of the function it is in");
}

Expected<OutputSpec> profkit::parseOutputSpec(StringRef Text) {
  size_t Pos = std::min(Text.find('<'), Text.size());
  StringRef Name = Text.take_front(Pos).trim();
  const FormatInfo *F = findFormat(Name);
  if (!F || !F->Write)
    return createStringError(make_error_code(ErrorCode::InvalidArgument),
                             "unknown output format '%s' (known: %s)",
                             Name.str().c_str(), writableFormatNames().c_str());
  OutputSpec Spec{F, PassParams(F->Name, F->Params, "output format")};
  if (Pos == Text.size())
    return Spec;
  std::string Owner = ("output format '" + F->Name + "'").str();
  std::vector<std::string> Params;
  if (Error E = splitParams(Text, Pos, Owner, Params))
    return std::move(E);
  if (Pos != Text.size())
    return createStringError(make_error_code(ErrorCode::InvalidArgument),
                             "unexpected '%s' after the parameters of %s",
                             Text.drop_front(Pos).str().c_str(), Owner.c_str());
  for (const std::string &P : Params)
    if (Error E = Spec.Params.set(P))
      return std::move(E);
  return Spec;
}

void profkit::printFormats(raw_ostream &OS) {
  OS << "Profile formats (inputs by their contents; output: "
        "-output-format=NAME<PARAMS>):\n";
  for (const FormatInfo &F : registry()) {
    StringRef Only = !F.Write ? " (read only)" : !F.Read ? " (write only)" : "";
    printParamsHelp(OS, F.Name, (F.Description + Only).str(), F.Params);
  }
}

Expected<std::unique_ptr<Profile>>
profkit::readProfile(InputStream &In, const ReadOptions &Opts) {
  In.setMemoryLimit(Opts.MaxMemory);
  Expected<StringRef> Head = In.peek(4096);
  if (!Head)
    return Head.takeError();
  if (Head->empty()) {
    // callgrind --separate-threads=yes leaves the file it was named empty
    // and writes each thread to FILE-01, FILE-02, ...
    std::string Threads;
    for (unsigned T = 1; T != 100; ++T) {
      std::string Name = formatv("{0}-{1:2}", In.name(), T).str();
      std::replace(Name.begin(), Name.end(), ' ', '0');
      if (!sys::fs::exists(Name))
        break;
      Threads += (Threads.empty() ? "" : " ") + Name;
    }
    if (!Threads.empty())
      return createStringError(
          make_error_code(ErrorCode::UnrecognizedFormat),
          "%s: file is empty; callgrind wrote the run's threads to %s (read "
          "them with -passes=merge)",
          In.name().c_str(), Threads.c_str());
    return createStringError(make_error_code(ErrorCode::UnrecognizedFormat),
                             "%s: file is empty", In.name().c_str());
  }
  for (const FormatInfo &F : registry())
    if (F.Detect && F.Read && F.Detect(*Head)) {
      Expected<std::unique_ptr<Profile>> P = F.Read(In, Opts);
      if (P)
        (*P)->SourceName = In.name();
      return P;
    }
  return createStringError(make_error_code(ErrorCode::UnrecognizedFormat),
                           "%s: not a profile in any format profkit reads",
                           In.name().c_str());
}

Expected<std::unique_ptr<Profile>>
profkit::readProfile(StringRef Path, const ReadOptions &Opts) {
  if (Path != "-" && sys::fs::is_directory(Path))
    return readTimeTraceDirectory(Path, Opts);
  Expected<std::unique_ptr<InputStream>> In =
      InputStream::open(Path, Opts.MaxThreads);
  if (!In)
    return In.takeError();
  return readProfile(**In, Opts);
}
