//===- PassBuilder.h - The pass registry and pipeline parser ----*- C++ -*-===//
//
// Every pass is listed once in PassRegistry.def, with its parameters. That
// list fills the PassRegistry at startup; plugins add to it. The registry
// drives the pipeline parser, -print-passes and docs/Passes.md.
//
// Pipeline text, as in opt:
//   pipeline  ::= element (',' element)*
//   element   ::= name ('<' param (';' param)* '>')?
//   param     ::= key '=' value | flag | 'no-' flag
//   value     ::= characters other than ';' '>' | '"' chars '"'
// Inside <...> commas and parentheses are plain characters. A quoted value
// may hold any character; '\"' and '\\' escape a quote and a backslash.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_PASSES_PASSBUILDER_H
#define PROFKIT_PASSES_PASSBUILDER_H

#include "profkit/IR/PassParams.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Regex.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace profkit {

struct PassInfo {
  /// What a tool's driver must know of a pass besides running it
  /// (PROFILE_PASS_TRAIT in PassRegistry.def).
  enum Trait : unsigned {
    /// Takes the inputs after the first (PassContext::NextInput): several
    /// inputs need a pipeline that starts with such a pass.
    TakesInputs = 1 << 0,
    /// Relocates the profile against a program, so the driver need not
    /// relocate each input against -binary as it reads it.
    Relocates = 1 << 1,
  };
  std::string Name;
  std::string Description;
  std::vector<PassParamInfo> Params;
  unsigned Traits = 0;
  std::function<llvm::Expected<std::unique_ptr<PassConcept>>(const PassParams &,
                                                             PassContext &)>
      Create;
};

struct AnalysisInfo {
  std::string Name;
  std::string Description;
  /// Computes the analysis (for `require<NAME>`).
  std::function<void(Profile &, ProfileAnalysisManager &)> Require;
  AnalysisKey *Key;
};

/// The passes and analyses known by name: the built-in ones of
/// PassRegistry.def, then those plugins added.
class PassRegistry {
public:
  static PassRegistry &get();

  /// Adds a pass. Fails if the name is taken.
  llvm::Error registerPass(PassInfo Info);
  llvm::Error registerAnalysis(AnalysisInfo Info);
  /// Convenience for a pass class with `PassName`, and a
  /// `static Expected<T> create(const PassParams &, PassContext &)`.
  template <typename PassT>
  llvm::Error registerPass(llvm::StringRef Description,
                           std::vector<PassParamInfo> Params = {}) {
    PassInfo I;
    I.Name = PassT::name().str();
    I.Description = Description.str();
    I.Params = std::move(Params);
    I.Create =
        [](const PassParams &P,
           PassContext &Ctx) -> llvm::Expected<std::unique_ptr<PassConcept>> {
      llvm::Expected<PassT> Pass = PassT::create(P, Ctx);
      if (!Pass)
        return Pass.takeError();
      return std::make_unique<PassModel<PassT>>(std::move(*Pass));
    };
    return registerPass(std::move(I));
  }

  const PassInfo *lookupPass(llvm::StringRef Name) const;
  /// Whether the registry entry of a pipeline's pass has trait T
  /// (require<> and invalidate<> have none).
  bool hasTrait(const PassConcept &Pass, PassInfo::Trait T) const;
  /// The names of the passes with trait T, in registry order.
  std::vector<llvm::StringRef> passesWith(PassInfo::Trait T) const;
  const AnalysisInfo *lookupAnalysis(llvm::StringRef Name) const;
  llvm::ArrayRef<PassInfo> passes() const { return Passes; }
  llvm::ArrayRef<AnalysisInfo> analyses() const { return Analyses; }

  /// The text of -print-passes.
  void print(llvm::raw_ostream &OS) const;

private:
  PassRegistry();
  std::vector<PassInfo> Passes;
  std::vector<AnalysisInfo> Analyses;
};

/// Parses Text and appends its passes to PM.
llvm::Error parsePassPipeline(ProfilePassManager &PM, llvm::StringRef Text,
                              PassContext &Ctx);

} // namespace profkit

#endif
