//===- Memory.h - How the tools use the C library's allocator --*- C++ -*-===//
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_SUPPORT_MEMORY_H
#define PROFKIT_SUPPORT_MEMORY_H

#include <cstddef>

namespace profkit {

/// Makes the allocator give freed memory back to the system once a megabyte
/// of it is free at the top of the heap. glibc's default lets that grow to
/// twice the largest block freed so far: reading a cachegrind file of a
/// million functions, or merging a second input into the first as it is
/// read, then peaked 12 % and 20 % higher (docs/Performance.md).
void giveFreedMemoryBack();

/// The size and alignment of a transparent huge page on x86-64.
constexpr size_t HugePageBytes = size_t(1) << 21;

/// Bytes, a multiple of HugePageBytes, at a multiple of it, which the kernel
/// backs with huge pages where it may (transparent huge pages in `madvise`
/// mode): one page fault for 2 MB instead of 512 (page faults took a fifth
/// of the CPU time of a read on this project's VM; docs/Performance.md).
/// For memory filled soon after it is allocated: a page touched once takes
/// 2 MB. A block that may stay nearly empty (the first of several) asks for
/// no huge pages, and takes the small pages touched. Never null.
void *allocateHugePages(size_t Bytes, bool AskForHugePages = true);
void deallocateHugePages(void *P, size_t Bytes);

} // namespace profkit

#endif
