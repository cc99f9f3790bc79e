#include "parquetry/util/buffer.h"

#include <cstdlib>
#include <new>
#include <utility>

#include "parquetry/large_block.h"

namespace parquetry {
namespace {

// Blocks of kLargeBlockMinBytes and more (decompressed pages, decoded value
// arrays) come from the large-block cache: a scan frees and requests blocks
// of the same few sizes for every page and row group, and through the C
// library each one was mapped afresh (or trimmed from the heap and grown
// back), paying a page fault and a zeroed page per 4 KiB. Whether a block is
// large follows from its capacity alone, so release() needs no extra flag.
bool is_large(size_t bytes) { return bytes >= kLargeBlockMinBytes; }

uint8_t* allocate_block(size_t bytes) {
  if (is_large(bytes)) return static_cast<uint8_t*>(detail::large_block_allocate(bytes));
  auto* block = static_cast<uint8_t*>(std::aligned_alloc(Buffer::kAlignment, bytes));
  if (block == nullptr) throw std::bad_alloc();
  return block;
}

void free_block(uint8_t* block, size_t bytes) {
  if (block == nullptr) return;
  if (is_large(bytes)) {
    detail::large_block_free(block, bytes);
  } else {
    std::free(block);
  }
}

}  // namespace

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
  free_block(data_, capacity_ + kPadding);
  data_ = nullptr;
  size_ = 0;
  capacity_ = 0;
}

void Buffer::grow(size_t min_capacity) {
  // Round up to the alignment so aligned_alloc's size rule holds.
  size_t capacity = (min_capacity + kAlignment - 1) / kAlignment * kAlignment;
  size_t bytes = capacity + kPadding;
  if (data_ != nullptr && is_large(capacity_ + kPadding)) {
    // A large block grows in place or moves without a copy (mremap): a
    // buffer that doubles up to hundreds of MB (a MemorySink, a column of
    // protobuf values) neither copies itself nor faults its pages in twice.
    data_ = static_cast<uint8_t*>(detail::large_block_reallocate(data_, bytes));
    capacity_ = capacity;
    std::memset(data_ + size_, 0, kPadding);
    return;
  }
  uint8_t* fresh = allocate_block(bytes);
  if (size_ != 0) std::memcpy(fresh, data_, size_);
  free_block(data_, capacity_ + kPadding);
  data_ = fresh;
  capacity_ = capacity;
  std::memset(data_ + size_, 0, kPadding);
}

}  // namespace parquetry
