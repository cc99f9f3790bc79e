#include "parquetry/column/value_decoders.h"

#include <algorithm>
#ifdef __AVX512F__
#include <immintrin.h>
#endif
#include <cstring>
#include <limits>
#include <string>

#include "parquetry/encoding/bit_unpack.h"
#include "parquetry/encoding/buffer_append.h"
#include "parquetry/encoding/byte_stream_split.h"
#include "parquetry/encoding/delta.h"
#include "parquetry/encoding/rle.h"
#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry {

using encoding::extend;

namespace {

// Decoded values of one page never need more than this; a page claiming
// more (a lying count times a lying width) is refused before allocating.
constexpr int64_t kMaxDecodedPageBytes = int64_t(1) << 31;

void check_decoded_size(int64_t count, int64_t width) {
  if (count < 0 || (width > 0 && count > kMaxDecodedPageBytes / width)) {
    throw_limit("page would decode to more than 2 GiB (" + std::to_string(count) + " values of " +
                std::to_string(width) + " bytes)");
  }
}

[[noreturn]] void too_short(const char* what, int64_t count, size_t available) {
  throw_corrupt(std::string(what) + ": " + std::to_string(count) + " values do not fit in " +
                std::to_string(available) + " bytes");
}

void check_binary_size(size_t total) {
  if (total > size_t(std::numeric_limits<int32_t>::max())) {
    throw_limit("byte array data of a column chunk exceeds 2 GiB (32-bit offsets)");
  }
}

// Dictionary gathers of validated indices. Small dictionaries (flags, codes,
// counts: most dictionary columns) fit in two AVX-512 registers, and a
// permute looks up 16 (or 8) values per instruction: 4-7x faster than loads.
// Larger ones use plain loads; hardware gathers lose to them on current
// cores (1.5x slower on Zen 4, and slowed further by microcode mitigations
// elsewhere).
constexpr int64_t kPermuteEntries = 32;

void gather32(const uint32_t* dict, int64_t dict_size, const uint32_t* indices, int64_t count,
              uint32_t* out) {
  int64_t i = 0;
#ifdef __AVX512F__
  if (dict_size > 0 && dict_size <= kPermuteEntries && count >= 16) {
    uint32_t padded[kPermuteEntries] = {};
    std::memcpy(padded, dict, size_t(dict_size) * 4);
    const __m512i low = _mm512_loadu_si512(padded), high = _mm512_loadu_si512(padded + 16);
    for (; i + 16 <= count; i += 16) {
      const __m512i idx = _mm512_loadu_si512(indices + i);
      _mm512_storeu_si512(out + i, _mm512_permutex2var_epi32(low, idx, high));
    }
  }
#else
  (void)dict_size;
#endif
#if defined(__clang__)
#pragma clang loop vectorize(disable)
#endif
  for (; i < count; ++i) out[i] = dict[indices[i]];
}

void gather64(const uint64_t* dict, int64_t dict_size, const uint32_t* indices, int64_t count,
              uint64_t* out) {
  int64_t i = 0;
#ifdef __AVX512F__
  if (dict_size > 0 && dict_size <= kPermuteEntries && count >= 16) {
    uint64_t padded[kPermuteEntries] = {};
    std::memcpy(padded, dict, size_t(dict_size) * 8);
    const __m512i e0 = _mm512_loadu_si512(padded), e1 = _mm512_loadu_si512(padded + 8);
    const __m512i e2 = _mm512_loadu_si512(padded + 16), e3 = _mm512_loadu_si512(padded + 24);
    const __m512i bit4 = _mm512_set1_epi64(16);
    for (; i + 8 <= count; i += 8) {
      const __m512i idx = _mm512_maskz_cvtepu32_epi64(
          0xFF, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(indices + i)));
      const __m512i low = _mm512_permutex2var_epi64(e0, idx, e1),
                    high = _mm512_permutex2var_epi64(e2, idx, e3);
      _mm512_storeu_si512(out + i, _mm512_mask_blend_epi64(_mm512_test_epi64_mask(idx, bit4), low, high));
    }
  }
#else
  (void)dict_size;
#endif
#if defined(__clang__)
#pragma clang loop vectorize(disable)
#endif
  for (; i < count; ++i) out[i] = dict[indices[i]];
}

}  // namespace

