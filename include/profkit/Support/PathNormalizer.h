//===- PathNormalizer.h - File and object names made comparable -*- C++ -*-===//
//
// Profiles of the same program made on two machines or in two build trees
// name its files differently. Matching functions across them (merge,
// profkit-diff) first deletes the first match of a regex from every path
// (strip-path), then optionally keeps only the last component (basename).
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_SUPPORT_PATHNORMALIZER_H
#define PROFKIT_SUPPORT_PATHNORMALIZER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"
#include <memory>
#include <optional>
#include <string>

namespace profkit {

class PathNormalizer {
public:
  /// Leaves paths as they are.
  PathNormalizer() = default;
  PathNormalizer(std::optional<llvm::Regex> StripPath, bool Basename);
  /// Does it change any path?
  bool active() const { return StripPath || Basename; }
  std::string operator()(llvm::StringRef Path) const;

private:
  std::shared_ptr<llvm::Regex> StripPath; // Shared: passes are copied.
  bool Basename = false;
};

} // namespace profkit

#endif
