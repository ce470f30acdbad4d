//===- PassParams.cpp - Parameters of a pass ------------------------------===//

#include "profkit/IR/PassParams.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace profkit;
using namespace llvm;

static Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

int PassParams::index(StringRef Name) const {
  for (size_t I = 0; I != Infos.size(); ++I)
    if (Infos[I].Name == Name)
      return int(I);
  return -1;
}

Error PassParams::set(StringRef Text) {
  auto [Key, Value] = Text.split('=');
  bool HasValue = Text.contains('=');
  if (Infos.empty())
    return makeError("pass '" + PassName + "' takes no parameters");
  int I = index(Key);
  bool Negated = false;
  if (I < 0 && Key.starts_with("no-")) {
    I = index(Key.drop_front(3));
    Negated = true;
    if (I >= 0 && !Infos[I].isFlag())
      return makeError("parameter '" + Key.drop_front(3) + "' of pass '" +
                       PassName + "' is not a flag; give it as " +
                       Infos[I].Name + "=" + Infos[I].Meta);
  }
  if (I < 0)
    return makeError("unknown parameter '" + Key + "' for pass '" + PassName +
                     "'");
  const PassParamInfo &Info = Infos[I];
  if (Values[I])
    return makeError("parameter '" + Info.Name + "' given twice for pass '" +
                     PassName + "'");
  if (Info.isFlag()) {
    if (HasValue)
      return makeError("parameter '" + Key + "' of pass '" + PassName +
                       "' is a flag and takes no value");
    Values[I] = Negated ? "false" : "true";
    return Error::success();
  }
  if (!HasValue)
    return makeError("parameter '" + Key + "' of pass '" + PassName +
                     "' needs a value (" + Key + "=" + Info.Meta + ")");
  Values[I] = Value.str();
  return Error::success();
}

void PassParams::setValue(StringRef Name, StringRef Value) {
  int I = index(Name);
  assert(I >= 0 && "no such parameter");
  Values[I] = Value.str();
}

SmallVector<StringRef, 8> PassParams::getList(StringRef Name) const {
  SmallVector<StringRef, 8> Items;
  SplitString(get(Name), Items, ", ");
  return Items;
}

StringRef PassParams::get(StringRef Name) const {
  int I = index(Name);
  assert(I >= 0 && "no such parameter");
  if (Values[I])
    return *Values[I];
  return Infos[I].Default;
}

Expected<std::optional<Regex>> PassParams::getRegex(StringRef Name) const {
  StringRef V = get(Name);
  if (V.empty())
    return std::nullopt;
  Regex R(V);
  std::string Why;
  if (!R.isValid(Why))
    return invalid(Name, Why);
  return std::optional<Regex>(std::move(R));
}

Error PassParams::invalid(StringRef Name, const Twine &Why) const {
  return makeError("invalid value '" + get(Name) + "' for parameter '" + Name +
                   "' of pass '" + PassName + "': " + Why);
}

void profkit::printParamValue(raw_ostream &OS, StringRef Value) {
  if (!Value.empty() &&
      Value.find_first_of(";<>,()\"\\ \t") == StringRef::npos) {
    OS << Value;
    return;
  }
  OS << '"';
  for (char C : Value) {
    if (C == '"' || C == '\\')
      OS << '\\';
    OS << C;
  }
  OS << '"';
}

void PassParams::print(raw_ostream &OS) const {
  OS << PassName;
  bool First = true;
  for (size_t I = 0; I != Infos.size(); ++I) {
    StringRef V = Values[I] ? StringRef(*Values[I]) : Infos[I].Default;
    if (!Infos[I].isFlag() && V.empty())
      continue;
    OS << (First ? '<' : ';');
    First = false;
    if (Infos[I].isFlag()) {
      OS << (V == "true" ? "" : "no-") << Infos[I].Name;
    } else {
      OS << Infos[I].Name << '=';
      printParamValue(OS, V);
    }
  }
  if (!First)
    OS << '>';
}
