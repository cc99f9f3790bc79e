#include "parquetry/util/buffer.h"

#include <cstdlib>
#include <new>
#include <utility>

namespace parquetry {

Buffer::~Buffer() { release(); }

Buffer::Buffer(Buffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
  }
  return *this;
}

void Buffer::release() {
  std::free(data_);
  data_ = nullptr;
  size_ = 0;
  capacity_ = 0;
}

void Buffer::grow(size_t min_capacity) {
  // Round up to the alignment so aligned_alloc's size rule holds.
  size_t capacity = (min_capacity + kAlignment - 1) / kAlignment * kAlignment;
  size_t bytes = capacity + kPadding;
  auto* fresh = static_cast<uint8_t*>(std::aligned_alloc(kAlignment, bytes));
  if (fresh == nullptr) throw std::bad_alloc();
  if (size_ != 0) std::memcpy(fresh, data_, size_);
  std::free(data_);
  data_ = fresh;
  capacity_ = capacity;
  std::memset(data_ + size_, 0, kPadding);
}

}  // namespace parquetry
