#include "parquetry/encoding/plain.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "parquetry/encoding/bit_unpack.h"
#include "parquetry/encoding/buffer_append.h"
#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry::encoding {

namespace {
// `unit` describes the per-value size ("8 bytes each", "1 bit each"); the
// product is not formed because a hostile n may overflow it.
[[noreturn]] void throw_short(const char* what, int64_t n, const std::string& unit, int64_t have) {
  throw_corrupt("PLAIN " + std::string(what) + ": " + std::to_string(n) + " values of " + unit +
                " do not fit in the " + std::to_string(have) + " bytes that remain");
}
}  // namespace

void PlainDecoder::reset(std::span<const uint8_t> data) {
  begin_ = pos_ = data.data();
  end_ = begin_ + data.size();
  bit_pos_ = 0;
}

void PlainDecoder::decode_fixed(int width, void* out, int64_t n) {
  if (n <= 0) return;
  if (width <= 0) throw_invalid("PLAIN value width must be positive");
  int64_t remaining = end_ - pos_;
  if (n > remaining / width) throw_short("values", n, std::to_string(width) + " bytes", remaining);
  std::memcpy(out, pos_, size_t(n * width));
  pos_ += n * width;
}

void PlainDecoder::skip_fixed(int width, int64_t n) {
  if (n <= 0) return;
  if (width <= 0) throw_invalid("PLAIN value width must be positive");
  int64_t remaining = end_ - pos_;
  if (n > remaining / width) throw_short("values", n, std::to_string(width) + " bytes", remaining);
  pos_ += n * width;
}

void PlainDecoder::need_booleans(int64_t n) const {
  int64_t available_bits = (end_ - pos_) * 8 - bit_pos_;
  if (n > available_bits) throw_short("booleans", n, "1 bit", end_ - pos_);
}

void PlainDecoder::decode_booleans(uint8_t* out, int64_t n) {
  if (n <= 0) return;
  need_booleans(n);
  int64_t k = 0;
  if (bit_pos_ != 0) {
    // Finish the partly consumed byte.
    k = std::min<int64_t>(n, 8 - bit_pos_);
    for (int64_t i = 0; i < k; ++i) out[i] = (*pos_ >> (bit_pos_ + i)) & 1;
    bit_pos_ += k;
    if (bit_pos_ == 8) {
      bit_pos_ = 0;
      ++pos_;
    }
  }
  int64_t rest = n - k;
  if (rest > 0) {
    unpack<uint8_t>(pos_, 1, out + k, rest);
    pos_ += rest >> 3;
    bit_pos_ = rest & 7;
  }
}

void PlainDecoder::decode_boolean_bitmap(uint8_t* bitmap, int64_t bit_offset, int64_t n) {
  if (n <= 0) return;
  need_booleans(n);
  copy_bits(pos_, bit_pos_, bitmap, bit_offset, n);
  int64_t end_bit = bit_pos_ + n;
  pos_ += end_bit >> 3;
  bit_pos_ = end_bit & 7;
}

void PlainDecoder::skip_booleans(int64_t n) {
  if (n <= 0) return;
  need_booleans(n);
  int64_t end_bit = bit_pos_ + n;
  pos_ += end_bit >> 3;
  bit_pos_ = end_bit & 7;
}

template <typename Offset>
void PlainDecoder::decode_byte_arrays_impl(Buffer& offsets, Buffer& data, int64_t n) {
  if (offsets.size() == 0) {
    Offset zero = 0;
    offsets.append(&zero, sizeof(Offset));
  }
  if (offsets.size() % sizeof(Offset) != 0)
    throw_invalid("offsets buffer size is not a multiple of the offset width");
  const Offset base = offsets.as<Offset>()[offsets.size() / sizeof(Offset) - 1];
  if (uint64_t(base) != data.size()) throw_invalid("last offset does not match the data buffer size");
  if (n <= 0) return;
  // Every value needs at least its 4-byte length: a cheap guard against a
  // huge n before anything is allocated.
  int64_t remaining = end_ - pos_;
  if (n > remaining / 4) throw_short("byte arrays", n, "at least 4 bytes", remaining);
  // Nothing appended can exceed the rest of the page, so one reservation
  // serves the whole batch.
  reserve_more(data, size_t(remaining));
  Offset* off = reinterpret_cast<Offset*>(extend(offsets, size_t(n) * sizeof(Offset)));
  uint8_t* const dst_start = data.data() + data.size();
  uint8_t* dst = dst_start;
  const uint8_t* p = pos_;
  const uint8_t* const end = end_;
  constexpr int64_t kMaxData = std::numeric_limits<Offset>::max();
  const int64_t room = kMaxData - int64_t(base);
  for (int64_t i = 0; i < n; ++i) {
    if (end - p < 4)
      throw_corrupt("PLAIN byte array " + std::to_string(i) + ": length is truncated", p - begin_);
    uint32_t len = bits::load<uint32_t>(p);
    p += 4;
    if (len > uint64_t(end - p)) {
      throw_corrupt("PLAIN byte array " + std::to_string(i) + ": length " + std::to_string(len) +
                        " exceeds the " + std::to_string(end - p) + " bytes that remain",
                    p - 4 - begin_);
    }
    if (len != 0) std::memcpy(dst, p, len);
    dst += len;
    p += len;
    int64_t written = dst - dst_start;
    if (written > room) throw_limit("byte array data exceeds the 2 GiB reach of 32-bit offsets");
    off[i] = Offset(int64_t(base) + written);
  }
  data.resize(data.size() + size_t(dst - dst_start));
  pos_ = p;
}

