// Dictionary encoding (RLE_DICTIONARY, and the deprecated PLAIN_DICTIONARY).
//
// The dictionary page holds the distinct values PLAIN-encoded (decode it with
// PlainDecoder); a data page holds one byte of index bit width (0..32)
// followed by the indices in the RLE/bit-packed hybrid. Reading: decode the
// indices (range-checked against the dictionary size), then gather values,
// or keep the indices for a dictionary-encoded Arrow array. Writing:
// DictionaryBuilder / ByteArrayDictionaryBuilder map values to indices with a
// byte-size limit so the writer can fall back to PLAIN.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include "parquetry/encoding/plain.h"
#include "parquetry/encoding/rle.h"
#include "parquetry/util/bit_util.h"
#include "parquetry/util/buffer.h"

namespace parquetry::encoding {

/// Decoder of the indices of one dictionary-encoded data page section.
class DictionaryIndexDecoder {
 public:
  DictionaryIndexDecoder() = default;
  DictionaryIndexDecoder(std::span<const uint8_t> data, int32_t dictionary_size) {
    reset(data, dictionary_size);
  }

  /// Reads the bit-width byte; an empty section or a width above 32 throws kCorrupt.
  void reset(std::span<const uint8_t> data, int32_t dictionary_size);
  /// Decodes up to n indices; returns how many (fewer only when the data ends).
  /// An index >= dictionary_size throws kCorrupt naming the index.
  int64_t decode(int32_t* out, int64_t n);
  int64_t skip(int64_t n) { return rle_.skip(n); }
  int bit_width() const { return rle_.bit_width(); }

  /// Decodes up to n indices and writes dictionary[index] for each, going
  /// through a small stack chunk so the indices stay in L1. T is any
  /// copyable value type (int32_t, double, ByteArrayView for string views...).
  template <typename T>
  int64_t decode_gather(const T* dictionary, T* out, int64_t n);
  /// As decode_gather for values of `width` bytes (FLBA, INT96).
  int64_t decode_gather_fixed(const uint8_t* dictionary, int width, uint8_t* out, int64_t n);
  /// As decode_gather into Arrow binary (see gather_byte_arrays).
  int64_t decode_gather_byte_arrays(const ByteArrayView* dictionary, Buffer& offsets, Buffer& data,
                                    int64_t n);

 private:
  RleBitPackedDecoder rle_;
  int32_t dictionary_size_ = 0;
  bool needs_check_ = true;
};

/// out[i] = dictionary[indices[i]]; indices must have been range-checked.
template <typename T>
inline void gather(const T* dictionary, const int32_t* indices, int64_t n, T* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = dictionary[indices[i]];
}

template <typename T>
int64_t DictionaryIndexDecoder::decode_gather(const T* dictionary, T* out, int64_t n) {
  constexpr int64_t kChunk = 1024;
  int32_t indices[kChunk];
  int64_t done = 0;
  while (done < n) {
    int64_t got = decode(indices, n - done < kChunk ? n - done : kChunk);
    if (got == 0) break;
    gather(dictionary, indices, got, out + done);
    done += got;
  }
  return done;
}

/// Gather for values of `width` bytes (FIXED_LEN_BYTE_ARRAY, INT96).
void gather_fixed(const uint8_t* dictionary, int width, const int32_t* indices, int64_t n, uint8_t* out);

/// Gather byte arrays into Arrow binary (offsets appended as by
/// PlainDecoder::decode_byte_arrays). Dictionary as views or as offsets+data.
void gather_byte_arrays(const ByteArrayView* dictionary, const int32_t* indices, int64_t n, Buffer& offsets,
                        Buffer& data);
void gather_byte_arrays_large(const ByteArrayView* dictionary, const int32_t* indices, int64_t n,
                              Buffer& offsets, Buffer& data);
void gather_byte_arrays(const int32_t* dictionary_offsets, const uint8_t* dictionary_data,
                        const int32_t* indices, int64_t n, Buffer& offsets, Buffer& data);

/// Minimal index bit width for a dictionary of `size` entries.
constexpr int dictionary_index_bit_width(int64_t size) {
  return size <= 1 ? 0 : bits::bit_width(uint64_t(size - 1));
}

/// Encodes dictionary indices for a data page: the bit-width byte followed by
/// the RLE/bit-packed hybrid, appended to `out`.
void encode_dictionary_indices(const int32_t* indices, int64_t n, int bit_width, Buffer& out);

/// Builds the dictionary of a fixed-width column chunk. T is int32_t,
/// int64_t, float or double; values compare by bit pattern (so -0.0 and 0.0,
/// or NaNs with different payloads, are distinct entries).
template <typename T>
class DictionaryBuilder {
 public:
  using Key = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  static_assert(sizeof(T) == sizeof(Key));

