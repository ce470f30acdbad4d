//===- PathNormalizer.cpp - File and object names made comparable ---------===//

#include "profkit/Support/PathNormalizer.h"
#include "llvm/Support/Path.h"

using namespace profkit;
using namespace llvm;

PathNormalizer::PathNormalizer(std::optional<Regex> Strip, bool Basename)
    : Basename(Basename) {
  if (Strip)
    StripPath = std::make_shared<Regex>(std::move(*Strip));
}

std::string PathNormalizer::operator()(StringRef Path) const {
  std::string S = StripPath ? StripPath->sub("", Path) : Path.str();
  if (Basename)
    S = sys::path::filename(S).str();
  return S;
}