void PlainDecoder::decode_byte_arrays(Buffer& offsets, Buffer& data, int64_t n) {
  decode_byte_arrays_impl<int32_t>(offsets, data, n);
}
void PlainDecoder::decode_byte_arrays_large(Buffer& offsets, Buffer& data, int64_t n) {
  decode_byte_arrays_impl<int64_t>(offsets, data, n);
}

void PlainDecoder::decode_byte_array_views(ByteArrayView* out, int64_t n) {
  const uint8_t* p = pos_;
  const uint8_t* const end = end_;
  for (int64_t i = 0; i < n; ++i) {
    if (end - p < 4)
      throw_corrupt("PLAIN byte array " + std::to_string(i) + ": length is truncated", p - begin_);
    uint32_t len = bits::load<uint32_t>(p);
    p += 4;
    if (len > uint64_t(end - p)) {
      throw_corrupt("PLAIN byte array " + std::to_string(i) + ": length " + std::to_string(len) +
                        " exceeds the " + std::to_string(end - p) + " bytes that remain",
                    p - 4 - begin_);
    }
    out[i] = ByteArrayView{p, len};
    p += len;
  }
  pos_ = p;
}

void PlainDecoder::skip_byte_arrays(int64_t n) {
  const uint8_t* p = pos_;
  for (int64_t i = 0; i < n; ++i) {
    if (end_ - p < 4)
      throw_corrupt("PLAIN byte array " + std::to_string(i) + ": length is truncated", p - begin_);
    uint32_t len = bits::load<uint32_t>(p);
    p += 4;
    if (len > uint64_t(end_ - p)) throw_corrupt("PLAIN byte array length runs past the page", p - 4 - begin_);
    p += len;
  }
  pos_ = p;
}

// ---------------------------------------------------------------- encoders

void plain_encode_fixed(const void* values, int width, int64_t n, Buffer& out) {
  if (n <= 0) return;
  if (width <= 0) throw_invalid("PLAIN value width must be positive");
  std::memcpy(extend(out, size_t(n * width)), values, size_t(n * width));
}

namespace {
template <typename Offset>
void encode_offsets(const Offset* offsets, const uint8_t* data, int64_t n, Buffer& out) {
  if (n <= 0) return;
  int64_t total = int64_t(offsets[n]) - int64_t(offsets[0]);
  if (total < 0) throw_invalid("byte array offsets decrease");
  uint8_t* dst = extend(out, size_t(4 * n + total));
  for (int64_t i = 0; i < n; ++i) {
    int64_t len = int64_t(offsets[i + 1]) - int64_t(offsets[i]);
    if (len < 0 || len > int64_t(UINT32_MAX))
      throw_invalid("byte array " + std::to_string(i) + " has length " + std::to_string(len));
    bits::store<uint32_t>(dst, uint32_t(len));
    if (len != 0) std::memcpy(dst + 4, data + offsets[i], size_t(len));
    dst += 4 + len;
  }
}
}  // namespace

void plain_encode_byte_arrays(const int32_t* offsets, const uint8_t* data, int64_t n, Buffer& out) {
  encode_offsets(offsets, data, n, out);
}
void plain_encode_byte_arrays(const int64_t* offsets, const uint8_t* data, int64_t n, Buffer& out) {
  encode_offsets(offsets, data, n, out);
}
void plain_encode_byte_arrays(const ByteArrayView* values, int64_t n, Buffer& out) {
  if (n <= 0) return;
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) total += values[i].length;
  uint8_t* dst = extend(out, size_t(4 * n + total));
  for (int64_t i = 0; i < n; ++i) {
    bits::store<uint32_t>(dst, values[i].length);
    if (values[i].length != 0) std::memcpy(dst + 4, values[i].data, values[i].length);
    dst += 4 + values[i].length;
  }
}

void PlainBooleanEncoder::put(const uint8_t* values, int64_t n) {
  if (n <= 0) return;
  size_t need = size_t(bits::bytes_for_bits(bit_count_ + n));
  if (need > bits_.size()) {
    size_t old = bits_.size();
    extend(bits_, need - old);
    std::memset(bits_.data() + old, 0, need - old);
  }
  uint8_t* b = bits_.data();
  int64_t i = 0;
  // Head bits until the write position is byte aligned, then 8 values a byte.
  for (; i < n && (bit_count_ & 7) != 0; ++i, ++bit_count_) {
    if (values[i]) bits::set_bit(b, bit_count_);
  }
  uint8_t* dst = b + (bit_count_ >> 3);
  int64_t whole = (n - i) >> 3;
  for (int64_t g = 0; g < whole; ++g) {
    const uint8_t* v = values + i + g * 8;
    uint8_t byte = 0;
    for (int j = 0; j < 8; ++j) byte |= uint8_t((v[j] != 0) << j);
    dst[g] = byte;
  }
  i += whole * 8;
  bit_count_ += whole * 8;
  for (; i < n; ++i, ++bit_count_) bits::set_bit_to(b, bit_count_, values[i] != 0);
}

void PlainBooleanEncoder::put_bitmap(const uint8_t* bitmap, int64_t bit_offset, int64_t n) {
  if (n <= 0) return;
  size_t need = size_t(bits::bytes_for_bits(bit_count_ + n));
  if (need > bits_.size()) {
    size_t old = bits_.size();
    extend(bits_, need - old);
    std::memset(bits_.data() + old, 0, need - old);
  }
  copy_bits(bitmap, bit_offset, bits_.data(), bit_count_, n);
  bit_count_ += n;
}

void PlainBooleanEncoder::flush_to(Buffer& out) {
  out.append(bits_.data(), size_t(bits::bytes_for_bits(bit_count_)));
  reset();
}

void PlainBooleanEncoder::reset() {
  bits_.clear();
  bit_count_ = 0;
}

}  // namespace parquetry::encoding
