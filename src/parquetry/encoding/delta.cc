#include "parquetry/encoding/delta.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "parquetry/encoding/bit_unpack.h"
#include "parquetry/encoding/buffer_append.h"
#include "parquetry/encoding/varint.h"
#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry::encoding {

namespace {
// Larger blocks are legal but no writer uses them; the bound keeps the
// per-miniblock staging buffer small for hostile headers.
constexpr int64_t kMaxBlockSize = int64_t(1) << 20;
constexpr int64_t kMaxMiniblockSize = int64_t(1) << 16;
constexpr int64_t kMaxTotalValues = int64_t(1) << 40;
}  // namespace

// ---------------------------------------------------------------- DELTA_BINARY_PACKED decoder

template <typename T>
void DeltaBinaryPackedDecoder<T>::reset(std::span<const uint8_t> data) {
  begin_ = pos_ = data.data();
  end_ = begin_ + data.size();
  values_per_block_ = int64_t(read_uleb128(pos_, end_, 32, "DELTA_BINARY_PACKED block size"));
  miniblocks_ = int64_t(read_uleb128(pos_, end_, 32, "DELTA_BINARY_PACKED miniblock count"));
  uint64_t total = read_uleb128(pos_, end_, 64, "DELTA_BINARY_PACKED value count");
  uint64_t first = read_uleb128(pos_, end_, 64, "DELTA_BINARY_PACKED first value");
  if (values_per_block_ <= 0 || values_per_block_ % 128 != 0 || values_per_block_ > kMaxBlockSize) {
    throw_corrupt("DELTA_BINARY_PACKED block size " + std::to_string(values_per_block_) +
                  " is not a multiple of 128 in 128.." + std::to_string(kMaxBlockSize));
  }
  if (miniblocks_ <= 0 || values_per_block_ % miniblocks_ != 0 ||
      (values_per_block_ / miniblocks_) % 32 != 0) {
    throw_corrupt("DELTA_BINARY_PACKED: " + std::to_string(miniblocks_) +
                  " miniblocks do not split a block of " + std::to_string(values_per_block_) +
                  " into multiples of 32 values");
  }
  values_per_miniblock_ = values_per_block_ / miniblocks_;
  if (values_per_miniblock_ > kMaxMiniblockSize) {
    throw_limit("DELTA_BINARY_PACKED miniblock of " + std::to_string(values_per_miniblock_) + " values");
  }
  if (total > uint64_t(kMaxTotalValues))
    throw_corrupt("DELTA_BINARY_PACKED value count " + std::to_string(total));
  total_ = int64_t(total);
  left_ = total_;
  first_pending_ = total_ > 0;
  last_ = U(zigzag_decode(first));
  min_delta_ = 0;
  miniblock_index_ = miniblocks_;  // forces a block header before the first miniblock
  widths_.resize(size_t(miniblocks_));
  staged_.resize(size_t(values_per_miniblock_));
  staged_pos_ = staged_count_ = 0;
}

template <typename T>
void DeltaBinaryPackedDecoder<T>::load_miniblock(U* dest) {
  if (miniblock_index_ == miniblocks_) {
    min_delta_ = U(zigzag_decode(read_uleb128(pos_, end_, 64, "DELTA_BINARY_PACKED min delta")));
    if (end_ - pos_ < miniblocks_)
      throw_corrupt("DELTA_BINARY_PACKED miniblock bit widths are truncated", pos_ - begin_);
    std::memcpy(widths_.data(), pos_, size_t(miniblocks_));
    pos_ += miniblocks_;
    miniblock_index_ = 0;
  }
  int w = widths_[size_t(miniblock_index_)];
  // INT32 deltas may be written one bit wider than the type (DuckDB computes
  // them in 64 bits); the spec asks readers to accept that. Wrapping makes
  // the low 32 bits of each delta enough, so up to 64 bits are read.
  if (w > 64) {
    throw_corrupt("DELTA_BINARY_PACKED miniblock bit width " + std::to_string(w) + " exceeds 64",
                  pos_ - begin_);
  }
  // left_ counts values still owed, first value excluded here, so it is the
  // number of deltas still to read.
  int64_t count = std::min(values_per_miniblock_, left_);
  int64_t full_bytes = values_per_miniblock_ * w / 8;
  int64_t need_bytes = bits::bytes_for_bits(count * w);
  int64_t available = end_ - pos_;
  if (available < need_bytes) {
    throw_corrupt("DELTA_BINARY_PACKED miniblock needs " + std::to_string(need_bytes) + " bytes but only " +
                      std::to_string(available) + " remain",
                  pos_ - begin_);
  }
  if (w > int(8 * sizeof(U))) {
    wide_.resize(size_t(values_per_miniblock_));
    unpack<uint64_t>(pos_, w, wide_.data(), count);
    for (int64_t j = 0; j < count; ++j) dest[j] = U(wide_[size_t(j)]);
  } else {
    unpack<U>(pos_, w, dest, count);
  }
  // A last miniblock cut short after its needed bytes is tolerated.
  pos_ += std::min(full_bytes, available);
  ++miniblock_index_;
  staged_pos_ = 0;
  staged_count_ = count;
}

