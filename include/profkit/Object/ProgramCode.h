//===- ProgramCode.h - A program's code as its DWARF describes it -*- C++ -*-=//
//
// What building an LLVM sample profile from instruction counts needs of the
// program, read the way llvm-profgen reads it: the functions DWARF describes
// (DW_TAG_subprogram with addresses, named by linkage name; functions of one
// name share their ranges; only the units of code that ran are read), each
// instruction of their code (disassembled, so that code that never ran still
// gets its zero counts), and the inline frames of an instruction with start
// lines and discriminators.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_OBJECT_PROGRAMCODE_H
#define PROFKIT_OBJECT_PROGRAMCODE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/DebugInfo/DIContext.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class DWARFContext;
class MCDisassembler;
class MCContext;
class MCAsmInfo;
class MCRegisterInfo;
class MCSubtargetInfo;
namespace object {
class ObjectFile;
}
} // namespace llvm

namespace profkit {

class ProgramCode {
public:
  /// A function with code: every DWARF subprogram of its name.
  struct Function {
    std::string Name;
    /// [Start, End) ranges; the first range of each subprogram is an entry.
    llvm::SmallVector<std::pair<uint64_t, uint64_t>, 1> Ranges;
    llvm::SmallVector<uint64_t, 1> Entries;
  };

  /// Reads the DWARF functions of Obj (an ELF file, which must outlive the
  /// result) in the units that hold code at Addresses, and sets up its
  /// disassembler. Fails if those units have no DWARF functions, or if there
  /// is no disassembler for Obj's architecture.
  static llvm::Expected<std::unique_ptr<ProgramCode>>
  create(const llvm::object::ObjectFile &Obj,
         llvm::ArrayRef<uint64_t> Addresses);
  ~ProgramCode();

  /// The function whose code holds Addr, or nullptr.
  const Function *functionAt(uint64_t Addr) const;
  /// The function whose entry is Addr, or nullptr.
  const Function *functionEnteredAt(uint64_t Addr) const;
  /// Do the subprograms read say where functions start (DW_AT_decl_line)?
  /// Without it, line offsets cannot be computed.
  bool hasStartLines() const { return HasStartLines; }

  /// Calls Each with the address and size of every instruction of F's code.
  llvm::Error
  forEachInstruction(const Function &F,
                     llvm::function_ref<void(uint64_t, uint64_t)> Each) const;
  /// The source frames of the instruction at Addr, innermost first, with
  /// linkage names, lines, start lines and raw discriminators.
  llvm::DIInliningInfo frames(uint64_t Addr) const;

private:
  ProgramCode(const llvm::object::ObjectFile &Obj);
  llvm::Error readFunctions(llvm::ArrayRef<uint64_t> Addresses);
  llvm::Error setUpDisassembler();

  const llvm::object::ObjectFile &Obj;
  std::unique_ptr<llvm::DWARFContext> Dwarf;
  std::vector<Function> Functions;
  llvm::StringMap<unsigned> ByName;
  /// Every range by start: Start, End, the function's index.
  struct Range {
    uint64_t Start, End;
    unsigned Func;
  };
  std::vector<Range> Ranges;
  std::vector<std::pair<uint64_t, unsigned>> EntryIndex; // Sorted.
  bool HasStartLines = false;

  std::unique_ptr<llvm::MCRegisterInfo> RegInfo;
  std::unique_ptr<llvm::MCAsmInfo> AsmInfo;
  std::unique_ptr<llvm::MCSubtargetInfo> SubtargetInfo;
  std::unique_ptr<llvm::MCContext> Context;
  std::unique_ptr<llvm::MCDisassembler> Disassembler;
};

} // namespace profkit

#endif
