//===- sampleprof-reader-fuzzer.cpp - Fuzz the sample-profile reader ------===//
//
// Reads the input as an LLVM sample profile (text, binary or extbinary, as
// detected); what reads is written back in each encoding and read again,
// which must give the same IR.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"
#include "llvm/ADT/SmallString.h"

using namespace profkit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<std::unique_ptr<Profile>> P =
      fuzz::read(Bytes, readSampleProf);
  if (!P) {
    llvm::consumeError(P.takeError());
    return 0;
  }
  std::string First;
  llvm::raw_string_ostream FirstOS(First);
  printIR(**P, FirstOS);
  // Without functions, the text form is an empty file: no sample profile
  // to any reader.
  bool Empty = (*P)->parts().front()->functions().empty();
  for (const char *Spec :
       {"sampleprof<format=text>", "sampleprof<format=binary>",
        "sampleprof<format=extbinary>"}) {
    if (Empty && llvm::StringRef(Spec).contains("text"))
      continue;
    llvm::Expected<OutputSpec> Out = parseOutputSpec(Spec);
    if (!Out)
      abort();
    llvm::SmallString<0> Written;
    llvm::raw_svector_ostream OS(Written);
    if (llvm::Error E = writeSampleProf(**P, OS, Out->Params, WriteContext())) {
      // What a read profile may fail to write: a name the text format has no
      // way to spell, flow-sensitive discriminators in another format than
      // extbinary.
      std::string Msg = llvm::toString(std::move(E));
      if (llvm::StringRef(Msg).contains("text format cannot hold") ||
          llvm::StringRef(Msg).contains("only the extbinary format records"))
        continue;
      fuzz::mismatch("a profile read does not write", First, Msg);
    }
    std::string Again = fuzz::readToText(Written, readSampleProf);
    if (First != Again)
      fuzz::mismatch(Spec, First, Again);
  }
  return 0;
}
