// Helpers shared by the libFuzzer targets.
//
// Every target feeds attacker-controlled bytes to one parser. A
// parquetry::Error is the expected way to reject them; anything else that
// escapes (another exception type, a sanitizer report, a timeout, an
// out-of-memory) is a bug the fuzzer reports.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "parquetry/error.h"
#include "parquetry/limits.h"

namespace parquetry::fuzz {

/// Limits small enough that a fuzzer input can never make a parser allocate
/// more than a few hundred MiB, yet large enough for every seed file.
inline Limits tight_limits() {
  Limits limits;
  limits.max_footer_size = 8 << 20;
  limits.max_thrift_string_size = 4 << 20;
  limits.max_thrift_container_size = 1 << 20;
  limits.max_nesting_depth = 32;
  limits.max_page_header_size = 1 << 20;
  limits.max_page_size = 16 << 20;
  limits.max_dictionary_size = 16 << 20;
  limits.max_values_per_page = 1 << 20;
  limits.max_rows_per_batch = 1 << 20;
  limits.reader_memory_budget = 64 << 20;
  return limits;
}

/// Reads a fixed-size configuration prefix off the front of the input; past
/// the end it yields zeros so every input is usable.
class Prefix {
 public:
  Prefix(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  uint8_t byte() { return pos_ < size_ ? data_[pos_++] : (pos_++, 0); }
  uint32_t u32() {
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) value |= uint32_t(byte()) << (8 * i);
    return value;
  }
  /// The bytes after the prefix.
  std::span<const uint8_t> rest() const {
    return pos_ < size_ ? std::span<const uint8_t>(data_ + pos_, size_ - pos_) : std::span<const uint8_t>();
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace parquetry::fuzz
