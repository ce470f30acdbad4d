//===- PassBuilder.cpp - The pass registry and pipeline parser ------------===//

#include "profkit/Passes/PassBuilder.h"
#include "profkit/Analysis/CallGraph.h"
#include "profkit/Analysis/InclusiveCost.h"
#include "profkit/Analysis/Totals.h"
#include "profkit/Support/Error.h"
#include "profkit/Transforms/BuildJoin.h"
#include "profkit/Transforms/Demangle.h"
#include "profkit/Transforms/EvalEvents.h"
#include "profkit/Transforms/Filter.h"
#include "profkit/Transforms/FlattenSamples.h"
#include "profkit/Transforms/FoldContexts.h"
#include "profkit/Transforms/Inclusive.h"
#include "profkit/Transforms/Merge.h"
#include "profkit/Transforms/Relocate.h"
#include "profkit/Transforms/Rename.h"
#include "profkit/Transforms/SampleProfile.h"
#include "profkit/Transforms/SelectEvents.h"
#include "profkit/Transforms/StripLines.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace profkit;
using namespace llvm;

//===----------------------------------------------------------------------===//
// PassRegistry
//===----------------------------------------------------------------------===//

namespace {
/// `require<A>`: computes an analysis so later passes find it cached.
struct RequirePass {
  const AnalysisInfo *A;
  static StringRef name() { return "require"; }
  Expected<PreservedAnalyses> run(Profile &P, ProfileAnalysisManager &AM) {
    A->Require(P, AM);
    return PreservedAnalyses::all();
  }
  void printPipeline(raw_ostream &OS) const {
    OS << "require<" << A->Name << '>';
  }
};
/// `invalidate<A>`: drops a cached analysis.
struct InvalidatePass {
  const AnalysisInfo *A;
  static StringRef name() { return "invalidate"; }
  Expected<PreservedAnalyses> run(Profile &, ProfileAnalysisManager &) {
    PreservedAnalyses PA = PreservedAnalyses::all();
    PA.abandon(A->Key);
    return PA;
  }
  void printPipeline(raw_ostream &OS) const {
    OS << "invalidate<" << A->Name << '>';
  }
};
} // namespace

PassRegistry::PassRegistry() {
#define PROFILE_PASS(NAME, CLASS, DESCRIPTION)                                 \
  cantFail(registerPass<CLASS>(DESCRIPTION));
#include "profkit/Passes/PassRegistry.def"
#define PROFILE_PASS_PARAM(PASS, NAME, META, DEFAULT, DESCRIPTION)             \
  const_cast<PassInfo *>(lookupPass(PASS))                                     \
      ->Params.push_back({NAME, META, DEFAULT, DESCRIPTION});
#define PROFILE_PASS_FLAG(PASS, NAME, DEFAULT, DESCRIPTION)                    \
  const_cast<PassInfo *>(lookupPass(PASS))                                     \
      ->Params.push_back({NAME, "", DEFAULT, DESCRIPTION});
#define PROFILE_PASS_TRAIT(PASS, TRAIT)                                        \
  const_cast<PassInfo *>(lookupPass(PASS))->Traits |= PassInfo::TRAIT;
#include "profkit/Passes/PassRegistry.def"
#define PROFILE_ANALYSIS(NAME, CLASS, DESCRIPTION)                             \
  cantFail(registerAnalysis({NAME, DESCRIPTION,                                \
                             [](Profile &P, ProfileAnalysisManager &AM) {      \
                               (void)AM.getResult<CLASS>(P);                   \
                             },                                                \
                             CLASS::ID()}));
#include "profkit/Passes/PassRegistry.def"
}

PassRegistry &PassRegistry::get() {
  static PassRegistry R;
  return R;
}

Error PassRegistry::registerPass(PassInfo Info) {
  if (lookupPass(Info.Name) || Info.Name == "require" ||
      Info.Name == "invalidate")
    return makeError(ErrorCode::InvalidArgument,
                     "pass '" + Info.Name + "' is registered twice");
  Passes.push_back(std::move(Info));
  return Error::success();
}

Error PassRegistry::registerAnalysis(AnalysisInfo Info) {
  if (lookupAnalysis(Info.Name))
    return makeError(ErrorCode::InvalidArgument,
                     "analysis '" + Info.Name + "' is registered twice");
  Analyses.push_back(std::move(Info));
  return Error::success();
}

const PassInfo *PassRegistry::lookupPass(StringRef Name) const {
  for (const PassInfo &I : Passes)
    if (I.Name == Name)
      return &I;
  return nullptr;
}

const AnalysisInfo *PassRegistry::lookupAnalysis(StringRef Name) const {
  for (const AnalysisInfo &I : Analyses)
    if (I.Name == Name)
      return &I;
  return nullptr;
}

