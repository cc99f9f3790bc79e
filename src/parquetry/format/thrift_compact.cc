// The cold error paths of the compact protocol reader.
#include "parquetry/format/thrift_compact.h"

namespace parquetry::thrift {

void CompactReader::fail(const char* message) const { fail(std::string(message)); }

void CompactReader::fail(const std::string& message) const {
  throw_corrupt("thrift: " + message + " at byte " + std::to_string(position()),
                static_cast<int64_t>(position()));
}

void CompactReader::fail_with_number(const char* message, uint64_t number) const {
  fail(std::string(message) + " " + std::to_string(number));
}

void CompactReader::fail_depth() const {
  throw_limit("thrift: nesting deeper than " + std::to_string(limits_.max_nesting_depth) + " at byte " +
                  std::to_string(position()),
              static_cast<int64_t>(position()));
}

void CompactReader::fail_string_limit(uint64_t size) const {
  throw_limit("thrift: string of " + std::to_string(size) + " bytes exceeds the limit of " +
                  std::to_string(limits_.max_thrift_string_size) + " at byte " + std::to_string(position()),
              static_cast<int64_t>(position()));
}

void CompactReader::fail_container_limit(uint64_t size) const {
  throw_limit("thrift: container of " + std::to_string(size) + " elements exceeds the limit of " +
                  std::to_string(limits_.max_thrift_container_size) + " at byte " +
                  std::to_string(position()),
              static_cast<int64_t>(position()));
}

}  // namespace parquetry::thrift
