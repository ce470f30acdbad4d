//===- FoldContexts.cpp - Fold fib'2 and f'caller into their base ---------===//

#include "profkit/Transforms/FoldContexts.h"
#include "profkit/Transforms/Utils/Rewrite.h"

using namespace profkit;
using namespace llvm;

Expected<FoldContextsPass> FoldContextsPass::create(const PassParams &,
                                                    PassContext &) {
  return FoldContextsPass();
}

/// The name before callgrind's context suffix: the first `'` outside any
/// bracket (C++ and Rust names may hold `'` inside <...> or (...)).
static StringRef baseName(StringRef Name) {
  int Depth = 0;
  for (size_t I = 0; I != Name.size(); ++I) {
    char C = Name[I];
    if (C == '<' || C == '(' || C == '[')
      ++Depth;
    else if ((C == '>' || C == ')' || C == ']') && Depth > 0)
      --Depth;
    else if (C == '\'' && Depth == 0 && I != 0)
      return Name.take_front(I);
  }
  return Name;
}

Expected<PreservedAnalyses> FoldContextsPass::run(Profile &P,
                                                  ProfileAnalysisManager &) {
  bool Any = false;
  bool Ok = renameFunctions(P, [&](const profkit::Function &F) {
    StringRef Name = P.Strings.str(F.Name);
    StringRef Base = baseName(Name);
    if (Base.size() == Name.size())
      return F;
    Any = true;
    return profkit::Function{F.Object, F.File, P.Strings.intern(Base)};
  });
  if (!Ok)
    return overflowError(name());
  return Any ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
