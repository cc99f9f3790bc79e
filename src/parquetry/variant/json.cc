#include "parquetry/variant_json.h"

#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "parquetry/error.h"

namespace parquetry {

namespace {

// ------------------------------------------------------------ Variant -> JSON

// True when any byte of `w` is below 0x20, '"' or '\\' (SWAR: a byte b has
// its high bit set in (b - k) & ~b exactly when b < k, for k <= 0x80; a byte
// equal to c becomes zero after xor with c).
inline bool needs_escape(uint64_t w) {
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  auto has_zero = [](uint64_t x) { return ((x - kOnes) & ~x & kHigh) != 0; };
  const bool control = ((w - kOnes * 0x20) & ~w & kHigh) != 0;
  return control || has_zero(w ^ (kOnes * '"')) || has_zero(w ^ (kOnes * '\\'));
}

void append_escaped(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  const char* p = s.data();
  const size_t n = s.size();
  uint64_t high_bits = 0;  // any byte >= 0x80: the text needs a full UTF-8 check
  size_t run = 0;          // start of the pending run of bytes that need no escape
  size_t i = 0;
  while (i < n) {
    if (i + 8 <= n) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      high_bits |= w & 0x8080808080808080ull;
      if (!needs_escape(w)) {
        i += 8;
        continue;
      }
    }
    // Byte at a time through this word (or the tail).
    const size_t stop = std::min(n, i + 8);
    for (; i < stop; ++i) {
      const unsigned char c = static_cast<unsigned char>(p[i]);
      high_bits |= c & 0x80;
      if (c >= 0x20 && c != '"' && c != '\\') continue;
      out.append(p + run, i - run);
      run = i + 1;
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default: {
          const char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
          out.append(esc, 6);
        }
      }
    }
  }
  out.append(p + run, n - run);
  out.push_back('"');
  if (high_bits != 0 && !simdjson::validate_utf8(p, n)) throw_corrupt("variant string is not valid UTF-8");
}

void append_base64(std::string& out, std::span<const uint8_t> bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  out.push_back('"');
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = uint32_t(bytes[i]) << 16 | uint32_t(bytes[i + 1]) << 8 | bytes[i + 2];
    const char quad[4] = {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], kAlphabet[(v >> 6) & 63],
                          kAlphabet[v & 63]};
    out.append(quad, 4);
  }
  if (i + 1 == bytes.size()) {
    const uint32_t v = uint32_t(bytes[i]) << 16;
    const char quad[4] = {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], '=', '='};
    out.append(quad, 4);
  } else if (i + 2 == bytes.size()) {
    const uint32_t v = uint32_t(bytes[i]) << 16 | uint32_t(bytes[i + 1]) << 8;
    const char quad[4] = {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], kAlphabet[(v >> 6) & 63], '='};
    out.append(quad, 4);
  }
  out.push_back('"');
}

template <typename T>
void append_number(std::string& out, T value) {
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof(buf), value);
  out.append(buf, result.ptr);
}

template <typename F>
void append_float(std::string& out, F value) {
  if (std::isnan(value)) {
    out += "\"NaN\"";
  } else if (std::isinf(value)) {
    out += value > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  } else {
    append_number(out, value);
  }
}

void append_decimal(std::string& out, VariantDecimal d) {
  // Up to 39 digits for the int128 range.
  unsigned __int128 magnitude = d.unscaled < 0 ? -static_cast<unsigned __int128>(d.unscaled)
                                               : static_cast<unsigned __int128>(d.unscaled);
  char digits[48];
  int n = 0;
  do {
    digits[n++] = char('0' + int(magnitude % 10));
    magnitude /= 10;
  } while (magnitude != 0);
  // Pad so that at least one digit precedes the point.
  while (n <= d.scale) digits[n++] = '0';
  if (d.unscaled < 0) out.push_back('-');
  for (int i = n - 1; i >= 0; --i) {
    out.push_back(digits[i]);
    if (i == d.scale && i != 0) out.push_back('.');
  }
}

// Days since 1970-01-01 -> proleptic Gregorian year/month/day (era-based
// conversion on 400-year cycles of 146097 days).
void civil_from_days(int64_t days, int64_t& year, unsigned& month, unsigned& day) {
  days += 719468;  // shift the epoch to 0000-03-01
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const unsigned day_of_era = unsigned(days - era * 146097);
  const unsigned year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const unsigned day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const unsigned mp = (5 * day_of_year + 2) / 153;  // month counted from March
  day = day_of_year - (153 * mp + 2) / 5 + 1;
  month = mp < 10 ? mp + 3 : mp - 9;
  year = int64_t(year_of_era) + era * 400 + (month <= 2 ? 1 : 0);
}

