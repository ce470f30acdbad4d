//===- Gmon.h - gprof gmon.out helpers -------------------------*- C++ -*-===//
//
// What the gmon.out reader, writer and the relocation share: the address
// size and byte order of an executable (gmon.out stores neither; both come
// from the program the file was written for). See docs/Gmon.md.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_FORMATS_GMON_H
#define PROFKIT_FORMATS_GMON_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <vector>

namespace profkit {

/// How a program stores addresses.
struct AddressLayout {
  unsigned Size = 8; // Bytes: 4 or 8.
  bool BigEndian = false;
};

/// The address layout of the ELF executable at Path, from its identification
/// bytes. Fails with "PATH: not in executable format" (gprof's wording) for
/// anything that is not ELF.
llvm::Expected<AddressLayout> readExecutableLayout(llvm::StringRef Path);

} // namespace profkit

#endif
