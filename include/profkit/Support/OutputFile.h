//===- OutputFile.h - All-or-nothing output files ---------------*- C++ -*-===//
//
// A regular output file is written to a temporary file beside it and renamed
// over it on commit(), so a failed run never leaves a half-written file or
// clobbers the old one. A symbolic link is followed to the file it leads to,
// which is replaced instead of the link. Non-regular outputs (stdout as "-",
// /dev/null, pipes, terminals) are written in place and never replaced. An
// output whose name ends in .gz is compressed with gzip as it is written.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_SUPPORT_OUTPUTFILE_H
#define PROFKIT_SUPPORT_OUTPUTFILE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <optional>

namespace profkit {

class OutputFile {
public:
  static llvm::Expected<std::unique_ptr<OutputFile>>
  create(llvm::StringRef Path);
  /// Discards the temporary file unless commit() succeeded.
  ~OutputFile();

  llvm::raw_ostream &os();
  /// Whether the output goes to a terminal.
  bool isDisplayed() const { return OS->is_displayed(); }
  /// Flushes and, for a regular file, renames it into place.
  llvm::Error commit();

private:
  class Gzip;
  OutputFile() = default;
  /// Opens the file, or the temporary file beside it.
  llvm::Error open();
  std::string Path;
  /// Path with its symbolic links followed: the file the output replaces.
  std::string Target;
  std::optional<llvm::sys::fs::TempFile> Temp;
  std::unique_ptr<llvm::raw_fd_ostream> OS;
  /// For an output named *.gz: compresses into OS.
  std::unique_ptr<Gzip> Compressed;
};

} // namespace profkit

#endif
