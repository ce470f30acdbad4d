//===- PassManager.cpp - Passes and analyses over a profile ---------------===//

#include "profkit/IR/PassManager.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/raw_ostream.h"

using namespace profkit;
using namespace llvm;

const Profile *profkit::unwrapProfile(const Any &IR) {
  if (const auto *P = llvm::any_cast<const Profile *>(&IR))
    return *P;
  return nullptr;
}

void profkit::printPassWithoutParams(StringRef Name, raw_ostream &OS) {
  OS << Name;
}

void ProfileAnalysisManager::invalidate(Profile &P,
                                        const PreservedAnalyses &PA) {
  if (PA.areAllPreserved())
    return;
  SmallVector<AnalysisKey *, 4> Dead;
  for (auto &[Key, Result] : Results) {
    auto C = PA.getChecker(Key);
    if (!C.preserved() && !C.preservedSet<AllAnalysesOnProfile>())
      Dead.push_back(Key);
  }
  for (AnalysisKey *Key : Dead) {
    PI.runAnalysisInvalidated(NamedUnit{Names[Key]}, std::as_const(P));
    Results.erase(Key);
  }
}

void ProfileAnalysisManager::clear() {
  Results.clear();
  Unit = nullptr;
}

namespace {
/// Names the running pass in the stack trace if the tool crashes.
class PassStackTraceEntry : public PrettyStackTraceEntry {
public:
  PassStackTraceEntry(StringRef Pass, const Profile &P) : Pass(Pass), P(P) {}
  void print(raw_ostream &OS) const override {
    OS << "Running pass '" << Pass << "' on profile '"
       << (P.SourceName.empty() ? "<profile>" : P.SourceName) << "'\n";
  }

private:
  StringRef Pass;
  const Profile &P;
};
} // namespace

Expected<PreservedAnalyses>
ProfilePassManager::run(Profile &P, ProfileAnalysisManager &AM,
                        PassInstrumentationCallbacks *PIC) {
  PassInstrumentation PI(PIC);
  PreservedAnalyses PA = PreservedAnalyses::all();
  for (auto &Pass : Passes) {
    if (!PI.runBeforePass(*Pass, std::as_const(P)))
      continue;
    Expected<PreservedAnalyses> PassPA = [&] {
      PassStackTraceEntry Entry(Pass->name(), P);
      return Pass->run(P, AM);
    }();
    if (!PassPA) {
      PI.runAfterPassInvalidated<Profile>(*Pass, PreservedAnalyses::none());
      return PassPA.takeError();
    }
    AM.invalidate(P, *PassPA);
    PI.runAfterPass(*Pass, std::as_const(P), *PassPA);
    PA.intersect(std::move(*PassPA));
  }
  return PA;
}

void ProfilePassManager::printPipeline(raw_ostream &OS) const {
  bool First = true;
  for (auto &Pass : Passes) {
    if (!First)
      OS << ',';
    First = false;
    Pass->printPipeline(OS);
  }
}
