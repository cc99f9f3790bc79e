#include "parquetry/encoding/dictionary.h"

#include <xxhash.h>

#include <algorithm>
#include <limits>
#include <string>

#include "parquetry/encoding/buffer_append.h"
#include "parquetry/error.h"

namespace parquetry::encoding {

// ---------------------------------------------------------------- indices

void DictionaryIndexDecoder::reset(std::span<const uint8_t> data, int32_t dictionary_size) {
  if (data.empty()) throw_corrupt("dictionary-encoded page has no index bit width byte");
  if (dictionary_size < 0) throw_invalid("negative dictionary size");
  int w = data[0];
  if (w > 32) throw_corrupt("dictionary index bit width " + std::to_string(w) + " exceeds 32");
  rle_.reset(data.subspan(1), w);
  dictionary_size_ = dictionary_size;
  // When every representable index is in range the per-batch check is moot.
  needs_check_ = w >= 32 || (uint64_t(1) << w) > uint64_t(dictionary_size);
}

int64_t DictionaryIndexDecoder::decode(int32_t* out, int64_t n) {
  int64_t got = rle_.decode(reinterpret_cast<uint32_t*>(out), n);
  if (needs_check_) {
    const uint32_t* u = reinterpret_cast<const uint32_t*>(out);
    uint32_t highest = 0;
    for (int64_t i = 0; i < got; ++i) highest = std::max(highest, u[i]);
    if (got > 0 && highest >= uint32_t(dictionary_size_)) {
      int64_t at = 0;
      while (u[at] < uint32_t(dictionary_size_)) ++at;
      throw_corrupt("dictionary index " + std::to_string(u[at]) + " (value " + std::to_string(at) +
                    " of the batch) is out of range for a dictionary of " + std::to_string(dictionary_size_) +
                    " entries");
    }
  }
  return got;
}

int64_t DictionaryIndexDecoder::decode_gather_fixed(const uint8_t* dictionary, int width, uint8_t* out,
                                                    int64_t n) {
  constexpr int64_t kChunk = 1024;
  int32_t indices[kChunk];
  int64_t done = 0;
  while (done < n) {
    int64_t got = decode(indices, std::min(n - done, kChunk));
    if (got == 0) break;
    gather_fixed(dictionary, width, indices, got, out + done * width);
    done += got;
  }
  return done;
}

int64_t DictionaryIndexDecoder::decode_gather_byte_arrays(const ByteArrayView* dictionary, Buffer& offsets,
                                                          Buffer& data, int64_t n) {
  constexpr int64_t kChunk = 1024;
  int32_t indices[kChunk];
  int64_t done = 0;
  while (done < n) {
    int64_t got = decode(indices, std::min(n - done, kChunk));
    if (got == 0) break;
    gather_byte_arrays(dictionary, indices, got, offsets, data);
    done += got;
  }
  return done;
}

void encode_dictionary_indices(const int32_t* indices, int64_t n, int bit_width, Buffer& out) {
  uint8_t w = uint8_t(bit_width);
  out.append(&w, 1);
  RleBitPackedEncoder enc(bit_width);
  enc.put(indices, n);
  enc.flush_to(out);
}

// ---------------------------------------------------------------- gather

void gather_fixed(const uint8_t* dictionary, int width, const int32_t* indices, int64_t n, uint8_t* out) {
  switch (width) {
    case 4:
      gather(reinterpret_cast<const uint32_t*>(dictionary), indices, n, reinterpret_cast<uint32_t*>(out));
      return;
    case 8:
      gather(reinterpret_cast<const uint64_t*>(dictionary), indices, n, reinterpret_cast<uint64_t*>(out));
      return;
    default:
      for (int64_t i = 0; i < n; ++i) {
        std::memcpy(out + i * width, dictionary + int64_t(indices[i]) * width, size_t(width));
      }
  }
}

namespace {
template <typename Offset>
Offset* start_offsets(Buffer& offsets, const Buffer& data, int64_t n, Offset* base) {
  if (offsets.size() == 0) {
    Offset zero = 0;
    offsets.append(&zero, sizeof(Offset));
  }
  if (offsets.size() % sizeof(Offset) != 0)
    throw_invalid("offsets buffer size is not a multiple of the offset width");
  *base = offsets.as<Offset>()[offsets.size() / sizeof(Offset) - 1];
  if (uint64_t(*base) != data.size()) throw_invalid("last offset does not match the data buffer size");
  return reinterpret_cast<Offset*>(extend(offsets, size_t(n) * sizeof(Offset)));
}

template <typename Offset, typename LengthOf, typename DataOf>
void gather_binary(const int32_t* indices, int64_t n, Buffer& offsets, Buffer& data, LengthOf length_of,
                   DataOf data_of) {
  Offset base;
  Offset* off = start_offsets<Offset>(offsets, data, n, &base);
  // First the total, so the data grows once and the offset width is checked once.
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) total += length_of(indices[i]);
  if (total > int64_t(std::numeric_limits<Offset>::max()) - int64_t(base)) {
    throw_limit("byte array data exceeds the 2 GiB reach of 32-bit offsets");
  }
  uint8_t* dst = extend(data, size_t(total));
  int64_t at = int64_t(base);
  for (int64_t i = 0; i < n; ++i) {
    int64_t len = length_of(indices[i]);
    if (len != 0) std::memcpy(dst, data_of(indices[i]), size_t(len));
    dst += len;
    at += len;
    off[i] = Offset(at);
  }
}
}  // namespace

