//===- PassParams.h - What a pass is made from -----------------*- C++ -*-===//
//
// A pass is created from its parameters, as the pipeline text gives them
// (`filter<min-self=1%;hide=^std::>`), and from what the tool that runs it
// provides (PassContext). Passes (lib/Transforms) see only this and
// PassManager.h; the registry and the pipeline parser are in
// profkit/Passes/PassBuilder.h. The parameters themselves are in Params.h.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_IR_PASSPARAMS_H
#define PROFKIT_IR_PASSPARAMS_H

#include "profkit/IR/Params.h"
#include "profkit/IR/PassManager.h"
#include "profkit/IR/ProfileSlice.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <string>

namespace profkit {

/// What a pass may need from the tool that runs it. Reading profiles is the
/// tool's job, not a pass's: passes see profiles only.
struct PassContext {
  /// The inputs after the first, one at a time, as the tool's driver reads
  /// them (each relocated against -binary when the pipeline has no
  /// `relocate`); nullptr after the last. `merge` takes them.
  std::function<llvm::Expected<std::unique_ptr<Profile>>()> NextInput = [] {
    return std::unique_ptr<Profile>();
  };
  /// If set, takes the place of NextInput: calls Take with each slice of the
  /// next input (ProfileSlice) as the tool reads it, the last holding the
  /// profile; false once no input is left. An error of Take ends the
  /// reading with it.
  std::function<llvm::Expected<bool>(
      llvm::function_ref<llvm::Error(ProfileSlice &)> Take)>
      NextInputInSlices;
  /// The program given as -binary: the default binary= of the passes that
  /// read the program (relocate, sample-profile).
  std::string Binary;
  /// The program of a pass: its binary=, else -binary, which is then spelled
  /// out in Params so that -print-pipeline-passes reproduces the run.
  std::string binaryFor(PassParams &Params) const;
  /// The threads a pass may use (the tool's -threads).
  unsigned Threads = 1;
  std::function<void(const llvm::Twine &)> Warn = [](const llvm::Twine &) {};
  std::function<void(const llvm::Twine &)> Note = [](const llvm::Twine &) {};
};

/// Base of passes with parameters: keeps them for printPipeline().
template <typename DerivedT> struct ParamPassMixin : PassInfoMixin<DerivedT> {
  PassParams Params;
  void printPipeline(llvm::raw_ostream &OS) const { Params.print(OS); }
};

} // namespace profkit

#endif
