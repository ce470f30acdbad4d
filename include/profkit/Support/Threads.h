//===- Threads.h - How many threads a job may use ---------------*- C++ -*-===//
//
// The tools' -threads=N caps every thread profkit starts: readers, writers
// and the driver that reads inputs ahead of the passes. 0 means every core.
// No result depends on it: work is split by the input, never by the thread
// count, and joined in input order.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_SUPPORT_THREADS_H
#define PROFKIT_SUPPORT_THREADS_H

#include <algorithm>
#include <thread>

namespace profkit {

/// The threads a job may use when the user allows Cap (0: every core).
inline unsigned availableThreads(unsigned Cap) {
  return Cap ? Cap : std::max(1u, std::thread::hardware_concurrency());
}

} // namespace profkit

#endif
