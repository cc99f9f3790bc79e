#include "parquetry/encoding/rle.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "parquetry/encoding/bit_unpack.h"
#include "parquetry/encoding/buffer_append.h"
#include "parquetry/encoding/varint.h"
#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry::encoding {

// ---------------------------------------------------------------- decoder

void RleBitPackedDecoder::reset(std::span<const uint8_t> data, int bit_width) {
  if (bit_width < 0 || bit_width > 32) {
    throw_corrupt("RLE/bit-packed bit width " + std::to_string(bit_width) + " is outside 0..32");
  }
  begin_ = pos_ = data.data();
  end_ = begin_ + data.size();
  bit_width_ = bit_width;
  repeat_left_ = 0;
  repeat_value_ = 0;
  packed_start_ = nullptr;
  packed_values_ = 0;
  packed_pos_ = 0;
}

bool RleBitPackedDecoder::next_run() {
  while (pos_ < end_) {
    int64_t header_offset = pos_ - begin_;
    uint64_t header = read_uleb128(pos_, end_, 32, "RLE/bit-packed run header");
    int64_t count = int64_t(header >> 1);
    if (header & 1) {
      int64_t bytes = count * bit_width_;
      if (bytes > end_ - pos_) {
        throw_corrupt("bit-packed run of " + std::to_string(count * 8) + " values needs " +
                          std::to_string(bytes) + " bytes but only " + std::to_string(end_ - pos_) +
                          " remain",
                      header_offset);
      }
      packed_start_ = pos_;
      packed_values_ = count * 8;
      packed_pos_ = 0;
      pos_ += bytes;
      if (count != 0) return true;
    } else {
      int value_bytes = (bit_width_ + 7) / 8;
      if (value_bytes > end_ - pos_) throw_corrupt("RLE run value is truncated", header_offset);
      uint32_t value = 0;
      for (int i = 0; i < value_bytes; ++i) value |= uint32_t(pos_[i]) << (8 * i);
      pos_ += value_bytes;
      if (bit_width_ < 32 && (value >> bit_width_) != 0) {
        throw_corrupt("RLE run value " + std::to_string(value) + " does not fit in " +
                          std::to_string(bit_width_) + " bits",
                      header_offset);
      }
      repeat_value_ = value;
      repeat_left_ = count;
      if (count != 0) return true;
    }
  }
  return false;
}

template <typename T>
int64_t RleBitPackedDecoder::decode_unsigned(T* out, int64_t n) {
  int64_t done = 0;
  const int w = bit_width_;
  while (done < n) {
    if (repeat_left_ > 0) {
      int64_t c = std::min(n - done, repeat_left_);
      std::fill_n(out + done, c, T(repeat_value_));
      repeat_left_ -= c;
      done += c;
    } else if (packed_pos_ < packed_values_) {
      int64_t c = std::min(n - done, packed_values_ - packed_pos_);
      int64_t p = packed_pos_;
      int64_t k = 0;
      if ((p & 7) != 0) {
        // Resume inside a group of 8 (byte-aligned at w bytes per group).
        T group[8];
        unpack<T>(packed_start_ + (p >> 3) * w, w, group, 8);
        k = std::min(c, 8 - (p & 7));
        std::memcpy(out + done, group + (p & 7), size_t(k) * sizeof(T));
      }
      if (k < c) unpack<T>(packed_start_ + ((p + k) >> 3) * w, w, out + done + k, c - k);
      packed_pos_ += c;
      done += c;
    } else if (!next_run()) {
      break;
    }
  }
  return done;
}

template <typename T>
int64_t RleBitPackedDecoder::decode(T* out, int64_t n) {
  using U = std::make_unsigned_t<T>;
  if (bit_width_ > int(8 * sizeof(T))) {
    throw_invalid("cannot decode " + std::to_string(bit_width_) + "-bit values into " +
                  std::to_string(8 * sizeof(T)) + "-bit integers");
  }
  return decode_unsigned<U>(reinterpret_cast<U*>(out), n);
}

