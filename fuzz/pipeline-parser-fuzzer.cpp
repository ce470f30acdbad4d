//===- pipeline-parser-fuzzer.cpp - Fuzz the pass pipeline parser ---------===//
//
// Parses the input as a -passes= pipeline. A pipeline that parses must print
// (-print-pipeline-passes) as text that parses again and prints the same:
// the printed form is canonical.
//
//===----------------------------------------------------------------------===//

#include "profkit/IR/PassManager.h"
#include "profkit/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

using namespace profkit;

static bool parseAndPrint(llvm::StringRef Text, std::string &Printed) {
  PassContext Ctx;
  ProfilePassManager PM;
  if (llvm::Error E = parsePassPipeline(PM, Text, Ctx)) {
    llvm::consumeError(std::move(E));
    return false;
  }
  llvm::raw_string_ostream OS(Printed);
  PM.printPipeline(OS);
  return true;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  std::string First, Second;
  if (!parseAndPrint(Text, First))
    return 0;
  if (!parseAndPrint(First, Second) || First != Second) {
    llvm::errs() << "=== input\n"
                 << Text << "\n=== printed\n"
                 << First << "\n=== printed again\n"
                 << Second << "\n";
    abort();
  }
  return 0;
}
