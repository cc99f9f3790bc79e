// A growable byte buffer for hot paths: 64-byte aligned, never zero-filled on
// growth, and always followed by kPadding readable (zeroed) bytes so that
// decoders may load 8 or 32 bytes at a time past the logical end without a
// bounds branch per value.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "parquetry/export.h"

namespace parquetry {

class PARQUETRY_API Buffer {
 public:
  static constexpr size_t kAlignment = 64;
  static constexpr size_t kPadding = 64;

  Buffer() = default;
  explicit Buffer(size_t size) { resize(size); }
  ~Buffer();

  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;

  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }

  template <typename T>
  T* as() {
    return reinterpret_cast<T*>(data_);
  }
  template <typename T>
  const T* as() const {
    return reinterpret_cast<const T*>(data_);
  }

  std::span<const uint8_t> span() const { return {data_, size_}; }

  /// Sets the size; new bytes are uninitialised, the padding after is zeroed.
  void resize(size_t new_size) {
    if (new_size > capacity_) grow(new_size);
    size_ = new_size;
    if (data_ != nullptr) std::memset(data_ + size_, 0, kPadding);
  }
  /// Ensures capacity without changing the size.
  void reserve(size_t min_capacity) {
    if (min_capacity > capacity_) grow(min_capacity);
  }
  void clear() { resize(0); }
  /// Appends bytes, growing geometrically.
  void append(const void* bytes, size_t n) {
    size_t old = size_;
    if (old + n > capacity_) grow(std::max(old + n, capacity_ * 2));
    if (n != 0) std::memcpy(data_ + old, bytes, n);
    resize(old + n);
  }
  /// Frees the memory.
  void release();

 private:
  void grow(size_t min_capacity);

  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace parquetry