template int64_t RleBitPackedDecoder::decode<uint8_t>(uint8_t*, int64_t);
template int64_t RleBitPackedDecoder::decode<int16_t>(int16_t*, int64_t);
template int64_t RleBitPackedDecoder::decode<uint16_t>(uint16_t*, int64_t);
template int64_t RleBitPackedDecoder::decode<int32_t>(int32_t*, int64_t);
template int64_t RleBitPackedDecoder::decode<uint32_t>(uint32_t*, int64_t);

namespace {
void check_levels(const int16_t* levels, int64_t n, int16_t max_level) {
  // Levels are decoded unsigned, so a negative int16 is a value above 32767.
  uint16_t highest = 0;
  const uint16_t* u = reinterpret_cast<const uint16_t*>(levels);
  for (int64_t i = 0; i < n; ++i) highest = std::max(highest, u[i]);
  if (highest > uint16_t(max_level)) {
    throw_corrupt("level " + std::to_string(highest) + " exceeds the maximum level " +
                  std::to_string(max_level));
  }
}
}  // namespace

int64_t RleBitPackedDecoder::decode_levels(int16_t* out, int64_t n, int16_t max_level) {
  int64_t got = decode(out, n);
  check_levels(out, got, max_level);
  return got;
}

int64_t RleBitPackedDecoder::skip(int64_t n) {
  int64_t done = 0;
  while (done < n) {
    if (repeat_left_ > 0) {
      int64_t c = std::min(n - done, repeat_left_);
      repeat_left_ -= c;
      done += c;
    } else if (packed_pos_ < packed_values_) {
      int64_t c = std::min(n - done, packed_values_ - packed_pos_);
      packed_pos_ += c;
      done += c;
    } else if (!next_run()) {
      break;
    }
  }
  return done;
}

int64_t RleBitPackedDecoder::decode_at(const uint32_t* positions, int64_t k, uint32_t* out) {
  const int w = bit_width_;
  const uint64_t mask = w == 32 ? ~uint32_t(0) : (uint64_t(1) << w) - 1;
  int64_t at = 0;  // the next unread value, counted from the call's start
  int64_t i = 0;
  auto check_ascending = [&](int64_t p) {
    if (p < at) throw_invalid("RLE/bit-packed positions must ascend");
  };
  while (i < k) {
    if (repeat_left_ > 0) {
      const int64_t end = at + repeat_left_;
      for (; i < k && int64_t(positions[i]) < end; ++i) {
        check_ascending(positions[i]);
        out[i] = repeat_value_;
        at = int64_t(positions[i]) + 1;
      }
      if (i < k) at = end;  // the next position lies past this run
      repeat_left_ = end - at;
    } else if (packed_pos_ < packed_values_) {
      const int64_t start = at - packed_pos_;  // position of the run's first value
      const int64_t end = start + packed_values_;
      // The run holds packed_values_ * w bits (checked by next_run), so a
      // value's bits lie inside it; 8 bytes from its first byte hold them.
      const int64_t run_bytes = (packed_values_ / 8) * w;
      for (; i < k && int64_t(positions[i]) < end; ++i) {
        check_ascending(positions[i]);
        const int64_t bit = (int64_t(positions[i]) - start) * w;
        const int64_t first = bit >> 3;
        uint64_t word = 0;
        if (first + 8 <= run_bytes) {
          std::memcpy(&word, packed_start_ + first, 8);
        } else {
          std::memcpy(&word, packed_start_ + first, size_t(run_bytes - first));
        }
        out[i] = uint32_t((word >> (bit & 7)) & mask);
        at = int64_t(positions[i]) + 1;
      }
      if (i < k) at = end;
      packed_pos_ = at - start;
    } else if (!next_run()) {
      return i;
    }
  }
  return k;
}

int64_t RleBitPackedDecoder::decode_bitmap(uint8_t* bitmap, int64_t bit_offset, int64_t n,
                                           int64_t* zero_count) {
  if (bit_width_ != 1) {
    throw_invalid("bitmap decoding needs bit width 1, not " + std::to_string(bit_width_));
  }
  int64_t done = 0;
  int64_t nulls = 0;
  while (done < n) {
    if (repeat_left_ > 0) {
      int64_t c = std::min(n - done, repeat_left_);
      fill_bits(bitmap, bit_offset + done, c, repeat_value_ != 0);
      if (repeat_value_ == 0) nulls += c;
      repeat_left_ -= c;
      done += c;
    } else if (packed_pos_ < packed_values_) {
      // With one bit per level the packed run already is a bitmap.
      int64_t c = std::min(n - done, packed_values_ - packed_pos_);
      int64_t set = copy_bits(packed_start_, packed_pos_, bitmap, bit_offset + done, c);
      nulls += c - set;
      packed_pos_ += c;
      done += c;
    } else if (!next_run()) {
      break;
    }
  }
  *zero_count += nulls;
  return done;
}

