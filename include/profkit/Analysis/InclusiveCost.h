//===- InclusiveCost.h - Per-function self and inclusive cost ---*- C++ -*-===//
//
// Sums a profile per function, over all its parts: self cost, inclusive cost
// (the cost of the function and of everything it called) for every event, and
// the number of calls into it. Inclusive cost is right under recursion and
// mutual recursion; see docs/InclusiveCost.md for the rule used inside call
// cycles.
//
//   InclusiveCost IC = InclusiveCost::compute(P);
//   uint64_t Incl = IC.inclusive(F)[Event];
//
// The call graph is walked with an iterative Tarjan SCC search, so deep call
// chains do not recurse on the C++ stack.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_ANALYSIS_INCLUSIVECOST_H
#define PROFKIT_ANALYSIS_INCLUSIVECOST_H

#include "profkit/IR/PassManager.h"
#include "profkit/IR/Profile.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <vector>

namespace profkit {

class InclusiveCost {
public:
  /// Computes the costs of every function of P (every FuncId, including
  /// functions that only appear as callees). Sums saturate at 2^64-1.
  static InclusiveCost compute(const Profile &P);

  size_t numFunctions() const { return NumFunctions; }
  size_t numEvents() const { return NumEvents; }

  /// Self cost per event: the sum of the function's self rows.
  llvm::ArrayRef<uint64_t> self(FuncId F) const {
    return llvm::ArrayRef(Self).slice(size_t(F) * NumEvents, NumEvents);
  }
  /// Inclusive cost per event. Outside call cycles: self plus the inclusive
  /// cost of every call it makes. Never more than total().
  llvm::ArrayRef<uint64_t> inclusive(FuncId F) const {
    return llvm::ArrayRef(Inclusive).slice(size_t(F) * NumEvents, NumEvents);
  }
  /// The number of calls into F: the sum of the call counts of every call
  /// row whose callee is F, recursive calls included.
  uint64_t calls(FuncId F) const { return Calls[F]; }
  /// Does any other function call F? (Calls with a count of 0 count.)
  bool hasCallers(FuncId F) const { return HasCallers[F]; }
  /// The number of parts that hold self or call rows of F.
  unsigned partsWithData(FuncId F) const { return PartsWithData[F]; }
  /// Is F part of a call cycle (a cycle of two or more functions, or a call
  /// to itself)?
  bool isRecursive(FuncId F) const { return Recursive[F]; }
  /// The id of F's strongly connected component of the call graph; two
  /// functions have the same id iff each (indirectly) calls the other.
  unsigned component(FuncId F) const { return Component[F]; }
  /// The total of the run per event, as the totals analysis gives it: the
  /// sum of every part's partRunTotal().
  llvm::ArrayRef<uint64_t> total() const { return Total; }

  /// The calls from one function to another, summed over parts and call
  /// sites, in the order the profile first has them.
  struct Arc {
    FuncId From, To;
    uint64_t Count;
  };
  llvm::ArrayRef<Arc> arcs() const { return Arcs; }
  /// The inclusive cost per event of the calls of arcs()[I].
  llvm::ArrayRef<uint64_t> arcCost(size_t I) const {
    return llvm::ArrayRef(ArcCost).slice(I * NumEvents, NumEvents);
  }

private:
  size_t NumFunctions = 0, NumEvents = 0;
  std::vector<uint64_t> Self, Inclusive; // NumFunctions x NumEvents.
  std::vector<uint64_t> Calls;
  std::vector<bool> HasCallers, Recursive;
  std::vector<unsigned> PartsWithData, Component;
  std::vector<uint64_t> Total;
  std::vector<Arc> Arcs;
  std::vector<uint64_t> ArcCost; // Arcs x NumEvents.
};

/// The analysis manager's handle on InclusiveCost: cached, so later passes
/// (filter<min-inclusive=...>) and writers reuse it until a pass changes
/// costs or calls.
class InclusiveCostAnalysis : public AnalysisInfoMixin<InclusiveCostAnalysis> {
public:
  static constexpr const char *PassName = "inclusive-cost";
  static AnalysisKey Key;
  using Result = InclusiveCost;
  Result run(Profile &P, ProfileAnalysisManager &AM);
};

} // namespace profkit

#endif
