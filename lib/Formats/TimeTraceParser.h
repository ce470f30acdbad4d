//===- TimeTraceParser.h - clang -ftime-trace JSON into events --*- C++ -*-===//
//
// Parses one time trace into its events, each naming its function (event
// name and detail) by a number local to the trace. Private to the
// time-trace reader.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_LIB_FORMATS_TIMETRACEPARSER_H
#define PROFKIT_LIB_FORMATS_TIMETRACEPARSER_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace profkit {

/// The events ClangBuildAnalyzer builds its tree of.
inline bool isAnalyzedEvent(llvm::StringRef Name) {
  return llvm::is_contained({"ExecuteCompiler", "Frontend", "Backend", "Source",
                             "ParseTemplate", "ParseClass", "InstantiateClass",
                             "InstantiateFunction", "OptModule", "OptFunction"},
                            Name);
}

/// Does the detail of an event of the new pass manager name the IR unit it
/// ran on, by its look: `[module]`, a mangled function or an SCC of them?
/// (Unmangled C functions are told by the trace's function pass manager
/// events; see TraceTree.)
inline bool looksLikeIRUnit(llvm::StringRef Detail) {
  return Detail == "[module]" || Detail.starts_with("_Z") ||
         Detail.starts_with("?") || Detail.starts_with("(_Z") ||
         Detail.starts_with("(?");
}

struct TraceEvent {
  uint64_t Start, Duration;
  uint32_t Function; // Index into ParsedTrace::Functions.
  uint32_t Order;    // In the file, for ties (as ClangBuildAnalyzer).
};

/// What a trace holds: its events and their functions, whose names live in
/// the trace's own memory.
struct ParsedTrace {
  std::vector<TraceEvent> Events;
  /// (event name, detail); the detail is empty if the event has none.
  std::vector<std::pair<llvm::StringRef, llvm::StringRef>> Functions;
  llvm::BumpPtrAllocator NameMemory;
  uint64_t Origin = 0; // beginningOfTime, µs since the epoch.
};

/// Reads and parses traces. One per thread, reused from file to file, so
/// that its buffers are allocated once.
class TraceParser {
public:
  TraceParser();
  ~TraceParser();
  /// Parses the file at Path into Out, reading it as it goes. False (and
  /// nothing read past its head) if it is not a time trace.
  llvm::Expected<bool> parseFile(llvm::StringRef Path, uint64_t MaxMemory,
                                 ParsedTrace &Out);
  /// Takes Data as the trace to parse.
  void setContents(llvm::StringRef Data) {
    Buffer.assign(Data.begin(), Data.end());
  }
  /// Parses the trace of setContents() into Out, named TraceName in errors.
  llvm::Error parse(llvm::StringRef TraceName, ParsedTrace &Out);

private:
  class Impl;
  std::unique_ptr<Impl> I;
  llvm::SmallVector<char, 0> Buffer, Window;
};

} // namespace profkit

#endif
