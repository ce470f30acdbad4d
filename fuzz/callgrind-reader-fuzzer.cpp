//===- callgrind-reader-fuzzer.cpp - Fuzz the callgrind-family reader -----===//
//
// Reads the input as callgrind text, in one piece, in two and in three (each
// on a thread of its own, as large files are read), then the same bytes
// gzip-compressed (unless they are gzip data already) in one piece and in
// two (each inflating them from the start): all must give the same
// warnings and IR (or error). Then under a memory limit the input may go
// over part-way, in one piece and in three, whose IR counts against the
// limit together: both must fail at the same line, or give the same IR.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

using namespace profkit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  ReadOptions Opts;
  std::string Plain = fuzz::readToText(Bytes, readCallgrind, Opts, true);
  // Bytes that start as gzip data are inflated when read plain; compressed
  // once more, they are inflated one layer only, to those bytes.
  if (!Bytes.starts_with("\x1f\x8b")) {
    std::string Gzip = fuzz::gzip(Bytes);
    std::string Zipped = fuzz::readToText(Gzip, readCallgrind, Opts, true);
    if (Plain != Zipped)
      fuzz::mismatch("plain and gzip reads differ", Plain, Zipped);
    ReadOptions InPieces;
    InPieces.Threads = 2;
    Zipped = fuzz::readToText(Gzip, readCallgrind, InPieces, true);
    if (Plain != Zipped)
      fuzz::mismatch("plain and gzip reads in two pieces differ", Plain,
                     Zipped);
  }
  for (unsigned Pieces : {2, 3}) {
    ReadOptions InPieces;
    InPieces.Threads = Pieces;
    std::string Split = fuzz::readToText(Bytes, readCallgrind, InPieces, true);
    if (Plain != Split)
      fuzz::mismatch(Pieces == 2 ? "reads in one piece and in two differ"
                                 : "reads in one piece and in three differ",
                     Plain, Split);
  }
  ReadOptions Limited;
  Limited.MaxMemory = 4 * Size + 1024;
  std::string One = fuzz::readToText(Bytes, readCallgrind, Limited, true);
  Limited.Threads = 3;
  std::string Three = fuzz::readToText(Bytes, readCallgrind, Limited, true);
  if (One != Three)
    fuzz::mismatch("reads under a memory limit in one piece and in three "
                   "differ",
                   One, Three);
  return 0;
}
