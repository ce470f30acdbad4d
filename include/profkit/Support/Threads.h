//===- Threads.h - How many threads a job may use ---------------*- C++ -*-===//
//
// The tools' -threads=N caps every thread profkit starts: readers, writers,
// the driver that reads inputs ahead of the passes, and merge's copies. 0
// means every core.
// No result depends on it: work is split by the input, never by the thread
// count, and joined in input order.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_SUPPORT_THREADS_H
#define PROFKIT_SUPPORT_THREADS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace profkit {

/// The threads a job may use when the user allows Cap (0: every core).
inline unsigned availableThreads(unsigned Cap) {
  return Cap ? Cap : std::max(1u, std::thread::hardware_concurrency());
}

/// Calls Fn(I) for every I below N, on up to Threads threads (this one
/// among them), each taking the next few I when done with the last: a
/// sixty-fourth of its share, so that tiny calls do not wait on the
/// counter. The calls must not depend on one another.
inline void parallelFor(unsigned Threads, size_t N,
                        llvm::function_ref<void(size_t)> Fn) {
  size_t Chunk = std::max<size_t>(1, N / (size_t(std::max(1u, Threads)) * 64));
  std::atomic<size_t> Next{0};
  auto Work = [&] {
    for (size_t I; (I = Next.fetch_add(Chunk, std::memory_order_relaxed)) < N;)
      for (size_t E = std::min(N, I + Chunk); I != E; ++I)
        Fn(I);
  };
  std::vector<std::thread> Helpers;
  for (size_t T = 1; T < std::min<size_t>(Threads, N); ++T)
    Helpers.emplace_back(Work);
  Work();
  for (std::thread &T : Helpers)
    T.join();
}

} // namespace profkit

#endif
