#include "parquetry/error.h"

#include <cstring>

namespace parquetry {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kCorrupt: return "corrupt";
    case ErrorCode::kUnsupported: return "unsupported";
    case ErrorCode::kInvalidArgument: return "invalid argument";
    case ErrorCode::kIo: return "io";
    case ErrorCode::kLimitExceeded: return "limit exceeded";
    case ErrorCode::kInternal: return "internal";
  }
  return "unknown";
}

void ErrorLocation::merge_from(const ErrorLocation& outer) {
  if (file.empty()) file = outer.file;
  if (column.empty()) column = outer.column;
  if (row_group < 0) row_group = outer.row_group;
  if (page < 0) page = outer.page;
  if (offset < 0) offset = outer.offset;
}

bool ErrorLocation::empty() const {
  return file.empty() && column.empty() && row_group < 0 && page < 0 && offset < 0;
}

namespace {

std::string format_what(ErrorCode code, const std::string& message, const ErrorLocation& where) {
  std::string out = error_code_name(code);
  out += ": ";
  if (!where.empty()) {
    bool first = true;
    auto part = [&](const std::string& text) {
      if (!first) out += ", ";
      out += text;
      first = false;
    };
    if (!where.file.empty()) part(where.file);
    if (where.row_group >= 0) part("row group " + std::to_string(where.row_group));
    if (!where.column.empty()) part("column " + where.column);
    if (where.page >= 0) part("page " + std::to_string(where.page));
    if (where.offset >= 0) part("offset " + std::to_string(where.offset));
    out += ": ";
  }
  out += message;
  return out;
}

}  // namespace

Error::Error(ErrorCode code, std::string message, ErrorLocation where)
    : std::runtime_error(format_what(code, message, where)),
      code_(code),
      message_(std::move(message)),
      where_(std::move(where)) {}

Error Error::with_location(const ErrorLocation& outer) const {
  ErrorLocation merged = where_;
  merged.merge_from(outer);
  return Error(code_, message_, std::move(merged));
}

void throw_corrupt(std::string message, int64_t offset) {
  ErrorLocation where;
  where.offset = offset;
  throw Error(ErrorCode::kCorrupt, std::move(message), std::move(where));
}

void throw_unsupported(std::string message) {
  throw Error(ErrorCode::kUnsupported, std::move(message));
}

void throw_invalid(std::string message) {
  throw Error(ErrorCode::kInvalidArgument, std::move(message));
}

void throw_limit(std::string message, int64_t offset) {
  ErrorLocation where;
  where.offset = offset;
  throw Error(ErrorCode::kLimitExceeded, std::move(message), std::move(where));
}

void throw_io(std::string message, int errno_value) {
  message += ": ";
  message += std::strerror(errno_value);
  throw Error(ErrorCode::kIo, std::move(message));
}

}  // namespace parquetry
