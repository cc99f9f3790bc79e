#include "parquetry/table/decode_dictionary.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"
#include "parquetry/util/buffer.h"

namespace parquetry {
namespace {

bool is_32bit_binary(TypeId id) { return id == TypeId::kString || id == TypeId::kBinary; }

// Index of row i to read from: the row's own when valid and in range; 0 for
// a null row (its value is not looked at, but 0 must exist); an invalid
// valid row throws.
inline uint32_t checked_index(int32_t index, uint32_t entries, const uint8_t* validity, int64_t row) {
  const uint32_t k = uint32_t(index);
  if (k < entries) return k;
  if (validity != nullptr && !bits::get_bit(validity, row)) return 0;
  throw_invalid("dictionary index " + std::to_string(index) + " out of range at row " + std::to_string(row) +
                " (" + std::to_string(entries) + " entries)");
}

template <typename T>
void gather_fixed(const T* dictionary, const int32_t* indices, int64_t n, uint32_t entries,
                  const uint8_t* validity, int64_t validity_offset, T* out) {
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t k = uint32_t(indices[i]);
    // One predictable branch a row; the slow path checks and throws.
    out[i] = k < entries ? dictionary[k]
                         : dictionary[checked_index(indices[i], entries, validity, validity_offset + i)];
  }
}

}  // namespace

bool can_decode_dictionary(const DataType& value_type) {
  if (is_32bit_binary(value_type.id)) return true;
  const int32_t width = value_type.fixed_width();
  return width > 0 && !value_type.is_nested() && value_type.id != TypeId::kDictionary;
}

std::shared_ptr<ArrayData> decode_dictionary(const ArrayData& array) {
  if (array.type->id != TypeId::kDictionary || !array.dictionary || !array.type->dictionary_value)
    throw_invalid("decode_dictionary: not a dictionary array");
  const DataType& value_type = *array.type->dictionary_value;
  if (!can_decode_dictionary(value_type))
    throw_invalid("decode_dictionary: cannot decode dictionaries of " + value_type.to_string());
  const ArrayData& dictionary = *array.dictionary;
  const int64_t n = array.length;
  auto out = std::make_shared<ArrayData>();
  out->type = array.type->dictionary_value;
  out->length = n;
  out->null_count = array.null_count;
  const bool has_validity = array.null_count > 0 && !array.buffers.empty() && array.buffers[0];
  if (has_validity) {
    if (array.offset % 8 == 0) {
      BufferRef validity = array.buffers[0];
      validity.data += array.offset / 8;
      validity.size = std::max<int64_t>(0, validity.size - array.offset / 8);
      out->buffers.push_back(validity);
    } else {
      Buffer bitmap(size_t(bits::bytes_for_bits(n)));
      for (int64_t i = 0; i < n; ++i) bits::set_bit_to(bitmap.data(), i, array.is_valid(i));
      out->buffers.push_back(BufferRef::adopt(std::move(bitmap)));
    }
  } else {
    out->buffers.emplace_back();
  }
  const uint8_t* validity = has_validity ? array.buffers[0].data : nullptr;
  const int32_t* indices = array.buffers[1].as<int32_t>() + array.offset;
  // Dictionaries never hold more than int32 entries (the indices are int32).
  const uint32_t entries = uint32_t(std::min<int64_t>(dictionary.length, INT32_MAX));
  if (entries == 0) {
    // Only null rows can point into an empty dictionary.
    if (n - array.null_count != 0) throw_invalid("dictionary index out of range: empty dictionary");
  }
  if (is_32bit_binary(value_type.id)) {
    const int32_t* offsets = dictionary.buffers[1].as<int32_t>() + dictionary.offset;
    const uint8_t* data = dictionary.buffers[2].data;
    Buffer out_offsets(size_t(n + 1) * sizeof(int32_t));
    int32_t* to = out_offsets.as<int32_t>();
    int64_t bytes = 0;
    to[0] = 0;
    for (int64_t i = 0; i < n; ++i) {
      const bool valid = validity == nullptr || bits::get_bit(validity, array.offset + i);
      if (valid) {
        const uint32_t k = checked_index(indices[i], entries, validity, array.offset + i);
        bytes += offsets[k + 1] - offsets[k];
        if (bytes > INT32_MAX) throw_invalid("decode_dictionary: values exceed 2 GiB of string data");
      }
      to[i + 1] = int32_t(bytes);
    }
    Buffer values(static_cast<size_t>(bytes));
    for (int64_t i = 0; i < n; ++i) {
      const int32_t size = to[i + 1] - to[i];
      if (size == 0) continue;
      const int32_t begin = offsets[uint32_t(indices[i])];
      std::memcpy(values.data() + to[i], data + begin, size_t(size));
    }
    out->buffers.push_back(BufferRef::adopt(std::move(out_offsets)));
    out->buffers.push_back(BufferRef::adopt(std::move(values)));
    return out;
  }
  const size_t width = size_t(value_type.fixed_width());
  Buffer values(size_t(n) * width);
  if (entries == 0) {
    if (values.size() > 0) std::memset(values.data(), 0, values.size());
  } else {
    const uint8_t* from = dictionary.buffers[1].data + size_t(dictionary.offset) * width;
    switch (width) {
      case 1: gather_fixed(from, indices, n, entries, validity, array.offset, values.data()); break;
      case 2:
        gather_fixed(reinterpret_cast<const uint16_t*>(from), indices, n, entries, validity, array.offset,
                     values.as<uint16_t>());
        break;
      case 4:
        gather_fixed(reinterpret_cast<const uint32_t*>(from), indices, n, entries, validity, array.offset,
                     values.as<uint32_t>());
        break;
      case 8:
        gather_fixed(reinterpret_cast<const uint64_t*>(from), indices, n, entries, validity, array.offset,
                     values.as<uint64_t>());
        break;
      default:
        for (int64_t i = 0; i < n; ++i) {
          const uint32_t k = checked_index(indices[i], entries, validity, array.offset + i);
          std::memcpy(values.data() + size_t(i) * width, from + size_t(k) * width, width);
        }
    }
    // Null rows read entry 0 or their own entry: zero them, as the reader's arrays have.
    if (validity != nullptr) {
      for (int64_t i = 0; i < n; ++i) {
        if (!bits::get_bit(validity, array.offset + i))
          std::memset(values.data() + size_t(i) * width, 0, width);
      }
    }
  }
  out->buffers.push_back(BufferRef::adopt(std::move(values)));
  return out;
}

}  // namespace parquetry
