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

#include "profkit/Formats/Format.h"
#include "profkit/Passes/PassManager.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Regex.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace profkit {

/// A parameter a pass accepts.
struct PassParamInfo {
  std::string Name;
  /// What the value looks like ("REGEX", "N|P%"); empty for a flag.
  std::string Meta;
  /// The value used when the parameter is not given: "true"/"false" for a
  /// flag; "" means unset for a value.
  std::string Default;
  std::string Description;
  bool isFlag() const { return Meta.empty(); }
};

/// The parameters of one pass instance, as given in the pipeline text,
/// checked against the pass's PassParamInfo list.
class PassParams {
public:
  PassParams() = default;
  PassParams(llvm::StringRef PassName, std::vector<PassParamInfo> Infos)
      : PassName(PassName.str()), Infos(std::move(Infos)),
        Values(this->Infos.size()) {}

  llvm::StringRef passName() const { return PassName; }
  /// Sets a parameter from the text `key=value`, `flag` or `no-flag`.
  llvm::Error set(llvm::StringRef Text);
  void setValue(llvm::StringRef Name, llvm::StringRef Value);

  /// The given value, else the default ("" if neither).
  llvm::StringRef get(llvm::StringRef Name) const;
  bool has(llvm::StringRef Name) const { return !get(Name).empty(); }
  bool getFlag(llvm::StringRef Name) const { return get(Name) == "true"; }
  /// The value as a list separated by commas or blanks (`events=Ir,Dr`).
  llvm::SmallVector<llvm::StringRef, 8> getList(llvm::StringRef Name) const;
  /// The value compiled as a regex; nullopt if unset.
  llvm::Expected<std::optional<llvm::Regex>>
  getRegex(llvm::StringRef Name) const;

  /// An error about the value of a parameter, in the registry's wording.
  llvm::Error invalid(llvm::StringRef Name, const llvm::Twine &Why) const;

  /// `name` or `name<k=v;flag;no-flag>`, every parameter spelled out.
  void print(llvm::raw_ostream &OS) const;

private:
  int index(llvm::StringRef Name) const;
  std::string PassName;
  std::vector<PassParamInfo> Infos;
  std::vector<std::optional<std::string>> Values;
};

/// What a pass may need from the tool that runs it.
struct PassContext {
  /// Inputs after the first, for `merge` to read. Merge takes them.
  std::vector<std::string> ExtraInputs;
  ReadOptions Read;
  std::function<void(const llvm::Twine &)> Warn = [](const llvm::Twine &) {};
  std::function<void(const llvm::Twine &)> Note = [](const llvm::Twine &) {};
  /// Run on every input right after it is read, before passes see it: the
  /// tool on the first input, `merge` on the others. profkit-opt sets it to
  /// relocate against -binary when the pipeline has no `relocate` pass.
  std::function<llvm::Error(Profile &)> AfterRead;
};

/// Base of passes with parameters: keeps them for printPipeline().
template <typename DerivedT> struct ParamPassMixin : PassInfoMixin<DerivedT> {
  PassParams Params;
  void printPipeline(llvm::raw_ostream &OS) const { Params.print(OS); }
};

struct PassInfo {
  std::string Name;
  std::string Description;
  std::vector<PassParamInfo> Params;
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

/// Writes Value quoted if it holds a character the pipeline syntax uses.
void printParamValue(llvm::raw_ostream &OS, llvm::StringRef Value);

} // namespace profkit

#endif