size_t decode_plain(const LeafSpec& spec, std::span<const uint8_t> data, int64_t count, Buffer& values,
                    Buffer* offsets, int64_t values_so_far) {
  if (count < 0) throw_corrupt("negative value count");
  switch (spec.layout()) {
    case PhysicalLayout::kFixed: {
      const size_t width = size_t(spec.width());
      if (width == 0 && count > 0 && spec.physical_type == Type::FIXED_LEN_BYTE_ARRAY) {
        // Zero-width FLBA carries no bytes; nothing to copy.
        return 0;
      }
      const size_t need = size_t(count) * width;
      if (need > data.size()) too_short("PLAIN values", count, data.size());
      if (need > 0) std::memcpy(extend(values, need), data.data(), need);
      return need;
    }
    case PhysicalLayout::kBool: {
      const size_t need = size_t(bits::bytes_for_bits(count));
      if (need > data.size()) too_short("PLAIN booleans", count, data.size());
      values.resize(size_t(bits::bytes_for_bits(values_so_far + count)));
      encoding::copy_bits(data.data(), 0, values.data(), values_so_far, count);
      return need;
    }
    case PhysicalLayout::kBinary: {
      // The data can be no larger than the page section, so one reservation suffices.
      encoding::reserve_more(values, data.size());
      int32_t* out_offsets = reinterpret_cast<int32_t*>(extend(*offsets, size_t(count) * 4));
      const uint8_t* pos = data.data();
      const uint8_t* end = pos + data.size();
      size_t total = values.size();
      uint8_t* out = values.data();
      for (int64_t i = 0; i < count; ++i) {
        if (end - pos < 4)
          throw_corrupt("PLAIN byte array length runs past the page (value " + std::to_string(i) + ")");
        uint32_t length = bits::load<uint32_t>(pos);
        pos += 4;
        if (length > size_t(end - pos)) {
          throw_corrupt("PLAIN byte array of " + std::to_string(length) + " bytes runs past the page");
        }
        if (length > 0) std::memcpy(out + total, pos, length);
        pos += length;
        total += length;
        out_offsets[i] = int32_t(total);
      }
      check_binary_size(total);
      values.resize(total);
      return size_t(pos - data.data());
    }
  }
  return 0;
}

void gather(const LeafSpec& spec, const uint32_t* indices, int64_t count, const Buffer& dictionary_values,
            const Buffer& dictionary_offsets, int64_t dictionary_size, Buffer& values, Buffer* offsets,
            int64_t values_so_far) {
  if (count > 0 && dictionary_size <= 0) throw_corrupt("dictionary-encoded values with an empty dictionary");
  uint32_t max_index = 0;
  auto check = [&]() {
    if (count > 0 && int64_t(max_index) >= dictionary_size) {
      throw_corrupt("dictionary index " + std::to_string(max_index) + " out of range (dictionary holds " +
                    std::to_string(dictionary_size) + " values)");
    }
  };
  switch (spec.layout()) {
    case PhysicalLayout::kFixed: {
      const size_t width = size_t(spec.width());
      check_decoded_size(count, int64_t(width));
      uint8_t* out = extend(values, size_t(count) * width);
      const uint8_t* dict = dictionary_values.data();
      // Validate first (a vectorised max), then gather with no per-value checks.
      for (int64_t i = 0; i < count; ++i) max_index = indices[i] > max_index ? indices[i] : max_index;
      check();
      if (width == 4) {
        gather32(reinterpret_cast<const uint32_t*>(dict), dictionary_size, indices, count,
                 reinterpret_cast<uint32_t*>(out));
      } else if (width == 8) {
        gather64(reinterpret_cast<const uint64_t*>(dict), dictionary_size, indices, count,
                 reinterpret_cast<uint64_t*>(out));
      } else {
        for (int64_t i = 0; i < count; ++i) {
          std::memcpy(out + size_t(i) * width, dict + size_t(indices[i]) * width, width);
        }
      }
      break;
    }
    case PhysicalLayout::kBool: {
      for (int64_t i = 0; i < count; ++i) max_index = std::max(max_index, indices[i]);
      check();
      values.resize(size_t(bits::bytes_for_bits(values_so_far + count)));
      for (int64_t i = 0; i < count; ++i) {
        bits::set_bit_to(values.data(), values_so_far + i,
                         bits::get_bit(dictionary_values.data(), indices[i]));
      }
      break;
    }
    case PhysicalLayout::kBinary: {
      for (int64_t i = 0; i < count; ++i) max_index = std::max(max_index, indices[i]);
      check();
      const int32_t* dict_offsets = dictionary_offsets.as<int32_t>();
      size_t added = 0;
      for (int64_t i = 0; i < count; ++i)
        added += size_t(dict_offsets[indices[i] + 1] - dict_offsets[indices[i]]);
      size_t total = values.size();
      check_binary_size(total + added);
      uint8_t* out = extend(values, added) - total;
      int32_t* out_offsets = reinterpret_cast<int32_t*>(extend(*offsets, size_t(count) * 4));
      const uint8_t* dict = dictionary_values.data();
      for (int64_t i = 0; i < count; ++i) {
        const int32_t begin = dict_offsets[indices[i]];
        const int32_t length = dict_offsets[indices[i] + 1] - begin;
        if (length > 0) std::memcpy(out + total, dict + begin, size_t(length));
        total += size_t(length);
        out_offsets[i] = int32_t(total);
      }
      break;
    }
  }
}