void append_padded(std::string& out, uint64_t value, int width) {
  char buf[24];
  int n = 0;
  do {
    buf[n++] = char('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (n < width) buf[n++] = '0';
  while (n > 0) out.push_back(buf[--n]);
}

void append_date_text(std::string& out, int64_t days) {
  int64_t year;
  unsigned month, day;
  civil_from_days(days, year, month, day);
  if (year < 0) {
    out.push_back('-');
    append_padded(out, uint64_t(-year), 4);
  } else {
    if (year > 9999) out.push_back('+');
    append_padded(out, uint64_t(year), 4);
  }
  out.push_back('-');
  append_padded(out, month, 2);
  out.push_back('-');
  append_padded(out, day, 2);
}

// "HH:MM:SS.fff..." for a non-negative count of `units_per_second` since midnight.
void append_time_of_day(std::string& out, uint64_t ticks, uint64_t units_per_second, int fraction_digits) {
  const uint64_t seconds = ticks / units_per_second;
  append_padded(out, seconds / 3600, 2);
  out.push_back(':');
  append_padded(out, (seconds / 60) % 60, 2);
  out.push_back(':');
  append_padded(out, seconds % 60, 2);
  out.push_back('.');
  append_padded(out, ticks % units_per_second, fraction_digits);
}

void append_timestamp(std::string& out, int64_t ticks, int64_t units_per_second, int fraction_digits,
                      bool utc) {
  const int64_t units_per_day = units_per_second * 86400;
  int64_t days = ticks / units_per_day;
  int64_t rest = ticks % units_per_day;
  if (rest < 0) {
    rest += units_per_day;
    --days;
  }
  out.push_back('"');
  append_date_text(out, days);
  out.push_back('T');
  append_time_of_day(out, uint64_t(rest), uint64_t(units_per_second), fraction_digits);
  if (utc) out.push_back('Z');
  out.push_back('"');
}

void append_uuid(std::string& out, std::span<const uint8_t, 16> b) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHex[b[i] >> 4]);
    out.push_back(kHex[b[i] & 15]);
  }
  out.push_back('"');
}