// ---------------------------------------------------------------- encoder

namespace {
constexpr int64_t kLiteralFlushThreshold = 4096;  // values; bounds the staging buffer
constexpr int64_t kMaxRunLength = int64_t(1) << 30;
}  // namespace

void RleBitPackedEncoder::reset(int bit_width) {
  if (bit_width < 0 || bit_width > 32) {
    throw_invalid("RLE/bit-packed bit width " + std::to_string(bit_width) + " is outside 0..32");
  }
  bit_width_ = bit_width;
  value_count_ = 0;
  run_value_ = 0;
  run_length_ = 0;
  literal_count_ = 0;
  literals_.clear();
  literals_.reserve(size_t(kLiteralFlushThreshold + 32) * 4);
  encoded_.clear();
}

template <typename T>
void RleBitPackedEncoder::put(const T* values, int64_t n) {
  const uint32_t mask = bit_width_ == 32 ? ~0u : (1u << bit_width_) - 1;
  value_count_ += n;
  int64_t i = 0;
  while (i < n) {
    if (run_length_ > 0) {
      // Extend the open run; it may continue from the previous call.
      while (i < n && (uint32_t(values[i]) & mask) == run_value_) {
        ++run_length_;
        ++i;
      }
      if (i == n) return;
      commit_run();
    }
    // Scan for the next 8 equal values: everything before them is literal
    // and is staged in bulk, so random data costs one compare per value.
    int64_t start = i;
    uint32_t prev = uint32_t(values[i]) & mask;
    int64_t k = i + 1;
    for (; k < n; ++k) {
      uint32_t v = uint32_t(values[k]) & mask;
      if (v != prev) {
        start = k;
        prev = v;
      } else if (k - start == 7) {
        break;
      }
    }
    stage_literals(values + i, start - i, mask);
    run_value_ = prev;
    run_length_ = (k < n ? k + 1 : n) - start;
    i = start + run_length_;
  }
}

template <typename T>
void RleBitPackedEncoder::stage_literals(const T* values, int64_t n, uint32_t mask) {
  while (n > 0) {
    // literal_count_ stays below the threshold between calls, so the chunk
    // is positive and the staging buffer (threshold + 32 values) suffices.
    int64_t c = std::min(n, kLiteralFlushThreshold - literal_count_);
    literals_.resize(size_t(literal_count_ + c) * 4);
    uint32_t* dst = literals_.as<uint32_t>() + literal_count_;
    for (int64_t j = 0; j < c; ++j) dst[j] = uint32_t(values[j]) & mask;
    literal_count_ += c;
    values += c;
    n -= c;
    if (literal_count_ >= kLiteralFlushThreshold) flush_literals(false);
  }
}

template void RleBitPackedEncoder::put<uint8_t>(const uint8_t*, int64_t);
template void RleBitPackedEncoder::put<int16_t>(const int16_t*, int64_t);
template void RleBitPackedEncoder::put<uint16_t>(const uint16_t*, int64_t);
template void RleBitPackedEncoder::put<int32_t>(const int32_t*, int64_t);
template void RleBitPackedEncoder::put<uint32_t>(const uint32_t*, int64_t);

void RleBitPackedEncoder::put_repeated(uint32_t value, int64_t n) {
  if (n <= 0) return;
  const uint32_t mask = bit_width_ == 32 ? ~0u : (1u << bit_width_) - 1;
  value &= mask;
  value_count_ += n;
  if (run_length_ > 0 && value != run_value_) commit_run();
  run_value_ = value;
  run_length_ += n;
}