void decode_other(const LeafSpec& spec, Encoding encoding, std::span<const uint8_t> data, int64_t count,
                  Buffer& values, Buffer* offsets, int64_t values_so_far, Buffer& scratch) {
  switch (encoding) {
    case Encoding::RLE: {
      if (spec.layout() != PhysicalLayout::kBool) throw_corrupt("RLE value encoding on a non-boolean column");
      encoding::Section section = encoding::read_length_prefixed(data);
      encoding::RleBitPackedDecoder decoder(section.data, 1);
      values.resize(size_t(bits::bytes_for_bits(values_so_far + count)));
      int64_t zeros = 0;
      if (decoder.decode_validity(values.data(), values_so_far, count, &zeros) != count) {
        throw_corrupt("RLE boolean section holds fewer values than the page");
      }
      return;
    }
    case Encoding::DELTA_BINARY_PACKED: {
      int64_t decoded = -1;
      if (spec.physical_type == Type::INT32) {
        encoding::DeltaBinaryPackedDecoder<int32_t> decoder(data);
        decoded = decoder.decode(reinterpret_cast<int32_t*>(extend(values, size_t(count) * 4)), count);
      } else if (spec.physical_type == Type::INT64) {
        encoding::DeltaBinaryPackedDecoder<int64_t> decoder(data);
        decoded = decoder.decode(reinterpret_cast<int64_t*>(extend(values, size_t(count) * 8)), count);
      } else {
        break;
      }
      if (decoded != count) throw_corrupt("DELTA_BINARY_PACKED section holds fewer values than the page");
      return;
    }
    case Encoding::DELTA_LENGTH_BYTE_ARRAY: {
      if (spec.layout() != PhysicalLayout::kBinary) break;
      encoding::DeltaLengthByteArrayDecoder decoder;
      decoder.reset(data, count);
      if (decoder.decode(*offsets, values, count) != count) {
        throw_corrupt("DELTA_LENGTH_BYTE_ARRAY section holds fewer values than the page");
      }
      return;
    }
    case Encoding::DELTA_BYTE_ARRAY: {
      encoding::DeltaByteArrayDecoder decoder;
      decoder.reset(data, count);
      int64_t decoded = -1;
      if (spec.layout() == PhysicalLayout::kBinary) {
        decoded = decoder.decode(*offsets, values, count);
      } else if (spec.physical_type == Type::FIXED_LEN_BYTE_ARRAY) {
        if (decoder.total_values() < count)
          throw_corrupt("DELTA_BYTE_ARRAY section holds fewer values than the page");
        check_decoded_size(count, spec.width());
        decoded =
            decoder.decode_fixed(extend(values, size_t(count) * size_t(spec.width())), spec.width(), count);
      } else {
        break;
      }
      if (decoded != count) throw_corrupt("DELTA_BYTE_ARRAY section holds fewer values than the page");
      return;
    }
    case Encoding::BYTE_STREAM_SPLIT: {
      if (spec.layout() != PhysicalLayout::kFixed || spec.physical_type == Type::INT96) break;
      encoding::ByteStreamSplitDecoder decoder(data, spec.width());
      if (decoder.total_values() < count)
        throw_corrupt("BYTE_STREAM_SPLIT section holds fewer values than the page");
      if (decoder.decode(extend(values, size_t(count) * size_t(spec.width())), count) != count) {
        throw_corrupt("BYTE_STREAM_SPLIT section holds fewer values than the page");
      }
      return;
    }
    default: break;
  }
  throw_unsupported(std::string("value encoding ") + std::string(encoding_name(encoding)) + " for " +
                    std::string(type_name(spec.physical_type)));
}

}  // namespace parquetry
