#include "parquetry/schema/value_text.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "parquetry/util/json_writer.h"

namespace parquetry {
namespace {

constexpr int64_t kSecondsPerDay = 86400;
// Printing a decimal pads to `scale` digits; beyond this a hostile scale
// would only make a huge string of zeros.
constexpr int32_t kMaxPrintableScale = 4096;
// Longest byte-array decimal printed in base 10 (the conversion is quadratic).
constexpr size_t kMaxDecimalBytes = 256;

template <typename T>
T load_le(std::string_view bytes, size_t offset = 0) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;  // parquetry targets little-endian machines only
}

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t units_per_second(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::MILLIS: return 1000;
    case TimeUnit::MICROS: return 1000000;
    case TimeUnit::NANOS: return 1000000000;
  }
  return 0;
}

int fraction_digits(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::MILLIS: return 3;
    case TimeUnit::MICROS: return 6;
    case TimeUnit::NANOS: return 9;
  }
  return 0;
}

void append_padded(std::string& out, uint64_t value, int width) {
  std::string digits = std::to_string(value);
  if (static_cast<int>(digits.size()) < width) out.append(static_cast<size_t>(width) - digits.size(), '0');
  out += digits;
}

// Appends "HH:MM:SS[.fraction]" for 0 <= units < units_per_day.
void append_time_of_day(std::string& out, int64_t units, int64_t per_second, int digits) {
  int64_t seconds = units / per_second;
  int64_t fraction = units % per_second;
  append_padded(out, static_cast<uint64_t>(seconds / 3600), 2);
  out += ':';
  append_padded(out, static_cast<uint64_t>(seconds / 60 % 60), 2);
  out += ':';
  append_padded(out, static_cast<uint64_t>(seconds % 60), 2);
  if (fraction != 0) {
    out += '.';
    append_padded(out, static_cast<uint64_t>(fraction), digits);
  }
}

DisplayValue text_value(std::string text, DisplayValue::Kind kind = DisplayValue::Kind::kText) {
  DisplayValue value;
  value.kind = kind;
  value.text = std::move(text);
  return value;
}

DisplayValue invalid(const ColumnDescriptor& column, std::string_view bytes) {
  return text_value("invalid " + std::string(type_name(column.physical_type)) + " value of " +
                        std::to_string(bytes.size()) + " bytes: " + hex_bytes(bytes),
                    DisplayValue::Kind::kInvalid);
}

DisplayValue int_value(int64_t v) {
  DisplayValue value;
  value.kind = DisplayValue::Kind::kInt;
  value.int_value = v;
  return value;
}

DisplayValue uint_value(uint64_t v) {
  DisplayValue value;
  value.kind = DisplayValue::Kind::kUInt;
  value.uint_value = v;
  return value;
}

DisplayValue double_value(double v) {
  DisplayValue value;
  value.kind = DisplayValue::Kind::kDouble;
  value.double_value = v;
  return value;
}

bool printable_utf8(std::string_view bytes) {
  for (unsigned char c : bytes) {
    if (c < 0x20 || c == 0x7F) return false;
  }
  return JsonWriter::is_valid_utf8(bytes);
}

// Integer-backed values (INT32 / INT64) through their annotation.
DisplayValue annotated_integer(const ColumnDescriptor& column, int64_t signed_value,
                               uint64_t unsigned_value) {
  const std::optional<LogicalType>& logical = column.logical_type;
  if (!logical) return int_value(signed_value);
  if (const auto* integer = logical->get_if<IntType>()) {
    return integer->is_signed ? int_value(signed_value) : uint_value(unsigned_value);
  }
  if (logical->is<DateType>()) return text_value(format_date(signed_value));
  if (const auto* decimal = logical->get_if<DecimalType>()) {
    if (decimal->scale > kMaxPrintableScale) return int_value(signed_value);
    return text_value(format_decimal(signed_value, decimal->scale));
  }
  if (const auto* time = logical->get_if<TimeType>()) {
    if (units_per_second(time->unit) == 0) return int_value(signed_value);
    return text_value(format_time_of_day(signed_value, time->unit));
  }
  if (const auto* timestamp = logical->get_if<TimestampType>()) {
    if (units_per_second(timestamp->unit) == 0) return int_value(signed_value);
    return text_value(format_timestamp(signed_value, timestamp->unit, timestamp->is_adjusted_to_utc));
  }
  return int_value(signed_value);
}