void RleBitPackedEncoder::commit_run() {
  int64_t r = run_length_;
  run_length_ = 0;
  if (r >= 8) {
    // A bit-packed run must hold a multiple of 8 values: top up the pending
    // literals from this run first.
    int64_t pad = (8 - (literal_count_ & 7)) & 7;
    if (literal_count_ == 0) pad = 0;
    r -= pad;
    literals_.resize(size_t(literal_count_ + pad) * 4);
    uint32_t* lits = literals_.as<uint32_t>();
    std::fill_n(lits + literal_count_, pad, run_value_);
    literal_count_ += pad;
    if (r >= 8) {
      flush_literals(false);
      emit_repeat(run_value_, r);
      return;
    }
  }
  literals_.resize(size_t(literal_count_ + r) * 4);
  std::fill_n(literals_.as<uint32_t>() + literal_count_, r, run_value_);
  literal_count_ += r;
  if (literal_count_ >= kLiteralFlushThreshold) flush_literals(false);
}

void RleBitPackedEncoder::flush_literals(bool final) {
  int64_t take = final ? literal_count_ : (literal_count_ & ~int64_t(7));
  if (take == 0) return;
  int64_t groups = (take + 7) / 8;
  int64_t padded = groups * 8;
  literals_.resize(size_t(std::max(literal_count_, padded)) * 4);
  uint32_t* lits = literals_.as<uint32_t>();
  std::fill(lits + take, lits + padded, 0u);
  append_uleb128(encoded_, (uint64_t(groups) << 1) | 1);
  pack<uint32_t>(lits, bit_width_, extend(encoded_, size_t(groups * bit_width_)), padded);
  int64_t rest = literal_count_ - take;
  std::memmove(lits, lits + take, size_t(rest) * 4);
  literal_count_ = rest;
  literals_.resize(size_t(rest) * 4);
}

void RleBitPackedEncoder::emit_repeat(uint32_t value, int64_t count) {
  int value_bytes = (bit_width_ + 7) / 8;
  while (count > 0) {
    int64_t c = std::min(count, kMaxRunLength);
    append_uleb128(encoded_, uint64_t(c) << 1);
    uint8_t bytes[4];
    for (int i = 0; i < value_bytes; ++i) bytes[i] = uint8_t(value >> (8 * i));
    encoded_.append(bytes, size_t(value_bytes));
    count -= c;
  }
}

void RleBitPackedEncoder::flush_to(Buffer& out, bool length_prefix) {
  if (run_length_ > 0) commit_run();
  flush_literals(true);
  if (length_prefix) {
    if (encoded_.size() > UINT32_MAX) throw_limit("RLE section larger than 4 GiB");
    uint32_t len = uint32_t(encoded_.size());
    out.append(&len, 4);
  }
  out.append(encoded_.data(), encoded_.size());
  encoded_.clear();
  value_count_ = 0;
}

int64_t RleBitPackedEncoder::estimated_size() const {
  // Staged literals and the open run end up as one bit-packed run (header +
  // groups), or as literals topped up to a group plus one RLE run.
  int64_t packed = (literal_count_ + run_length_ + 7) / 8 * bit_width_ + 5;
  int64_t with_run = (literal_count_ + 7 + 8) / 8 * bit_width_ + 5 + 5 + 4;
  return int64_t(encoded_.size()) + std::max(packed, with_run);
}

int64_t RleBitPackedEncoder::max_encoded_size(int bit_width, int64_t n) {
  int64_t groups = (n + 7) / 8;
  // Per 8 values: the packed bytes, or an RLE run (header <= 5 bytes + value
  // <= 4 bytes); plus one literal header per flush threshold.
  return groups * (bit_width + 9) + 5 * (n / kLiteralFlushThreshold + 2);
}

// ---------------------------------------------------------------- legacy BIT_PACKED

void BitPackedLevelDecoder::reset(std::span<const uint8_t> data, int bit_width) {
  if (bit_width < 0 || bit_width > 16) {
    throw_corrupt("BIT_PACKED level bit width " + std::to_string(bit_width) + " is outside 0..16");
  }
  data_ = data;
  bit_width_ = bit_width;
  bit_pos_ = 0;
}

