//===- Rewrite.h - Rebuilding the rows of a profile ------------*- C++ -*-===//
//
// Rows are compact encoded streams, so passes that change keys (function
// identities, files, positions) or value columns (events) copy every row
// into new RowTables. copyRows() does that copy with every mapping the
// passes need; the destination may be another profile (merge).
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_TRANSFORMS_UTILS_REWRITE_H
#define PROFKIT_TRANSFORMS_UTILS_REWRITE_H

#include "profkit/IR/Profile.h"
#include "profkit/IR/ProfileSlice.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <atomic>
#include <functional>
#include <vector>

namespace profkit {

/// A function whose rows are dropped, along with calls and jumps to it.
constexpr FuncId DroppedFunction = ~FuncId(0);

struct RowMap {
  /// Source function -> destination function or DroppedFunction.
  std::vector<FuncId> Func;
  /// Source string -> destination string, for the files of rows and jump
  /// targets. Empty: the identity.
  std::vector<StrId> File;
  /// Destination event column -> source column, or -1 for a zero. Empty:
  /// the identity.
  std::vector<int> Events;
  /// If set, computes a row's costs instead of Events, appending them to
  /// Out (which holds a call row's count already);
  /// returns false to fail (negative or overflowing derived cost).
  std::function<bool(llvm::ArrayRef<uint64_t> In,
                     llvm::SmallVectorImpl<uint64_t> &Out)>
      Costs;
  /// Destination position -> source position, or -1 for a zero. Empty: the
  /// identity.
  llvm::SmallVector<int, 3> Positions;
  /// Every row is put in the file of its (destination) function.
  bool UseFunctionFile = false;
  /// Multiplies every value of every row (costs, call counts, jump counts)
  /// and the functions' additive values (a weighted merge).
  uint64_t Weight = 1;
  /// Set when a value multiplied by Weight saturated at 2^64-1 (by any of
  /// the threads that copy).
  std::atomic<bool> *WeightSaturated = nullptr;
  /// The threads to copy a part's functions on (a part of thousands of
  /// functions without inline sites); the rows are the same for any number.
  unsigned Threads = 1;
};

/// Adds every row of From (a part of Src) to To (a part of Dst). Returns
/// false if a sum overflowed. To's tables are left unfinalized.
[[nodiscard]] bool copyRows(const Profile &Src, const Part &From, Profile &Dst,
                            Part &To, const RowMap &M);
/// As copyRows(), but empties each function's tables in From once copied:
/// merge's inputs, freed anyway, then never hold a second copy of all their
/// rows. Plain, if given, holds rows of From's functions not in their
/// tables (a slice's).
[[nodiscard]] bool moveRows(const Profile &Src, Part &From, Profile &Dst,
                            Part &To, const RowMap &M,
                            const PlainRows *Plain = nullptr);

/// A cost vector (summary:, totals:) through M.Costs or M.Events.
Part::CostLine mapCostVector(const RowMap &M, llvm::ArrayRef<uint64_t> In);

/// A copy of P whose events are P's columns Keep, in that order. String
/// and function ids are unchanged.
[[nodiscard]] bool keepEvents(Profile &P, llvm::ArrayRef<unsigned> Keep);

/// Rebuilds every part of P with copyRows(P, ..., P, ..., M). Stated
/// totals are dropped if DropTotals (costs changed). False on overflow.
[[nodiscard]] bool
rewriteProfile(Profile &P, const RowMap &M, bool DropTotals,
               llvm::ArrayRef<PositionKind> NewPositions = {});

/// Maps every function through NewIdentity (object, file, name -> the same
/// or a new function of P) and rebuilds P; functions mapped to one identity
/// are merged.
[[nodiscard]] bool
renameFunctions(Profile &P,
                const std::function<Function(const Function &)> &NewIdentity);

llvm::Error overflowError(llvm::StringRef Pass);

} // namespace profkit

#endif
