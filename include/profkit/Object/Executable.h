//===- Executable.h - The program a profile belongs to ---------*- C++ -*-===//
//
// An ELF executable as the relocation of gmon.out data (and, later, sample
// profiles) needs it: its address layout, its function symbols chosen by
// gprof's rules, the values of linker-defined symbols, and source files and
// lines through DWARF (llvm::symbolize, inlined frames included). The
// gmon.out reader and writer only need the layout, which
// readExecutableLayout() takes from the first 16 bytes.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_OBJECT_EXECUTABLE_H
#define PROFKIT_OBJECT_EXECUTABLE_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
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

/// A function symbol: the code from Addr to the next symbol.
struct Symbol {
  uint64_t Addr = 0;
  uint64_t End = 0; // Exclusive.
  std::string Name;
  unsigned Rank = 0; // Lower is preferred among aliases.
  bool Excluded = false;
};

/// A file and line of the program's source.
struct SourcePlace {
  std::string File; // Empty if unknown.
  uint64_t Line = 0;
};

class Executable {
public:
  /// Opens the ELF executable at Path and reads its function symbols.
  /// Fails with "PATH: not in executable format" or "file `PATH' has no
  /// symbols", as gprof does.
  static llvm::Expected<std::unique_ptr<Executable>> open(llvm::StringRef Path);

  AddressLayout layout() const;
  const llvm::object::ObjectFile &object() const { return *Obj; }
  /// Is it position-independent (a PIE, or a shared object)?
  bool isPIE() const;

  /// The symbols, by address; one per address (the best ranked of aliases).
  const std::vector<Symbol> &symbols() const { return Syms; }
  /// The symbol containing Addr, or nullptr.
  const Symbol *lookup(uint64_t Addr) const;
  /// The symbol of this name, mangled or demangled, or nullptr.
  const Symbol *byName(llvm::StringRef Name) const;
  /// The value of the (linker-defined) symbol Name, if the program has it.
  std::optional<uint64_t> symbolValue(llvm::StringRef Name) const;
  /// Is Addr in a code section?
  bool inText(uint64_t Addr) const;

  /// The innermost source frame at Addr (where the code is), or the
  /// outermost (the function it was inlined into). Empty if DWARF does not
  /// say.
  SourcePlace frame(uint64_t Addr, bool Innermost);

private:
  Executable(llvm::StringRef Path,
             llvm::object::OwningBinary<llvm::object::ObjectFile> Bin);
  llvm::Error readSymbols();

  std::string Path;
  llvm::object::OwningBinary<llvm::object::ObjectFile> Bin;
  const llvm::object::ELFObjectFileBase *Obj;
  std::vector<Symbol> Syms;
  llvm::StringMap<size_t> Names, Demangled;
  llvm::symbolize::LLVMSymbolizer Symbolizer;
};

} // namespace profkit

#endif
