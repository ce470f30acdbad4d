//===- PassManager.h - Passes and analyses over a profile ------*- C++ -*-===//
//
// A small pass manager in the shape of LLVM's new pass manager, over one
// Profile. Passes derive from PassInfoMixin and return the analyses they
// preserve (llvm::PreservedAnalyses); analyses derive from
// AnalysisInfoMixin, have a `Result` class, and are computed on demand and
// cached by the ProfileAnalysisManager until a pass invalidates them.
//
// Instrumentation (print-before/after, -time-passes, -debug-pass-manager)
// goes through llvm::PassInstrumentationCallbacks, whose callbacks receive
// the profile as llvm::Any holding `const Profile *`.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_IR_PASSMANAGER_H
#define PROFKIT_IR_PASSMANAGER_H

#include "profkit/IR/Profile.h"
#include "llvm/ADT/Any.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Analysis.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace profkit {

using llvm::AnalysisKey;
using llvm::PreservedAnalyses;
using AllAnalysesOnProfile = llvm::AllAnalysesOn<Profile>;

class ProfileAnalysisManager;

/// Gives a pass its pipeline name (`NAME` in PassRegistry.def) and a
/// default printPipeline() for passes without parameters.
template <typename DerivedT> struct PassInfoMixin {
  static llvm::StringRef name() { return DerivedT::PassName; }
  void printPipeline(llvm::raw_ostream &OS) const;
};

/// Adds the unique key an analysis is cached under.
template <typename DerivedT>
struct AnalysisInfoMixin : PassInfoMixin<DerivedT> {
  static AnalysisKey *ID() { return &DerivedT::Key; }
};

/// Type-erased pass.
struct PassConcept {
  virtual ~PassConcept() = default;
  virtual llvm::Expected<PreservedAnalyses> run(Profile &P,
                                                ProfileAnalysisManager &AM) = 0;
  virtual llvm::StringRef name() const = 0;
  /// Prints the pass in the canonical textual pipeline form.
  virtual void printPipeline(llvm::raw_ostream &OS) const = 0;
};

template <typename PassT> struct PassModel final : PassConcept {
  explicit PassModel(PassT Pass) : Pass(std::move(Pass)) {}
  llvm::Expected<PreservedAnalyses> run(Profile &P,
                                        ProfileAnalysisManager &AM) override {
    return Pass.run(P, AM);
  }
  llvm::StringRef name() const override { return PassT::name(); }
  void printPipeline(llvm::raw_ostream &OS) const override {
    Pass.printPipeline(OS);
  }
  PassT Pass;
};

/// Computes analyses on demand and caches their results until a pass
/// invalidates them. Analyses register themselves on first use.
class ProfileAnalysisManager {
public:
  explicit ProfileAnalysisManager(
      llvm::PassInstrumentationCallbacks *PIC = nullptr)
      : PI(PIC) {}

  /// The result of analysis A on P, computed now if not cached.
  template <typename A> typename A::Result &getResult(Profile &P) {
    assert((!Unit || Unit == &P) && "one analysis manager per profile");
    Unit = &P;
    auto It = Results.find(A::ID());
    if (It != Results.end())
      return static_cast<ResultModel<typename A::Result> &>(*It->second).Value;
    PI.runBeforeAnalysis(NamedUnit{A::name()}, std::as_const(P));
    auto R =
        std::make_unique<ResultModel<typename A::Result>>(A().run(P, *this));
    auto &Value = R->Value;
    Results[A::ID()] = std::move(R);
    Names[A::ID()] = A::name();
    PI.runAfterAnalysis(NamedUnit{A::name()}, std::as_const(P));
    return Value;
  }

  /// The cached result of A, or null.
  template <typename A>
  typename A::Result *getCachedResult(const Profile &) const {
    auto It = Results.find(A::ID());
    if (It == Results.end())
      return nullptr;
    return &static_cast<ResultModel<typename A::Result> &>(*It->second).Value;
  }

  /// Drops every cached result that PA does not preserve.
  void invalidate(Profile &P, const PreservedAnalyses &PA);
  /// Drops every cached result.
  void clear();

private:
  struct ResultConcept {
    virtual ~ResultConcept() = default;
  };
  template <typename R> struct ResultModel final : ResultConcept {
    explicit ResultModel(R Value) : Value(std::move(Value)) {}
    R Value;
  };

  /// What instrumentation callbacks see as the pass or analysis.
  struct NamedUnit {
    llvm::StringRef Name;
    llvm::StringRef name() const { return Name; }
  };
  llvm::PassInstrumentation PI;
  const Profile *Unit = nullptr;
  llvm::DenseMap<AnalysisKey *, std::unique_ptr<ResultConcept>> Results;
  llvm::DenseMap<AnalysisKey *, llvm::StringRef> Names;
};

/// Runs passes in order over one profile.
class ProfilePassManager {
public:
  template <typename PassT> void addPass(PassT Pass) {
    Passes.push_back(std::make_unique<PassModel<PassT>>(std::move(Pass)));
  }
  void addPass(std::unique_ptr<PassConcept> Pass) {
    Passes.push_back(std::move(Pass));
  }
  bool empty() const { return Passes.empty(); }
  size_t size() const { return Passes.size(); }
  llvm::ArrayRef<std::unique_ptr<PassConcept>> passes() const { return Passes; }

  /// Runs every pass; stops at the first that fails.
  llvm::Expected<PreservedAnalyses>
  run(Profile &P, ProfileAnalysisManager &AM,
      llvm::PassInstrumentationCallbacks *PIC);

  /// The canonical textual pipeline: `a,b<k=v;flag>,c`.
  void printPipeline(llvm::raw_ostream &OS) const;

private:
  std::vector<std::unique_ptr<PassConcept>> Passes;
};

/// Prints `name<params>` for a pass whose parameters were parsed into
/// PassParams: see PassBuilder.h.
void printPassWithoutParams(llvm::StringRef Name, llvm::raw_ostream &OS);

template <typename DerivedT>
void PassInfoMixin<DerivedT>::printPipeline(llvm::raw_ostream &OS) const {
  printPassWithoutParams(DerivedT::name(), OS);
}

/// The profile an instrumentation callback was given, or null.
const Profile *unwrapProfile(const llvm::Any &IR);

} // namespace profkit

#endif
