//===- Memory.cpp - How the tools use the C library's allocator -----------===//

#include "profkit/Support/Memory.h"
#include "llvm/Support/MemAlloc.h"
#include <cstdlib> // Defines __GLIBC__ with glibc.
#if defined(__GLIBC__)
#include <malloc.h>
#endif

void profkit::giveFreedMemoryBack() {
#if defined(__GLIBC__)
  mallopt(M_TRIM_THRESHOLD, 1 << 20);
#endif
}

void *profkit::allocateSlab() {
  return llvm::allocate_buffer(SlabBytes, SlabBytes);
}

void profkit::deallocateSlab(void *Slab) {
  llvm::deallocate_buffer(Slab, SlabBytes, SlabBytes);
}
