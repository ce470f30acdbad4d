//===- Format.h - Reading and writing profiles ------------------*- C++ -*-===//
//
// The registry of profile formats. Readers are chosen by the contents of the
// input, never by its name; writers by name (-output-format=). The built-in
// formats are listed in Formats.def; plugins may register more.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_FORMATS_FORMAT_H
#define PROFKIT_FORMATS_FORMAT_H

#include "profkit/IR/Profile.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <memory>
#include <string>

namespace llvm {
class raw_ostream;
class Twine;
} // namespace llvm

namespace profkit {
class InputStream;

struct ReadOptions {
  /// Called with each warning, already prefixed with "FILE:LINE: ".
  std::function<void(const llvm::Twine &)> Warn = [](const llvm::Twine &) {};
  /// Called with each note (a guess the reader made), prefixed likewise.
  std::function<void(const llvm::Twine &)> Note = [](const llvm::Twine &) {};
  /// gmon.out: the executable, for its address size and byte order.
  std::string Binary;
  /// The memory limit in bytes (0: none): caps the decompressed bytes held at
  /// once (a line, a binary file) and the size of the IR a reader builds.
  uint64_t MaxMemory = 0;
  /// callgrind: threads to read with. 0: two for plain files of 16 MB and
  /// more on a machine of two cores or more, else one; 1: one; 2 or more:
  /// two for any plain file, with a note when the file cannot be split.
  unsigned Threads = 0;
};

struct WriteOptions {
  /// callgrind: `(id) name` name compression.
  bool CompressNames = true;
  /// callgrind: `+N`, `-N`, `*` subposition compression.
  bool CompressPositions = true;
  /// The event to write, for formats that hold one (webgrind); "" = the
  /// first.
  std::string Event;
  /// webgrind: the format version to write (5, 6 or 7).
  unsigned WebgrindVersion = 7;
  /// webgrind: scale costs over 2^32-1 down by a power of ten instead of
  /// saturating them.
  bool WebgrindScale = false;
  /// gmon: the executable whose address size and byte order to write.
  std::string Binary;
  /// gmon: "gnu" or "bsd" (4.4BSD).
  std::string GmonFormat = "gnu";
  /// callgrind: threads to format a part with; 0 lets the writer choose
  /// (two for large parts, none for small ones).
  unsigned Threads = 0;
  std::function<void(const llvm::Twine &)> Warn = [](const llvm::Twine &) {};
};

struct FormatInfo {
  llvm::StringRef Name;
  llvm::StringRef Description;
  bool (*Detect)(llvm::StringRef Head);
  llvm::Expected<std::unique_ptr<Profile>> (*Read)(InputStream &,
                                                   const ReadOptions &);
  llvm::Error (*Write)(const Profile &, llvm::raw_ostream &,
                       const WriteOptions &);
  /// Write writes binary data, which profkit-opt refuses to send to a
  /// terminal.
  bool Binary = false;
};

/// Every known format, built-in ones first.
llvm::ArrayRef<FormatInfo> formats();
/// Adds a format (from a plugin).
void registerFormat(const FormatInfo &F);
const FormatInfo *findFormat(llvm::StringRef Name);

/// Opens Path ("-" is stdin), detects its format and reads it.
llvm::Expected<std::unique_ptr<Profile>> readProfile(llvm::StringRef Path,
                                                     const ReadOptions &Opts);
/// Detects the format of an open stream and reads it.
llvm::Expected<std::unique_ptr<Profile>> readProfile(InputStream &In,
                                                     const ReadOptions &Opts);

#define PROFKIT_FORMAT(NAME, DESC, DETECT, READ, WRITE, BINARY)                \
  bool DETECT(llvm::StringRef Head);                                           \
  llvm::Expected<std::unique_ptr<Profile>> READ(InputStream &,                 \
                                                const ReadOptions &);          \
  llvm::Error WRITE(const Profile &, llvm::raw_ostream &, const WriteOptions &);
#include "profkit/Formats/Formats.def"

} // namespace profkit

#endif
