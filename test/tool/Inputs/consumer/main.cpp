//===- main.cpp - Prints a profile's events and totals --------------------===//
//
// profkit-total PROFILE: reads a profile of any format with the installed
// profkit libraries and prints its events and the run's total of each, as
// the report writer's header lines show them.
//
//===----------------------------------------------------------------------===//

#include "profkit/Analysis/Totals.h"
#include "profkit/Formats/Format.h"
#include "profkit/Support/TextFormat.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

using namespace profkit;

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: profkit-total PROFILE\n";
    return 2;
  }
  llvm::Expected<std::unique_ptr<Profile>> P = readProfile(argv[1], {});
  if (!P) {
    llvm::errs() << "profkit-total: error: " << llvm::toString(P.takeError())
                 << '\n';
    return 1;
  }
  ProfileAnalysisManager AM;
  const TotalsAnalysis::Result &Totals = AM.getResult<TotalsAnalysis>(**P);
  llvm::outs() << "events:";
  for (const EventType &E : (*P)->events())
    llvm::outs() << ' ' << E.Name;
  llvm::outs() << "\ntotals:";
  for (uint64_t T : Totals.Total)
    llvm::outs() << ' ' << groupThousands(T);
  llvm::outs() << '\n';
  return 0;
}
