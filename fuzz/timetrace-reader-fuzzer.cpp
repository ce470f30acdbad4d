//===- timetrace-reader-fuzzer.cpp - Fuzz the time-trace reader -----------===//
//
// Reads the input as a clang -ftime-trace JSON file; what reads must make a
// build report, as text and as JSON, and the JSON must parse.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/JSON.h"

using namespace profkit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<std::unique_ptr<Profile>> P = fuzz::read(Bytes, readTimeTrace);
  if (!P) {
    llvm::consumeError(P.takeError());
    return 0;
  }
  std::string IR;
  llvm::raw_string_ostream IROS(IR);
  printIR(**P, IROS);
  for (const char *Spec : {"build-report", "build-report<format=json>"}) {
    llvm::Expected<OutputSpec> Out = parseOutputSpec(Spec);
    if (!Out)
      abort();
    llvm::SmallString<0> Written;
    llvm::raw_svector_ostream OS(Written);
    if (llvm::Error E = writeBuildReport(**P, OS, Out->Params, WriteContext()))
      fuzz::mismatch("a trace read makes no report", IR,
                     llvm::toString(std::move(E)));
    if (llvm::StringRef(Spec).contains("json")) {
      llvm::Expected<llvm::json::Value> V = llvm::json::parse(Written);
      if (!V)
        fuzz::mismatch("the JSON report does not parse", IR,
                       llvm::toString(V.takeError()));
    }
  }
  return 0;
}