template <typename T>
int64_t DeltaBinaryPackedDecoder<T>::decode(T* out, int64_t n) {
  int64_t k = std::min(n, left_);
  if (k <= 0) return 0;
  int64_t i = 0;
  if (first_pending_) {
    out[0] = T(last_);
    first_pending_ = false;
    --left_;
    i = 1;
  }
  U last = last_;
  while (i < k) {
    if (staged_pos_ == staged_count_) {
      if (k - i >= values_per_miniblock_) {
        // The whole miniblock goes to the caller: unpack in place and turn
        // the deltas into values there, skipping the staging copy.
        U* o = reinterpret_cast<U*>(out + i);
        load_miniblock(o);
        const int64_t c = staged_count_;
        const U md = min_delta_;
        for (int64_t j = 0; j < c; ++j) {
          last += md + o[j];
          o[j] = last;
        }
        staged_pos_ = staged_count_;
        left_ -= c;
        i += c;
        continue;
      }
      load_miniblock(staged_.data());
    }
    int64_t c = std::min(k - i, staged_count_ - staged_pos_);
    const U* d = staged_.data() + staged_pos_;
    const U md = min_delta_;
    T* o = out + i;
    for (int64_t j = 0; j < c; ++j) {
      last += md + d[j];
      o[j] = T(last);
    }
    staged_pos_ += c;
    left_ -= c;
    i += c;
  }
  last_ = last;
  return k;
}

template <typename T>
int64_t DeltaBinaryPackedDecoder<T>::skip(int64_t n) {
  T scratch[256];
  int64_t done = 0;
  while (done < n) {
    int64_t got = decode(scratch, std::min<int64_t>(256, n - done));
    if (got == 0) break;
    done += got;
  }
  return done;
}

template class DeltaBinaryPackedDecoder<int32_t>;
template class DeltaBinaryPackedDecoder<int64_t>;

// ---------------------------------------------------------------- DELTA_BINARY_PACKED encoder

template <typename T>
void DeltaBinaryPackedEncoder<T>::reset() {
  count_ = 0;
  first_ = last_ = 0;
  pending_ = 0;
  blocks_.clear();
}

template <typename T>
void DeltaBinaryPackedEncoder<T>::put(const T* values, int64_t n) {
  if (n <= 0) return;
  int64_t i = 0;
  if (count_ == 0) {
    first_ = last_ = U(values[0]);
    i = 1;
  }
  count_ += n;
  U last = last_;
  while (i < n) {
    int64_t c = std::min<int64_t>(n - i, kBlockSize - pending_);
    U* d = deltas_ + pending_;
    for (int64_t j = 0; j < c; ++j) {
      U v = U(values[i + j]);
      d[j] = v - last;
      last = v;
    }
    pending_ += int(c);
    i += c;
    if (pending_ == kBlockSize) flush_block();
  }
  last_ = last;
}

