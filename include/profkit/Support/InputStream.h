//===- InputStream.h - Streaming, decompressing input ----------*- C++ -*-===//
//
// Reads a file (or stdin for "-") in bounded chunks, inflating gzip data on
// the fly when the file starts with the gzip magic, whatever its name. Text
// readers take one line at a time without copying; binary readers take the
// whole (decompressed) contents.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_SUPPORT_INPUTSTREAM_H
#define PROFKIT_SUPPORT_INPUTSTREAM_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>
#include <string>
#include <vector>

namespace profkit {

class InputStream {
public:
  /// Opens Path; "-" is standard input.
  static llvm::Expected<std::unique_ptr<InputStream>>
  open(llvm::StringRef Path);
  /// Reads from memory (tests, fuzzers); gzip data is inflated as from a
  /// file.
  static std::unique_ptr<InputStream> fromBuffer(llvm::StringRef Data,
                                                 llvm::StringRef Name);
  virtual ~InputStream();

  const std::string &name() const { return Name; }
  bool isCompressed() const { return Compressed; }

  /// Up to N leading bytes of the (decompressed) contents, for detecting the
  /// format; does not consume them.
  llvm::Expected<llvm::StringRef> peek(size_t N);

  /// The next line without its '\n' (and without the '\r's before it). Returns
  /// false at the end of the input or on an error; see takeError(). The line
  /// stays valid until the next call. The byte after the line is readable and
  /// is '\n' or '\r' (also after a last line without '\n'), so scanners may
  /// stop at it rather than check for the end.
  bool nextLine(llvm::StringRef &Line);
  /// The number of the line nextLine() returned last (1-based).
  uint64_t lineNumber() const { return LineNo; }
  /// The error that stopped nextLine(), if any.
  llvm::Error takeError();

  /// Everything not yet consumed, decompressed.
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> readAll();

  /// Caps the (decompressed) bytes held at once, that is the longest line
  /// and what readAll() returns, at MaxBytes; 0 is no limit. Past it,
  /// reading fails with "NAME: more than N bytes ... (the memory limit)".
  void setMemoryLimit(uint64_t MaxBytes) { Limit = MaxBytes; }

protected:
  InputStream(std::string Name) : Name(std::move(Name)) {}
  /// Fills Out with up to Size bytes; 0 at the end.
  virtual llvm::Expected<size_t> readRaw(char *Out, size_t Size) = 0;
  /// Makes the first read fail with E.
  void setError(llvm::Error E) {
    Err = std::move(E);
    AtEOF = true;
  }

private:
  bool fill(); // Moves unread bytes to the front and reads more.

  std::string Name;
  std::vector<char> Buf;
  size_t Begin = 0, End = 0;
  uint64_t LineNo = 0;
  uint64_t Limit = 0;
  bool AtEOF = false;
  llvm::Error Err = llvm::Error::success();

protected:
  bool Compressed = false;
  size_t Chunk = 1 << 20; // Bytes read (or inflated) at a time.
};

} // namespace profkit

#endif
