//===- Demangle.cpp - Function names as the peer tools show them ----------===//

#include "profkit/Support/Demangle.h"
#include "llvm/Demangle/Demangle.h"
#include <cstdlib>
// glibc declares basename() for C++ already; libiberty.h would again.
#define HAVE_DECL_BASENAME 1
#include <libiberty/demangle.h>

using namespace llvm;

std::string profkit::demangleName(StringRef Name) {
  std::string Mangled = Name.str();
  // The options valgrind and gprof give it: parameters and qualifiers.
  if (char *D = cplus_demangle(Mangled.c_str(), DMGL_PARAMS | DMGL_ANSI)) {
    std::string Result(D);
    std::free(D);
    return Result;
  }
  return llvm::demangle(Mangled);
}
