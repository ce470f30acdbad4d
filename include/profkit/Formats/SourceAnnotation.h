//===- SourceAnnotation.h - Source files with their cost -------*- C++ -*-===//
//
// The report's `source` part: each of the costliest source files with the
// self cost of every line, as callgrind_annotate --auto=yes prints them,
// and the per-line costs of the JSON report. Files are looked for where the
// profile names them, through prefix substitutions and a search list, for
// profiles made on another machine.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_FORMATS_SOURCEANNOTATION_H
#define PROFKIT_FORMATS_SOURCEANNOTATION_H

#include "profkit/IR/Profile.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class raw_ostream;
namespace json {
class OStream;
} // namespace json
} // namespace llvm

namespace profkit {

class PassParams;
class SourceLines;

/// The report's `source`, `source-dir=`, `source-prefix=`, `source-files=`,
/// `context=` and `hot=` parameters.
struct SourceOptions {
  bool Enabled = false;
  std::vector<std::string> Dirs;
  std::vector<std::pair<std::string, std::string>> Prefixes; // Old, new.
  unsigned Context = 8, MaxFiles = 20;
  double HotShare = 1; // In percent of the run's total.
  unsigned Event = 0;  // The event shares and the choice of files are of.
};

/// Reads the parameters into O (all but Event), checking every value.
llvm::Error parseSourceOptions(const PassParams &Params, SourceOptions &O);

/// Where a file the profile names may be, in the order they are tried: its
/// path after each source-prefix= that matches it, the path itself, then
/// under each source-dir= directory the path (if relative) and its trailing
/// parts, longest first.
std::vector<std::string> sourceCandidates(llvm::StringRef Name,
                                          const SourceOptions &O);

/// The text: the costliest files, each line with its cost, elided away from
/// the lines with cost; files not found listed with their cost.
void writeAnnotatedSource(llvm::raw_ostream &OS, const Profile &P,
                          const SourceLines &S, const SourceOptions &O,
                          llvm::ArrayRef<uint64_t> RunTotal);

/// The JSON report's "lines": [{"file", "line", "self": [per event]}], by
/// file and line.
void writeSourceLinesJson(llvm::json::OStream &J, const Profile &P,
                          const SourceLines &S);

} // namespace profkit

#endif