bool PassRegistry::hasTrait(const PassConcept &Pass, PassInfo::Trait T) const {
  const PassInfo *Info = lookupPass(Pass.name());
  return Info && (Info->Traits & T);
}

std::vector<StringRef> PassRegistry::passesWith(PassInfo::Trait T) const {
  std::vector<StringRef> Names;
  for (const PassInfo &I : Passes)
    if (I.Traits & T)
      Names.push_back(I.Name);
  return Names;
}

void PassRegistry::print(raw_ostream &OS) const {
  OS << "Profile passes:\n";
  for (const PassInfo &P : Passes)
    printParamsHelp(OS, P.Name, P.Description, P.Params);
  OS << "Profile analyses (require<NAME>, invalidate<NAME>):\n";
  for (const AnalysisInfo &A : Analyses)
    OS << "  " << A.Name << "\n      " << A.Description << '\n';
}

//===----------------------------------------------------------------------===//
// Pipeline parser
//===----------------------------------------------------------------------===//

namespace {
class PipelineParser {
public:
  PipelineParser(StringRef Text, ProfilePassManager &PM, PassContext &Ctx)
      : Text(Text), PM(PM), Ctx(Ctx) {}
  Error parse();

private:
  Error parseElement();
  bool atEnd() const { return Pos >= Text.size(); }
  char peek() const { return atEnd() ? '\0' : Text[Pos]; }

  StringRef Text;
  size_t Pos = 0;
  ProfilePassManager &PM;
  PassContext &Ctx;
};
} // namespace

Error PipelineParser::parse() {
  if (Text.trim().empty())
    return Error::success();
  while (true) {
    if (Error E = parseElement())
      return E;
    if (atEnd())
      return Error::success();
    ++Pos; // ','
  }
}

Error PipelineParser::parseElement() {
  size_t Start = Pos;
  while (!atEnd() && !StringRef(",<>()\";").contains(peek()))
    ++Pos;
  StringRef Name = Text.slice(Start, Pos).trim();
  if (Name.empty()) {
    if (atEnd() || peek() == ',')
      return makeError(ErrorCode::InvalidArgument,
                       "empty pass name in pipeline '" + Text + "'");
    return makeError(ErrorCode::InvalidArgument,
                     Twine("expected a pass name, found '") + Twine(peek()) +
                         "' in pipeline '" + Text + "'");
  }
  PassRegistry &R = PassRegistry::get();
  bool IsAnalysisPass = Name == "require" || Name == "invalidate";
  const PassInfo *Info = IsAnalysisPass ? nullptr : R.lookupPass(Name);
  if (!Info && !IsAnalysisPass)
    return makeError(ErrorCode::InvalidArgument,
                     "unknown pass name '" + Name + "'");
  std::vector<std::string> Params;
  bool HasParams = peek() == '<';
  if (HasParams)
    if (Error E = splitParams(Text, Pos, ("pass '" + Name + "'").str(), Params))
      return E;
  if (!atEnd() && peek() != ',') {
    if (peek() == '(')
      return makeError(ErrorCode::InvalidArgument,
                       "pass '" + Name + "' does not take a nested pipeline");
    return makeError(ErrorCode::InvalidArgument,
                     Twine("expected ',' after pass '") + Name + "', found '" +
                         Twine(peek()) + "'");
  }

  if (IsAnalysisPass) {
    if (Params.size() != 1)
      return makeError(ErrorCode::InvalidArgument,
                       "'" + Name + "' needs one analysis name: " + Name +
                           "<NAME>");
    const AnalysisInfo *A = R.lookupAnalysis(Params[0]);
    if (!A)
      return makeError(ErrorCode::InvalidArgument,
                       "unknown analysis name '" + Params[0] + "'");
    if (Name == "require")
      PM.addPass(RequirePass{A});
    else
      PM.addPass(InvalidatePass{A});
    return Error::success();
  }

  PassParams PP(Info->Name, Info->Params);
  if (HasParams && Info->Params.empty())
    return makeError(ErrorCode::InvalidArgument,
                     "pass '" + Name + "' takes no parameters");
  for (const std::string &P : Params)
    if (Error E = PP.set(P))
      return E;
  Expected<std::unique_ptr<PassConcept>> Pass = Info->Create(PP, Ctx);
  if (!Pass)
    return Pass.takeError();
  PM.addPass(std::move(*Pass));
  return Error::success();
}

Error profkit::parsePassPipeline(ProfilePassManager &PM, StringRef Text,
                                 PassContext &Ctx) {
  return PipelineParser(Text, PM, Ctx).parse();
}
