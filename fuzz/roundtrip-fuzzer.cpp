//===- roundtrip-fuzzer.cpp - read, write callgrind, read again -----------===//
//
// Reads the input in whatever format it is (callgrind, webgrind, gmon.out),
// writes the IR as callgrind (with and without name and position
// compression), and reads that back: the two IRs must print the same text.
// A failure to write or to read the written file is a finding too.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

using namespace profkit;

static std::string roundTrip(const Profile &P, bool Compress) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::Expected<OutputSpec> Spec =
      parseOutputSpec(Compress ? "callgrind"
                               : "callgrind<no-compress-names;"
                                 "no-compress-positions>");
  if (llvm::Error E = Spec ? writeCallgrind(P, OS, Spec->Params, WriteContext())
                           : Spec.takeError()) {
    // The writer may refuse an IR it cannot express; that is no finding.
    llvm::consumeError(std::move(E));
    return "";
  }
  return Out;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  ReadOptions Opts;
  Opts.MaxMemory = fuzz::MaxMemory;
  std::unique_ptr<InputStream> In = InputStream::fromBuffer(Bytes, "fuzz");
  llvm::Expected<std::unique_ptr<Profile>> P = readProfile(*In, Opts);
  if (!P) {
    llvm::consumeError(P.takeError());
    return 0;
  }
  // gmon.out data is by address; the callgrind writer needs functions.
  for (const auto &Pt : (*P)->parts())
    if (!Pt->addresses().empty())
      return 0;
  std::string First;
  llvm::raw_string_ostream FOS(First);
  printIR(**P, FOS);
  for (bool Compress : {true, false}) {
    std::string Written = roundTrip(**P, Compress);
    if (Written.empty())
      continue;
    std::string Second = fuzz::readToText(Written, readCallgrind);
    if (First != Second)
      fuzz::mismatch(Compress ? "round trip (compressed) changed the IR"
                              : "round trip (plain) changed the IR",
                     First, Second + "\n=== written\n" + Written);
  }
  return 0;
}
