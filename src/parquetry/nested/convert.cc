// Physical -> Arrow storage conversions of dense leaf values.
#include <cstring>
#include <string>

#include "parquetry/error.h"
#include "parquetry/nested/assemble.h"
#include "parquetry/util/bit_util.h"

namespace parquetry {
namespace {

constexpr int64_t kJulianDayOfEpoch = 2440588;
constexpr int64_t kNanosPerDay = 86400LL * 1000 * 1000 * 1000;

template <typename From, typename To>
void narrow(ChunkValues& values) {
  Buffer& buffer = *values.values;
  const From* in = buffer.as<From>();
  To* out = buffer.as<To>();  // in place: To is narrower, so writes trail reads
  for (int64_t i = 0; i < values.num_values; ++i) out[i] = To(in[i]);
  buffer.resize(size_t(values.num_values) * sizeof(To));
}

// Writes `width` little-endian bytes of the big-endian two's complement
// `in[0..length)`, sign-extended.
void big_endian_to_decimal(const uint8_t* in, size_t length, uint8_t* out, size_t width, const char* column) {
  const uint8_t sign = (length > 0 && (in[0] & 0x80)) ? 0xFF : 0x00;
  if (length > width) {
    for (size_t i = 0; i < length - width; ++i) {
      if (in[i] != sign)
        throw_corrupt(std::string("decimal value of ") + std::to_string(length) + " bytes overflows " +
                      column);
    }
    in += length - width;
    length = width;
  }
  for (size_t i = 0; i < length; ++i) out[i] = in[length - 1 - i];
  std::memset(out + length, sign, width - length);
}

template <typename From>
void widen_to_decimal(ChunkValues& values, size_t width) {
  Buffer out(size_t(values.num_values) * width);
  const From* in = values.values->as<From>();
  for (int64_t i = 0; i < values.num_values; ++i) {
    int64_t v = int64_t(in[i]);
    std::memcpy(out.data() + size_t(i) * width, &v, 8);
    std::memset(out.data() + size_t(i) * width + 8, v < 0 ? 0xFF : 0x00, width - 8);
  }
  *values.values = std::move(out);
}

}  // namespace

void convert_leaf_values(const ColumnDescriptor& column, const DataType& type, ChunkValues& values) {
  const Type physical = column.physical_type;
  const bool converts = type.id == TypeId::kInt8 || type.id == TypeId::kUInt8 || type.id == TypeId::kInt16 ||
                        type.id == TypeId::kUInt16 || type.id == TypeId::kDecimal128 ||
                        type.id == TypeId::kDecimal256 ||
                        (type.id == TypeId::kTimestamp && physical == Type::INT96);
  if (converts) values.materialize();
  switch (type.id) {
    case TypeId::kInt8:
    case TypeId::kUInt8:
      if (physical == Type::INT32) narrow<int32_t, int8_t>(values);
      return;
    case TypeId::kInt16:
    case TypeId::kUInt16:
      if (physical == Type::INT32) narrow<int32_t, int16_t>(values);
      return;
    case TypeId::kTimestamp:
      if (physical == Type::INT96) {
        Buffer& buffer = *values.values;
        const uint8_t* in = buffer.data();
        Buffer out(size_t(values.num_values) * 8);
        int64_t* result = out.as<int64_t>();
        const int64_t divisor = type.unit == ArrowTimeUnit::kNano    ? 1
                                : type.unit == ArrowTimeUnit::kMicro ? 1000
                                : type.unit == ArrowTimeUnit::kMilli ? 1000000
                                                                     : 1000000000;
        const int64_t units_per_day = kNanosPerDay / divisor;
        for (int64_t i = 0; i < values.num_values; ++i) {
          int64_t nanos_of_day = bits::load<int64_t>(in + i * 12);
          int64_t julian_day = bits::load<int32_t>(in + i * 12 + 8);
          // Unsigned arithmetic: instants outside the int64 range of the unit wrap instead of being
          // undefined.
          result[i] = int64_t(uint64_t(julian_day - kJulianDayOfEpoch) * uint64_t(units_per_day) +
                              uint64_t(nanos_of_day / divisor));
        }
        buffer = std::move(out);
      }
      return;
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      const size_t width = type.id == TypeId::kDecimal128 ? 16 : 32;
      if (physical == Type::INT32) return widen_to_decimal<int32_t>(values, width);
      if (physical == Type::INT64) return widen_to_decimal<int64_t>(values, width);
      Buffer out(size_t(values.num_values) * width);
      const uint8_t* in = values.values->data();
      if (physical == Type::FIXED_LEN_BYTE_ARRAY) {
        const size_t length = size_t(column.type_length);
        for (int64_t i = 0; i < values.num_values; ++i) {
          big_endian_to_decimal(in + size_t(i) * length, length, out.data() + size_t(i) * width, width,
                                column.path.c_str());
        }
      } else if (physical == Type::BYTE_ARRAY) {
        const int32_t* offsets = values.offsets->as<int32_t>();
        for (int64_t i = 0; i < values.num_values; ++i) {
          big_endian_to_decimal(in + offsets[i], size_t(offsets[i + 1] - offsets[i]),
                                out.data() + size_t(i) * width, width, column.path.c_str());
        }
        values.offsets.reset();
      } else {
        throw_corrupt("DECIMAL on " + std::string(type_name(physical)) + " in column " + column.path);
      }
      *values.values = std::move(out);
      return;
    }
    default: return;
  }
}

}  // namespace parquetry
