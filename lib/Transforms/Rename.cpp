//===- Rename.cpp - Rewrite function names by regex -----------------------===//

#include "profkit/Transforms/Rename.h"
#include "profkit/Support/Error.h"
#include "profkit/Transforms/Utils/Rewrite.h"

using namespace profkit;
using namespace llvm;

Expected<RenamePass> RenamePass::create(const PassParams &Params,
                                        PassContext &) {
  RenamePass R;
  R.Params = Params;
  Expected<std::optional<Regex>> M = Params.getRegex("match");
  if (!M)
    return M.takeError();
  if (!*M)
    return createStringError(make_error_code(ErrorCode::InvalidArgument),
                             "pass 'rename' needs match=REGEX");
  R.Match = std::make_shared<Regex>(std::move(**M));
  R.Replace = Params.get("replace").str();
  return R;
}

/// Replaces every non-overlapping match of R in S, left to right.
static std::string replaceAll(const Regex &R, StringRef S, StringRef With) {
  std::string Out;
  SmallVector<StringRef, 10> Groups;
  while (!S.empty() && R.match(S, &Groups)) {
    StringRef Whole = Groups[0];
    size_t Start = Whole.data() - S.data();
    Out += S.take_front(Start);
    // Regex::sub() does the \N substitution on the matched text alone.
    Out += R.sub(With, Whole);
    size_t Skip = Start + std::max<size_t>(Whole.size(), 1);
    if (Whole.empty() && Start < S.size())
      Out += S[Start];
    S = S.drop_front(std::min(Skip, S.size()));
  }
  Out += S;
  return Out;
}

Expected<PreservedAnalyses> RenamePass::run(Profile &P,
                                            ProfileAnalysisManager &) {
  bool Any = false;
  bool Ok = renameFunctions(P, [&](const profkit::Function &F) {
    StringRef Name = P.Strings.str(F.Name);
    std::string New = replaceAll(*Match, Name, Replace);
    if (New == Name)
      return F;
    Any = true;
    return profkit::Function{F.Object, F.File, P.Strings.intern(New)};
  });
  if (!Ok)
    return overflowError(name());
  return Any ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
