//===- SourceLines.h - Self cost per source line ---------------*- C++ -*-===//
//
// The self cost of every source line of a profile, summed over its parts and
// functions: what callgrind_annotate prints beside each line of a file. Code
// inlined into a function counts in the file it came from (a row's own
// source file, callgrind's `fi=`/`fe=`), not in the function's file.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_ANALYSIS_SOURCELINES_H
#define PROFKIT_ANALYSIS_SOURCELINES_H

#include "profkit/IR/Profile.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <vector>

namespace profkit {

class SourceLines {
public:
  /// The lines of one file: entries [Begin, End) of the table.
  struct File {
    StrId Name;
    size_t Begin, End;
    std::vector<uint64_t> Total; // Per event, line 0 included.
  };

  /// Sums the self rows of the parts that have a line position. Line 0 is
  /// code the debug info gives no line for.
  static SourceLines compute(const Profile &P);

  /// Has any row a line above 0? A time trace or an instruction-only
  /// profile has none.
  bool hasLines() const { return HasLines; }
  /// Parts that have no line position (their rows are not counted).
  unsigned partsWithoutLines() const { return PartsWithoutLines; }
  size_t numEvents() const { return NumEvents; }

  /// Files in the order of their names, each with its lines in order.
  llvm::ArrayRef<File> files() const { return Files; }
  uint64_t line(size_t I) const { return Lines[I]; }
  llvm::ArrayRef<uint64_t> costs(size_t I) const {
    return llvm::ArrayRef(Costs).slice(I * NumEvents, NumEvents);
  }
  /// Did a sum overflow (and saturate)?
  bool overflowed() const { return Overflow; }

private:
  size_t NumEvents = 0;
  bool HasLines = false, Overflow = false;
  unsigned PartsWithoutLines = 0;
  std::vector<File> Files;
  std::vector<uint64_t> Lines; // By entry.
  std::vector<uint64_t> Costs; // NumEvents per entry.
};

} // namespace profkit

#endif
