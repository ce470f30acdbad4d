//===- SampleProfGlobals.h - LLVM's sample-profile kind flags ---*- C++ -*-===//
//
// LLVM's sample-profile readers and writers keep the kind of profile they
// handle (flow-sensitive discriminators, MD5 names, context-sensitive,
// probe-based, ...) in static members of FunctionSamples, and read them back
// from there. A profkit process reads and writes many profiles: each read or
// write saves the flags, sets those of its own profile and restores them,
// so that one profile's kind never carries over to the next.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_LIB_FORMATS_SAMPLEPROFGLOBALS_H
#define PROFKIT_LIB_FORMATS_SAMPLEPROFGLOBALS_H

#include "llvm/ProfileData/SampleProf.h"

namespace profkit {

/// The part header line that records flow-sensitive discriminators (LLVM
/// writes those in extbinary only).
constexpr const char *FSDiscriminatorsKey = "discriminators";
constexpr const char *FSDiscriminatorsValue = "flow-sensitive";

class SavedSampleProfileFlags {
public:
  SavedSampleProfileFlags()
      : ProbeBased(FS::ProfileIsProbeBased), CS(FS::ProfileIsCS),
        PreInlined(FS::ProfileIsPreInlined), MD5(FS::UseMD5),
        UniqSuffix(FS::HasUniqSuffix), FSDiscriminators(FS::ProfileIsFS) {}
  ~SavedSampleProfileFlags() {
    FS::ProfileIsProbeBased = ProbeBased;
    FS::ProfileIsCS = CS;
    FS::ProfileIsPreInlined = PreInlined;
    FS::UseMD5 = MD5;
    FS::HasUniqSuffix = UniqSuffix;
    FS::ProfileIsFS = FSDiscriminators;
  }
  SavedSampleProfileFlags(const SavedSampleProfileFlags &) = delete;
  SavedSampleProfileFlags &operator=(const SavedSampleProfileFlags &) = delete;

private:
  using FS = llvm::sampleprof::FunctionSamples;
  bool ProbeBased, CS, PreInlined, MD5, UniqSuffix, FSDiscriminators;
};

} // namespace profkit

#endif
