#include "parquetry/table/json_values.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "parquetry/util/bit_util.h"

namespace parquetry {
namespace {

// Days since the epoch -> (year, month, day), proleptic Gregorian (Howard Hinnant's civil algorithm).
void civil_from_days(int64_t z, int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = unsigned(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = int64_t(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
}

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

int64_t units_per_second(ArrowTimeUnit unit) {
  switch (unit) {
    case ArrowTimeUnit::kSecond: return 1;
    case ArrowTimeUnit::kMilli: return 1000;
    case ArrowTimeUnit::kMicro: return 1000000;
    case ArrowTimeUnit::kNano: return 1000000000;
  }
  return 1;
}

std::string fraction(int64_t sub, ArrowTimeUnit unit, bool trim) {
  if (unit == ArrowTimeUnit::kSecond || (trim && sub == 0)) return "";
  int digits = unit == ArrowTimeUnit::kMilli ? 3 : unit == ArrowTimeUnit::kMicro ? 6 : 9;
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, ".%0*lld", digits, static_cast<long long>(sub));
  std::string text = buffer;
  if (trim) {
    while (text.back() == '0') text.pop_back();
  }
  return text;
}

std::string time_of_day(int64_t value, ArrowTimeUnit unit, bool trim) {
  const int64_t per_second = units_per_second(unit);
  int64_t seconds = floor_div(value, per_second);
  int64_t sub = value - seconds * per_second;
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%02lld:%02lld:%02lld", static_cast<long long>(seconds / 3600),
                static_cast<long long>((seconds / 60) % 60), static_cast<long long>(seconds % 60));
  return buffer + fraction(sub, unit, trim);
}

std::string timestamp_text(int64_t value, ArrowTimeUnit unit, bool utc, bool sql) {
  const int64_t per_second = units_per_second(unit);
  int64_t seconds = floor_div(value, per_second);
  int64_t sub = value - seconds * per_second;
  int64_t days = floor_div(seconds, 86400);
  int64_t second_of_day = seconds - days * 86400;
  std::string text = date_to_string(days);
  text += sql ? ' ' : 'T';
  text += time_of_day(second_of_day * per_second + sub, unit, sql);
  if (!sql && utc) text += 'Z';
  return text;
}

std::string base64(const uint8_t* data, size_t size) {
  static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < size; i += 3) {
    uint32_t v = uint32_t(data[i]) << 16 | uint32_t(data[i + 1]) << 8 | data[i + 2];
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (i < size) {
    uint32_t v = uint32_t(data[i]) << 16 | (i + 1 < size ? uint32_t(data[i + 1]) << 8 : 0);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < size ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string escaped(const uint8_t* data, size_t size) {
  std::string out;
  for (size_t i = 0; i < size; ++i) {
    uint8_t c = data[i];
    // DuckDB's BLOB text: printable ASCII except quotes stays, the rest is \xNN.
    if (c >= 32 && c < 127 && c != '"' && c != '\'') {
      out += char(c);
    } else {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02X", c);
      out += buffer;
    }
  }
  return out;
}

std::string uuid_text(const uint8_t* b) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
                b[15]);
  return buffer;
}

double half_to_double(uint16_t h) {
  const int exponent = (h >> 10) & 0x1F;
  const int mantissa = h & 0x3FF;
  double value;
  if (exponent == 0) {
    value = std::ldexp(mantissa, -24);
  } else if (exponent == 31) {
    value = mantissa == 0 ? INFINITY : NAN;
  } else {
    value = std::ldexp(mantissa + 1024, exponent - 25);
  }
  return (h & 0x8000) ? -value : value;
}

void write_double(JsonWriter& out, double value) {
  if (std::isnan(value)) {
    out.string("NaN");
  } else if (std::isinf(value)) {
    out.string(value > 0 ? "Infinity" : "-Infinity");
  } else {
    out.number(value);
  }
}

template <typename T>
T value_at(const ArrayData& array, int64_t row) {
  return bits::load<T>(array.buffers[1].data + (array.offset + row) * int64_t(sizeof(T)));
}

}  // namespace

std::string date_to_string(int64_t days) {
  int64_t year;
  unsigned month, day;
  civil_from_days(days, year, month, day);
  char buffer[48];
  if (year <= 0) {
    std::snprintf(buffer, sizeof buffer, "%04lld-%02u-%02u (BC)", static_cast<long long>(1 - year), month,
                  day);
  } else {
    std::snprintf(buffer, sizeof buffer, "%04lld-%02u-%02u", static_cast<long long>(year), month, day);
  }
  return buffer;
}

std::string decimal_to_string(const uint8_t* bytes, int width, int32_t scale) {
  // Magnitude in 32-bit limbs (little-endian), then repeated division by 10.
  uint32_t limbs[8] = {};
  std::memcpy(limbs, bytes, size_t(width));
  const int count = width / 4;
  const bool negative = (limbs[count - 1] & 0x80000000u) != 0;
  if (negative) {
    uint64_t carry = 1;
    for (int i = 0; i < count; ++i) {
      uint64_t v = uint64_t(~limbs[i]) + carry;
      limbs[i] = uint32_t(v);
      carry = v >> 32;
    }
  }
  std::string digits;
  bool nonzero = true;
  while (nonzero) {
    uint64_t remainder = 0;
    nonzero = false;
    for (int i = count - 1; i >= 0; --i) {
      uint64_t current = (remainder << 32) | limbs[i];
      limbs[i] = uint32_t(current / 10);
      remainder = current % 10;
      nonzero |= limbs[i] != 0;
    }
    digits += char('0' + remainder);
  }
  while (int32_t(digits.size()) <= scale) digits += '0';
  std::string out = negative ? "-" : "";
  for (size_t i = digits.size(); i-- > 0;) {
    out += digits[i];
    if (scale > 0 && i == size_t(scale)) out += '.';
  }
  return out;
}

void write_json_value(JsonWriter& out, const ArrayData& array, int64_t row, const JsonValueStyle& style) {
  const DataType& type = *array.type;
  if (type.id == TypeId::kNull || !array.is_valid(row)) {
    out.null();
    return;
  }
  const int64_t index = array.offset + row;
  switch (type.id) {
    case TypeId::kNull: out.null(); return;
    case TypeId::kBool: out.boolean(bits::get_bit(array.buffers[1].data, index)); return;
    case TypeId::kInt8: out.int64(value_at<int8_t>(array, row)); return;
    case TypeId::kInt16: out.int64(value_at<int16_t>(array, row)); return;
    case TypeId::kInt32: out.int64(value_at<int32_t>(array, row)); return;
    case TypeId::kUInt8: out.int64(value_at<uint8_t>(array, row)); return;
    case TypeId::kUInt16: out.int64(value_at<uint16_t>(array, row)); return;
    case TypeId::kUInt32: out.int64(value_at<uint32_t>(array, row)); return;
    case TypeId::kInt64:
      if (style.int64_as_string) {
        out.string(std::to_string(value_at<int64_t>(array, row)));
      } else {
        out.int64(value_at<int64_t>(array, row));
      }
      return;
    case TypeId::kUInt64:
      if (style.int64_as_string) {
        out.string(std::to_string(value_at<uint64_t>(array, row)));
      } else {
        out.uint64(value_at<uint64_t>(array, row));
      }
      return;
    case TypeId::kFloat16: write_double(out, half_to_double(value_at<uint16_t>(array, row))); return;
    case TypeId::kFloat32: write_double(out, double(value_at<float>(array, row))); return;
    case TypeId::kFloat64: write_double(out, value_at<double>(array, row)); return;
    case TypeId::kDate32: out.string(date_to_string(value_at<int32_t>(array, row))); return;
    case TypeId::kTime32:
      out.string(time_of_day(value_at<int32_t>(array, row), type.unit, style.sql_timestamps));
      return;
    case TypeId::kTime64:
      out.string(time_of_day(value_at<int64_t>(array, row), type.unit, style.sql_timestamps));
      return;
    case TypeId::kTimestamp:
      out.string(timestamp_text(value_at<int64_t>(array, row), type.unit, !type.timezone.empty(),
                                style.sql_timestamps));
      return;
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      const int width = type.id == TypeId::kDecimal128 ? 16 : 32;
      out.string(decimal_to_string(array.buffers[1].data + index * width, width, type.scale));
      return;
    }
    case TypeId::kFixedSizeBinary: {
      const uint8_t* bytes = array.buffers[1].data + index * type.byte_width;
      if (type.extension_name == "arrow.uuid" && type.byte_width == 16) {
        out.string(uuid_text(bytes));
      } else if (style.escaped_binary) {
        out.string(escaped(bytes, size_t(type.byte_width)));
      } else {
        out.string(base64(bytes, size_t(type.byte_width)));
      }
      return;
    }
    case TypeId::kBinary:
    case TypeId::kString:
    case TypeId::kLargeBinary:
    case TypeId::kLargeString: {
      const bool large = type.id == TypeId::kLargeBinary || type.id == TypeId::kLargeString;
      int64_t begin, end;
      if (large) {
        begin = array.buffers[1].as<int64_t>()[index];
        end = array.buffers[1].as<int64_t>()[index + 1];
      } else {
        begin = array.buffers[1].as<int32_t>()[index];
        end = array.buffers[1].as<int32_t>()[index + 1];
      }
      const uint8_t* bytes = array.buffers[2].data + begin;
      const size_t size = size_t(end - begin);
      if (type.id == TypeId::kString || type.id == TypeId::kLargeString) {
        out.string(std::string_view(reinterpret_cast<const char*>(bytes), size));
      } else if (style.escaped_binary) {
        out.string(escaped(bytes, size));
      } else {
        out.string(base64(bytes, size));
      }
      return;
    }
    case TypeId::kBinaryView:
    case TypeId::kStringView: {
      const uint8_t* view = array.buffers[1].data + index * 16;
      const int32_t size = bits::load<int32_t>(view);
      const uint8_t* bytes = size <= 12 ? view + 4
                                        : array.buffers[2 + size_t(bits::load<int32_t>(view + 8))].data +
                                              bits::load<int32_t>(view + 12);
      if (type.id == TypeId::kStringView) {
        out.string(std::string_view(reinterpret_cast<const char*>(bytes), size_t(size)));
      } else {
        out.string(style.escaped_binary ? escaped(bytes, size_t(size)) : base64(bytes, size_t(size)));
      }
      return;
    }
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kMap: {
      int64_t begin, end;
      if (type.id == TypeId::kLargeList) {
        begin = array.buffers[1].as<int64_t>()[index];
        end = array.buffers[1].as<int64_t>()[index + 1];
      } else {
        begin = array.buffers[1].as<int32_t>()[index];
        end = array.buffers[1].as<int32_t>()[index + 1];
      }
      const ArrayData& child = *array.children[0];
      out.begin_array();
      for (int64_t i = begin; i < end; ++i) write_json_value(out, child, i, style);
      out.end_array();
      return;
    }
    case TypeId::kStruct: {
      out.begin_object();
      for (size_t c = 0; c < array.children.size(); ++c) {
        out.key(type.children[c].name);
        write_json_value(out, *array.children[c], index, style);
      }
      out.end_object();
      return;
    }
    case TypeId::kDictionary: {
      const int32_t key = array.buffers[1].as<int32_t>()[index];
      write_json_value(out, *array.dictionary, key, style);
      return;
    }
  }
}

void write_json_row(JsonWriter& out, const RecordBatch& batch, int64_t row, const JsonValueStyle& style) {
  out.begin_object();
  for (size_t c = 0; c < batch.columns.size(); ++c) {
    out.key(batch.schema->fields[c].name);
    write_json_value(out, *batch.columns[c], row, style);
  }
  out.end_object();
}

}  // namespace parquetry
