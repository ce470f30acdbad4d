//===- Demangle.h - Function names as the peer tools show them --*- C++ -*-===//
//
// valgrind, gprof and c++filt demangle C++ names with GNU libiberty, whose
// text differs from LLVM's demangler (`vector<int, allocator<int> >` against
// `>>`, `{lambda(double)#1}` against `'lambda'(double)`). A profile
// demangled by valgrind and one demangled by profkit must name a function
// alike, or merging them would keep two functions, so C++ names are
// demangled by libiberty, as those tools do; LLVM's demangler takes the
// names libiberty does not (Rust v0, MSVC).
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_SUPPORT_DEMANGLE_H
#define PROFKIT_SUPPORT_DEMANGLE_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace profkit {

/// The demangled form of Name, or Name itself if it is not mangled.
std::string demangleName(llvm::StringRef Name);

} // namespace profkit

#endif
