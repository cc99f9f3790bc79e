// A set of int64 keys in one flat open-addressing table (linear probing,
// power-of-two capacity at most half full): equality deletes on one integer
// column are looked up once per scanned row, and a node-based set of
// strings spent most of such a scan chasing pointers. Keys spread over a
// range of at most 64 bits per table slot (ids, dense or every n-th) are
// held as a bitmap over that range instead, no larger than the table: 100,000
// ids out of 2,000,000 are 256 KB of bits against a 2 MB table, and the
// probes into the table missed the cache on almost every row.
#pragma once

#include <algorithm>
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
    if (!keys.empty()) {
      const auto [low, high] = std::minmax_element(keys.begin(), keys.end());
      const uint64_t range = uint64_t(*high) - uint64_t(*low);
      if (range < uint64_t(capacity) * 64) {
        min_ = *low;
        range_ = range;
        bits_.assign(size_t(range / 64 + 1), 0);
        for (int64_t key : keys) {
          const uint64_t at = uint64_t(key) - uint64_t(min_);
          size_ += ((bits_[at >> 6] >> (at & 63)) & 1) == 0;
          bits_[at >> 6] |= uint64_t(1) << (at & 63);
        }
        return;
      }
    }
    slots_.assign(capacity, kEmpty);
    mask_ = capacity - 1;
    for (int64_t key : keys) insert(key);
  }

  bool contains(int64_t key) const {
    if (!bits_.empty()) {
      const uint64_t at = uint64_t(key) - uint64_t(min_);
      return at <= range_ && ((bits_[at >> 6] >> (at & 63)) & 1) != 0;
    }
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

  std::vector<uint64_t> bits_;  // bit k: key min_ + k (bitmap form; then slots_ is empty)
  int64_t min_ = 0;
  uint64_t range_ = 0;
  std::vector<int64_t> slots_;
  size_t mask_ = 0;
  int shift_ = 60;
  size_t size_ = 0;
  bool has_empty_value_ = false;
};

}  // namespace parquetry::iceberg
