//===- Memory.cpp - How the tools use the C library's allocator -----------===//

#include "profkit/Support/Memory.h"
#include <cstdlib> // Defines __GLIBC__ with glibc.
#if defined(__GLIBC__)
#include <malloc.h>
#endif

void profkit::giveFreedMemoryBack() {
#if defined(__GLIBC__)
  mallopt(M_TRIM_THRESHOLD, 1 << 20);
#endif
}