int64_t BitPackedLevelDecoder::decode(int16_t* out, int64_t n, int16_t max_level) {
  const int w = bit_width_;
  if (w == 0) {
    std::fill_n(out, n, int16_t(0));
    return n;
  }
  int64_t available = (int64_t(data_.size()) * 8 - bit_pos_) / w;
  int64_t count = std::min(n, available);
  const uint8_t* p = data_.data();
  const int64_t size = int64_t(data_.size());
  const uint32_t mask = (1u << w) - 1;
  for (int64_t i = 0; i < count; ++i) {
    // MSB-first: gather the (at most 3) bytes covering the value big-endian.
    int64_t byte = bit_pos_ >> 3;
    uint32_t window = uint32_t(p[byte]) << 16;
    if (byte + 1 < size) window |= uint32_t(p[byte + 1]) << 8;
    if (byte + 2 < size) window |= uint32_t(p[byte + 2]);
    int shift = 24 - int(bit_pos_ & 7) - w;
    out[i] = int16_t((window >> shift) & mask);
    bit_pos_ += w;
  }
  check_levels(out, count, max_level);
  return count;
}

// ---------------------------------------------------------------- framing

Section read_length_prefixed(std::span<const uint8_t> page) {
  if (page.size() < 4) throw_corrupt("section length prefix is truncated");
  uint32_t len = bits::load<uint32_t>(page.data());
  if (len > page.size() - 4) {
    throw_corrupt("section length " + std::to_string(len) + " exceeds the " +
                  std::to_string(page.size() - 4) + " bytes that remain");
  }
  return Section{page.subspan(4, len), int64_t(len) + 4};
}

int64_t LevelDecoder::reset_v1(Encoding encoding, std::span<const uint8_t> page, int16_t max_level,
                               int64_t num_values) {
  if (max_level < 0) throw_invalid("negative max level");
  max_level_ = max_level;
  int w = bits::bit_width(uint64_t(max_level));
  if (encoding == Encoding::RLE) {
    legacy_ = false;
    Section s = read_length_prefixed(page);
    rle_.reset(s.data, w);
    return s.consumed;
  }
  if (encoding == Encoding::BIT_PACKED) {
    legacy_ = true;
    if (num_values < 0) throw_corrupt("negative level count");
    if (w > 0 && num_values > int64_t(page.size()) * 8 / w) {
      throw_corrupt("BIT_PACKED levels: " + std::to_string(num_values) + " levels of " + std::to_string(w) +
                    " bits do not fit in a page of " + std::to_string(page.size()) + " bytes");
    }
    int64_t size = bit_packed_levels_size(num_values, w);
    if (size > int64_t(page.size())) {
      throw_corrupt("BIT_PACKED levels need " + std::to_string(size) + " bytes but the page has " +
                    std::to_string(page.size()));
    }
    packed_.reset(page.first(size_t(size)), w);
    return size;
  }
  throw_corrupt("levels cannot use encoding " + std::string(encoding_name(encoding)));
}

void LevelDecoder::reset_v2(std::span<const uint8_t> section, int16_t max_level) {
  if (max_level < 0) throw_invalid("negative max level");
  max_level_ = max_level;
  legacy_ = false;
  rle_.reset(section, bits::bit_width(uint64_t(max_level)));
}

int64_t LevelDecoder::decode(int16_t* out, int64_t n) {
  return legacy_ ? packed_.decode(out, n, max_level_) : rle_.decode_levels(out, n, max_level_);
}

int64_t LevelDecoder::decode_validity(uint8_t* bitmap, int64_t bit_offset, int64_t n, int64_t* null_count) {
  if (!legacy_ && max_level_ == 1) return rle_.decode_validity(bitmap, bit_offset, n, null_count);
  int16_t levels[1024];
  int64_t done = 0;
  int64_t nulls = 0;
  while (done < n) {
    int64_t want = std::min<int64_t>(n - done, 1024);
    int64_t got = decode(levels, want);
    for (int64_t i = 0; i < got; ++i) {
      bool defined = levels[i] == max_level_;
      bits::set_bit_to(bitmap, bit_offset + done + i, defined);
      nulls += !defined;
    }
    done += got;
    if (got < want) break;
  }
  *null_count += nulls;
  return done;
}

}  // namespace parquetry::encoding
