//===- Memory.cpp - How the tools use the C library's allocator -----------===//

#include "profkit/Support/Memory.h"
#include "llvm/Support/MemAlloc.h"
#include <cassert>
#include <cstdlib> // Defines __GLIBC__ with glibc.
#if defined(__GLIBC__)
#include <malloc.h>
#endif

void profkit::giveFreedMemoryBack() {
#if defined(__GLIBC__)
  mallopt(M_TRIM_THRESHOLD, 1 << 20);
#endif
}

void *profkit::allocateSlab(size_t Bytes) {
  assert(Bytes && Bytes % SlabBytes == 0 && "whole slabs");
  return llvm::allocate_buffer(Bytes, SlabBytes);
}

void profkit::deallocateSlab(void *P, size_t Bytes) {
  llvm::deallocate_buffer(P, Bytes, SlabBytes);
}
