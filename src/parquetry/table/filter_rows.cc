#include "parquetry/table/filter_rows.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <vector>

#if defined(__AVX512F__) || defined(__AVX2__) || defined(__BMI2__)
#include <immintrin.h>
#endif

#include "parquetry/error.h"
#include "parquetry/table/select.h"
#include "parquetry/util/bit_util.h"

namespace parquetry {
namespace {

// Keep bits of rows [64 w, 64 w + 64), the rows at or past n cleared.
uint64_t keep_word(const uint8_t* keep, int64_t w, int64_t n) {
  uint64_t word = bits::load<uint64_t>(keep + 8 * w);
  const int64_t rest = n - 64 * w;
  if (rest < 64) word &= (uint64_t(1) << rest) - 1;
  return word;
}

// Bits [start, start + count) of a bitmap (count <= 64), reading only the
// bytes that hold them: a source bitmap may end exactly at its last bit.
uint64_t load_bits(const uint8_t* bitmap, int64_t start, int count) {
  const uint8_t* p = bitmap + (start >> 3);
  const int shift = int(start & 7);
  const int bytes = (shift + count + 7) >> 3;  // at most 9
  uint64_t low = 0;
  std::memcpy(&low, p, size_t(bytes < 8 ? bytes : 8));
  uint64_t value = low >> shift;
  if (bytes > 8) value |= uint64_t(p[8]) << (64 - shift);  // bytes == 9 implies shift > 0
  if (count < 64) value &= (uint64_t(1) << count) - 1;
  return value;
}

// The bits of `value` at the set positions of `mask`, packed to the bottom.
uint64_t extract_bits(uint64_t value, uint64_t mask) {
#if defined(__BMI2__)
  return _pext_u64(value, mask);
#else
  uint64_t out = 0;
  for (int k = 0; mask != 0; mask &= mask - 1, ++k) out |= ((value >> std::countr_zero(mask)) & 1) << k;
  return out;
#endif
}

// Appends bit strings to a bitmap a word at a time. The destination must be
// writable in whole 64-bit words up to the last bit written.
class BitAppender {
 public:
  explicit BitAppender(uint8_t* out) : out_(out) {}
  void append(uint64_t value, int count) {
    if (count == 0) return;
    acc_ |= value << fill_;
    if (fill_ + count >= 64) {
      bits::store<uint64_t>(out_, acc_);
      out_ += 8;
      acc_ = fill_ != 0 ? value >> (64 - fill_) : 0;
      fill_ = fill_ + count - 64;
    } else {
      fill_ += count;
    }
  }
  void finish() {
    if (fill_ > 0) bits::store<uint64_t>(out_, acc_);
  }