template <typename T>
void DeltaBinaryPackedEncoder<T>::flush_block() {
  if (pending_ == 0) return;
  // The frame of reference is the smallest delta read as a signed value;
  // subtracting it in unsigned arithmetic leaves exact non-negative offsets.
  T min_delta = T(deltas_[0]);
  for (int j = 1; j < pending_; ++j) min_delta = std::min(min_delta, T(deltas_[j]));
  U rel[kBlockSize] = {};
  for (int j = 0; j < pending_; ++j) rel[j] = deltas_[j] - U(min_delta);
  int used = (pending_ + kMiniblockSize - 1) / kMiniblockSize;
  uint8_t widths[kMiniblocks] = {};
  for (int m = 0; m < used; ++m) {
    U highest = 0;
    for (int j = 0; j < kMiniblockSize; ++j) highest |= rel[m * kMiniblockSize + j];
    widths[m] = uint8_t(bits::bit_width(uint64_t(highest)));
  }
  append_uleb128(blocks_, zigzag_encode(int64_t(min_delta)));
  blocks_.append(widths, kMiniblocks);
  for (int m = 0; m < used; ++m) {
    int w = widths[m];
    pack<U>(rel + m * kMiniblockSize, w, extend(blocks_, size_t(kMiniblockSize * w / 8)), kMiniblockSize);
  }
  pending_ = 0;
}

template <typename T>
void DeltaBinaryPackedEncoder<T>::flush_to(Buffer& out) {
  flush_block();
  uint8_t header[40];
  int h = 0;
  h += write_uleb128(header + h, kBlockSize);
  h += write_uleb128(header + h, kMiniblocks);
  h += write_uleb128(header + h, uint64_t(count_));
  h += write_uleb128(header + h, zigzag_encode(int64_t(T(first_))));
  out.append(header, size_t(h));
  out.append(blocks_.data(), blocks_.size());
  reset();
}

template class DeltaBinaryPackedEncoder<int32_t>;
template class DeltaBinaryPackedEncoder<int64_t>;

// ---------------------------------------------------------------- DELTA_LENGTH_BYTE_ARRAY

namespace {
// Decodes all values of a DELTA_BINARY_PACKED int32 stream (at most
// max_values) into `out`, growing it as values actually arrive so that a
// hostile count cannot reserve memory the input does not back. Returns the
// bytes consumed.
int64_t decode_all_int32(std::span<const uint8_t> data, int64_t max_values, const char* what,
                         std::vector<int32_t>& out) {
  DeltaBinaryPackedDecoder<int32_t> dec(data);
  int64_t total = dec.total_values();
  if (total > max_values) {
    throw_corrupt(std::string(what) + ": " + std::to_string(total) +
                  " values declared but the page holds at most " + std::to_string(max_values));
  }
  out.clear();
  int64_t got = 0;
  while (got < total) {
    int64_t chunk = std::min<int64_t>(total - got, 1 << 16);
    out.resize(size_t(got + chunk));
    got += dec.decode(out.data() + got, chunk);
  }
  return dec.bytes_consumed();
}
}  // namespace

void DeltaLengthByteArrayDecoder::reset(std::span<const uint8_t> data, int64_t max_values) {
  int64_t header = decode_all_int32(data, max_values, "DELTA_LENGTH_BYTE_ARRAY lengths", lengths_);
  int64_t total = 0;
  int64_t available = int64_t(data.size()) - header;
  for (int32_t len : lengths_) {
    if (len < 0) throw_corrupt("DELTA_LENGTH_BYTE_ARRAY negative length " + std::to_string(len));
    total += len;
    if (total > available) break;  // stop before the sum could overflow
  }
  if (total > available) {
    throw_corrupt("DELTA_LENGTH_BYTE_ARRAY lengths sum to at least " + std::to_string(total) +
                  " bytes but only " + std::to_string(available) + " follow them");
  }
  data_ = data.data() + header;
  index_ = 0;
  consumed_ = header + total;
}

