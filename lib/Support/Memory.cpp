//===- Memory.cpp - How the tools use the C library's allocator -----------===//

#include "profkit/Support/Memory.h"
#include "llvm/Support/MemAlloc.h"
#include <cassert>
#include <cstdlib> // Defines __GLIBC__ with glibc.
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

void profkit::giveFreedMemoryBack() {
#if defined(__GLIBC__)
  mallopt(M_TRIM_THRESHOLD, 1 << 20);
#endif
}

// The C library's aligned allocation, not a mapping of our own, so that
// sanitizers see the blocks.
void *profkit::allocateHugePages(size_t Bytes, bool AskForHugePages) {
  assert(Bytes && Bytes % HugePageBytes == 0 && "whole huge pages");
  void *P = llvm::allocate_buffer(Bytes, HugePageBytes);
#if defined(MADV_HUGEPAGE)
  if (AskForHugePages) // Where the kernel says no, small pages serve.
    madvise(P, Bytes, MADV_HUGEPAGE);
#endif
  return P;
}

void profkit::deallocateHugePages(void *P, size_t Bytes) {
  llvm::deallocate_buffer(P, Bytes, HugePageBytes);
}
