//===- FuzzCommon.h - Shared helpers of the libFuzzer targets ---*- C++ -*-===//
//
// What the fuzz targets share: reading a buffer through a reader into its
// canonical IR text, gzip-compressing a buffer, and failing loudly.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_FUZZ_FUZZCOMMON_H
#define PROFKIT_FUZZ_FUZZCOMMON_H

#include "profkit/Formats/Format.h"
#include "profkit/IR/IRPrinter.h"
#include "profkit/Support/InputStream.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <string>
#include <zlib.h>

namespace profkit {
namespace fuzz {

/// The memory limit every target reads with: libFuzzer's default RSS limit
/// is 2 GB, and an input is a few kilobytes.
constexpr uint64_t MaxMemory = 64 << 20;

/// Reads Data with the reader Read, under the memory limit (or a smaller
/// one Opts gives).
template <typename ReadFn>
llvm::Expected<std::unique_ptr<Profile>>
read(llvm::StringRef Data, ReadFn Read, ReadOptions Opts = ReadOptions()) {
  if (!Opts.MaxMemory || Opts.MaxMemory > MaxMemory)
    Opts.MaxMemory = MaxMemory;
  std::unique_ptr<InputStream> In = InputStream::fromBuffer(Data, "fuzz");
  In->setMemoryLimit(Opts.MaxMemory);
  return Read(*In, Opts);
}

/// Reads Data with the reader Read. Returns the IR's text, or the error's
/// text prefixed with "error: ", so two reads can be compared; with
/// WithWarnings, the warnings before it, each prefixed with "warning: ".
template <typename ReadFn>
std::string readToText(llvm::StringRef Data, ReadFn Read,
                       ReadOptions Opts = ReadOptions(),
                       bool WithWarnings = false) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (WithWarnings)
    Opts.Warn = [&](const llvm::Twine &Msg) {
      OS << "warning: " << Msg << '\n';
    };
  llvm::Expected<std::unique_ptr<Profile>> P = read(Data, Read, Opts);
  if (!P)
    return Text + "error: " + llvm::toString(P.takeError());
  printIR(**P, OS);
  return Text;
}

/// Data as one gzip member.
inline std::string gzip(llvm::StringRef Data) {
  z_stream Z{};
  if (deflateInit2(&Z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    abort();
  std::string Out(deflateBound(&Z, Data.size()) + 32, '\0');
  Z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(Data.data()));
  Z.avail_in = Data.size();
  Z.next_out = reinterpret_cast<Bytef *>(Out.data());
  Z.avail_out = Out.size();
  if (deflate(&Z, Z_FINISH) != Z_STREAM_END)
    abort();
  Out.resize(Z.total_out);
  deflateEnd(&Z);
  return Out;
}

/// Prints both texts and aborts: the fuzzer records the input.
[[noreturn]] inline void mismatch(const char *What, llvm::StringRef A,
                                  llvm::StringRef B) {
  llvm::errs() << "=== " << What << ": first\n"
               << A << "\n=== second\n"
               << B << "\n";
  llvm::errs().flush();
  abort();
}

} // namespace fuzz
} // namespace profkit

#endif