template <typename Offset>
int64_t DeltaLengthByteArrayDecoder::decode_impl(Buffer& offsets, Buffer& data, int64_t n) {
  if (offsets.size() == 0) {
    Offset zero = 0;
    offsets.append(&zero, sizeof(Offset));
  }
  if (offsets.size() % sizeof(Offset) != 0)
    throw_invalid("offsets buffer size is not a multiple of the offset width");
  const Offset base = offsets.as<Offset>()[offsets.size() / sizeof(Offset) - 1];
  if (uint64_t(base) != data.size()) throw_invalid("last offset does not match the data buffer size");
  int64_t k = std::min(n, values_left());
  if (k <= 0) return 0;
  const int32_t* len = lengths_.data() + index_;
  int64_t total = 0;
  for (int64_t i = 0; i < k; ++i) total += len[i];
  if (total > int64_t(std::numeric_limits<Offset>::max()) - int64_t(base)) {
    throw_limit("byte array data exceeds the 2 GiB reach of 32-bit offsets");
  }
  // The values are contiguous in the page: one copy for the whole batch.
  if (total != 0) std::memcpy(extend(data, size_t(total)), data_, size_t(total));
  Offset* off = reinterpret_cast<Offset*>(extend(offsets, size_t(k) * sizeof(Offset)));
  int64_t at = int64_t(base);
  for (int64_t i = 0; i < k; ++i) {
    at += len[i];
    off[i] = Offset(at);
  }
  data_ += total;
  index_ += k;
  return k;
}

int64_t DeltaLengthByteArrayDecoder::decode(Buffer& offsets, Buffer& data, int64_t n) {
  return decode_impl<int32_t>(offsets, data, n);
}
int64_t DeltaLengthByteArrayDecoder::decode_large(Buffer& offsets, Buffer& data, int64_t n) {
  return decode_impl<int64_t>(offsets, data, n);
}

int64_t DeltaLengthByteArrayDecoder::decode_views(ByteArrayView* out, int64_t n) {
  int64_t k = std::min(n, values_left());
  if (k <= 0) return 0;
  const int32_t* len = lengths_.data() + index_;
  const uint8_t* p = data_;
  for (int64_t i = 0; i < k; ++i) {
    out[i] = ByteArrayView{p, uint32_t(len[i])};
    p += len[i];
  }
  data_ = p;
  index_ += k;
  return k;
}

int64_t DeltaLengthByteArrayDecoder::skip(int64_t n) {
  int64_t k = std::min(n, values_left());
  if (k <= 0) return 0;
  for (int64_t i = 0; i < k; ++i) data_ += lengths_[size_t(index_ + i)];
  index_ += k;
  return k;
}

// ---------------------------------------------------------------- DELTA_BYTE_ARRAY

void DeltaByteArrayDecoder::reset(std::span<const uint8_t> data, int64_t max_values) {
  int64_t header = decode_all_int32(data, max_values, "DELTA_BYTE_ARRAY prefix lengths", prefixes_);
  for (int32_t p : prefixes_) {
    if (p < 0) throw_corrupt("DELTA_BYTE_ARRAY negative prefix length " + std::to_string(p));
  }
  suffixes_.reset(data.subspan(size_t(header)), max_values);
  if (suffixes_.total_values() != int64_t(prefixes_.size())) {
    throw_corrupt("DELTA_BYTE_ARRAY has " + std::to_string(prefixes_.size()) + " prefix lengths but " +
                  std::to_string(suffixes_.total_values()) + " suffixes");
  }
  previous_.clear();
  index_ = 0;
  consumed_ = header + suffixes_.bytes_consumed();
}