void gather_byte_arrays(const ByteArrayView* dictionary, const int32_t* indices, int64_t n, Buffer& offsets,
                        Buffer& data) {
  gather_binary<int32_t>(
      indices, n, offsets, data, [&](int32_t k) { return int64_t(dictionary[k].length); },
      [&](int32_t k) { return dictionary[k].data; });
}

void gather_byte_arrays_large(const ByteArrayView* dictionary, const int32_t* indices, int64_t n,
                              Buffer& offsets, Buffer& data) {
  gather_binary<int64_t>(
      indices, n, offsets, data, [&](int32_t k) { return int64_t(dictionary[k].length); },
      [&](int32_t k) { return dictionary[k].data; });
}

void gather_byte_arrays(const int32_t* dictionary_offsets, const uint8_t* dictionary_data,
                        const int32_t* indices, int64_t n, Buffer& offsets, Buffer& data) {
  gather_binary<int32_t>(
      indices, n, offsets, data,
      [&](int32_t k) { return int64_t(dictionary_offsets[k + 1]) - int64_t(dictionary_offsets[k]); },
      [&](int32_t k) { return dictionary_data + dictionary_offsets[k]; });
}

// ---------------------------------------------------------------- builders

namespace {
constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ull;
constexpr size_t kInitialSlots = 1024;
}  // namespace

template <typename T>
DictionaryBuilder<T>::DictionaryBuilder(int64_t max_dictionary_bytes) : max_bytes_(max_dictionary_bytes) {
  reset();
}

template <typename T>
void DictionaryBuilder<T>::reset(int64_t expected_entries) {
  keys_.clear();
  // put() grows when entries * 2 exceed the slots: leave room for the expected ones.
  const int64_t entries = std::clamp<int64_t>(expected_entries, 0, max_bytes_ / int64_t(sizeof(T)));
  size_t slots = kInitialSlots;
  while (int64_t(slots) < 2 * entries) slots *= 2;
  slots_.assign(slots, Slot{Key(0), -1});
  shift_ = 64 - std::countr_zero(slots);
}

template <typename T>
void DictionaryBuilder<T>::grow() {
  const size_t size = slots_.size() * 2;
  slots_.assign(size, Slot{Key(0), -1});
  shift_ = 64 - std::countr_zero(size);
  const size_t mask = size - 1;
  Slot* slots = slots_.data();
  for (size_t k = 0; k < keys_.size(); ++k) {
    size_t s = size_t((uint64_t(keys_[k]) * kGolden) >> shift_);
    while (slots[s].index >= 0) s = (s + 1) & mask;
    slots[s] = Slot{keys_[k], int32_t(k)};
  }
}

template <typename T>
int64_t DictionaryBuilder<T>::put(const T* values, int64_t n, int32_t* indices) {
  size_t mask = slots_.size() - 1;
  Slot* slots = slots_.data();
  // Entries that still fit under the byte limit (and int32 indices).
  const int64_t capacity =
      std::min<int64_t>(max_bytes_ / int64_t(sizeof(T)), std::numeric_limits<int32_t>::max());
  for (int64_t i = 0; i < n; ++i) {
    Key key;
    std::memcpy(&key, values + i, sizeof(Key));
    size_t s = size_t((uint64_t(key) * kGolden) >> shift_);
    while (slots[s].index >= 0 && slots[s].key != key) s = (s + 1) & mask;
    int32_t found = slots[s].index;
    if (found < 0) {
      if (int64_t(keys_.size()) >= capacity) return i;
      found = int32_t(keys_.size());
      keys_.push_back(key);
      slots[s] = Slot{key, found};
      if (keys_.size() * 2 > slots_.size()) {
        grow();
        mask = slots_.size() - 1;
        slots = slots_.data();
      }
    }
    indices[i] = found;
  }
  return n;
}

template <typename T>
void DictionaryBuilder<T>::write_dictionary_page(Buffer& out) const {
  plain_encode_fixed(keys_.data(), int(sizeof(T)), int64_t(keys_.size()), out);
}