void to_json(const Variant& v, std::string& out, int32_t depth_left) {
  switch (v.type()) {
    case VariantValueType::kNull: out += "null"; return;
    case VariantValueType::kBoolean: out += v.get_boolean() ? "true" : "false"; return;
    case VariantValueType::kInt8:
    case VariantValueType::kInt16:
    case VariantValueType::kInt32:
    case VariantValueType::kInt64: append_number(out, v.get_int()); return;
    case VariantValueType::kDouble: append_float(out, v.get_double()); return;
    case VariantValueType::kFloat: append_float(out, v.get_float()); return;
    case VariantValueType::kDecimal4:
    case VariantValueType::kDecimal8:
    case VariantValueType::kDecimal16: append_decimal(out, v.get_decimal()); return;
    case VariantValueType::kDate:
      out.push_back('"');
      append_date_text(out, v.get_date());
      out.push_back('"');
      return;
    case VariantValueType::kTimestampMicros:
      append_timestamp(out, v.get_timestamp_micros(), 1'000'000, 6, true);
      return;
    case VariantValueType::kTimestampNtzMicros:
      append_timestamp(out, v.get_timestamp_ntz_micros(), 1'000'000, 6, false);
      return;
    case VariantValueType::kTimestampNanos:
      append_timestamp(out, v.get_timestamp_nanos(), 1'000'000'000, 9, true);
      return;
    case VariantValueType::kTimestampNtzNanos:
      append_timestamp(out, v.get_timestamp_ntz_nanos(), 1'000'000'000, 9, false);
      return;
    case VariantValueType::kTimeNtzMicros: {
      const int64_t micros = v.get_time_ntz_micros();
      if (micros < 0 || micros >= 86'400'000'000LL) {
        throw_corrupt("variant time " + std::to_string(micros) + " is outside one day");
      }
      out.push_back('"');
      append_time_of_day(out, uint64_t(micros), 1'000'000, 6);
      out.push_back('"');
      return;
    }
    case VariantValueType::kBinary: append_base64(out, v.get_binary()); return;
    case VariantValueType::kString: append_escaped(out, v.get_string()); return;
    case VariantValueType::kUuid: append_uuid(out, v.get_uuid()); return;
    case VariantValueType::kObject: {
      if (depth_left <= 0) throw_limit("variant nesting is deeper than the limit");
      const VariantObject object(v);
      out.push_back('{');
      for (uint32_t i = 0; i < object.size(); ++i) {
        if (i != 0) out.push_back(',');
        append_escaped(out, object.key(i));
        out.push_back(':');
        to_json(object.value(i), out, depth_left - 1);
      }
      out.push_back('}');
      return;
    }
    case VariantValueType::kArray: {
      if (depth_left <= 0) throw_limit("variant nesting is deeper than the limit");
      const VariantArray array(v);
      out.push_back('[');
      for (uint32_t i = 0; i < array.size(); ++i) {
        if (i != 0) out.push_back(',');
        to_json(array[i], out, depth_left - 1);
      }
      out.push_back(']');
      return;
    }
  }
}

// ------------------------------------------------------------ JSON -> Variant

[[noreturn]] void throw_json(simdjson::error_code error) {
  throw_corrupt(std::string("invalid JSON: ") + simdjson::error_message(error));
}

template <typename T>
T check(simdjson::simdjson_result<T> result) {
  T value;
  if (auto error = std::move(result).get(value)) throw_json(error);
  return value;
}

// Some simdjson accessors return the value directly rather than a result.
inline std::string_view check(std::string_view value) { return value; }

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Appends a JSON number token following the rules in variant_json.h.
void append_json_number(std::string_view token, VariantBuilder& builder) {
  while (!token.empty() &&
         (token.back() == ' ' || token.back() == '\t' || token.back() == '\n' || token.back() == '\r')) {
    token.remove_suffix(1);
  }
  const char* p = token.data();
  const char* end = p + token.size();
  const bool negative = p != end && *p == '-';
  if (negative) ++p;
  const char* int_begin = p;
  uint64_t small = 0;  // the integer part while it has at most 18 digits
  while (p != end && is_digit(*p)) {
    small = small * 10 + uint64_t(*p - '0');
    ++p;
  }
  const char* int_end = p;
  if (p == end && int_end != int_begin && int_end - int_begin <= 18 &&
      (*int_begin != '0' || int_end - int_begin == 1)) {
    // Common case: a plain integer that fits in int64 without overflow checks.
    builder.append_int(negative ? -int64_t(small) : int64_t(small));
    return;
  }
  const char* frac_begin = p;
  const char* frac_end = p;
  bool has_fraction = false, has_exponent = false;
  if (p != end && *p == '.') {
    has_fraction = true;
    frac_begin = ++p;
    while (p != end && is_digit(*p)) ++p;
    frac_end = p;
    if (frac_begin == frac_end) throw_corrupt("invalid JSON number: " + std::string(token));
  }
  int64_t exponent = 0;
  if (p != end && (*p == 'e' || *p == 'E')) {
    has_exponent = true;
    ++p;
    bool exp_negative = false;
    if (p != end && (*p == '+' || *p == '-')) exp_negative = *p++ == '-';
    if (p == end || !is_digit(*p)) throw_corrupt("invalid JSON number: " + std::string(token));
    for (; p != end && is_digit(*p); ++p) {
      if (exponent < 1'000'000)
        exponent = exponent * 10 + (*p - '0');  // saturate: beyond this it is a double
    }
    if (exp_negative) exponent = -exponent;
  }
  if (p != end || int_begin == int_end || (int_end - int_begin > 1 && *int_begin == '0')) {
    throw_corrupt("invalid JSON number: " + std::string(token));
  }

  // The significant digits, without leading zeros, as one string of at most 38 + slack.
  char digits[80];
  int ndigits = 0;
  bool too_many = false;
  auto push_digits = [&](const char* b, const char* e) {
    for (; b != e; ++b) {
      if (ndigits == 0 && *b == '0') continue;
      if (ndigits == int(sizeof(digits))) {
        too_many = true;
        return;
      }
      digits[ndigits++] = *b;
    }
  };
  push_digits(int_begin, int_end);
  const int64_t fraction_length = frac_end - frac_begin;
  push_digits(frac_begin, frac_end);
  int64_t scale = fraction_length - exponent;

  if (!too_many) {
    if (ndigits == 0) scale = std::max<int64_t>(0, std::min<int64_t>(scale, 38));  // the value zero
    // Fold a negative scale into the digits (1.5e3 -> 1500).
    if (scale < 0 && ndigits > 0 && ndigits - scale <= 38) {
      for (; scale < 0 && ndigits < 38; ++scale) digits[ndigits++] = '0';
    }
    // Drop trailing zeros only when needed to fit.
    while ((scale > 38 || ndigits > 38) && scale > 0 && ndigits > 0 && digits[ndigits - 1] == '0') {
      --ndigits;
      --scale;
    }
    if (scale >= 0 && scale <= 38 && ndigits <= 38) {
      unsigned __int128 magnitude = 0;
      for (int i = 0; i < ndigits; ++i) magnitude = magnitude * 10 + unsigned(digits[i] - '0');
      if (!has_fraction && !has_exponent) {
        // Integer literal: narrowest int when it fits in int64.
        const unsigned __int128 limit =
            negative ? (unsigned __int128)(uint64_t(1) << 63) : (unsigned __int128)(uint64_t(INT64_MAX));
        if (magnitude <= limit) {
          const int64_t v = negative ? int64_t(0 - uint64_t(magnitude)) : int64_t(uint64_t(magnitude));
          builder.append_int(v);
          return;
        }
      }
      VariantDecimal d;
      d.unscaled = negative ? -static_cast<__int128>(magnitude) : static_cast<__int128>(magnitude);
      d.scale = uint8_t(scale);
      builder.append_decimal(d);
      return;
    }
  }
  double value;
  const auto result = std::from_chars(token.data(), token.data() + token.size(), value);
  if (result.ec == std::errc::result_out_of_range) {
    // Overflow or underflow: decide from the exponent's sign.
    value = exponent > 0 || (!has_exponent) ? std::numeric_limits<double>::infinity() : 0.0;
    if (negative) value = -value;
  } else if (result.ec != std::errc() || result.ptr != token.data() + token.size()) {
    throw_corrupt("invalid JSON number: " + std::string(token));
  }
  builder.append_double(value);
}

template <typename Value>
void from_json(Value& value, VariantBuilder& builder, int32_t depth_left) {
  const simdjson::ondemand::json_type type = check(value.type());
  switch (type) {
    case simdjson::ondemand::json_type::null:
      if (!check(value.is_null())) throw_corrupt("invalid JSON: bad null literal");
      builder.append_null();
      return;
    case simdjson::ondemand::json_type::boolean: builder.append_boolean(check(value.get_bool())); return;
    case simdjson::ondemand::json_type::string: builder.append_string(check(value.get_string())); return;
    case simdjson::ondemand::json_type::number:
      append_json_number(check(value.raw_json_token()), builder);
      return;
    case simdjson::ondemand::json_type::object: {
      if (depth_left <= 0) throw_limit("JSON nesting is deeper than the variant limit");
      simdjson::ondemand::object object = check(value.get_object());
      builder.start_object();
      for (auto field_result : object) {
        simdjson::ondemand::field field = check(std::move(field_result));
        builder.field(check(field.unescaped_key()));
        simdjson::ondemand::value child = field.value();
        from_json(child, builder, depth_left - 1);
      }
      builder.finish_object();
      return;
    }
    case simdjson::ondemand::json_type::array: {
      if (depth_left <= 0) throw_limit("JSON nesting is deeper than the variant limit");
      simdjson::ondemand::array array = check(value.get_array());
      builder.start_array();
      for (auto element_result : array) {
        simdjson::ondemand::value child = check(std::move(element_result));
        from_json(child, builder, depth_left - 1);
      }
      builder.finish_array();
      return;
    }
  }
  throw_corrupt("invalid JSON value");
}

}  // namespace

void variant_to_json(const Variant& value, std::string& out, int32_t max_depth) {
  to_json(value, out, max_depth);
}

std::string variant_to_json(const Variant& value) {
  std::string out;
  to_json(value, out, kVariantMaxDepth);
  return out;
}

// Hidden: a nested class takes the visibility of the exported class around it.
struct PARQUETRY_LOCAL VariantJsonParser::Impl {
  simdjson::ondemand::parser parser;
  std::vector<char> padded;
};

VariantJsonParser::VariantJsonParser() : impl_(std::make_unique<Impl>()) {}
VariantJsonParser::~VariantJsonParser() = default;

void VariantJsonParser::parse(std::string_view json, VariantBuilder& builder, int32_t max_depth) {
  const size_t capacity = json.size() + simdjson::SIMDJSON_PADDING;
  if (impl_->padded.size() < capacity) impl_->padded.resize(capacity);
  if (!json.empty()) std::memcpy(impl_->padded.data(), json.data(), json.size());
  std::memset(impl_->padded.data() + json.size(), 0, simdjson::SIMDJSON_PADDING);
  simdjson::ondemand::document doc =
      check(impl_->parser.iterate(impl_->padded.data(), json.size(), capacity));
  if (check(doc.type()) == simdjson::ondemand::json_type::number) {
    // A root number is read from its raw token, which simdjson does not
    // consume; only whitespace may follow it.
    const std::string_view token = check(doc.raw_json_token());
    const size_t start = size_t(token.data() - impl_->padded.data());
    auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    size_t end = start;
    while (end < json.size() && !is_space(json[end])) ++end;
    const size_t token_end = end;
    while (end < json.size() && is_space(json[end])) ++end;
    if (end != json.size()) throw_corrupt("invalid JSON: trailing content after the document");
    append_json_number(json.substr(start, token_end - start), builder);
    return;
  }
  from_json(doc, builder, max_depth);
  const char* location;
  if (doc.current_location().get(location) == simdjson::SUCCESS) {
    throw_corrupt("invalid JSON: trailing content after the document");
  }
}

}  // namespace parquetry