 private:
  uint8_t* out_;
  uint64_t acc_ = 0;
  int fill_ = 0;
};

// Bits [offset, offset + n) of `source` kept by `keep`, into `out`
// (writable in whole words); returns how many of the written bits are set.
int64_t compact_bits(const uint8_t* source, int64_t offset, int64_t n, const uint8_t* keep, uint8_t* out) {
  BitAppender appender(out);
  int64_t set = 0;
  for (int64_t w = 0; w * 64 < n; ++w) {
    const uint64_t mask = keep_word(keep, w, n);
    if (mask == 0) continue;
    const int count = int(std::min<int64_t>(64, n - 64 * w));
    const uint64_t packed = extract_bits(load_bits(source, offset + 64 * w, count), mask);
    set += std::popcount(packed);
    appender.append(packed, std::popcount(mask));
  }
  appender.finish();
  return set;
}

// Calls fn(begin, end) for every maximal run of set keep bits in [0, n),
// in order; runs crossing a 64-row word boundary are reported in pieces.
template <typename Fn>
void for_each_run(const uint8_t* keep, int64_t n, Fn&& fn) {
  for (int64_t w = 0; w * 64 < n; ++w) {
    uint64_t word = keep_word(keep, w, n);
    const int64_t base = 64 * w;
    while (word != 0) {
      const int begin = std::countr_zero(word);
      const uint64_t from_begin = word >> begin;
      const int length = from_begin == ~uint64_t(0) >> begin ? 64 - begin : std::countr_one(from_begin);
      fn(base + begin, base + begin + length);
      if (begin + length >= 64) break;
      word &= ~uint64_t(0) << (begin + length);
    }
  }
}

// Fixed-width values: run by run (any width).
void compact_runs(const uint8_t* in, size_t width, int64_t n, const uint8_t* keep, uint8_t* out) {
  size_t at = 0;
  for_each_run(keep, n, [&](int64_t begin, int64_t end) {
    const size_t bytes = size_t(end - begin) * width;
    std::memcpy(out + at, in + size_t(begin) * width, bytes);
    at += bytes;
  });
}

#if defined(__AVX512F__)
// One compress instruction per vector of 8 or 16 values: the kept lanes are
// packed and the whole vector stored, so the output needs one vector (64
// bytes) of slack past the last kept value (Buffer's padding).
void compact_8(const uint8_t* in_bytes, int64_t n, const uint8_t* keep, uint8_t* out_bytes) {
  const auto* in = reinterpret_cast<const long long*>(in_bytes);
  auto* out = reinterpret_cast<long long*>(out_bytes);
  int64_t i = 0, k = 0;
  for (; i + 8 <= n; i += 8) {
    const __mmask8 m = keep[i >> 3];
    const __m512i v = _mm512_loadu_si512(in + i);
    _mm512_storeu_si512(out + k, _mm512_maskz_compress_epi64(m, v));
    k += std::popcount(unsigned(m));
  }
  if (i < n) {
    const __mmask8 tail = __mmask8((1u << (n - i)) - 1);
    const __mmask8 m = __mmask8(keep[i >> 3] & tail);
    const __m512i v = _mm512_maskz_loadu_epi64(tail, in + i);
    _mm512_storeu_si512(out + k, _mm512_maskz_compress_epi64(m, v));
  }
}

void compact_4(const uint8_t* in_bytes, int64_t n, const uint8_t* keep, uint8_t* out_bytes) {
  const auto* in = reinterpret_cast<const int*>(in_bytes);
  auto* out = reinterpret_cast<int*>(out_bytes);
  int64_t i = 0, k = 0;
  for (; i + 16 <= n; i += 16) {
    const __mmask16 m = __mmask16(bits::load<uint16_t>(keep + (i >> 3)));
    const __m512i v = _mm512_loadu_si512(in + i);
    _mm512_storeu_si512(out + k, _mm512_maskz_compress_epi32(m, v));
    k += std::popcount(unsigned(m));
  }
  if (i < n) {
    const __mmask16 tail = __mmask16((1u << (n - i)) - 1);
    uint16_t bits16 = keep[i >> 3];
    if (n - i > 8) bits16 |= uint16_t(keep[(i >> 3) + 1]) << 8;
    const __mmask16 m = __mmask16(bits16 & tail);
    const __m512i v = _mm512_maskz_loadu_epi32(tail, in + i);
    _mm512_storeu_si512(out + k, _mm512_maskz_compress_epi32(m, v));
  }
}
#endif

#if defined(__AVX2__) && !defined(__AVX512F__)
// Without AVX-512's compress: a permute whose lane order comes from a table
// indexed by the keep bits. Deletes scattered at random (an Iceberg deletion
// vector removing 10% of the rows) leave runs of about ten rows, where a
// memcpy per run cost more than the copy.
struct CompactTables {
  uint8_t lanes4[256][8];  // the int32 lanes an 8-bit mask keeps, packed to the front
  uint8_t lanes8[16][8];   // the 32-bit halves of the int64 lanes a 4-bit mask keeps
};

constexpr CompactTables make_compact_tables() {
  CompactTables tables{};
  for (int mask = 0; mask < 256; ++mask) {
    int k = 0;
    for (int lane = 0; lane < 8; ++lane)
      if ((mask >> lane) & 1) tables.lanes4[mask][k++] = uint8_t(lane);
  }
  for (int mask = 0; mask < 16; ++mask) {
    int k = 0;
    for (int lane = 0; lane < 4; ++lane) {
      if ((mask >> lane) & 1) {
        tables.lanes8[mask][k++] = uint8_t(2 * lane);
        tables.lanes8[mask][k++] = uint8_t(2 * lane + 1);
      }
    }
  }
  return tables;
}

constexpr CompactTables kCompactTables = make_compact_tables();

__m256i lane_order(const uint8_t* lanes) {
  return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(lanes)));
}