DisplayValue binary_value(const ColumnDescriptor& column, std::string_view bytes) {
  const std::optional<LogicalType>& logical = column.logical_type;
  if (logical) {
    if (logical->is<StringType>() || logical->is<EnumType>() || logical->is<JsonType>()) {
      return text_value(JsonWriter::is_valid_utf8(bytes) ? std::string(bytes) : hex_bytes(bytes));
    }
    if (const auto* decimal = logical->get_if<DecimalType>()) {
      if (bytes.empty() || bytes.size() > kMaxDecimalBytes || decimal->scale > kMaxPrintableScale) {
        return text_value(hex_bytes(bytes));
      }
      return text_value(format_decimal_bytes(bytes, decimal->scale));
    }
    if (logical->is<UuidType>() && bytes.size() == 16) {
      std::string hex = hex_bytes(bytes).substr(2);
      return text_value(hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
                        hex.substr(16, 4) + "-" + hex.substr(20));
    }
    if (logical->is<Float16Type>()) {
      if (bytes.size() != 2) return invalid(column, bytes);
      return double_value(half_to_double(load_le<uint16_t>(bytes)));
    }
    if (logical->is<BsonType>() || logical->is<GeometryType>() || logical->is<GeographyType>()) {
      return text_value(hex_bytes(bytes));
    }
  }
  if (column.converted_type == ConvertedType::INTERVAL && bytes.size() == 12) {
    return text_value("months=" + std::to_string(load_le<uint32_t>(bytes, 0)) +
                      " days=" + std::to_string(load_le<uint32_t>(bytes, 4)) +
                      " millis=" + std::to_string(load_le<uint32_t>(bytes, 8)));
  }
  // Unannotated bytes: text when they read as text, else hex.
  if (column.physical_type == Type::BYTE_ARRAY && printable_utf8(bytes))
    return text_value(std::string(bytes));
  return text_value(hex_bytes(bytes));
}

}  // namespace

std::string DisplayValue::to_string() const {
  switch (kind) {
    case Kind::kBool: return bool_value ? "true" : "false";
    case Kind::kInt: return std::to_string(int_value);
    case Kind::kUInt: return std::to_string(uint_value);
    case Kind::kDouble: {
      if (std::isnan(double_value)) return std::signbit(double_value) ? "-NaN" : "NaN";
      if (std::isinf(double_value)) return double_value > 0 ? "Infinity" : "-Infinity";
      std::string out;
      JsonWriter::append_double(out, double_value);
      return out;
    }
    case Kind::kText:
    case Kind::kInvalid: return text;
  }
  return text;
}

DisplayValue decode_plain_value(const ColumnDescriptor& column, std::string_view bytes) {
  switch (column.physical_type) {
    case Type::BOOLEAN: {
      if (bytes.size() != 1) return invalid(column, bytes);
      DisplayValue value;
      value.kind = DisplayValue::Kind::kBool;
      value.bool_value = (bytes[0] & 1) != 0;
      return value;
    }
    case Type::INT32: {
      if (bytes.size() != 4) return invalid(column, bytes);
      auto raw = load_le<uint32_t>(bytes);
      return annotated_integer(column, static_cast<int32_t>(raw), raw);
    }
    case Type::INT64: {
      if (bytes.size() != 8) return invalid(column, bytes);
      auto raw = load_le<uint64_t>(bytes);
      return annotated_integer(column, static_cast<int64_t>(raw), raw);
    }
    case Type::INT96: {
      if (bytes.size() != 12) return invalid(column, bytes);
      // Nanoseconds within the day, then the Julian day number.
      auto nanos = load_le<int64_t>(bytes, 0);
      auto julian_day = load_le<uint32_t>(bytes, 8);
      constexpr int64_t kNanosPerDay = kSecondsPerDay * 1000000000;
      if (nanos < 0 || nanos >= kNanosPerDay) return text_value(hex_bytes(bytes));
      std::string text = format_date(int64_t{julian_day} - 2440588) + "T";
      append_time_of_day(text, nanos, 1000000000, 9);
      return text_value(text);
    }
    case Type::FLOAT: {
      if (bytes.size() != 4) return invalid(column, bytes);
      return double_value(load_le<float>(bytes));
    }
    case Type::DOUBLE: {
      if (bytes.size() != 8) return invalid(column, bytes);
      return double_value(load_le<double>(bytes));
    }
    case Type::BYTE_ARRAY: return binary_value(column, bytes);
    case Type::FIXED_LEN_BYTE_ARRAY: return binary_value(column, bytes);
  }
  return invalid(column, bytes);
}

