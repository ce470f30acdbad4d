//===- BuildReport.h - Where a build spends its time ------------*- C++ -*-===//
//
// The numbers of ClangBuildAnalyzer's report, computed from a profile of
// clang time traces (and `.ninja_log` edges): compilations and frontend /
// backend totals, files by frontend and backend time, template
// instantiations by name and by set, functions by optimisation time and by
// set, expensive headers with the include chains that bring them in, and the
// slowest build steps. The rules, and where the profile's aggregate can only
// approximate a trace's tree, are in docs/BuildProfiling.md.
//
//   Expected<BuildReport> R = BuildReport::compute(P);
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_ANALYSIS_BUILDREPORT_H
#define PROFKIT_ANALYSIS_BUILDREPORT_H

#include "profkit/IR/Profile.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace profkit {

struct BuildReport {
  /// A row of a list: a file, template, function or set, its time in µs
  /// and how many times it occurs. File is a function's translation unit.
  struct Entry {
    std::string Name;
    uint64_t Us = 0;
    uint64_t Count = 0;
    std::string File;
  };
  /// The headers above an inclusion of a header, outermost first (empty: a
  /// direct include), how often it brought the header in and the time.
  struct Chain {
    std::vector<std::string> Files;
    uint64_t Count = 0, Us = 0;
  };
  struct Header {
    std::string File;
    uint64_t Us = 0, Count = 0;
    /// Chains sorted by count, then time, longest first.
    std::vector<Chain> Chains;
    /// Included directly from a source file at least once.
    bool Direct = false;
  };

  uint64_t Compilations = 0, FrontendUs = 0, BackendUs = 0;
  /// Every list is sorted by time, longest first, then by name.
  std::vector<Entry> FilesFrontend, FilesBackend, Templates, TemplateSets,
      Functions, FunctionSets;
  std::vector<Header> Headers;
  /// `.ninja_log` edges (functions of file "ninja") by wall time, and the
  /// build's elapsed time from the first start to the last end.
  std::vector<Entry> Steps;
  uint64_t StepsElapsedUs = 0;

  /// Fails if P has no `us` event (it is not a profile of a build).
  static llvm::Expected<BuildReport> compute(const Profile &P);
};

/// ClangBuildAnalyzer's template set name: every top-level `<...>` becomes
/// `<$>`; a name containing `operator`, or with a `<` never closed, is kept.
std::string collapseTemplateArgs(llvm::StringRef Name);

/// A mangled name demangled as ClangBuildAnalyzer shows it: LLVM's demangler
/// (Itanium and Microsoft names), with `> >` between closing brackets as
/// its 2019 copy of that demangler wrote them.
std::string demangleAsBuildAnalyzer(llvm::StringRef Name);

/// A path with `\` as `/`, `.` and `..` resolved and repeated separators
/// collapsed, lexically, as ClangBuildAnalyzer shows header paths.
std::string normalizeBuildPath(llvm::StringRef Path);

} // namespace profkit

#endif
