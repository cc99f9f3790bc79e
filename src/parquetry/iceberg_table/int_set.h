// A set of int64 keys in one flat open-addressing table (linear probing,
// power-of-two capacity at most half full): equality deletes on one integer
// column are looked up once per scanned row, and a node-based set of
// strings spent most of such a scan chasing pointers.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace parquetry::iceberg {

class FlatInt64Set {
 public:
  /// Builds the set from `keys` (duplicates allowed).
  explicit FlatInt64Set(const std::vector<int64_t>& keys = {}) {
    size_t capacity = 16;
    while (capacity < keys.size() * 2) capacity *= 2;
    shift_ = 64;
    for (size_t c = capacity; c > 1; c >>= 1) --shift_;
    slots_.assign(capacity, kEmpty);
    mask_ = capacity - 1;
    for (int64_t key : keys) insert(key);
  }

  bool contains(int64_t key) const {
    if (key == kEmpty) return has_empty_value_;
    for (size_t i = slot_of(key);; i = (i + 1) & mask_) {
      const int64_t stored = slots_[i];
      if (stored == key) return true;
      if (stored == kEmpty) return false;
    }
  }

  size_t size() const { return size_; }

 private:
  static constexpr int64_t kEmpty = std::numeric_limits<int64_t>::min();

  size_t slot_of(int64_t key) const {
    return size_t((uint64_t(key) * 0x9E3779B97F4A7C15ull) >> shift_) & mask_;
  }

  void insert(int64_t key) {
    if (key == kEmpty) {
      size_ += !has_empty_value_;
      has_empty_value_ = true;
      return;
    }
    for (size_t i = slot_of(key);; i = (i + 1) & mask_) {
      if (slots_[i] == key) return;
      if (slots_[i] == kEmpty) {
        slots_[i] = key;
        ++size_;
        return;
      }
    }
  }

  std::vector<int64_t> slots_;
  size_t mask_ = 0;
  int shift_ = 60;
  size_t size_ = 0;
  bool has_empty_value_ = false;
};

}  // namespace parquetry::iceberg
