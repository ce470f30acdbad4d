//===- Error.h - profkit's errors ------------------------------*- C++ -*-===//
//
// Every failure is an llvm::Error of profkit's category, so a caller can
// tell what went wrong without reading the message (errorToErrorCode(E) ==
// ErrorCode::Malformed), and every message about a place in an input starts
// with that place: `FILE:LINE: ` for text, `FILE: offset N: ` for binary files.
// System errors (a file that cannot be opened) keep their std::errc codes.
//
//===----------------------------------------------------------------------===//

#ifndef PROFKIT_SUPPORT_ERROR_H
#define PROFKIT_SUPPORT_ERROR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <system_error>

namespace profkit {

enum class ErrorCode {
  /// No reader recognizes the input.
  UnrecognizedFormat = 1,
  /// The input breaks its format's rules.
  Malformed,
  /// A size or count beyond what profkit takes (-max-memory, 64-bit costs).
  LimitExceeded,
  /// The data do not fit together (a program that is not the profile's).
  Mismatch,
  /// A pipeline, a parameter or an option that cannot be used.
  InvalidArgument,
};

const std::error_category &errorCategory();

inline std::error_code make_error_code(ErrorCode E) {
  return {int(E), errorCategory()};
}

/// An error of profkit's category.
llvm::Error makeError(ErrorCode Code, const llvm::Twine &Msg);

/// `File:Line: Msg`: what is wrong at a line of a text input.
llvm::Error createFileError(llvm::StringRef File, uint64_t Line, ErrorCode Code,
                            const llvm::Twine &Msg);

/// `File: offset Offset: Msg`: what is wrong at a byte of a binary input.
llvm::Error createOffsetError(llvm::StringRef File, uint64_t Offset,
                              ErrorCode Code, const llvm::Twine &Msg);

} // namespace profkit

namespace std {
template <> struct is_error_code_enum<profkit::ErrorCode> : std::true_type {};
} // namespace std

#endif
