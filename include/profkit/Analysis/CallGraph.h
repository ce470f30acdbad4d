//===- CallGraph.h - Callers and callees -----------------------*- C++ -*-===//
//
// The call-graph analysis: the distinct callers and callees of every
// function, over all parts and call sites.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_ANALYSIS_CALLGRAPH_H
#define PROFKIT_ANALYSIS_CALLGRAPH_H

#include "profkit/IR/PassManager.h"
#include <vector>

namespace profkit {

class CallGraphAnalysis : public AnalysisInfoMixin<CallGraphAnalysis> {
public:
  static constexpr const char *PassName = "call-graph";
  static AnalysisKey Key;

  struct Result {
    /// Distinct callees and callers of each function (by FuncId), without
    /// duplicates, summed over parts and call sites.
    std::vector<std::vector<FuncId>> Callees, Callers;
    /// Whether the function has rows in some part.
    std::vector<bool> HasData;
    /// The functions reachable from Seeds along calls (Forward) or against
    /// them, the seeds included.
    std::vector<bool> reachable(llvm::ArrayRef<FuncId> Seeds,
                                bool Forward) const;
  };
  /// For those without an analysis manager (writers).
  static Result compute(const Profile &P);
  Result run(Profile &P, ProfileAnalysisManager &) { return compute(P); }
};

} // namespace profkit

#endif
