//===- PassParams.h - What a pass is made from -----------------*- C++ -*-===//
//
// A pass is created from its parameters, as the pipeline text gives them
// (`filter<min-self=1%;hide=^std::>`), and from what the tool that runs it
// provides (PassContext). Passes (lib/Transforms) see only this and
// PassManager.h; the registry and the pipeline parser are in
// profkit/Passes/PassBuilder.h.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_IR_PASSPARAMS_H
#define PROFKIT_IR_PASSPARAMS_H

#include "profkit/IR/PassManager.h"
#include "llvm/ADT/SmallVector.h"
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

/// What a pass may need from the tool that runs it. Reading profiles is the
/// tool's job, not a pass's: passes see profiles only.
struct PassContext {
  /// The inputs after the first, one at a time, as the tool's driver reads
  /// them (each relocated against -binary when the pipeline has no
  /// `relocate`); nullptr after the last. `merge` takes them.
  std::function<llvm::Expected<std::unique_ptr<Profile>>()> NextInput = [] {
    return std::unique_ptr<Profile>();
  };
  /// The program given as -binary: relocate's default binary=.
  std::string Binary;
  std::function<void(const llvm::Twine &)> Warn = [](const llvm::Twine &) {};
  std::function<void(const llvm::Twine &)> Note = [](const llvm::Twine &) {};
};

/// Base of passes with parameters: keeps them for printPipeline().
template <typename DerivedT> struct ParamPassMixin : PassInfoMixin<DerivedT> {
  PassParams Params;
  void printPipeline(llvm::raw_ostream &OS) const { Params.print(OS); }
};

/// Writes Value quoted if it holds a character the pipeline syntax uses.
void printParamValue(llvm::raw_ostream &OS, llvm::StringRef Value);

} // namespace profkit

#endif
