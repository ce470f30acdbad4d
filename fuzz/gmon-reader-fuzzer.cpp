//===- gmon-reader-fuzzer.cpp - Fuzz the gmon.out reader ------------------===//
//
// Reads each input five times: with the address size and byte order inferred
// from the file, and as given by an executable of each of the four layouts
// (32/64-bit, little/big-endian). The executables are 16-byte ELF
// identifications, all the reader looks at, written once to a temporary
// directory.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <fstream>

using namespace profkit;

static std::string Binaries[4];
static llvm::SmallString<128> Dir;

static void removeBinaries() {
  for (const std::string &B : Binaries)
    llvm::sys::fs::remove(B);
  llvm::sys::fs::remove(Dir);
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  if (llvm::sys::fs::createUniqueDirectory("profkit-gmon-fuzz", Dir))
    abort();
  for (unsigned I = 0; I != 4; ++I) {
    char Ident[16] = {0x7f, 'E', 'L', 'F'};
    Ident[4] = I & 1 ? 2 : 1; // ELFCLASS64 : ELFCLASS32
    Ident[5] = I & 2 ? 2 : 1; // ELFDATA2MSB : ELFDATA2LSB
    Ident[6] = 1;             // EV_CURRENT
    llvm::SmallString<128> Path(Dir);
    llvm::sys::path::append(Path, "elf" + std::to_string(I));
    std::ofstream(Path.c_str(), std::ios::binary).write(Ident, 16);
    Binaries[I] = std::string(Path);
  }
  std::atexit(removeBinaries);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  fuzz::readToText(Bytes, readGmon);
  for (const std::string &B : Binaries) {
    ReadOptions Opts;
    Opts.Binary = B;
    fuzz::readToText(Bytes, readGmon, Opts);
  }
  return 0;
}
