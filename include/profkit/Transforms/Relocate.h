//===- Relocate.h - Tie addresses to functions, and back --------*- C++ -*-===//
//
// Symbol relocation against one executable (ELF), in both directions:
//
//  - addresses to functions: the address-level data of a part (gmon.out
//    histograms and arcs) becomes self costs and call rows of functions,
//    found in the ELF symbol table as gprof finds them (a symbol extends to
//    the next one; a bin straddling two functions is split by overlap), with
//    files and lines from DWARF through llvm::symbolize (inlined frames
//    included). A PIE file holding runtime addresses is detected and its
//    load bias removed. Call rows get gprof's inclusive cost (the callee's
//    self and children time shared by call counts, cycles collapsed; see
//    docs/Gmon.md).
//
//  - functions to addresses: a part without address-level data (callgrind)
//    gets arcs for the calls between the executable's functions: from the
//    call rows' instruction addresses (callgrind --dump-instr=yes, relative
//    to each ob= object), else from the symbol table by function name. Such a
//    profile can then be written as gmon.out for that executable.
//
// A part holding both functions and address-level data is relocated already
// and left as it is. The `relocate` pass runs it; profkit-opt -binary runs
// it on every input when the pipeline has none.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_TRANSFORMS_RELOCATE_H
#define PROFKIT_TRANSFORMS_RELOCATE_H

#include "profkit/IR/PassParams.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <functional>

namespace llvm {
class Twine;
}

namespace profkit {

struct RelocateOptions {
  /// Map addresses to files and lines with DWARF (else functions only).
  bool Lines = true;
  /// Name functions by their demangled symbols, as gprof shows them.
  bool Demangle = true;
  std::function<void(const llvm::Twine &)> Warn = [](const llvm::Twine &) {};
  std::function<void(const llvm::Twine &)> Note = [](const llvm::Twine &) {};
};

/// Relocates every part of P against the executable at BinaryPath (see
/// above). Fails if the binary is not an ELF executable or has no symbols.
llvm::Error relocate(Profile &P, llvm::StringRef BinaryPath,
                     const RelocateOptions &Opts = {});

struct RelocatePass : ParamPassMixin<RelocatePass> {
  static constexpr const char *PassName = "relocate";
  static llvm::Expected<RelocatePass> create(const PassParams &Params,
                                             PassContext &Ctx);
  llvm::Expected<PreservedAnalyses> run(Profile &P, ProfileAnalysisManager &AM);

private:
  std::string Binary;
  bool Lines = true;
  bool Demangle = true;
  PassContext *Ctx = nullptr;
};

} // namespace profkit

#endif