template <typename Sink>
void DeltaByteArrayDecoder::run(int64_t n, Sink&& sink) {
  if (suffix_views_.size() < size_t(n)) suffix_views_.resize(size_t(n));
  suffixes_.decode_views(suffix_views_.data(), n);
  const int32_t* prefix = prefixes_.data() + index_;
  // Validate every prefix and size the batch before writing anything.
  int64_t previous_len = int64_t(previous_.size());
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (prefix[i] > previous_len) {
      throw_corrupt("DELTA_BYTE_ARRAY value " + std::to_string(index_ + i) + ": prefix length " +
                    std::to_string(prefix[i]) + " exceeds the previous value's " +
                    std::to_string(previous_len) + " bytes");
    }
    previous_len = prefix[i] + int64_t(suffix_views_[size_t(i)].length);
    total += previous_len;
    if (total > int64_t(std::numeric_limits<int32_t>::max())) {
      throw_limit("DELTA_BYTE_ARRAY batch expands past 2 GiB; decode it in smaller batches");
    }
  }
  uint8_t* dst = sink.begin(total);
  const uint8_t* prev = previous_.data();
  int64_t prev_len = int64_t(previous_.size());
  for (int64_t i = 0; i < n; ++i) {
    int64_t p = prefix[i];
    const ByteArrayView& s = suffix_views_[size_t(i)];
    if (p != 0) std::memcpy(dst, prev, size_t(p));
    if (s.length != 0) std::memcpy(dst + p, s.data, s.length);
    prev = dst;
    prev_len = p + s.length;
    sink.value(i, prev_len);
    dst += prev_len;
  }
  // Keep the last value for the next batch (it may live in a caller buffer
  // that changes before then).
  if (n > 0) {
    scratch_.resize(size_t(prev_len));
    if (prev_len != 0) std::memcpy(scratch_.data(), prev, size_t(prev_len));
    std::swap(previous_, scratch_);
  }
  index_ += n;
}

template <typename Offset>
int64_t DeltaByteArrayDecoder::decode_impl(Buffer& offsets, Buffer& data, int64_t n) {
  if (offsets.size() == 0) {
    Offset zero = 0;
    offsets.append(&zero, sizeof(Offset));
  }
  if (offsets.size() % sizeof(Offset) != 0)
    throw_invalid("offsets buffer size is not a multiple of the offset width");
  const Offset base = offsets.as<Offset>()[offsets.size() / sizeof(Offset) - 1];
  if (uint64_t(base) != data.size()) throw_invalid("last offset does not match the data buffer size");
  int64_t k = std::min(n, values_left());
  if (k <= 0) return 0;
  struct Sink {
    Buffer& offsets;
    Buffer& data;
    int64_t at;
    Offset* off = nullptr;
    int64_t k;
    uint8_t* begin(int64_t total) {
      if (total > int64_t(std::numeric_limits<Offset>::max()) - at) {
        throw_limit("byte array data exceeds the 2 GiB reach of 32-bit offsets");
      }
      off = reinterpret_cast<Offset*>(extend(offsets, size_t(k) * sizeof(Offset)));
      return extend(data, size_t(total));
    }
    void value(int64_t i, int64_t len) {
      at += len;
      off[i] = Offset(at);
    }
  } sink{offsets, data, int64_t(base), nullptr, k};
  run(k, sink);
  return k;
}

int64_t DeltaByteArrayDecoder::decode(Buffer& offsets, Buffer& data, int64_t n) {
  return decode_impl<int32_t>(offsets, data, n);
}
int64_t DeltaByteArrayDecoder::decode_large(Buffer& offsets, Buffer& data, int64_t n) {
  return decode_impl<int64_t>(offsets, data, n);
}

int64_t DeltaByteArrayDecoder::decode_fixed(uint8_t* out, int width, int64_t n) {
  if (width <= 0) throw_invalid("FIXED_LEN_BYTE_ARRAY width must be positive");
  int64_t k = std::min(n, values_left());
  if (k <= 0) return 0;
  struct Sink {
    uint8_t* out;
    int width;
    int64_t first;
    uint8_t* begin(int64_t total) {
      if (total != int64_t(width) * k) {
        throw_corrupt("DELTA_BYTE_ARRAY value length differs from the FIXED_LEN_BYTE_ARRAY width " +
                      std::to_string(width));
      }
      return out;
    }
    void value(int64_t i, int64_t len) {
      if (len != width) {
        throw_corrupt("DELTA_BYTE_ARRAY value " + std::to_string(first + i) + " has " + std::to_string(len) +
                      " bytes, the FIXED_LEN_BYTE_ARRAY width is " + std::to_string(width));
      }
    }
    int64_t k;
  } sink{out, width, index_, k};
  run(k, sink);
  return k;
}

