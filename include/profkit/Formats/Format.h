//===- Format.h - Reading and writing profiles ------------------*- C++ -*-===//
//
// The registry of profile formats. Readers are chosen by the contents of the
// input, never by its name; writers by name, with their parameters
// (-output-format=webgrind<version=6>). The built-in formats and their
// parameters are listed in Formats.def; plugins may register more.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_FORMATS_FORMAT_H
#define PROFKIT_FORMATS_FORMAT_H

#include "profkit/IR/Params.h"
#include "profkit/IR/Profile.h"
#include "profkit/IR/ProfileSlice.h"
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
  /// callgrind: threads to read with, one piece of the file each. 0: one
  /// for every 8 MB of a file, at most MaxThreads and 8; 1: one; N: N for
  /// any file (gzip data: 2 at most), with a note when the file cannot be
  /// split so.
  /// A directory of time traces: 0 is every core.
  unsigned Threads = 0;
  /// The threads reading may use at most, when Threads leaves the choice to
  /// the reader (-threads; 0: every core).
  unsigned MaxThreads = 0;
  /// If set, the reader may hand the profile over in slices as it reads
  /// (ProfileSlice), one when its function data since the last reaches
  /// SliceBytes, and then reads on one thread; an error from Slice ends the
  /// reading with that error. The profile it returns holds the rest. Only
  /// the callgrind reader slices; others return the whole profile.
  std::function<llvm::Error(ProfileSlice &)> Slice;
  uint64_t SliceBytes = 0;
};

/// What a writer may need from the tool that runs it, besides its
/// parameters (which Formats.def declares and the tool parses).
struct WriteContext {
  /// gmon: the executable whose address size and byte order to write (the
  /// tool's -binary, which also relocates; not a parameter of the output).
  std::string Binary;
  std::function<void(const llvm::Twine &)> Warn = [](const llvm::Twine &) {};
  /// The threads writing may use at most, when the writer's parameters
  /// leave the choice to it (-threads; 0: every core).
  unsigned MaxThreads = 0;
};

using WriteFn = llvm::Error (*)(const Profile &, llvm::raw_ostream &,
                                const PassParams &, const WriteContext &);

struct FormatInfo {
  llvm::StringRef Name;
  llvm::StringRef Description;
  bool (*Detect)(llvm::StringRef Head);
  llvm::Expected<std::unique_ptr<Profile>> (*Read)(InputStream &,
                                                   const ReadOptions &);
  WriteFn Write;
  /// Write writes binary data, which profkit-opt refuses to send to a
  /// terminal.
  bool Binary = false;
  /// The writer's parameters (`-output-format=NAME<key=value;flag>`).
  std::vector<PassParamInfo> Params = {};
  /// The pass whose result Write writes (PROFKIT_FORMAT_PASS); the tool
  /// appends it to a pipeline that lacks it.
  llvm::StringRef RequiredPass = {};
};

/// The writer that -output-format names, with its parameters.
struct OutputSpec {
  const FormatInfo *Format;
  PassParams Params;
};

/// For writers of functions: fails when P holds program addresses not tied to
/// functions (a gmon.out read without -binary), which they cannot write.
llvm::Error requireFunctions(const Profile &P);

/// For writers of formats without a timeline or inline stacks (callgrind,
/// webgrind, gmon.out): warns once for each that P holds and Format loses:
/// intervals (Part::Intervals), inline sites (written as the function's own
/// code).
void warnDroppedData(const Profile &P, llvm::StringRef Format,
                     const WriteContext &Ctx);

/// Every known format, built-in ones first.
llvm::ArrayRef<FormatInfo> formats();
/// Adds a format (from a plugin).
void registerFormat(const FormatInfo &F);
const FormatInfo *findFormat(llvm::StringRef Name);
/// The formats that can be written, separated by commas.
std::string writableFormatNames();
/// Parses `NAME` or `NAME<key=value;flag;no-flag>` (the pipeline's parameter
/// syntax) into a writer and its parameters.
llvm::Expected<OutputSpec> parseOutputSpec(llvm::StringRef Text);
/// The text of -print-formats: every format with its parameters.
void printFormats(llvm::raw_ostream &OS);

/// Opens Path ("-" is stdin), detects its format and reads it. A directory
/// is read as a build: the clang time traces under it
/// (readTimeTraceDirectory).
llvm::Expected<std::unique_ptr<Profile>> readProfile(llvm::StringRef Path,
                                                     const ReadOptions &Opts);
/// Every clang -ftime-trace JSON under Dir, recursively, as one profile (one
/// compilation per trace), parsed on Opts.Threads threads (0: every core).
/// Other `.json` files are skipped with one note.
llvm::Expected<std::unique_ptr<Profile>>
readTimeTraceDirectory(llvm::StringRef Dir, const ReadOptions &Opts);
/// Detects the format of an open stream and reads it.
llvm::Expected<std::unique_ptr<Profile>> readProfile(InputStream &In,
                                                     const ReadOptions &Opts);

#define PROFKIT_FORMAT(NAME, DESC, DETECT, READ, WRITE, BINARY)                \
  bool DETECT(llvm::StringRef Head);                                           \
  llvm::Expected<std::unique_ptr<Profile>> READ(InputStream &,                 \
                                                const ReadOptions &);          \
  llvm::Error WRITE(const Profile &, llvm::raw_ostream &, const PassParams &,  \
                    const WriteContext &);
#define PROFKIT_READ_FORMAT(NAME, DESC, DETECT, READ)                          \
  bool DETECT(llvm::StringRef Head);                                           \
  llvm::Expected<std::unique_ptr<Profile>> READ(InputStream &,                 \
                                                const ReadOptions &);
#define PROFKIT_WRITE_FORMAT(NAME, DESC, WRITE, BINARY)                        \
  llvm::Error WRITE(const Profile &, llvm::raw_ostream &, const PassParams &,  \
                    const WriteContext &);
#include "profkit/Formats/Formats.def"

} // namespace profkit

#endif
