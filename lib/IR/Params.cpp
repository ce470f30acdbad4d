//===- Params.cpp - Parameters of a pass or a writer ----------------------===//

#include "profkit/IR/Params.h"
#include "profkit/IR/PassParams.h"
#include "profkit/Support/Error.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace profkit;
using namespace llvm;

int PassParams::index(StringRef Name) const {
  for (size_t I = 0; I != Infos.size(); ++I)
    if (Infos[I].Name == Name)
      return int(I);
  return -1;
}

std::string PassParams::owner() const { return Kind + " '" + Name + "'"; }

Error PassParams::set(StringRef Text) {
  auto [Key, Value] = Text.split('=');
  bool HasValue = Text.contains('=');
  if (Infos.empty())
    return makeError(ErrorCode::InvalidArgument,
                     owner() + " takes no parameters");
  int I = index(Key);
  bool Negated = false;
  if (I < 0 && Key.starts_with("no-")) {
    I = index(Key.drop_front(3));
    Negated = true;
    if (I >= 0 && !Infos[I].isFlag())
      return makeError(ErrorCode::InvalidArgument,
                       "parameter '" + Key.drop_front(3) + "' of " + owner() +
                           " is not a flag; give it as " + Infos[I].Name + "=" +
                           Infos[I].Meta);
  }
  if (I < 0) {
    std::string Known;
    for (const PassParamInfo &Info : Infos)
      Known += (Known.empty() ? "" : ", ") + Info.Name;
    return makeError(ErrorCode::InvalidArgument,
                     "unknown parameter '" + Key + "' for " + owner() +
                         " (its parameters: " + Known + ")");
  }
  const PassParamInfo &Info = Infos[I];
  if (Values[I])
    return makeError(ErrorCode::InvalidArgument, "parameter '" + Info.Name +
                                                     "' given twice for " +
                                                     owner());
  if (Info.isFlag()) {
    if (HasValue)
      return makeError(ErrorCode::InvalidArgument,
                       "parameter '" + Key + "' of " + owner() +
                           " is a flag and takes no value");
    Values[I] = Negated ? "false" : "true";
    return Error::success();
  }
  if (!HasValue)
    return makeError(ErrorCode::InvalidArgument,
                     "parameter '" + Key + "' of " + owner() +
                         " needs a value (" + Key + "=" + Info.Meta + ")");
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

Error PassParams::getCount(StringRef Name, unsigned &N, StringRef What) const {
  if (get(Name).getAsInteger(10, N))
    return invalid(Name, "'" + get(Name) + "' is not a number of " + What);
  return Error::success();
}

Error PassParams::getPercent(StringRef Name, double &Percent) const {
  StringRef V = get(Name);
  if (!V.consume_back("%") || V.getAsDouble(Percent) || Percent < 0 ||
      Percent > 100)
    return invalid(Name, "'" + get(Name) + "' is not a share such as 0.5%");
  return Error::success();
}

Error PassParams::invalid(StringRef Name, const Twine &Why) const {
  return makeError(ErrorCode::InvalidArgument,
                   "invalid value '" + get(Name) + "' for parameter '" + Name +
                       "' of " + owner() + ": " + Why);
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
  OS << Name;
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

Error profkit::splitParams(StringRef Text, size_t &Pos, StringRef Owner,
                           std::vector<std::string> &Params) {
  auto AtEnd = [&] { return Pos >= Text.size(); };
  auto Peek = [&] { return AtEnd() ? '\0' : Text[Pos]; };
  ++Pos; // '<'
  std::string Cur;
  bool Quoted = false; // The current parameter had a quoted value.
  while (true) {
    if (AtEnd())
      return makeError(ErrorCode::InvalidArgument,
                       "missing '>' after the parameters of " + Owner);
    char C = Text[Pos++];
    if (C == ';' || C == '>') {
      if (Cur.empty() && !Quoted)
        return makeError(ErrorCode::InvalidArgument,
                         "empty parameter in " + Owner);
      Params.push_back(std::move(Cur));
      Cur.clear();
      Quoted = false;
      if (C == '>')
        return Error::success();
      continue;
    }
    if (C == '"') {
      if (Quoted || Cur.empty() || Cur.back() != '=')
        return makeError(ErrorCode::InvalidArgument,
                         "a quote may only start the value of a parameter of " +
                             Owner);
      while (true) {
        if (AtEnd())
          return makeError(ErrorCode::InvalidArgument,
                           "unterminated quoted value in the parameters of " +
                               Owner);
        char Q = Text[Pos++];
        if (Q == '"')
          break;
        if (Q == '\\' && !AtEnd() && (Peek() == '"' || Peek() == '\\'))
          Q = Text[Pos++];
        Cur += Q;
      }
      Quoted = true;
      if (Peek() != ';' && Peek() != '>' && !AtEnd())
        return makeError(ErrorCode::InvalidArgument,
                         Twine("expected ';' or '>' after a quoted value in ") +
                             Owner + ", found '" + Twine(Peek()) + "'");
      continue;
    }
    Cur += C;
  }
}

void profkit::printParamsHelp(raw_ostream &OS, StringRef Name,
                              StringRef Description,
                              ArrayRef<PassParamInfo> Params) {
  OS << "  " << Name;
  for (size_t I = 0; I != Params.size(); ++I) {
    const PassParamInfo &Q = Params[I];
    OS << (I ? ';' : '<');
    if (Q.isFlag())
      OS << "[no-]" << Q.Name;
    else
      OS << Q.Name << '=' << Q.Meta;
  }
  OS << (Params.empty() ? "\n" : ">\n");
  OS << "      " << Description << '\n';
  for (const PassParamInfo &Q : Params) {
    OS << "      ";
    if (Q.isFlag())
      OS << "[no-]" << Q.Name
         << " (default: " << (Q.Default == "true" ? "" : "no-") << Q.Name
         << ")";
    else
      OS << Q.Name << '=' << Q.Meta
         << (Q.Default.empty() ? "" : " (default: " + Q.Default + ")");
    OS << "\n          " << Q.Description << '\n';
  }
}

std::string PassContext::binaryFor(PassParams &Params) const {
  if (!Params.has("binary") && !Binary.empty())
    Params.setValue("binary", Binary);
  return Params.get("binary").str();
}