std::string hex_bytes(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "0x";
  out.reserve(2 + 2 * bytes.size());
  for (unsigned char c : bytes) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

std::string format_date(int64_t days) {
  // Civil calendar from a day count, working in 400-year eras that start on
  // 0000-03-01 so that the leap day falls at the end of each year.
  int64_t shifted = days + 719468;  // days from 0000-03-01 to 1970-01-01
  int64_t era = floor_div(shifted, 146097);
  int64_t day_of_era = shifted - era * 146097;
  int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  int64_t month_from_march = (5 * day_of_year + 2) / 153;
  int64_t day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
  int64_t month = month_from_march < 10 ? month_from_march + 3 : month_from_march - 9;
  int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);

  std::string out;
  if (year < 0) out += '-';
  append_padded(out, static_cast<uint64_t>(year < 0 ? -year : year), 4);
  out += '-';
  append_padded(out, static_cast<uint64_t>(month), 2);
  out += '-';
  append_padded(out, static_cast<uint64_t>(day), 2);
  return out;
}

std::string format_timestamp(int64_t value, TimeUnit unit, bool utc) {
  int64_t per_second = units_per_second(unit);
  if (per_second == 0) return std::to_string(value);
  int64_t per_day = per_second * kSecondsPerDay;
  int64_t days = floor_div(value, per_day);
  int64_t within_day = value % per_day;  // not value - days * per_day: that can overflow
  if (within_day < 0) within_day += per_day;
  std::string out = format_date(days);
  out += 'T';
  append_time_of_day(out, within_day, per_second, fraction_digits(unit));
  if (utc) out += 'Z';
  return out;
}

std::string format_time_of_day(int64_t value, TimeUnit unit) {
  int64_t per_second = units_per_second(unit);
  if (per_second == 0 || value < 0 || value > per_second * kSecondsPerDay) return std::to_string(value);
  std::string out;
  if (value == per_second * kSecondsPerDay) return "24:00:00";  // allowed as an end-of-day bound
  append_time_of_day(out, value, per_second, fraction_digits(unit));
  return out;
}

namespace {

// Places the decimal point `scale` digits from the right of `digits`.
std::string place_point(bool negative, std::string digits, int32_t scale) {
  if (scale > 0) {
    if (digits.size() <= static_cast<size_t>(scale)) {
      digits.insert(0, static_cast<size_t>(scale) + 1 - digits.size(), '0');
    }
    digits.insert(digits.size() - static_cast<size_t>(scale), 1, '.');
  }
  return negative ? "-" + digits : digits;
}

}  // namespace

std::string format_decimal(int64_t unscaled, int32_t scale) {
  bool negative = unscaled < 0;
  uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(unscaled) : static_cast<uint64_t>(unscaled);
  return place_point(negative, std::to_string(magnitude), scale);
}

std::string format_decimal_bytes(std::string_view big_endian, int32_t scale) {
  if (big_endian.empty()) return place_point(false, "0", scale);
  std::vector<uint8_t> magnitude(big_endian.begin(), big_endian.end());
  bool negative = (magnitude[0] & 0x80) != 0;
  if (negative) {
    // Two's complement negation: invert, then add one from the right.
    for (uint8_t& b : magnitude) b = static_cast<uint8_t>(~b);
    for (size_t i = magnitude.size(); i-- > 0;) {
      if (++magnitude[i] != 0) break;
    }
  }
  // Repeated division by ten, most significant byte first.
  std::string digits;
  size_t start = 0;
  while (start < magnitude.size() && magnitude[start] == 0) ++start;
  while (start < magnitude.size()) {
    unsigned remainder = 0;
    for (size_t i = start; i < magnitude.size(); ++i) {
      unsigned current = remainder * 256 + magnitude[i];
      magnitude[i] = static_cast<uint8_t>(current / 10);
      remainder = current % 10;
    }
    digits += static_cast<char>('0' + remainder);
    while (start < magnitude.size() && magnitude[start] == 0) ++start;
  }
  if (digits.empty()) digits = "0";
  std::string ordered(digits.rbegin(), digits.rend());
  return place_point(negative, std::move(ordered), scale);
}

double half_to_double(uint16_t bits) {
  int sign = (bits >> 15) & 1;
  int exponent = (bits >> 10) & 0x1F;
  int mantissa = bits & 0x3FF;
  double value;
  if (exponent == 0) {
    value = std::ldexp(static_cast<double>(mantissa), -24);  // zero or subnormal
  } else if (exponent == 31) {
    value = mantissa == 0 ? INFINITY : NAN;
  } else {
    value = std::ldexp(static_cast<double>(mantissa + 1024), exponent - 25);
  }
  return sign ? -value : value;
}

}  // namespace parquetry