// Eight rows (one keep byte) a step; each 32-byte store may run up to 32
// bytes past the last kept value (Buffer's padding). The rows after the last
// whole byte of keep bits go run by run.
void compact_4(const uint8_t* in, int64_t n, const uint8_t* keep, uint8_t* out) {
  int64_t i = 0;
  size_t at = 0;
  for (; i + 8 <= n; i += 8) {
    const unsigned mask = keep[i >> 3];
    const __m256i values = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + size_t(i) * 4));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + at),
                        _mm256_permutevar8x32_epi32(values, lane_order(kCompactTables.lanes4[mask])));
    at += size_t(std::popcount(mask)) * 4;
  }
  if (i < n) compact_runs(in + size_t(i) * 4, 4, n - i, keep + (i >> 3), out + at);
}

void compact_8(const uint8_t* in, int64_t n, const uint8_t* keep, uint8_t* out) {
  int64_t i = 0;
  size_t at = 0;
  for (; i + 8 <= n; i += 8) {
    const unsigned mask = keep[i >> 3];
    const auto* source = reinterpret_cast<const __m256i*>(in + size_t(i) * 8);
    const unsigned low = mask & 15, high = mask >> 4;
    _mm256_storeu_si256(
        reinterpret_cast<__m256i*>(out + at),
        _mm256_permutevar8x32_epi32(_mm256_loadu_si256(source), lane_order(kCompactTables.lanes8[low])));
    at += size_t(std::popcount(low)) * 8;
    _mm256_storeu_si256(
        reinterpret_cast<__m256i*>(out + at),
        _mm256_permutevar8x32_epi32(_mm256_loadu_si256(source + 1), lane_order(kCompactTables.lanes8[high])));
    at += size_t(std::popcount(high)) * 8;
  }
  if (i < n) compact_runs(in + size_t(i) * 8, 8, n - i, keep + (i >> 3), out + at);
}
#endif

void compact_fixed(const uint8_t* in, size_t width, int64_t n, const uint8_t* keep, uint8_t* out) {
#if defined(__AVX512F__) || defined(__AVX2__)
  if (width == 8) return compact_8(in, n, keep, out);
  if (width == 4) return compact_4(in, n, keep, out);
#endif
  compact_runs(in, width, n, keep, out);
}

// Hands out the output buffers of one filter_rows call: fresh ones, or the
// pool's slots in order when nothing else holds them.
class OutputBuffers {
 public:
  explicit OutputBuffers(FilterBuffers* pool) : pool_(pool) {}
  // A buffer of `size` bytes (contents undefined, padding zeroed).
  std::shared_ptr<Buffer> take(size_t size) {
    std::shared_ptr<Buffer> buffer;
    if (pool_ != nullptr) {
      if (next_ == pool_->slots.size()) pool_->slots.emplace_back();
      std::shared_ptr<Buffer>& slot = pool_->slots[next_++];
      if (!slot || slot.use_count() > 1) slot = std::make_shared<Buffer>();
      buffer = slot;
    } else {
      buffer = std::make_shared<Buffer>();
    }
    buffer->resize(size);
    return buffer;
  }

