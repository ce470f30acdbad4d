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
  };
  Result run(Profile &P, ProfileAnalysisManager &AM);
};

} // namespace profkit

#endif
