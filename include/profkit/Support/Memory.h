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

/// The size and alignment of the row arena's slabs (RowArena), which hold
/// most of a profile's rows: a table finds its slab from its rows' address.
constexpr size_t SlabBytes = size_t(1) << 21;

/// A slab: SlabBytes at a multiple of SlabBytes, from the C library (so
/// that sanitizers see it), on the small pages touched. Not on transparent
/// huge pages, which take 512 times fewer page faults: on a VM whose balloon
/// hands free memory back to its host, as this project's does, a huge page
/// taken two seconds after the last was freed is backed again 4 KB at a
/// time, at 0.6 GB/s against 2.9 GB/s for small pages, and a read of (d)
/// run on its own, as users run one, took 15 % longer (docs/Performance.md).
/// Never null.
void *allocateSlab();
void deallocateSlab(void *Slab);

} // namespace profkit

#endif
