//===- Inclusive.cpp - The inclusive-cost analysis and pass ---------------===//

#include "profkit/Transforms/Inclusive.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <numeric>

using namespace profkit;
using namespace llvm;

Expected<InclusivePass> InclusivePass::create(const PassParams &Params,
                                              PassContext &) {
  InclusivePass I;
  I.Params = Params;
  I.Print = Params.getFlag("print");
  return I;
}

Expected<PreservedAnalyses> InclusivePass::run(Profile &P,
                                               ProfileAnalysisManager &AM) {
  const InclusiveCost &IC = AM.getResult<InclusiveCostAnalysis>(P);
  if (!Print)
    return PreservedAnalyses::all();
  // Functions with data or callers, highest inclusive cost of the first
  // event first, then by name.
  std::vector<FuncId> Fns;
  for (FuncId F = 0; F != IC.numFunctions(); ++F)
    if (IC.partsWithData(F) || IC.hasCallers(F))
      Fns.push_back(F);
  unsigned E0 = 0;
  auto Incl = [&](FuncId F) {
    return IC.numEvents() ? IC.inclusive(F)[E0] : 0;
  };
  llvm::stable_sort(Fns, [&](FuncId A, FuncId B) {
    if (Incl(A) != Incl(B))
      return Incl(A) > Incl(B);
    return P.functionName(A) < P.functionName(B);
  });
  raw_ostream &OS = errs();
  OS << "; inclusive costs: events";
  for (const EventType &E : P.events())
    OS << ' ' << E.Name;
  OS << "\n; total:";
  for (uint64_t T : IC.total())
    OS << ' ' << T;
  OS << '\n';
  for (FuncId F : Fns) {
    OS << "inclusive";
    for (uint64_t V : IC.inclusive(F))
      OS << ' ' << V;
    OS << " self";
    for (uint64_t V : IC.self(F))
      OS << ' ' << V;
    OS << ' ' << P.functionName(F);
    StringRef File = P.Strings.str(P.function(F).File);
    if (!File.empty())
      OS << " [" << File << ']';
    OS << '\n';
  }
  return PreservedAnalyses::all();
}
