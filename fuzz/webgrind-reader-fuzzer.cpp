//===- webgrind-reader-fuzzer.cpp - Fuzz the webgrind reader --------------===//

#include "FuzzCommon.h"

using namespace profkit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  fuzz::readToText(llvm::StringRef(reinterpret_cast<const char *>(Data), Size),
                   readWebgrind);
  return 0;
}