template class DictionaryBuilder<int32_t>;
template class DictionaryBuilder<int64_t>;
template class DictionaryBuilder<float>;
template class DictionaryBuilder<double>;

ByteArrayDictionaryBuilder::ByteArrayDictionaryBuilder(int64_t max_dictionary_bytes, int fixed_length)
    : max_bytes_(max_dictionary_bytes), fixed_length_(fixed_length) {
  reset();
}

void ByteArrayDictionaryBuilder::reset() {
  plain_bytes_ = 0;
  data_.clear();
  offsets_.assign(1, 0);
  hashes_.clear();
  slots_.assign(kInitialSlots, -1);
  mask_ = kInitialSlots - 1;
}

void ByteArrayDictionaryBuilder::grow() {
  size_t size = slots_.size() * 2;
  slots_.assign(size, -1);
  mask_ = size - 1;
  for (size_t k = 0; k < hashes_.size(); ++k) {
    size_t s = size_t(hashes_[k] & mask_);
    while (slots_[s] >= 0) s = (s + 1) & mask_;
    slots_[s] = int32_t(k);
  }
}

int32_t ByteArrayDictionaryBuilder::find_or_insert(const uint8_t* bytes, uint32_t len) {
  uint64_t h = XXH3_64bits(bytes, len);
  size_t s = size_t(h & mask_);
  while (true) {
    int32_t k = slots_[s];
    if (k < 0) break;
    if (hashes_[size_t(k)] == h) {
      int64_t start = offsets_[size_t(k)];
      if (offsets_[size_t(k) + 1] - start == int64_t(len) &&
          (len == 0 || std::memcmp(data_.data() + start, bytes, len) == 0)) {
        return k;
      }
    }
    s = (s + 1) & mask_;
  }
  int64_t cost = fixed_length_ >= 0 ? int64_t(len) : 4 + int64_t(len);
  if (plain_bytes_ + cost > max_bytes_ || hashes_.size() >= size_t(std::numeric_limits<int32_t>::max()))
    return -1;
  int32_t k = int32_t(hashes_.size());
  if (len != 0) std::memcpy(extend(data_, len), bytes, len);
  offsets_.push_back(int64_t(data_.size()));
  hashes_.push_back(h);
  plain_bytes_ += cost;
  slots_[s] = k;
  if (hashes_.size() * 2 > slots_.size()) grow();
  return k;
}

int64_t ByteArrayDictionaryBuilder::put(const ByteArrayView* values, int64_t n, int32_t* indices) {
  for (int64_t i = 0; i < n; ++i) {
    if (fixed_length_ >= 0 && values[i].length != uint32_t(fixed_length_)) {
      throw_invalid("FIXED_LEN_BYTE_ARRAY value of length " + std::to_string(values[i].length) +
                    ", expected " + std::to_string(fixed_length_));
    }
    int32_t k = find_or_insert(values[i].data, values[i].length);
    if (k < 0) return i;
    indices[i] = k;
  }
  return n;
}

int64_t ByteArrayDictionaryBuilder::put(const int32_t* offsets, const uint8_t* data, int64_t n,
                                        int32_t* indices) {
  for (int64_t i = 0; i < n; ++i) {
    int64_t len = int64_t(offsets[i + 1]) - int64_t(offsets[i]);
    if (len < 0) throw_invalid("byte array offsets decrease");
    if (fixed_length_ >= 0 && len != fixed_length_) {
      throw_invalid("FIXED_LEN_BYTE_ARRAY value of length " + std::to_string(len) + ", expected " +
                    std::to_string(fixed_length_));
    }
    int32_t k = find_or_insert(data + offsets[i], uint32_t(len));
    if (k < 0) return i;
    indices[i] = k;
  }
  return n;
}

int64_t ByteArrayDictionaryBuilder::put_fixed(const uint8_t* values, int64_t n, int32_t* indices) {
  if (fixed_length_ < 0) throw_invalid("put_fixed needs a FIXED_LEN_BYTE_ARRAY dictionary");
  for (int64_t i = 0; i < n; ++i) {
    int32_t k = find_or_insert(values + i * fixed_length_, uint32_t(fixed_length_));
    if (k < 0) return i;
    indices[i] = k;
  }
  return n;
}

void ByteArrayDictionaryBuilder::write_dictionary_page(Buffer& out) const {
  if (fixed_length_ >= 0) {
    out.append(data_.data(), data_.size());
    return;
  }
  uint8_t* dst = extend(out, size_t(plain_bytes_));
  for (size_t k = 0; k < hashes_.size(); ++k) {
    uint32_t len = uint32_t(offsets_[k + 1] - offsets_[k]);
    bits::store<uint32_t>(dst, len);
    if (len != 0) std::memcpy(dst + 4, data_.data() + offsets_[k], len);
    dst += 4 + len;
  }
}

}  // namespace parquetry::encoding