int64_t DeltaByteArrayDecoder::skip(int64_t n) {
  // Skipped values are still needed as prefixes: decode into scratch.
  Buffer offsets, data;
  int64_t done = 0;
  while (done < n) {
    offsets.clear();
    data.clear();
    int64_t got = decode_impl<int64_t>(offsets, data, std::min<int64_t>(n - done, 1024));
    if (got == 0) break;
    done += got;
  }
  return done;
}

// ---------------------------------------------------------------- byte-array encoders

void DeltaLengthByteArrayEncoder::put(const ByteArrayView* values, int64_t n) {
  int32_t lengths[256];
  for (int64_t i = 0; i < n; i += 256) {
    int64_t c = std::min<int64_t>(256, n - i);
    for (int64_t j = 0; j < c; ++j) {
      const ByteArrayView& v = values[i + j];
      if (v.length > uint32_t(std::numeric_limits<int32_t>::max()))
        throw_invalid("byte array longer than 2 GiB");
      lengths[j] = int32_t(v.length);
      if (v.length != 0) std::memcpy(extend(data_, v.length), v.data, v.length);
    }
    lengths_.put(lengths, c);
  }
}

void DeltaLengthByteArrayEncoder::put(const int32_t* offsets, const uint8_t* data, int64_t n) {
  if (n <= 0) return;
  int32_t lengths[256];
  for (int64_t i = 0; i < n; i += 256) {
    int64_t c = std::min<int64_t>(256, n - i);
    for (int64_t j = 0; j < c; ++j) {
      int32_t len = offsets[i + j + 1] - offsets[i + j];
      if (len < 0) throw_invalid("byte array offsets decrease");
      lengths[j] = len;
    }
    lengths_.put(lengths, c);
  }
  int64_t total = int64_t(offsets[n]) - int64_t(offsets[0]);
  if (total != 0) std::memcpy(extend(data_, size_t(total)), data + offsets[0], size_t(total));
}

void DeltaLengthByteArrayEncoder::flush_to(Buffer& out) {
  lengths_.flush_to(out);
  out.append(data_.data(), data_.size());
  reset();
}

void DeltaLengthByteArrayEncoder::reset() {
  lengths_.reset();
  data_.clear();
}

void DeltaByteArrayEncoder::put_one(const uint8_t* bytes, int64_t len) {
  if (len > int64_t(std::numeric_limits<int32_t>::max())) throw_invalid("byte array longer than 2 GiB");
  const uint8_t* prev = previous_.data();
  int64_t limit = std::min<int64_t>(len, int64_t(previous_.size()));
  int64_t p = 0;
  while (p + 8 <= limit && bits::load<uint64_t>(prev + p) == bits::load<uint64_t>(bytes + p)) p += 8;
  while (p < limit && prev[p] == bytes[p]) ++p;
  int32_t prefix = int32_t(p);
  prefixes_.put(&prefix, 1);
  ByteArrayView suffix{bytes + p, uint32_t(len - p)};
  suffixes_.put(&suffix, 1);
  previous_.resize(size_t(len));
  if (len != 0) std::memcpy(previous_.data(), bytes, size_t(len));
}

void DeltaByteArrayEncoder::put(const ByteArrayView* values, int64_t n) {
  for (int64_t i = 0; i < n; ++i) put_one(values[i].data, values[i].length);
}

void DeltaByteArrayEncoder::put(const int32_t* offsets, const uint8_t* data, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    int64_t len = int64_t(offsets[i + 1]) - int64_t(offsets[i]);
    if (len < 0) throw_invalid("byte array offsets decrease");
    put_one(data + offsets[i], len);
  }
}

void DeltaByteArrayEncoder::put_fixed(const uint8_t* values, int width, int64_t n) {
  for (int64_t i = 0; i < n; ++i) put_one(values + i * width, width);
}

void DeltaByteArrayEncoder::flush_to(Buffer& out) {
  prefixes_.flush_to(out);
  suffixes_.flush_to(out);
  reset();
}

void DeltaByteArrayEncoder::reset() {
  prefixes_.reset();
  suffixes_.reset();
  previous_.clear();
}

}  // namespace parquetry::encoding
