//===- GprofPropagation.h - gprof's time along the call graph --*- C++ -*-===//
//
// gprof's time propagation (cg_arcs.c: cycle_link, propagate_time) gives
// every call row its inclusive cost. Cycles (strongly connected components)
// are collapsed into one node whose time is its members' self costs plus
// what the calls leaving it carry. Bottom up, a node's time is split over
// the calls into it from outside by their counts, as gprof splits it, and
// each share adds to the caller's node. gprof gives the calls inside a node
// (recursion, calls between the members of a cycle) no time; a viewer that
// takes a function's inclusive cost from its incoming calls (KCachegrind)
// then shows a member reached only from inside at zero, with no callers. So
// the node's time is split over those calls too, by their counts. Every
// split is by the largest-remainder rule (apportion), down to the call
// sites of a (caller, callee) pair, so the shares add up exactly.
// See docs/Gmon.md. The relocation writes the result as the call rows'
// inclusive costs.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_ANALYSIS_GPROFPROPAGATION_H
#define PROFKIT_ANALYSIS_GPROFPROPAGATION_H

#include "profkit/IR/Profile.h"
#include "llvm/ADT/ArrayRef.h"
#include <vector>

namespace profkit {

class GprofPropagation {
public:
  /// Computes the inclusive cost of every call row of Pt for NumEvents
  /// events, from its self rows and call counts.
  static GprofPropagation compute(const Part &Pt, size_t NumEvents);

  size_t numEvents() const { return NumEvents; }
  /// The inclusive cost per event of call row Row (in table order) of
  /// Pt.functions()[Function].
  llvm::ArrayRef<uint64_t> callCost(size_t Function, size_t Row) const {
    return llvm::ArrayRef(Costs[Function]).slice(Row * NumEvents, NumEvents);
  }
  /// Set if a sum saturated at 2^64-1.
  bool Overflow = false;

private:
  size_t NumEvents = 0;
  std::vector<std::vector<uint64_t>> Costs; // Per function: rows x events.
};

} // namespace profkit

#endif
