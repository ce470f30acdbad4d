//===- Params.h - Parameters of a pass or a writer -------------*- C++ -*-===//
//
// The parameters a pass takes in the pipeline text
// (`filter<min-self=1%;hide=^std::>`) and a writer in -output-format=
// (`webgrind<version=6>`): one syntax, one parser, one way to list them.
// Apart from PassParams.h so that the formats' headers need not include the
// pass manager.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_IR_PARAMS_H
#define PROFKIT_IR_PARAMS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Regex.h"
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace profkit {

/// A parameter a pass (or a writer) accepts.
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

/// The parameters of one pass instance (or of the output format), as given
/// in the text, checked against its PassParamInfo list.
class PassParams {
public:
  PassParams() = default;
  /// Kind names what takes the parameters in errors ("pass 'filter'",
  /// "output format 'gmon'").
  PassParams(llvm::StringRef Name, std::vector<PassParamInfo> Infos,
             llvm::StringRef Kind = "pass")
      : Name(Name.str()), Kind(Kind.str()), Infos(std::move(Infos)),
        Values(this->Infos.size()) {}

  llvm::StringRef name() const { return Name; }
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

  /// The value as a whole number of What ("functions", "lines").
  llvm::Error getCount(llvm::StringRef Name, unsigned &N,
                       llvm::StringRef What) const;
  /// The value as a share of a whole, `0.5%`: the percent, 0 to 100.
  llvm::Error getPercent(llvm::StringRef Name, double &Percent) const;

  /// An error about the value of a parameter, in the registry's wording.
  llvm::Error invalid(llvm::StringRef Name, const llvm::Twine &Why) const;

  /// `name` or `name<k=v;flag;no-flag>`, every parameter spelled out.
  void print(llvm::raw_ostream &OS) const;

private:
  int index(llvm::StringRef Name) const;
  /// "pass 'filter'": what the errors name.
  std::string owner() const;
  std::string Name;
  std::string Kind;
  std::vector<PassParamInfo> Infos;
  std::vector<std::optional<std::string>> Values;
};

/// Writes Value quoted if it holds a character the pipeline syntax uses.
void printParamValue(llvm::raw_ostream &OS, llvm::StringRef Value);

/// Splits the `<...>` that starts at Text[Pos] into its parameters (each
/// `key=value`, `flag` or `no-flag`, quotes removed) and moves Pos past the
/// '>'. Owner names what takes them in errors ("pass 'filter'").
llvm::Error splitParams(llvm::StringRef Text, size_t &Pos,
                        llvm::StringRef Owner,
                        std::vector<std::string> &Params);

/// Prints NAME<params>, its description and each parameter's, as
/// -print-passes and -print-formats list them.
void printParamsHelp(llvm::raw_ostream &OS, llvm::StringRef Name,
                     llvm::StringRef Description,
                     llvm::ArrayRef<PassParamInfo> Params);

} // namespace profkit

#endif