 private:
  FilterBuffers* pool_;
  size_t next_ = 0;
};

// Buffer padding is zero by contract; vector stores and word-wise bit
// appends may have written past the end, so restore it.
BufferRef share_repadded(std::shared_ptr<Buffer> buffer, size_t size) {
  buffer->resize(size);
  return BufferRef::share(std::move(buffer));
}

// Copies n bytes in 16-byte steps, which may read and write up to 15 bytes
// past the run: the caller checks the source has them, and the output's are
// the next run's (or the buffer's padding). Kept strings come in runs of a
// few short values, where a memcpy call per run cost more than the bytes.
inline void copy_run_overlapping(uint8_t* out, const uint8_t* in, size_t n) {
  for (size_t i = 0; i < n; i += 16) std::memcpy(out + i, in + i, 16);
}

// out[i] = in[i] + delta for i < n. A run of kept strings is a few rows
// (ten at 10% deletes): one masked vector covers it.
template <typename Offset>
inline void shift_offsets(Offset* out, const Offset* in, int64_t n, Offset delta) {
#if defined(__AVX512F__)
  if constexpr (sizeof(Offset) == 4) {
    const __m512i d = _mm512_set1_epi32(delta);
    for (; n >= 16; n -= 16, in += 16, out += 16)
      _mm512_storeu_si512(out, _mm512_add_epi32(_mm512_loadu_si512(in), d));
    if (n > 0) {
      const __mmask16 m = __mmask16((1u << n) - 1);
      _mm512_mask_storeu_epi32(out, m, _mm512_add_epi32(_mm512_maskz_loadu_epi32(m, in), d));
    }
    return;
  } else {
    const __m512i d = _mm512_set1_epi64(delta);
    for (; n >= 8; n -= 8, in += 8, out += 8)
      _mm512_storeu_si512(out, _mm512_add_epi64(_mm512_loadu_si512(in), d));
    if (n > 0) {
      const __mmask8 m = __mmask8((1u << n) - 1);
      _mm512_mask_storeu_epi64(out, m, _mm512_add_epi64(_mm512_maskz_loadu_epi64(m, in), d));
    }
    return;
  }
#endif
  for (int64_t i = 0; i < n; ++i) out[i] = in[i] + delta;
}

template <typename Offset>
void filter_binary(const ArrayData& a, const uint8_t* keep, int64_t kept, ArrayData& out,
                   OutputBuffers& buffers) {
  const Offset* in = a.buffers[1].as<Offset>() + a.offset;
  const uint8_t* data = a.buffers[2].data;
  const int64_t data_size = a.buffers[2].size;
  // Sized for every row's bytes rather than counting the kept ones first
  // (a second pass over the runs); the output is trimmed to what was kept.
  auto offsets = buffers.take(size_t(kept + 1) * sizeof(Offset));
  auto bytes = buffers.take(size_t(in[a.length] - in[0]));
  Offset* o = offsets->as<Offset>();
  uint8_t* b = bytes->data();
  // One pass over the runs of kept rows: a run's offsets are its input
  // offsets moved by one difference, and its bytes one copy. (Lengths
  // compacted and summed row by row took three passes, the sum a store
  // waiting on the one before.)
  o[0] = 0;
  Offset running = 0;
  int64_t at = 0;  // offsets written after o[0]
  for_each_run(keep, a.length, [&](int64_t begin, int64_t end) {
    if (at + (end - begin) > kept) throw_invalid("filter_rows: the keep bitmap keeps more rows than counted");
    const Offset first = in[begin];
    shift_offsets<Offset>(o + 1 + at, in + begin + 1, end - begin, Offset(running - first));
    at += end - begin;
    const size_t length = size_t(in[end] - first);
    if (int64_t(first) + int64_t(length) + 15 <= data_size) {
      copy_run_overlapping(b + running, data + first, length);
    } else if (length != 0) {
      std::memcpy(b + running, data + first, length);
    }
    running += Offset(length);
  });
  if (at != kept) throw_invalid("filter_rows: the keep bitmap keeps fewer rows than counted");
  out.buffers.push_back(share_repadded(std::move(offsets), size_t(kept + 1) * sizeof(Offset)));
  out.buffers.push_back(share_repadded(std::move(bytes), size_t(running)));
}

}  // namespace

