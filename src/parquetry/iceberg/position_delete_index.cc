// PositionDeleteIndex: 64-bit positions as 32-bit CRoaring bitmaps keyed by
// the high 32 bits, with the portable 64-bit serialization done here (the C++
// Roaring64Map of CRoaring 0.2.66 has an unchecked readSafe and no addRange).
#include <roaring/containers/array.h>
#include <roaring/containers/bitset.h>
#include <roaring/containers/containers.h>
#include <roaring/containers/run.h>
#include <roaring/roaring.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "parquetry/encoding/bit_unpack.h"
#include "parquetry/error.h"
#include "parquetry/iceberg.h"
#include "parquetry/iceberg/roaring_format.h"
#include "parquetry/util/bit_util.h"

namespace parquetry::iceberg {
namespace {

constexpr uint32_t high_key(int64_t pos) { return uint32_t(uint64_t(pos) >> 32); }
constexpr uint32_t low_bits(int64_t pos) { return uint32_t(uint64_t(pos)); }
constexpr int64_t make_position(uint32_t key, uint32_t low) { return int64_t((uint64_t(key) << 32) | low); }

[[noreturn]] void throw_bad_position(int64_t pos) {
  throw_invalid("iceberg: delete position " + std::to_string(pos) + " is outside [0, " +
                std::to_string(kMaxDeletePosition) + "]");
}

void check_position(int64_t pos) {
  if (uint64_t(pos) > uint64_t(kMaxDeletePosition)) throw_bad_position(pos);
}

roaring_bitmap_t* new_bitmap() {
  roaring_bitmap_t* bitmap = roaring_bitmap_create();
  if (bitmap == nullptr) throw std::bad_alloc();
  return bitmap;
}

// Whether pos[0, count) strictly ascends (branch-free: position-delete files
// are sorted by position, so this is the usual case and is checked in one
// vectorisable pass).
bool strictly_ascending(const int64_t* pos, size_t count) {
  size_t out_of_order = 0;
  for (size_t i = 1; i < count; ++i) out_of_order += pos[i] <= pos[i - 1];
  return out_of_order == 0;
}

// Ascending low 32 bits of one high key, as a 32-bit bitmap built in
// CRoaring's portable format and deserialized: a container per 2^16 values,
// a bitset (bits set with no branch) where more than 4096 fall in it, else
// an array. Inserting them one by one cost a mispredicted run test per
// position and array containers regrown and converted to bitsets on the
// way (10% random deletes: ~2.7% of a table scan). Long runs then become
// run containers through run_optimize, as add_range would have made them.
roaring_bitmap_t* bitmap_of_ascending(const int64_t* pos, size_t count) {
  constexpr uint32_t kNoRunCookie = 12346;
  constexpr size_t kArrayMax = 4096;
  struct Container {
    uint16_t key;
    size_t first, count;
  };
  std::vector<Container> containers;
  for (size_t i = 0; i < count;) {
    const uint32_t chunk = low_bits(pos[i]) >> 16;
    size_t j = i + 1;
    while (j < count && (low_bits(pos[j]) >> 16) == chunk) ++j;
    containers.push_back({uint16_t(chunk), i, j - i});
    i = j;
  }
  size_t size = 8 + containers.size() * 8;
  for (const Container& c : containers) size += c.count > kArrayMax ? 8192 : 2 * c.count;
  std::vector<uint8_t> bytes(size, 0);
  uint8_t* p = bytes.data();
  bits::store<uint32_t>(p, kNoRunCookie);
  bits::store<uint32_t>(p + 4, uint32_t(containers.size()));
  uint8_t* descriptive = p + 8;
  uint8_t* offsets = descriptive + 4 * containers.size();
  size_t at = 8 + containers.size() * 8;
  for (size_t k = 0; k < containers.size(); ++k) {
    const Container& c = containers[k];
    bits::store<uint16_t>(descriptive + 4 * k, c.key);
    bits::store<uint16_t>(descriptive + 4 * k + 2, uint16_t(c.count - 1));
    bits::store<uint32_t>(offsets + 4 * k, uint32_t(at));
    uint8_t* data = p + at;
    if (c.count > kArrayMax) {
      for (size_t i = c.first; i < c.first + c.count; ++i) {
        const uint32_t low = low_bits(pos[i]) & 0xFFFF;
        data[low >> 3] |= uint8_t(1u << (low & 7));
      }
      at += 8192;
    } else {
      for (size_t i = 0; i < c.count; ++i)
        bits::store<uint16_t>(data + 2 * i, uint16_t(low_bits(pos[c.first + i])));
      at += 2 * c.count;
    }
  }
  roaring_bitmap_t* bitmap = roaring_bitmap_portable_deserialize_safe(reinterpret_cast<const char*>(p), size);
  if (bitmap == nullptr) throw std::bad_alloc();
  roaring_bitmap_run_optimize(bitmap);
  return bitmap;
}

// Adds the low 32 bits of positions that share one high key. Many ascending
// positions (a position-delete file's) go in as one built bitmap; otherwise
// runs of at least kMinRange consecutive positions (the usual shape of
// deletes from a MERGE or DELETE over a range) become one range insertion
// and the rest go through roaring_bitmap_add_many in chunks.
void add_low_run(roaring_bitmap_t* bitmap, const int64_t* pos, size_t count) {
  constexpr size_t kBuildAbove = 256;
  if (count >= kBuildAbove && strictly_ascending(pos, count)) {
    roaring_bitmap_t* built = bitmap_of_ascending(pos, count);
    roaring_bitmap_or_inplace(bitmap, built);
    roaring_bitmap_free(built);
    return;
  }
  constexpr size_t kMinRange = 16;
  constexpr size_t kChunk = 1024;
  uint32_t chunk[kChunk];
  size_t fill = 0;
  size_t i = 0;
  while (i < count) {
    size_t start = i;
    while (i + 1 < count && pos[i + 1] == pos[i] + 1) ++i;
    size_t run = i - start + 1;
    if (run >= kMinRange) {
      roaring_bitmap_add_range_closed(bitmap, low_bits(pos[start]), low_bits(pos[i]));
    } else {
      for (size_t k = start; k <= i; ++k) {
        if (fill == kChunk) {
          roaring_bitmap_add_many(bitmap, fill, chunk);
          fill = 0;
        }
        chunk[fill++] = low_bits(pos[k]);
      }
    }
    ++i;
  }
  if (fill != 0) roaring_bitmap_add_many(bitmap, fill, chunk);
}

}  // namespace

PositionDeleteIndex::~PositionDeleteIndex() { clear(); }

void PositionDeleteIndex::reset_to_empty() {
  storage_.bitmaps = Bitmaps{Entry{}, nullptr};
  size_ = 0;
  capacity_ = 1;
  small_size_ = 0;
}

void PositionDeleteIndex::clear() {
  if (!is_small()) {
    Entry* e = entries();
    for (uint32_t i = 0; i < size_; ++i) roaring_bitmap_free(e[i].bitmap);
    delete[] storage_.bitmaps.heap;
  }
  reset_to_empty();
}

PositionDeleteIndex::PositionDeleteIndex(const PositionDeleteIndex& other) {
  if (other.is_small()) {
    storage_ = other.storage_;
    small_size_ = other.small_size_;
    return;
  }
  for (uint32_t i = 0; i < other.size_; ++i) {
    const Entry& src = other.entries()[i];
    // bitmap_for appends: other's keys are ascending.
    roaring_bitmap_or_inplace(bitmap_for(src.key), src.bitmap);
  }
}

PositionDeleteIndex& PositionDeleteIndex::operator=(const PositionDeleteIndex& other) {
  if (this != &other) {
    PositionDeleteIndex copy(other);
    *this = std::move(copy);
  }
  return *this;
}

PositionDeleteIndex::PositionDeleteIndex(PositionDeleteIndex&& other) noexcept
    : storage_(other.storage_),
      size_(other.size_),
      capacity_(other.capacity_),
      small_size_(other.small_size_) {
  other.reset_to_empty();
}

PositionDeleteIndex& PositionDeleteIndex::operator=(PositionDeleteIndex&& other) noexcept {
  if (this != &other) {
    clear();
    storage_ = other.storage_;
    size_ = other.size_;
    capacity_ = other.capacity_;
    small_size_ = other.small_size_;
    other.reset_to_empty();
  }
  return *this;
}

bool PositionDeleteIndex::small_insert(int64_t pos) {
  // Only while no bitmap exists (empty or small mode).
  int64_t* small = storage_.small;
  uint32_t n = small_size_;
  if (n == 0) {
    small[0] = pos;
    small_size_ = 1;
    return true;
  }
  uint32_t at = 0;
  while (at < n && small[at] < pos) ++at;
  if (at < n && small[at] == pos) return true;
  if (n == kSmallCapacity) return false;
  for (uint32_t k = n; k > at; --k) small[k] = small[k - 1];
  small[at] = pos;
  small_size_ = n + 1;
  return true;
}

void PositionDeleteIndex::promote() {
  if (!is_small()) return;
  int64_t held[kSmallCapacity];
  uint32_t n = small_size_;
  std::copy(storage_.small, storage_.small + n, held);
  reset_to_empty();
  try {
    for (uint32_t i = 0; i < n; ++i) roaring_bitmap_add(bitmap_for(high_key(held[i])), low_bits(held[i]));
  } catch (...) {
    clear();
    throw;
  }
}

PositionDeleteIndex PositionDeleteIndex::as_bitmaps() const {
  PositionDeleteIndex copy(*this);
  copy.promote();
  return copy;
}

size_t PositionDeleteIndex::bitmap_count() const {
  if (!is_small()) return size_;
  size_t keys = 1;
  for (uint32_t i = 1; i < small_size_; ++i)
    keys += high_key(storage_.small[i]) != high_key(storage_.small[i - 1]);
  return keys;
}

const PositionDeleteIndex::Entry* PositionDeleteIndex::find(uint32_t key) const {
  const Entry* e = entries();
  if (size_ == 1) return e[0].key == key ? e : nullptr;  // the common case
  const Entry* it = std::lower_bound(e, e + size_, key, [](const Entry& a, uint32_t k) { return a.key < k; });
  return (it != e + size_ && it->key == key) ? it : nullptr;
}

roaring_bitmap_s* PositionDeleteIndex::bitmap_for(uint32_t key) {
  Entry* e = entries();
  if (size_ != 0 && e[size_ - 1].key == key) return e[size_ - 1].bitmap;  // sorted input
  Entry* it = std::lower_bound(e, e + size_, key, [](const Entry& a, uint32_t k) { return a.key < k; });
  if (it != e + size_ && it->key == key) return it->bitmap;
  size_t at = size_t(it - e);
  if (size_ == capacity_) {
    uint32_t new_capacity = capacity_ * 2;
    Entry* grown = new Entry[new_capacity];
    std::copy(e, e + size_, grown);
    delete[] storage_.bitmaps.heap;
    storage_.bitmaps.heap = grown;
    storage_.bitmaps.inline_entry = Entry{};
    capacity_ = new_capacity;
    e = grown;
  }
  roaring_bitmap_t* bitmap = new_bitmap();
  std::copy_backward(e + at, e + size_, e + size_ + 1);
  e[at] = Entry{key, bitmap};
  ++size_;
  return bitmap;
}

void PositionDeleteIndex::add(int64_t pos) {
  check_position(pos);
  if (size_ == 0 && small_insert(pos)) return;
  promote();
  roaring_bitmap_add(bitmap_for(high_key(pos)), low_bits(pos));
}

void PositionDeleteIndex::add_range(int64_t begin, int64_t end) {
  if (begin >= end) return;
  check_position(begin);
  check_position(end - 1);
  if (size_ == 0 && small_size_ + uint64_t(end - begin) <= kSmallCapacity) {
    for (int64_t p = begin; p < end; ++p) small_insert(p);  // fits: cannot fail
    return;
  }
  promote();
  int64_t last = end - 1;
  while (begin <= last) {
    uint32_t key = high_key(begin);
    int64_t key_last = std::min(last, make_position(key, 0xFFFFFFFFu));
    roaring_bitmap_add_range_closed(bitmap_for(key), low_bits(begin), low_bits(key_last));
    begin = key_last + 1;
  }
}

void PositionDeleteIndex::add_many(std::span<const int64_t> positions) {
  const int64_t* pos = positions.data();
  size_t n = positions.size();
  // Validate first (a branch-free max over the batch; negatives become huge
  // as unsigned) so that an error leaves the index unchanged.
  uint64_t largest = 0;
  for (size_t i = 0; i < n; ++i) largest = std::max(largest, uint64_t(pos[i]));
  if (largest > uint64_t(kMaxDeletePosition)) {
    for (size_t i = 0; i < n; ++i) check_position(pos[i]);
  }
  if (size_ == 0 && small_size_ + n <= kSmallCapacity) {
    for (size_t i = 0; i < n; ++i) small_insert(pos[i]);  // fits: cannot fail
    return;
  }
  promote();
  size_t i = 0;
  while (i < n) {
    uint32_t key = high_key(pos[i]);
    size_t j = i + 1;
    while (j < n && high_key(pos[j]) == key) ++j;
    add_low_run(bitmap_for(key), pos + i, j - i);
    i = j;
  }
}

void PositionDeleteIndex::merge(const PositionDeleteIndex& other) {
  if (&other == this) return;
  if (other.is_small()) {
    for (uint32_t i = 0; i < other.small_size_; ++i) add(other.storage_.small[i]);
    return;
  }
  if (other.size_ == 0) return;
  promote();
  for (uint32_t i = 0; i < other.size_; ++i) {
    const Entry& src = other.entries()[i];
    roaring_bitmap_or_inplace(bitmap_for(src.key), src.bitmap);
  }
}

bool PositionDeleteIndex::contains(int64_t pos) const {
  if (uint64_t(pos) > uint64_t(kMaxDeletePosition)) return false;
  if (is_small()) {
    for (uint32_t i = 0; i < small_size_; ++i) {
      if (storage_.small[i] == pos) return true;
    }
    return false;
  }
  const Entry* e = find(high_key(pos));
  return e != nullptr && roaring_bitmap_contains(e->bitmap, low_bits(pos));
}

int64_t PositionDeleteIndex::cardinality() const {
  if (is_small()) return small_size_;
  int64_t total = 0;
  const Entry* e = entries();
  for (uint32_t i = 0; i < size_; ++i) total += int64_t(roaring_bitmap_get_cardinality(e[i].bitmap));
  return total;
}

bool PositionDeleteIndex::empty() const { return size_ == 0 && small_size_ == 0; }

int64_t PositionDeleteIndex::count_range(int64_t begin, int64_t end) const {
  begin = std::max<int64_t>(begin, 0);
  end = std::min<int64_t>(end, kMaxDeletePosition + 1);
  if (begin >= end) return 0;
  int64_t total = 0;
  if (is_small()) {
    for (uint32_t i = 0; i < small_size_; ++i) total += storage_.small[i] >= begin && storage_.small[i] < end;
    return total;
  }
  const Entry* e = entries();
  for (uint32_t i = 0; i < size_; ++i) {
    int64_t key_first = make_position(e[i].key, 0);
    int64_t key_end = key_first + (int64_t(1) << 32);
    int64_t lo = std::max(begin, key_first);
    int64_t hi = std::min(end, key_end);
    if (lo >= hi) continue;
    total += int64_t(
        roaring_bitmap_range_cardinality(e[i].bitmap, uint64_t(lo - key_first), uint64_t(hi - key_first)));
  }
  return total;
}

int64_t PositionDeleteIndex::min() const {
  if (is_small()) return storage_.small[0];
  if (size_ == 0) return -1;
  const Entry& first = entries()[0];
  return make_position(first.key, roaring_bitmap_minimum(first.bitmap));
}

int64_t PositionDeleteIndex::max() const {
  if (is_small()) return storage_.small[small_size_ - 1];
  if (size_ == 0) return -1;
  const Entry& last = entries()[size_ - 1];
  return make_position(last.key, roaring_bitmap_maximum(last.bitmap));
}

bool PositionDeleteIndex::run_optimize() {
  if (is_small()) return false;  // serialized as bitmaps built value by value
  bool changed = false;
  Entry* e = entries();
  for (uint32_t i = 0; i < size_; ++i) changed |= roaring_bitmap_run_optimize(e[i].bitmap);
  return changed;
}

namespace {

inline void or_bit(uint8_t* dst, int64_t d) { dst[d >> 3] |= uint8_t(1u << (d & 7)); }

// ORs the values of one CRoaring container (values chunk_base + v) that fall
// in [first, end) into dst, value p at bit p - origin. Containers cover
// disjoint values, so copying a bitset's bits (encoding::copy_bits keeps
// the bits around them) and filling runs' bits is ORing them. Reads the container's public
// layout (roaring/containers/*.h), which is what makes this a copy of words
// for a bitset container rather than an iterator step per deleted row.
void or_container(const void* container, uint8_t type, int64_t chunk_base, int64_t first, int64_t end,
                  int64_t origin, uint8_t* dst) {
  const int64_t lo = std::max<int64_t>(first, chunk_base) - chunk_base;  // within the chunk
  const int64_t hi = std::min<int64_t>(end, chunk_base + 65536) - chunk_base;
  if (lo >= hi) return;
  container = container_unwrap_shared(container, &type);
  switch (type) {
    case BITSET_CONTAINER_TYPE_CODE: {
      const auto* bitset = static_cast<const bitset_container_t*>(container);
      encoding::copy_bits(reinterpret_cast<const uint8_t*>(bitset->array), lo, dst, chunk_base + lo - origin,
                          hi - lo);
      return;
    }
    case ARRAY_CONTAINER_TYPE_CODE: {
      const auto* array = static_cast<const array_container_t*>(container);
      const uint16_t* values = array->array;
      const uint16_t* stop = values + array->cardinality;
      for (const uint16_t* v = std::lower_bound(values, stop, uint16_t(lo)); v != stop && *v < hi; ++v)
        or_bit(dst, chunk_base + *v - origin);
      return;
    }
    case RUN_CONTAINER_TYPE_CODE: {
      const auto* run = static_cast<const run_container_t*>(container);
      for (int32_t r = 0; r < run->n_runs; ++r) {
        const int64_t begin = std::max<int64_t>(run->runs[r].value, lo);
        const int64_t stop = std::min<int64_t>(int64_t(run->runs[r].value) + run->runs[r].length + 1, hi);
        if (begin < stop) encoding::fill_bits(dst, chunk_base + begin - origin, stop - begin, true);
      }
      return;
    }
    default: throw Error(ErrorCode::kInternal, "position index: unknown roaring container type");
  }
}

}  // namespace

void PositionDeleteIndex::deleted_bitmap(int64_t first_row, int64_t num_rows, uint8_t* bits) const {
  if (num_rows <= 0) return;
  std::memset(bits, 0, size_t(bits::bytes_for_bits(num_rows)));
  if (first_row > kMaxDeletePosition || empty()) return;
  const int64_t first = std::max<int64_t>(first_row, 0);
  const int64_t end = std::min<int64_t>(first_row + num_rows, kMaxDeletePosition + 1);
  if (is_small()) {
    for (uint32_t i = 0; i < small_size_; ++i) {
      const int64_t pos = storage_.small[i];
      if (pos >= first && pos < end) bits::set_bit(bits, pos - first_row);
    }
    return;
  }
  // Container by container over the entries whose 2^32 positions meet the
  // range.
  const Entry* e = entries();
  for (uint32_t i = 0; i < size_; ++i) {
    const int64_t key_base = make_position(e[i].key, 0);
    if (key_base + (int64_t(1) << 32) <= first) continue;
    if (key_base >= end) break;
    const roaring_array_t& containers = e[i].bitmap->high_low_container;
    for (int32_t c = 0; c < containers.size; ++c) {
      const int64_t chunk_base = key_base + (int64_t(containers.keys[c]) << 16);
      if (chunk_base + 65536 <= first) continue;
      if (chunk_base >= end) break;
      or_container(containers.containers[c], containers.typecodes[c], chunk_base, first, end, first_row,
                   bits);
    }
  }
}

size_t PositionDeleteIndex::portable_size() const {
  if (is_small()) return as_bitmaps().portable_size();
  size_t total = 8;
  const Entry* e = entries();
  for (uint32_t i = 0; i < size_; ++i) total += 4 + roaring_bitmap_portable_size_in_bytes(e[i].bitmap);
  return total;
}

size_t PositionDeleteIndex::serialize_portable(uint8_t* out) const {
  if (is_small()) return as_bitmaps().serialize_portable(out);
  uint8_t* p = out;
  bits::store<uint64_t>(p, size_);
  p += 8;
  const Entry* e = entries();
  for (uint32_t i = 0; i < size_; ++i) {
    bits::store<uint32_t>(p, e[i].key);
    p += 4;
    p += roaring_bitmap_portable_serialize(e[i].bitmap, reinterpret_cast<char*>(p));
  }
  return size_t(p - out);
}

std::vector<uint8_t> PositionDeleteIndex::serialize_portable() const {
  std::vector<uint8_t> out(portable_size());
  size_t written = serialize_portable(out.data());
  if (written != out.size())
    throw Error(ErrorCode::kInternal, "iceberg: roaring serialization size mismatch");
  return out;
}

PositionDeleteIndex PositionDeleteIndex::deserialize_portable(std::span<const uint8_t> bytes) {
  const uint8_t* data = bytes.data();
  const size_t size = bytes.size();
  if (size < 8) {
    throw_corrupt("iceberg: roaring bitmap truncated: " + std::to_string(size) +
                  " bytes, the 8-byte bitmap count alone needs 8");
  }
  uint64_t count = bits::load<uint64_t>(data);
  // Each bitmap needs at least a 4-byte key and an 8-byte empty bitmap, so the
  // count is bounded by the input size before anything is allocated.
  if (count > (size - 8) / 12) {
    throw_corrupt("iceberg: roaring bitmap count " + std::to_string(count) + " cannot fit in " +
                      std::to_string(size) + " bytes",
                  0);
  }
  PositionDeleteIndex index;
  size_t offset = 8;
  int64_t last_key = -1;
  for (uint64_t i = 0; i < count; ++i) {
    if (size - offset < 4) {
      throw_corrupt("iceberg: roaring bitmap truncated in the key of bitmap " + std::to_string(i),
                    int64_t(offset));
    }
    uint32_t key = bits::load<uint32_t>(data + offset);
    if (key > kMaxDeleteKey) {
      throw_corrupt("iceberg: roaring bitmap key " + std::to_string(key) +
                        " exceeds the largest allowed key " + std::to_string(kMaxDeleteKey),
                    int64_t(offset));
    }
    if (int64_t(key) <= last_key) {
      throw_corrupt("iceberg: roaring bitmap keys are not strictly ascending (" + std::to_string(key) +
                        " after " + std::to_string(last_key) + ")",
                    int64_t(offset));
    }
    last_key = key;
    offset += 4;
    Portable32Info info = validate_portable32(data + offset, size - offset, int64_t(offset));
    if (info.cardinality != 0) {
      if (make_position(key, info.max_value) > kMaxDeletePosition) {
        throw_corrupt("iceberg: deletion position " + std::to_string(make_position(key, info.max_value)) +
                          " exceeds the largest allowed position " + std::to_string(kMaxDeletePosition),
                      int64_t(offset));
      }
      roaring_bitmap_t* bitmap =
          roaring_bitmap_portable_deserialize_safe(reinterpret_cast<const char*>(data + offset), info.size);
      if (bitmap == nullptr) {
        throw_corrupt("iceberg: roaring bitmap under key " + std::to_string(key) + " could not be decoded",
                      int64_t(offset));
      }
      if (roaring_bitmap_get_cardinality(bitmap) != info.cardinality ||
          roaring_bitmap_portable_size_in_bytes(bitmap) > info.size) {
        roaring_bitmap_free(bitmap);
        throw_corrupt("iceberg: roaring bitmap under key " + std::to_string(key) + " decodes inconsistently",
                      int64_t(offset));
      }
      // Keys arrive ascending, so this appends.
      roaring_bitmap_t* slot = index.bitmap_for(key);
      roaring_bitmap_free(slot);
      index.entries()[index.size_ - 1].bitmap = bitmap;
    }
    offset += info.size;
  }
  if (offset != size) {
    throw_corrupt("iceberg: " + std::to_string(size - offset) + " unexpected bytes after the roaring bitmap",
                  int64_t(offset));
  }
  return index;
}

// ---------------------------------------------------------------------------

struct PositionCursor::Iter {
  roaring_uint32_iterator_t it;
};

PositionCursor::PositionCursor(const PositionDeleteIndex& index, int64_t begin, int64_t end)
    : index_(&index), end_(std::min<int64_t>(end, kMaxDeletePosition + 1)), iter_(std::make_unique<Iter>()) {
  begin = std::max<int64_t>(begin, 0);
  if (begin >= end_ || index.empty()) {
    done_ = true;
    return;
  }
  if (index.is_small()) {
    while (small_next_ < index.small_size_ && index.storage_.small[small_next_] < begin) ++small_next_;
    return;
  }
  const auto* e = index.entries();
  uint32_t key = high_key(begin);
  const auto* it = std::lower_bound(
      e, e + index.size_, key, [](const PositionDeleteIndex::Entry& a, uint32_t k) { return a.key < k; });
  entry_ = size_t(it - e);
  start_low_ = (it != e + index.size_ && it->key == key) ? low_bits(begin) : 0;
  if (!open_entry()) done_ = true;
}

PositionCursor::~PositionCursor() = default;

bool PositionCursor::open_entry() {
  while (entry_ < index_->size_) {
    const auto& entry = index_->entries()[entry_];
    if (make_position(entry.key, 0) >= end_) return false;
    roaring_init_iterator(entry.bitmap, &iter_->it);
    if (start_low_ != 0) roaring_move_uint32_iterator_equalorlarger(&iter_->it, start_low_);
    start_low_ = 0;
    if (iter_->it.has_value) return true;
    ++entry_;
  }
  return false;
}

size_t PositionCursor::next(std::span<int64_t> out) {
  size_t written = 0;
  if (!done_ && index_->is_small()) {
    while (written < out.size() && small_next_ < index_->small_size_) {
      int64_t pos = index_->storage_.small[small_next_];
      if (pos >= end_) break;
      out[written++] = pos;
      ++small_next_;
    }
    return written;
  }
  uint32_t lows[1024];
  while (!done_ && written < out.size()) {
    uint32_t want = uint32_t(std::min<size_t>(out.size() - written, 1024));
    uint32_t got = roaring_read_uint32_iterator(&iter_->it, lows, want);
    const uint64_t high = uint64_t(index_->entries()[entry_].key) << 32;
    for (uint32_t i = 0; i < got; ++i) {
      int64_t pos = int64_t(high | lows[i]);
      if (pos >= end_) {
        done_ = true;
        break;
      }
      out[written++] = pos;
    }
    if (!done_ && got < want) {
      ++entry_;
      if (!open_entry()) done_ = true;
    }
  }
  return written;
}

}  // namespace parquetry::iceberg
