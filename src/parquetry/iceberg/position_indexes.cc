// toPositionIndexes: (file_path, pos) batches -> one PositionDeleteIndex per
// data file. Delete files are sorted by file_path, so a batch is a few long
// runs of one path; the work per row is one length compare and one memcmp
// (plain strings) or one int compare (dictionary indices), and each run costs
// one hash lookup and one bulk add.
#include <algorithm>
#include <bit>
#include <cstring>
#include <new>
#include <string>
#include <utility>

#include "parquetry/error.h"
#include "parquetry/iceberg.h"
#include "parquetry/util/bit_util.h"

namespace parquetry::iceberg {
namespace {

constexpr size_t kFirstArenaBlock = size_t(64) << 10;
constexpr size_t kLargestArenaBlock = size_t(32) << 20;
constexpr uint32_t kSkipSlot = 0xFFFFFFFFu;

// A fast 64-bit string hash: two independent multiply-mix lanes over 16-byte
// steps, so that hashing a 100-byte path is a short dependency chain.
uint64_t hash_path(std::string_view s) {
  constexpr uint64_t kMul1 = 0x9FB21C651E98DF25ULL;
  constexpr uint64_t kMul2 = 0xC2B2AE3D27D4EB4FULL;
  const char* p = s.data();
  size_t n = s.size();
  uint64_t a = 0x243F6A8885A308D3ULL ^ n;
  uint64_t b = 0x13198A2E03707344ULL;
  while (n >= 16) {
    a = (a ^ bits::load<uint64_t>(p)) * kMul1;
    b = (b ^ bits::load<uint64_t>(p + 8)) * kMul2;
    a ^= a >> 29;
    b ^= b >> 31;
    p += 16;
    n -= 16;
  }
  if (n >= 8) {
    a = (a ^ bits::load<uint64_t>(p)) * kMul1;
    a ^= a >> 29;
    p += 8;
    n -= 8;
  }
  if (n > 0) {
    uint64_t tail = 0;
    std::memcpy(&tail, p, n);
    b = (b ^ tail) * kMul2;
    b ^= b >> 31;
  }
  uint64_t h = (a ^ std::rotl(b, 23)) * kMul1;
  h ^= h >> 32;
  h *= kMul2;
  h ^= h >> 29;
  return h;
}

bool all_valid(const uint8_t* validity, int64_t length) {
  if (validity == nullptr) return true;
  int64_t full = length / 8;
  uint8_t acc = 0xFF;
  for (int64_t i = 0; i < full; ++i) acc &= validity[i];
  if (acc != 0xFF) return false;
  int64_t rest = length % 8;
  if (rest == 0) return true;
  uint8_t mask = uint8_t((1u << rest) - 1);
  return (validity[full] & mask) == mask;
}

// Offsets must start at >= 0, never decrease and end within the data buffer,
// checked before any string is touched.
void check_offsets(const StringColumn& column, const char* what) {
  if (column.length < 0) throw_invalid(std::string("iceberg: ") + what + ": negative length");
  if (column.length == 0) return;
  if (column.offsets == nullptr || (column.data == nullptr && column.data_size != 0)) {
    throw_invalid(std::string("iceberg: ") + what + ": missing buffers");
  }
  const int32_t* off = column.offsets;
  if (off[0] < 0 || int64_t(off[column.length]) > column.data_size) {
    throw_corrupt(std::string("iceberg: ") + what + ": string offsets [" + std::to_string(off[0]) + ", " +
                  std::to_string(off[column.length]) + "] lie outside the " +
                  std::to_string(column.data_size) + "-byte data buffer");
  }
  bool decreasing = false;
  for (int64_t i = 0; i < column.length; ++i) decreasing |= off[i + 1] < off[i];
  if (decreasing) throw_corrupt(std::string("iceberg: ") + what + ": string offsets decrease");
}

// A column of only empty strings may come without a data buffer; point at a
// real (empty) array so no null pointer reaches memcmp or pointer arithmetic.
constexpr uint8_t kNoBytes[8] = {};
const uint8_t* data_of(const StringColumn& column) { return column.data != nullptr ? column.data : kNoBytes; }

std::string_view string_at(const StringColumn& column, int64_t i) {
  return {reinterpret_cast<const char*>(data_of(column)) + column.offsets[i],
          size_t(column.offsets[i + 1] - column.offsets[i])};
}

}  // namespace

// ---------------------------------------------------------------------------
// PositionIndexMap

PositionIndexMap::PositionIndexMap() = default;
PositionIndexMap::~PositionIndexMap() { destroy(); }
PositionIndexMap::PositionIndexMap(PositionIndexMap&& other) noexcept { *this = std::move(other); }

void PositionIndexMap::destroy() {
  for (size_t i = 0; i < size_; ++i) entry(i).~Entry();
  size_ = 0;
  segments_.clear();
  arena_blocks_.clear();
  arena_next_ = nullptr;
  arena_left_ = 0;
  table_.clear();
  sorted_ = true;
}

PositionIndexMap& PositionIndexMap::operator=(PositionIndexMap&& other) noexcept {
  if (this != &other) {
    destroy();
    sorted_ = std::exchange(other.sorted_, true);
    table_ = std::move(other.table_);
    other.table_.clear();
    segments_ = std::move(other.segments_);
    other.segments_.clear();
    size_ = std::exchange(other.size_, 0);
    arena_blocks_ = std::move(other.arena_blocks_);
    other.arena_blocks_.clear();
    arena_next_ = std::exchange(other.arena_next_, nullptr);
    arena_left_ = std::exchange(other.arena_left_, 0);
  }
  return *this;
}

std::string_view PositionIndexMap::store(std::string_view path) {
  if (path.size() > arena_left_) {
    // Blocks double, so a big map needs few of them and a small one stays small.
    size_t block = arena_blocks_.empty() ? kFirstArenaBlock : kLargestArenaBlock;
    if (!arena_blocks_.empty() && arena_blocks_.size() < 10) {
      block = std::min(kLargestArenaBlock, kFirstArenaBlock << arena_blocks_.size());
    }
    block = std::max(block, path.size());
    arena_blocks_.push_back(allocate_block(block));
    arena_next_ = arena_blocks_.back().get();
    arena_left_ = block;
  }
  if (!path.empty()) std::memcpy(arena_next_, path.data(), path.size());
  std::string_view stored(arena_next_, path.size());
  arena_next_ += path.size();
  arena_left_ -= path.size();
  return stored;
}

uint32_t PositionIndexMap::probe(std::string_view path, uint64_t hash) const {
  if (table_.empty()) return kSkipSlot;
  const size_t mask = table_.size() - 1;
  const uint64_t tag = hash & 0xFFFFFFFF00000000ULL;
  for (size_t at = size_t(hash) & mask;; at = (at + 1) & mask) {
    uint64_t slot = table_[at];
    if (slot == 0) return kSkipSlot;
    if ((slot & 0xFFFFFFFF00000000ULL) == tag) {
      uint32_t index = uint32_t(slot) - 1;
      const Entry& e = entry(index);
      if (e.hash == hash && e.path == path) return index;
    }
  }
}

void PositionIndexMap::rehash(size_t new_capacity) {
  std::vector<uint64_t> table(new_capacity, 0);
  const size_t mask = new_capacity - 1;
  for (size_t i = 0; i < size_; ++i) {
    uint64_t hash = entry(i).hash;
    size_t at = size_t(hash) & mask;
    while (table[at] != 0) at = (at + 1) & mask;
    table[at] = (hash & 0xFFFFFFFF00000000ULL) | uint64_t(i + 1);
  }
  table_ = std::move(table);
}

void PositionIndexMap::start_hashing() {
  sorted_ = false;
  for (size_t i = 0; i < size_; ++i) entry(i).hash = hash_path(entry(i).path);
  size_t capacity = 64;
  while (capacity < (size_ + 1) * 2) capacity *= 2;
  rehash(capacity);
}

void PositionIndexMap::reserve(size_t files) {
  if (files > 0) segments_.reserve(segment_of(files - 1) + 1);
}

PositionIndexMap::Entry& PositionIndexMap::append(std::string_view path, uint64_t hash) {
  const size_t s = segment_of(size_);
  if (s == segments_.size()) segments_.push_back(allocate_block((kFirstSegment << s) * sizeof(Entry)));
  const std::string_view stored = store(path);
  Entry* e = new (&entry(size_)) Entry{stored, hash, PositionDeleteIndex()};
  ++size_;
  return *e;
}

uint32_t PositionIndexMap::slot(std::string_view path) {
  if (size_ >= 0xFFFFFFF0u) throw_limit("iceberg: too many data files in one delete index");
  if (sorted_) {
    if (size_ == 0 || entry(size_ - 1).path < path) {
      append(path, 0);
      return uint32_t(size_ - 1);
    }
    if (entry(size_ - 1).path == path) return uint32_t(size_ - 1);
    start_hashing();
  }
  uint64_t hash = hash_path(path);
  uint32_t found = probe(path, hash);
  if (found != kSkipSlot) return found;
  if ((size_ + 1) * 2 > table_.size()) rehash(std::max<size_t>(64, table_.size() * 2));
  uint32_t index = uint32_t(size_);
  append(path, hash);
  const size_t mask = table_.size() - 1;
  size_t at = size_t(hash) & mask;
  while (table_[at] != 0) at = (at + 1) & mask;
  table_[at] = (hash & 0xFFFFFFFF00000000ULL) | uint64_t(index + 1);
  return index;
}

const PositionDeleteIndex* PositionIndexMap::find(std::string_view path) const {
  if (sorted_) {
    size_t lo = 0, hi = size_;  // first entry whose path is >= `path`
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (entry(mid).path < path) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return (lo < size_ && entry(lo).path == path) ? &entry(lo).index : nullptr;
  }
  uint32_t index = probe(path, hash_path(path));
  return index == kSkipSlot ? nullptr : &entry(index).index;
}

PositionDeleteIndex& PositionIndexMap::get_or_add(std::string_view path) { return entry(slot(path)).index; }

int64_t PositionIndexMap::total_cardinality() const {
  int64_t total = 0;
  for (size_t i = 0; i < size_; ++i) total += entry(i).index.cardinality();
  return total;
}

// ---------------------------------------------------------------------------
// PositionIndexBuilder

PositionIndexBuilder::PositionIndexBuilder(std::optional<std::string> only_data_file)
    : only_data_file_(std::move(only_data_file)) {}

void PositionIndexBuilder::add(const PositionDeleteBatch& batch) {
  try {
    add_checked(batch);
  } catch (const Error& e) {
    // A position outside [0, kMaxDeletePosition] in a delete file is a
    // format violation of that file, not a caller mistake.
    if (e.code() == ErrorCode::kInvalidArgument && e.message().find("delete position") != std::string::npos) {
      throw Error(ErrorCode::kCorrupt, "position delete file: " + e.message(), e.where());
    }
    throw;
  }
}

void PositionIndexBuilder::add_checked(const PositionDeleteBatch& batch) {
  if (batch.length < 0) throw_invalid("iceberg: negative batch length");
  if (batch.length == 0) return;
  if ((batch.file_path == nullptr) == (batch.file_path_dictionary == nullptr)) {
    throw_invalid(
        "iceberg: a position-delete batch needs exactly one file_path column (plain or dictionary)");
  }
  if (batch.pos == nullptr) throw_invalid("iceberg: a position-delete batch needs a pos column");
  if (!all_valid(batch.pos_validity, batch.length)) throw_corrupt("iceberg: position delete with a null pos");
  if (batch.file_path != nullptr) {
    if (batch.file_path->length != batch.length) {
      throw_invalid("iceberg: file_path has " + std::to_string(batch.file_path->length) + " rows, pos has " +
                    std::to_string(batch.length));
    }
    add_plain(*batch.file_path, batch.pos, batch.length);
  } else {
    if (batch.file_path_dictionary->length != batch.length) {
      throw_invalid("iceberg: file_path has " + std::to_string(batch.file_path_dictionary->length) +
                    " rows, pos has " + std::to_string(batch.length));
    }
    add_dictionary(*batch.file_path_dictionary, batch.pos, batch.length, batch.same_dictionary_as_previous);
  }
}

void PositionIndexBuilder::add_run(std::string_view path, const int64_t* pos, int64_t count) {
  if (only_data_file_ && path != *only_data_file_) return;
  add_run_to_slot(map_.slot(path), pos, count);
}

void PositionIndexBuilder::add_run_to_slot(uint32_t slot, const int64_t* pos, int64_t count) {
  map_.index(slot).add_many(std::span<const int64_t>(pos, size_t(count)));
}

namespace {

// True when rows [from, to) all have `length` bytes, i.e. are laid out
// back to back with a period of `length` (a vectorizable integer loop).
bool lengths_all(const int32_t* off, int64_t from, int64_t to, int32_t length) {
  bool same = true;
  for (int64_t j = from; j < to; ++j) same &= (off[j + 1] - off[j]) == length;
  return same;
}

}  // namespace

void PositionIndexBuilder::add_plain(const StringColumn& paths, const int64_t* pos, int64_t length) {
  check_offsets(paths, "file_path");
  if (!all_valid(paths.validity, length)) throw_corrupt("iceberg: position delete with a null file_path");
  const int32_t* off = paths.offsets;
  const uint8_t* data = data_of(paths);
  // Paths of one table share long prefixes and differ near the end (file
  // numbers, UUIDs) just before a common suffix (".parquet"), so the last 16
  // bytes reject most mismatches cheaply.
  auto row_equals = [&](int64_t row, const uint8_t* bytes, int32_t len) {
    if (off[row + 1] - off[row] != len) return false;
    const uint8_t* candidate = data + off[row];
    if (len >= 16) {
      const uint64_t differ =
          (bits::load<uint64_t>(candidate + len - 8) ^ bits::load<uint64_t>(bytes + len - 8)) |
          (bits::load<uint64_t>(candidate + len - 16) ^ bits::load<uint64_t>(bytes + len - 16));
      if (differ != 0) return false;
    }
    return std::memcmp(candidate, bytes, size_t(len)) == 0;
  };
  int64_t i = 0;
  while (i < length) {
    const int64_t start = i;
    const uint8_t* run_bytes = data + off[i];
    const int32_t run_length = off[i + 1] - off[i];
    ++i;
    // Long runs: rows of one length lie back to back, so rows [i, e) all
    // equal their predecessors exactly when the block [i - 1, e - 1) equals
    // itself shifted by one row. One memcmp then checks many rows at memory
    // speed; the block doubles while it keeps matching. A mismatching block
    // is rescanned row by row to find where the run ends.
    if (i < length && row_equals(i, run_bytes, run_length)) {
      ++i;
      int64_t block = 8;
      while (i < length) {
        const int64_t e = std::min(length, i + block);
        if (lengths_all(off, i, e, run_length) &&
            std::memcmp(data + off[i - 1], data + off[i], size_t(e - i) * size_t(run_length)) == 0) {
          i = e;
          block = std::min<int64_t>(block * 2, 4096);
          continue;
        }
        while (i < e && row_equals(i, run_bytes, run_length)) ++i;
        break;
      }
    }
    add_run({reinterpret_cast<const char*>(run_bytes), size_t(run_length)}, pos + start, i - start);
  }
}

void PositionIndexBuilder::add_dictionary(const DictionaryStringColumn& paths, const int64_t* pos,
                                          int64_t length, bool same_dictionary) {
  const StringColumn& dictionary = paths.dictionary;
  if (!same_dictionary || int64_t(dictionary_slots_.size()) != dictionary.length) {
    check_offsets(dictionary, "file_path dictionary");
    dictionary_slots_.assign(size_t(dictionary.length), 0);
    // The dictionary bounds the distinct paths of this batch.
    if (map_.empty()) map_.reserve(size_t(dictionary.length));
  }
  if (paths.indices == nullptr) throw_invalid("iceberg: dictionary file_path without indices");
  if (!all_valid(paths.validity, length)) throw_corrupt("iceberg: position delete with a null file_path");
  const int32_t* idx = paths.indices;
  const int64_t dictionary_length = dictionary.length;
  int64_t i = 0;
  while (i < length) {
    const int32_t value = idx[i];
    if (value < 0 || value >= dictionary_length) {
      throw_corrupt("iceberg: file_path dictionary index " + std::to_string(value) + " outside [0, " +
                    std::to_string(dictionary_length) + ")");
    }
    const int64_t start = i++;
    // Find the end of the run 8 indices at a time (branch-free inner step).
    while (i + 8 <= length) {
      uint32_t differ = 0;
      for (int k = 0; k < 8; ++k) differ |= uint32_t(idx[i + k] != value) << k;
      if (differ != 0) {
        i += std::countr_zero(differ);
        goto run_end;
      }
      i += 8;
    }
    while (i < length && idx[i] == value) ++i;
  run_end:
    uint32_t& cached = dictionary_slots_[size_t(value)];
    if (cached == 0) {
      std::string_view path = string_at(dictionary, value);
      if (only_data_file_ && path != *only_data_file_) {
        cached = kSkipSlot;
      } else {
        cached = map_.slot(path) + 1;
      }
    }
    if (cached != kSkipSlot) add_run_to_slot(cached - 1, pos + start, i - start);
  }
}

PositionIndexMap PositionIndexBuilder::finish() {
  PositionIndexMap result = std::move(map_);
  map_ = PositionIndexMap();
  dictionary_slots_.clear();
  return result;
}

PositionIndexMap to_position_indexes(std::span<const PositionDeleteBatch> batches) {
  PositionIndexBuilder builder;
  for (const PositionDeleteBatch& batch : batches) builder.add(batch);
  return builder.finish();
}

PositionDeleteIndex to_position_index(std::span<const PositionDeleteBatch> batches,
                                      std::string_view data_file_path) {
  PositionIndexBuilder builder{std::string(data_file_path)};
  for (const PositionDeleteBatch& batch : batches) builder.add(batch);
  PositionIndexMap map = builder.finish();
  if (map.empty()) return {};
  return std::move(map.index(0));
}

}  // namespace parquetry::iceberg
