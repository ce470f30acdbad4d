//===- Demangle.cpp - Demangle function names -----------------------------===//

#include "profkit/Transforms/Demangle.h"
#include "profkit/Support/Demangle.h"
#include "profkit/Transforms/Utils/Rewrite.h"

using namespace profkit;
using namespace llvm;

Expected<DemanglePass> DemanglePass::create(const PassParams &, PassContext &) {
  return DemanglePass();
}

Expected<PreservedAnalyses> DemanglePass::run(Profile &P,
                                              ProfileAnalysisManager &) {
  bool Any = false;
  bool Ok = renameFunctions(P, [&](const profkit::Function &F) {
    std::string Name = P.Strings.str(F.Name).str();
    // callgrind's context suffixes ('2, 'caller) follow the mangled name.
    size_t Quote = Name.find('\'');
    std::string Suffix;
    if (Quote != std::string::npos) {
      Suffix = Name.substr(Quote);
      Name.resize(Quote);
    }
    std::string D = demangleName(Name);
    if (D == Name)
      return F;
    Any = true;
    return profkit::Function{F.Object, F.File, P.Strings.intern(D + Suffix)};
  });
  if (!Ok)
    return overflowError(name());
  return Any ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
