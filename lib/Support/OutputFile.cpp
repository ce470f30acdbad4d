//===- OutputFile.cpp - All-or-nothing output files -----------------------===//

#include "profkit/Support/OutputFile.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include <climits>
#include <unistd.h>

using namespace profkit;
using namespace llvm;

/// The file a write to Path lands in: Path with the symbolic links at its
/// end followed, also to a target that does not exist yet. Replacing that
/// file, not the link, keeps the link (as compilers and cp do).
static Expected<std::string> followLinks(StringRef Path) {
  std::string File = Path.str();
  // Linux's limit (MAXSYMLINKS), which also stops a loop of links.
  for (unsigned Hops = 0; Hops != 40; ++Hops) {
    char Link[PATH_MAX];
    ssize_t Size = ::readlink(File.c_str(), Link, sizeof(Link));
    // Not a link, or nothing there: this is the file; opening it says what
    // is wrong, if anything.
    if (Size < 0)
      return File;
    StringRef To(Link, Size);
    if (sys::path::is_absolute(To)) {
      File = To.str();
      continue;
    }
    // Relative to the link's directory. The ".." it may hold is left to the
    // kernel: lexically it would be wrong past a linked directory.
    SmallString<256> Next(sys::path::parent_path(File));
    sys::path::append(Next, To);
    File = std::string(Next);
  }
  std::error_code EC =
      std::make_error_code(std::errc::too_many_symbolic_link_levels);
  return createStringError(EC, "%s: %s", Path.str().c_str(),
                           EC.message().c_str());
}

Expected<std::unique_ptr<OutputFile>> OutputFile::create(StringRef Path) {
  std::unique_ptr<OutputFile> F(new OutputFile());
  F->Path = Path.str();
  sys::fs::file_status St;
  bool Exists = !sys::fs::status(Path, St) && sys::fs::exists(St);
  bool InPlace = Path == "-" || (Exists && !sys::fs::is_regular_file(St));
  if (InPlace) {
    std::error_code EC;
    F->OS = std::make_unique<raw_fd_ostream>(Path, EC, sys::fs::OF_None);
    if (EC)
      return createStringError(EC, "%s: %s", F->Path.c_str(),
                               EC.message().c_str());
    return std::move(F);
  }
  Expected<std::string> Target = followLinks(Path);
  if (!Target)
    return Target.takeError();
  F->Target = std::move(*Target);
  // Beside the target, so that renaming it there stays in one file system.
  Expected<sys::fs::TempFile> T =
      sys::fs::TempFile::create(F->Target + "-%%%%%%%%.tmp");
  if (!T) {
    std::error_code EC = errorToErrorCode(T.takeError());
    if (F->Target == F->Path)
      return createStringError(
          EC, "%s: cannot create a temporary file beside it: %s",
          F->Path.c_str(), EC.message().c_str());
    return createStringError(
        EC, "%s: cannot create a temporary file beside its target %s: %s",
        F->Path.c_str(), F->Target.c_str(), EC.message().c_str());
  }
  F->Temp.emplace(std::move(*T));
  // The new file replaces the old one, so it takes the old one's permissions
  // (but not set-user-ID and the like, meant for the old contents and owner);
  // a new output keeps the usual 0666 & ~umask.
  if (Exists)
    if (std::error_code EC = sys::fs::setPermissions(
            F->Temp->FD, St.permissions() & sys::fs::all_perms))
      return createStringError(
          EC, "%s: cannot give the new file the old one's permissions: %s",
          F->Path.c_str(), EC.message().c_str());
  F->OS = std::make_unique<raw_fd_ostream>(F->Temp->FD, /*shouldClose=*/false);
  return std::move(F);
}

OutputFile::~OutputFile() {
  if (OS) {
    OS->clear_error();
    OS.reset();
  }
  if (Temp)
    consumeError(Temp->discard());
}

Error OutputFile::commit() {
  OS->flush();
  if (std::error_code EC = OS->error()) {
    OS->clear_error();
    return createStringError(EC, "%s: write failed: %s", Path.c_str(),
                             EC.message().c_str());
  }
  OS.reset();
  if (!Temp)
    return Error::success();
  if (Error E = Temp->keep(Target)) {
    std::error_code EC = errorToErrorCode(std::move(E));
    return createStringError(EC, "%s: cannot rename the output into place: %s",
                             Path.c_str(), EC.message().c_str());
  }
  Temp.reset();
  return Error::success();
}
