//===- Registry.cpp - The registry of profile formats ---------------------===//

#include "profkit/Formats/Format.h"
#include "profkit/Support/InputStream.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <vector>

using namespace profkit;
using namespace llvm;

static std::vector<FormatInfo> &registry() {
  static std::vector<FormatInfo> Formats = {
#define PROFKIT_FORMAT(NAME, DESC, DETECT, READ, WRITE, BINARY)                \
  FormatInfo{#NAME, DESC, DETECT, READ, WRITE, BINARY},
#include "profkit/Formats/Formats.def"
  };
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
          inconvertibleErrorCode(),
          "%s: file is empty; callgrind wrote the run's threads to %s (read "
          "them with -passes=merge)",
          In.name().c_str(), Threads.c_str());
    return createStringError(inconvertibleErrorCode(), "%s: file is empty",
                             In.name().c_str());
  }
  for (const FormatInfo &F : registry())
    if (F.Detect && F.Read && F.Detect(*Head)) {
      Expected<std::unique_ptr<Profile>> P = F.Read(In, Opts);
      if (P)
        (*P)->SourceName = In.name();
      return P;
    }
  return createStringError(inconvertibleErrorCode(),
                           "%s: not a profile in any format profkit reads",
                           In.name().c_str());
}

Expected<std::unique_ptr<Profile>>
profkit::readProfile(StringRef Path, const ReadOptions &Opts) {
  Expected<std::unique_ptr<InputStream>> In = InputStream::open(Path);
  if (!In)
    return In.takeError();
  return readProfile(**In, Opts);
}
