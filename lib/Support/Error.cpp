//===- Error.cpp - profkit's errors ---------------------------------------===//

#include "profkit/Support/Error.h"
#include "llvm/Support/ErrorHandling.h"

using namespace profkit;
using namespace llvm;

namespace {
class ProfkitCategory : public std::error_category {
public:
  const char *name() const noexcept override { return "profkit"; }
  std::string message(int Code) const override {
    switch (profkit::ErrorCode(Code)) {
    case profkit::ErrorCode::UnrecognizedFormat:
      return "unrecognized profile format";
    case profkit::ErrorCode::Malformed:
      return "malformed input";
    case profkit::ErrorCode::LimitExceeded:
      return "limit exceeded";
    case profkit::ErrorCode::Mismatch:
      return "inputs that do not belong together";
    case profkit::ErrorCode::InvalidArgument:
      return "invalid argument";
    }
    llvm_unreachable("unknown profkit error code");
  }
};
} // namespace

const std::error_category &profkit::errorCategory() {
  static ProfkitCategory Category;
  return Category;
}

Error profkit::makeError(profkit::ErrorCode Code, const Twine &Msg) {
  return createStringError(make_error_code(Code), Msg);
}

Error profkit::createFileError(StringRef File, uint64_t Line,
                               profkit::ErrorCode Code, const Twine &Msg) {
  return makeError(Code, File + ":" + Twine(Line) + ": " + Msg);
}

Error profkit::createOffsetError(StringRef File, uint64_t Offset,
                                 profkit::ErrorCode Code, const Twine &Msg) {
  return makeError(Code, File + ": offset " + Twine(Offset) + ": " + Msg);
}
