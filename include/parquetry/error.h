// parquetry's single exception type.
//
// Every failure that crosses the public API is a parquetry::Error. It carries
// a machine-readable code and, where known, where in which file the problem
// was found, so that a bad file in a pipeline of thousands can be named
// precisely ("file x.parquet, row group 3, column a.b, page 7: ...").
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "parquetry/export.h"

namespace parquetry {

/// What kind of failure an Error reports.
enum class ErrorCode {
  kCorrupt,          ///< the input violates the format (bad file, bad bytes)
  kUnsupported,      ///< valid input that parquetry does not handle (LZO, encryption)
  kInvalidArgument,  ///< the caller asked for something impossible
  kIo,               ///< the operating system refused a read or write
  kLimitExceeded,    ///< a configured resource limit would be exceeded
  kInternal,         ///< a bug in parquetry
};

/// Short lowercase name of a code ("corrupt", "unsupported", ...).
PARQUETRY_API const char* error_code_name(ErrorCode code);

/// Where an error happened. Unknown parts stay empty / -1 and are not printed.
struct PARQUETRY_API ErrorLocation {
  std::string file;
  std::string column;  ///< dotted column path
  int64_t row_group = -1;
  int64_t page = -1;    ///< ordinal of the page within its column chunk
  int64_t offset = -1;  ///< byte offset within the file or buffer

  /// Fills each unknown part of *this from `outer` (inner context wins).
  void merge_from(const ErrorLocation& outer);
  bool empty() const;
};

/// The exception thrown at parquetry's API boundaries.
class PARQUETRY_API Error : public std::runtime_error {
 public:
  Error(ErrorCode code, std::string message, ErrorLocation where = {});

  ErrorCode code() const { return code_; }
  /// The bare message, without code and location.
  const std::string& message() const { return message_; }
  const ErrorLocation& where() const { return where_; }

  /// A copy of this error with missing location parts taken from `outer`;
  /// layers catch, add what they know (file, row group...) and rethrow.
  Error with_location(const ErrorLocation& outer) const;

 private:
  ErrorCode code_;
  std::string message_;
  ErrorLocation where_;
};

/// Throws kCorrupt. Use for any violation of the format by the input bytes.
[[noreturn]] PARQUETRY_API void throw_corrupt(std::string message, int64_t offset = -1);
/// Throws kUnsupported.
[[noreturn]] PARQUETRY_API void throw_unsupported(std::string message);
/// Throws kInvalidArgument.
[[noreturn]] PARQUETRY_API void throw_invalid(std::string message);
/// Throws kLimitExceeded.
[[noreturn]] PARQUETRY_API void throw_limit(std::string message, int64_t offset = -1);
/// Throws kIo with strerror(errno_value) appended.
[[noreturn]] PARQUETRY_API void throw_io(std::string message, int errno_value);

}  // namespace parquetry
