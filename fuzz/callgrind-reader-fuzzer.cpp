//===- callgrind-reader-fuzzer.cpp - Fuzz the callgrind-family reader -----===//
//
// Reads the input as callgrind text, then the same bytes gzip-compressed: both
// must give the same IR (or the same error).
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

using namespace profkit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  std::string Plain = fuzz::readToText(Bytes, readCallgrind);
  std::string Zipped = fuzz::readToText(fuzz::gzip(Bytes), readCallgrind);
  if (Plain != Zipped)
    fuzz::mismatch("plain and gzip reads differ", Plain, Zipped);
  return 0;
}