std::shared_ptr<ArrayData> filter_rows(const ArrayData& a, const uint8_t* keep, int64_t kept,
                                       FilterBuffers* reuse) {
  if (kept < 0 || kept > a.length) throw_invalid("filter_rows: kept count outside the array");
  if (kept == 0) return select_ranges(a, {});  // nothing to compact (and no buffer to write into)
  const TypeId id = a.type->id;
  switch (id) {
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kMap:
    case TypeId::kStruct: {
      // Nested: children follow their parents' offsets; ranges do that already.
      auto ranges = ranges_from_bitmap(keep, a.length);
      return select_ranges(a, ranges);
    }
    default: break;
  }
  OutputBuffers buffers(reuse);
  auto out = std::make_shared<ArrayData>();
  out->type = a.type;
  out->length = kept;
  if (id == TypeId::kNull) {
    out->null_count = kept;
    return out;
  }
  // Validity (written a word at a time, so sized in whole words first).
  const size_t bitmap_words_bytes = size_t((kept + 63) / 64 * 8);
  if (a.null_count != 0 && !a.buffers.empty() && a.buffers[0]) {
    auto validity = buffers.take(bitmap_words_bytes);
    const int64_t valid = compact_bits(a.buffers[0].data, a.offset, a.length, keep, validity->data());
    out->null_count = kept - valid;
    if (out->null_count != 0) {
      out->buffers.push_back(share_repadded(std::move(validity), size_t(bits::bytes_for_bits(kept))));
    } else {
      out->buffers.emplace_back();
    }
  } else {
    out->buffers.emplace_back();
  }
  switch (id) {
    case TypeId::kBool: {
      auto values = buffers.take(bitmap_words_bytes);
      compact_bits(a.buffers[1].data, a.offset, a.length, keep, values->data());
      out->buffers.push_back(share_repadded(std::move(values), size_t(bits::bytes_for_bits(kept))));
      return out;
    }
    case TypeId::kBinary:
    case TypeId::kString: filter_binary<int32_t>(a, keep, kept, *out, buffers); return out;
    case TypeId::kLargeBinary:
    case TypeId::kLargeString: filter_binary<int64_t>(a, keep, kept, *out, buffers); return out;
    default: {
      const size_t width =
          id == TypeId::kBinaryView || id == TypeId::kStringView ? 16 : size_t(a.type->fixed_width());
      const size_t size = size_t(kept) * width;
      auto values = buffers.take(size);
      compact_fixed(a.buffers[1].data + size_t(a.offset) * width, width, a.length, keep, values->data());
      out->buffers.push_back(share_repadded(std::move(values), size));
      for (size_t i = 2; i < a.buffers.size(); ++i) out->buffers.push_back(a.buffers[i]);  // view data
      out->dictionary = a.dictionary;
      return out;
    }
  }
}

RecordBatch filter_rows(const RecordBatch& batch, const uint8_t* keep, int64_t kept,
                        std::vector<FilterBuffers>* reuse) {
  RecordBatch out;
  out.schema = batch.schema;
  out.num_rows = kept;
  out.columns.reserve(batch.columns.size());
  if (reuse != nullptr && reuse->size() < batch.columns.size()) reuse->resize(batch.columns.size());
  for (size_t c = 0; c < batch.columns.size(); ++c) {
    out.columns.push_back(
        filter_rows(*batch.columns[c], keep, kept, reuse != nullptr ? &(*reuse)[c] : nullptr));
  }
  return out;
}

}  // namespace parquetry
