//===- ErrorTest.cpp - Tests of profkit's errors --------------------------===//

#include "profkit/Support/Error.h"
#include "gtest/gtest.h"

using namespace profkit;
using namespace llvm;

namespace {

TEST(Error, FileErrorsNameThePlaceAndKeepTheirCode) {
  Error E = createFileError("prof.out", 12, ErrorCode::Malformed, "bad cost");
  std::error_code EC;
  std::string Msg;
  handleAllErrors(std::move(E), [&](const StringError &S) {
    EC = S.convertToErrorCode();
    Msg = S.getMessage();
  });
  EXPECT_EQ(Msg, "prof.out:12: bad cost");
  EXPECT_EQ(EC, ErrorCode::Malformed);
  EXPECT_EQ(EC.category().name(), std::string("profkit"));
}

TEST(Error, OffsetErrorsForBinaryInputs) {
  Error E =
      createOffsetError("gmon.out", 20, ErrorCode::LimitExceeded, "too big");
  EXPECT_EQ(
      errorToErrorCode(createOffsetError("x", 0, ErrorCode::Mismatch, "y")),
      ErrorCode::Mismatch);
  EXPECT_EQ(toString(std::move(E)), "gmon.out: offset 20: too big");
}

TEST(Error, EveryCodeHasAMessage) {
  for (ErrorCode C : {ErrorCode::UnrecognizedFormat, ErrorCode::Malformed,
                      ErrorCode::LimitExceeded, ErrorCode::Mismatch,
                      ErrorCode::InvalidArgument})
    EXPECT_FALSE(make_error_code(C).message().empty());
}

} // namespace