  /// `max_dictionary_bytes` bounds the PLAIN size of the dictionary page.
  explicit DictionaryBuilder(int64_t max_dictionary_bytes = 1 << 20);

  /// Maps values to indices, adding new values. Stops before the first new
  /// value that would push the dictionary over its limit and returns how many
  /// values were mapped (n when all fit); the caller then falls back to PLAIN.
  int64_t put(const T* values, int64_t n, int32_t* indices);

  int32_t size() const { return int32_t(keys_.size()); }
  int64_t dictionary_bytes() const { return int64_t(keys_.size()) * int64_t(sizeof(T)); }
  int index_bit_width() const { return dictionary_index_bit_width(size()); }
  /// The entries, in index order.
  std::span<const T> values() const { return {reinterpret_cast<const T*>(keys_.data()), keys_.size()}; }
  /// Appends the PLAIN dictionary page body.
  void write_dictionary_page(Buffer& out) const;
  /// Empties the dictionary. The table is sized for `expected_entries`
  /// (capped by the byte limit), so a chunk as large as the previous one
  /// does not rehash its way up from the initial size.
  void reset(int64_t expected_entries = 0);

 private:
  void grow();

  // Open addressing on the raw bits. A slot holds the key beside its index,
  // so a probe touches one cache line and never the entry list; -1 = empty.
  struct Slot {
    Key key;
    int32_t index;
  };

  int64_t max_bytes_;
  std::vector<Key> keys_;  // the entries in index order (the dictionary page)
  std::vector<Slot> slots_;
  int shift_ = 0;  // 64 - log2(slots_.size())
};

extern template class DictionaryBuilder<int32_t>;
extern template class DictionaryBuilder<int64_t>;
extern template class DictionaryBuilder<float>;
extern template class DictionaryBuilder<double>;

/// Builds the dictionary of a BYTE_ARRAY column chunk, or of a
/// FIXED_LEN_BYTE_ARRAY one when constructed with fixed_length >= 0.
class ByteArrayDictionaryBuilder {
 public:
  explicit ByteArrayDictionaryBuilder(int64_t max_dictionary_bytes = 1 << 20, int fixed_length = -1);

  /// As DictionaryBuilder::put. The dictionary size counts PLAIN bytes
  /// (4-byte length + bytes per BYTE_ARRAY entry, fixed_length per FLBA entry).
  int64_t put(const ByteArrayView* values, int64_t n, int32_t* indices);
  int64_t put(const int32_t* offsets, const uint8_t* data, int64_t n, int32_t* indices);
  /// FLBA values back to back, fixed_length bytes each.
  int64_t put_fixed(const uint8_t* values, int64_t n, int32_t* indices);

  int32_t size() const { return int32_t(hashes_.size()); }
  int64_t dictionary_bytes() const { return plain_bytes_; }
  int index_bit_width() const { return dictionary_index_bit_width(size()); }
  ByteArrayView value(int32_t index) const {
    return {data_.data() + offsets_[size_t(index)],
            uint32_t(offsets_[size_t(index) + 1] - offsets_[size_t(index)])};
  }
  void write_dictionary_page(Buffer& out) const;
  void reset();

 private:
  // Index of the entry equal to (bytes, len), inserting it when new; -1 when
  // the insertion would exceed the limit.
  int32_t find_or_insert(const uint8_t* bytes, uint32_t len);
  void grow();

  int64_t max_bytes_;
  int fixed_length_;
  int64_t plain_bytes_ = 0;
  Buffer data_;
  std::vector<int64_t> offsets_{0};
  std::vector<uint64_t> hashes_;
  std::vector<int32_t> slots_;
  uint64_t mask_ = 0;
};

}  // namespace parquetry::encoding
