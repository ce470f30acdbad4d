//===- OutputFile.cpp - All-or-nothing output files -----------------------===//

#include "profkit/Support/OutputFile.h"
#include "llvm/Support/Path.h"

using namespace profkit;
using namespace llvm;

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
  Expected<sys::fs::TempFile> T =
      sys::fs::TempFile::create(Path + "-%%%%%%%%.tmp");
  if (!T) {
    std::error_code EC = errorToErrorCode(T.takeError());
    return createStringError(EC,
                             "%s: cannot create a temporary file beside it: %s",
                             F->Path.c_str(), EC.message().c_str());
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
  if (Error E = Temp->keep(Path)) {
    std::error_code EC = errorToErrorCode(std::move(E));
    return createStringError(EC, "%s: cannot rename the output into place: %s",
                             Path.c_str(), EC.message().c_str());
  }
  Temp.reset();
  return Error::success();
}
