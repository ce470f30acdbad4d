//===- ProfileFromText.h - Profiles for unit tests -------------*- C++ -*-===//
//
// Unit tests write their profiles in the callgrind format, which reads
// better than code that builds rows.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_UNITTESTS_PROFILEFROMTEXT_H
#define PROFKIT_UNITTESTS_PROFILEFROMTEXT_H

#include "profkit/Formats/Format.h"
#include "profkit/Support/InputStream.h"
#include "gtest/gtest.h"

namespace profkit {

/// The profile Text holds (any format profkit reads); an empty one, and a
/// test failure, if it does not read.
inline std::unique_ptr<Profile> parseProfile(llvm::StringRef Text) {
  std::unique_ptr<InputStream> In = InputStream::fromBuffer(Text, "test");
  llvm::Expected<std::unique_ptr<Profile>> P = readProfile(*In, ReadOptions());
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return std::make_unique<Profile>();
  }
  return std::move(*P);
}

/// The first function of P named Name; a test failure if there is none.
inline FuncId fn(const Profile &P, llvm::StringRef Name) {
  for (FuncId F = 0; F != P.numFunctions(); ++F)
    if (P.functionName(F) == Name)
      return F;
  ADD_FAILURE() << "no function " << Name.str();
  return 0;
}

} // namespace profkit

#endif
