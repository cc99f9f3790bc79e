// Values, single-value serialization, literals, defaults and partition
// transforms (format/spec.md "Partition Transforms", "Appendix D:
// Single-value serialization", "Appendix B: 32-bit Hash Requirements").
#include "parquetry/iceberg_table/values.h"

#include <cmath>
#include <cstring>

#include "parquetry/error.h"

namespace parquetry::iceberg {
namespace {

template <typename T>
T load_le(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

uint32_t rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// Civil date of days since 1970-01-01 (proleptic Gregorian).
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

bool is_integer_kind(TypeKind k) {
  return k == TypeKind::kBoolean || k == TypeKind::kInt || k == TypeKind::kLong || k == TypeKind::kDate ||
         k == TypeKind::kTime || k == TypeKind::kTimestamp || k == TypeKind::kTimestampTz ||
         k == TypeKind::kTimestampNs || k == TypeKind::kTimestampTzNs;
}

bool is_bytes_kind(TypeKind k) {
  return k == TypeKind::kString || k == TypeKind::kBinary || k == TypeKind::kFixed || k == TypeKind::kUuid;
}

std::optional<__int128> parse_decimal_text(std::string_view text, int32_t scale) {
  bool negative = false;
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  __int128 v = 0;
  int digits = 0, frac = 0;
  bool dot = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.') {
      if (dot) return std::nullopt;
      dot = true;
      continue;
    }
    if (c < '0' || c > '9') return std::nullopt;
    if (dot) {
      if (frac == scale) {
        if (c != '0') return std::nullopt;  // more precision than the type holds
        continue;
      }
      ++frac;
    }
    if (++digits > 38) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (digits == 0) return std::nullopt;
  for (; frac < scale; ++frac) v *= 10;
  return negative ? -v : v;
}

std::optional<int64_t> parse_time_micros(std::string_view text) {
  if (text.size() < 8 || text[2] != ':' || text[5] != ':') return std::nullopt;
  auto two = [&](size_t at) -> int { return (text[at] - '0') * 10 + (text[at + 1] - '0'); };
  for (size_t at : {0, 3, 6}) {
    if (text[at] < '0' || text[at] > '9' || text[at + 1] < '0' || text[at + 1] > '9') return std::nullopt;
  }
  int64_t micros = (int64_t(two(0)) * 3600 + two(3) * 60 + two(6)) * 1000000;
  if (text.size() > 8) {
    if (text[8] != '.') return std::nullopt;
    int64_t scale = 100000;
    for (size_t i = 9; i < text.size() && scale > 0; ++i, scale /= 10) {
      if (text[i] < '0' || text[i] > '9') return std::nullopt;
      micros += (text[i] - '0') * scale;
    }
  }
  return micros;
}

// 'YYYY-MM-DDTHH:MM:SS[.f][+HH:MM|Z]' in `unit` (UTC for a zoned value).
std::optional<int64_t> parse_timestamp_text(std::string_view text, bool nanos) {
  std::string s(text);
  int64_t offset_seconds = 0;
  if (!s.empty() && (s.back() == 'Z' || s.back() == 'z')) {
    s.pop_back();
  } else if (s.size() > 6 && (s[s.size() - 6] == '+' || s[s.size() - 6] == '-') && s[s.size() - 3] == ':') {
    const int sign = s[s.size() - 6] == '-' ? -1 : 1;
    const int hh = std::atoi(s.substr(s.size() - 5, 2).c_str());
    const int mm = std::atoi(s.substr(s.size() - 2, 2).c_str());
    offset_seconds = sign * (hh * 3600 + mm * 60);
    s.resize(s.size() - 6);
  }
  const auto value = parse_timestamp(s, nanos ? TimeUnit::NANOS : TimeUnit::MICROS);
  if (!value) return std::nullopt;
  return *value - offset_seconds * (nanos ? 1000000000LL : 1000000LL);
}

std::optional<std::string> parse_uuid(std::string_view text) {
  std::string out;
  int nibble = -1;
  for (char c : text) {
    if (c == '-') continue;
    int v;
    if (c >= '0' && c <= '9') v = c - '0';
    else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
    else return std::nullopt;
    if (nibble < 0) {
      nibble = v;
    } else {
      out.push_back(char(nibble << 4 | v));
      nibble = -1;
    }
  }
  if (out.size() != 16 || nibble >= 0) return std::nullopt;
  return out;
}

std::optional<std::string> parse_hex(std::string_view text) {
  if (text.size() % 2 != 0) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < text.size(); i += 2) {
    int v = 0;
    for (int k = 0; k < 2; ++k) {
      const char c = text[i + size_t(k)];
      int n;
      if (c >= '0' && c <= '9') n = c - '0';
      else if (c >= 'a' && c <= 'f') n = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') n = c - 'A' + 10;
      else return std::nullopt;
      v = v * 16 + n;
    }
    out.push_back(char(v));
  }
  return out;
}

}  // namespace

int32_t murmur3_32(std::string_view bytes) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t n = bytes.size();
  constexpr uint32_t c1 = 0xcc9e2d51, c2 = 0x1b873593;
  uint32_t h = 0;
  const size_t blocks = n / 4;
  for (size_t i = 0; i < blocks; ++i) {
    uint32_t k;
    std::memcpy(&k, data + i * 4, 4);
    k *= c1;
    k = rotl(k, 15);
    k *= c2;
    h ^= k;
    h = rotl(h, 13);
    h = h * 5 + 0xe6546b64;
  }
  uint32_t k = 0;
  const uint8_t* tail = data + blocks * 4;
  switch (n & 3) {
    case 3: k ^= uint32_t(tail[2]) << 16; [[fallthrough]];
    case 2: k ^= uint32_t(tail[1]) << 8; [[fallthrough]];
    case 1:
      k ^= tail[0];
      k *= c1;
      k = rotl(k, 15);
      k *= c2;
      h ^= k;
  }
  h ^= uint32_t(n);
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return int32_t(h);
}

std::string decimal_bytes(__int128 v) {
  // Minimal big-endian two's complement: drop leading bytes that only repeat the sign.
  uint8_t be[16];
  for (int i = 0; i < 16; ++i) be[15 - i] = uint8_t(uint64_t(v >> (8 * i)) & 0xff);
  int start = 0;
  while (start < 15 && ((be[start] == 0x00 && (be[start + 1] & 0x80) == 0) ||
                        (be[start] == 0xff && (be[start + 1] & 0x80) != 0)))
    ++start;
  return std::string(reinterpret_cast<const char*>(be + start), size_t(16 - start));
}

__int128 decimal_from_bytes(std::string_view b) {
  if (b.empty()) return 0;
  if (b.size() > 16) throw_corrupt("decimal value wider than 16 bytes");
  __int128 v = (int8_t(b[0]) < 0) ? -1 : 0;
  for (char c : b) v = (v << 8) | uint8_t(c);
  return v;
}

std::optional<int> compare_values(const Value& a, const Value& b) {
  if (a.kind != b.kind || a.is_null()) return std::nullopt;
  switch (a.kind) {
    case Value::Kind::kInt: return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
    case Value::Kind::kDouble:
      if (std::isnan(a.d) || std::isnan(b.d)) return std::nullopt;
      return a.d < b.d ? -1 : a.d > b.d ? 1 : 0;
    case Value::Kind::kDecimal: return a.i128 < b.i128 ? -1 : a.i128 > b.i128 ? 1 : 0;
    case Value::Kind::kBytes: {
      const int c = a.bytes.compare(b.bytes);  // std::string compares as unsigned char
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    default: return std::nullopt;
  }
}

std::optional<Value> decode_bound(const IcebergType& type, std::string_view b) {
  Value v;
  const TypeKind k = type.kind;
  if (k == TypeKind::kBoolean) {
    if (b.size() != 1) return std::nullopt;
    return Value::integer(b[0] != 0);
  }
  if (is_integer_kind(k)) {
    // A column promoted from int keeps its 4-byte bounds.
    if (b.size() == 4) return Value::integer(load_le<int32_t>(b.data()));
    if (b.size() == 8) return Value::integer(load_le<int64_t>(b.data()));
    return std::nullopt;
  }
  if (k == TypeKind::kFloat || k == TypeKind::kDouble) {
    v.kind = Value::Kind::kDouble;
    if (b.size() == 4) {
      v.d = double(load_le<float>(b.data()));
    } else if (b.size() == 8) {
      v.d = load_le<double>(b.data());
    } else {
      return std::nullopt;
    }
    if (std::isnan(v.d)) return std::nullopt;
    return v;
  }
  if (k == TypeKind::kDecimal) {
    if (b.empty() || b.size() > 16) return std::nullopt;
    v.kind = Value::Kind::kDecimal;
    v.i128 = decimal_from_bytes(b);
    return v;
  }
  if (is_bytes_kind(k)) {
    v.kind = Value::Kind::kBytes;
    v.bytes.assign(b);
    return v;
  }
  return std::nullopt;
}

Value from_partition(const IcebergType& type, const PartitionValue& p) {
  Value v;
  switch (p.kind) {
    case PartitionValue::Kind::kNull: return v;
    case PartitionValue::Kind::kInt: return Value::integer(p.int_value);
    case PartitionValue::Kind::kDouble:
      v.kind = Value::Kind::kDouble;
      v.d = p.double_value;
      return v;
    case PartitionValue::Kind::kBytes:
      if (type.kind == TypeKind::kDecimal) {
        v.kind = Value::Kind::kDecimal;
        v.i128 = decimal_from_bytes(p.bytes);
        return v;
      }
      v.kind = Value::Kind::kBytes;
      v.bytes = p.bytes;
      return v;
  }
  return v;
}

std::optional<Value> from_literal(const IcebergType& type, const Literal& lit) {
  Value v;
  const TypeKind k = type.kind;
  switch (lit.kind) {
    case Literal::Kind::kNull: return std::nullopt;
    case Literal::Kind::kBool:
      if (k != TypeKind::kBoolean) return std::nullopt;
      return Value::integer(lit.bool_value);
    case Literal::Kind::kInt:
      if (k == TypeKind::kBoolean) return lit.int_value == 0 || lit.int_value == 1 ? std::optional(Value::integer(lit.int_value)) : std::nullopt;
      if (k == TypeKind::kInt || k == TypeKind::kLong) return Value::integer(lit.int_value);
      if (k == TypeKind::kFloat || k == TypeKind::kDouble) {
        v.kind = Value::Kind::kDouble;
        v.d = k == TypeKind::kFloat ? double(float(lit.int_value)) : double(lit.int_value);
        return v;
      }
      if (k == TypeKind::kDecimal) {
        auto d = parse_decimal_text(lit.text, type.scale);
        if (!d) return std::nullopt;
        v.kind = Value::Kind::kDecimal;
        v.i128 = *d;
        return v;
      }
      return std::nullopt;
    case Literal::Kind::kDouble:
      if (k == TypeKind::kFloat || k == TypeKind::kDouble) {
        v.kind = Value::Kind::kDouble;
        v.d = k == TypeKind::kFloat ? double(float(lit.double_value)) : lit.double_value;
        return v;
      }
      if (k == TypeKind::kDecimal) {
        auto d = parse_decimal_text(lit.text, type.scale);
        if (!d) return std::nullopt;
        v.kind = Value::Kind::kDecimal;
        v.i128 = *d;
        return v;
      }
      return std::nullopt;
    case Literal::Kind::kString:
      switch (k) {
        case TypeKind::kString:
        case TypeKind::kBinary:
        case TypeKind::kFixed:
          v.kind = Value::Kind::kBytes;
          v.bytes = lit.text;
          return v;
        case TypeKind::kUuid: {
          if (lit.text.size() == 16) {  // already the 16 bytes
            v.kind = Value::Kind::kBytes;
            v.bytes = lit.text;
            return v;
          }
          auto u = parse_uuid(lit.text);
          if (!u) return std::nullopt;
          v.kind = Value::Kind::kBytes;
          v.bytes = *u;
          return v;
        }
        case TypeKind::kDate: {
          auto d = parse_date_days(lit.text);
          return d ? std::optional(Value::integer(*d)) : std::nullopt;
        }
        case TypeKind::kTime: {
          auto t = parse_time_micros(lit.text);
          return t ? std::optional(Value::integer(*t)) : std::nullopt;
        }
        case TypeKind::kTimestamp:
        case TypeKind::kTimestampTz:
        case TypeKind::kTimestampNs:
        case TypeKind::kTimestampTzNs: {
          const bool nanos = k == TypeKind::kTimestampNs || k == TypeKind::kTimestampTzNs;
          auto t = parse_timestamp_text(lit.text, nanos);
          return t ? std::optional(Value::integer(*t)) : std::nullopt;
        }
        case TypeKind::kDecimal: {
          auto d = parse_decimal_text(lit.text, type.scale);
          if (!d) return std::nullopt;
          v.kind = Value::Kind::kDecimal;
          v.i128 = *d;
          return v;
        }
        default: return std::nullopt;
      }
  }
  return std::nullopt;
}

Value from_default_json(const IcebergType& type, std::string_view json, const std::string& what) {
  if (json.empty() || json == "null") return Value::null();
  auto fail = [&]() -> Value {
    throw_corrupt(what + ": initial-default " + std::string(json) + " does not fit type " + type.to_string());
  };
  const bool quoted = json.size() >= 2 && json.front() == '"' && json.back() == '"';
  // Defaults are plain JSON scalars; strings carry no escapes we need to undo
  // beyond \" and \\ (kept simple: escapes are rejected).
  std::string text(quoted ? json.substr(1, json.size() - 2) : json);
  if (quoted && text.find('\\') != std::string::npos) fail();
  Value v;
  switch (type.kind) {
    case TypeKind::kBoolean:
      if (text == "true") return Value::integer(1);
      if (text == "false") return Value::integer(0);
      return fail();
    case TypeKind::kInt:
    case TypeKind::kLong: {
      Literal lit;
      lit.kind = Literal::Kind::kInt;
      char* end = nullptr;
      errno = 0;
      const long long n = std::strtoll(text.c_str(), &end, 10);
      if (quoted || errno != 0 || end != text.c_str() + text.size() || text.empty()) return fail();
      if (type.kind == TypeKind::kInt && (n < INT32_MIN || n > INT32_MAX)) return fail();
      return Value::integer(n);
    }
    case TypeKind::kFloat:
    case TypeKind::kDouble: {
      char* end = nullptr;
      const double d = std::strtod(text.c_str(), &end);
      if (quoted || end != text.c_str() + text.size() || text.empty()) return fail();
      v.kind = Value::Kind::kDouble;
      v.d = type.kind == TypeKind::kFloat ? double(float(d)) : d;
      return v;
    }
    case TypeKind::kDecimal: {
      auto d = parse_decimal_text(text, type.scale);
      if (!d) return fail();
      v.kind = Value::Kind::kDecimal;
      v.i128 = *d;
      return v;
    }
    case TypeKind::kDate: {
      auto d = parse_date_days(text);
      if (!quoted || !d) return fail();
      return Value::integer(*d);
    }
    case TypeKind::kTime: {
      auto t = parse_time_micros(text);
      if (!quoted || !t) return fail();
      return Value::integer(*t);
    }
    case TypeKind::kTimestamp:
    case TypeKind::kTimestampTz:
    case TypeKind::kTimestampNs:
    case TypeKind::kTimestampTzNs: {
      auto t = parse_timestamp_text(text, type.kind == TypeKind::kTimestampNs || type.kind == TypeKind::kTimestampTzNs);
      if (!quoted || !t) return fail();
      return Value::integer(*t);
    }
    case TypeKind::kString:
      if (!quoted) return fail();
      v.kind = Value::Kind::kBytes;
      v.bytes = text;
      return v;
    case TypeKind::kUuid: {
      auto u = parse_uuid(text);
      if (!quoted || !u) return fail();
      v.kind = Value::Kind::kBytes;
      v.bytes = *u;
      return v;
    }
    case TypeKind::kFixed:
    case TypeKind::kBinary: {
      // Binary defaults are hex strings (format/spec.md, JSON single-value serialization).
      auto h = parse_hex(text);
      if (!quoted || !h) return fail();
      if (type.kind == TypeKind::kFixed && int32_t(h->size()) != type.length) return fail();
      v.kind = Value::Kind::kBytes;
      v.bytes = *h;
      return v;
    }
    default: return fail();
  }
}

std::optional<Value> apply_transform(const Transform& t, const IcebergType& source, const Value& value) {
  if (value.is_null()) return Value::null();
  const TypeKind k = source.kind;
  switch (t.kind) {
    case Transform::Kind::kIdentity: return value;
    case Transform::Kind::kVoid: return Value::null();
    case Transform::Kind::kUnknown: return std::nullopt;
    case Transform::Kind::kBucket: {
      if (t.parameter <= 0) return std::nullopt;
      int32_t hash;
      if (k == TypeKind::kInt || k == TypeKind::kLong || k == TypeKind::kDate || k == TypeKind::kTime ||
          k == TypeKind::kTimestamp || k == TypeKind::kTimestampTz) {
        const int64_t v = value.i;
        char le[8];
        std::memcpy(le, &v, 8);
        hash = murmur3_32({le, 8});
      } else if (k == TypeKind::kTimestampNs || k == TypeKind::kTimestampTzNs) {
        // Nanosecond timestamps hash their value in microseconds.
        const int64_t v = floor_div(value.i, 1000);
        char le[8];
        std::memcpy(le, &v, 8);
        hash = murmur3_32({le, 8});
      } else if (k == TypeKind::kDecimal) {
        hash = murmur3_32(decimal_bytes(value.i128));
      } else if (is_bytes_kind(k)) {
        hash = murmur3_32(value.bytes);
      } else {
        return std::nullopt;
      }
      return Value::integer((hash & INT32_MAX) % t.parameter);
    }
    case Transform::Kind::kTruncate: {
      const int64_t w = t.parameter;
      if (w <= 0) return std::nullopt;
      if (k == TypeKind::kInt || k == TypeKind::kLong) return Value::integer(value.i - (((value.i % w) + w) % w));
      if (k == TypeKind::kDecimal) {
        Value out = value;
        out.i128 = value.i128 - (((value.i128 % w) + w) % w);
        return out;
      }
      if (k == TypeKind::kString) {
        // The first w code points of the UTF-8 text.
        size_t pos = 0;
        int64_t points = 0;
        while (pos < value.bytes.size() && points < w) {
          ++pos;
          while (pos < value.bytes.size() && (uint8_t(value.bytes[pos]) & 0xC0) == 0x80) ++pos;
          ++points;
        }
        Value out = value;
        out.bytes.resize(pos);
        return out;
      }
      if (k == TypeKind::kBinary) {
        Value out = value;
        if (int64_t(out.bytes.size()) > w) out.bytes.resize(size_t(w));
        return out;
      }
      return std::nullopt;
    }
    case Transform::Kind::kYear:
    case Transform::Kind::kMonth:
    case Transform::Kind::kDay:
    case Transform::Kind::kHour: {
      int64_t micros_per_unit = 0;
      int64_t days;
      int64_t hours = 0;
      if (k == TypeKind::kDate) {
        if (t.kind == Transform::Kind::kHour) return std::nullopt;
        days = value.i;
      } else if (k == TypeKind::kTimestamp || k == TypeKind::kTimestampTz || k == TypeKind::kTimestampNs ||
                 k == TypeKind::kTimestampTzNs) {
        micros_per_unit = (k == TypeKind::kTimestampNs || k == TypeKind::kTimestampTzNs) ? 1000 : 1;
        const int64_t micros = floor_div(value.i, micros_per_unit);
        hours = floor_div(micros, 3600LL * 1000000);
        days = floor_div(micros, 86400LL * 1000000);
      } else {
        return std::nullopt;
      }
      if (t.kind == Transform::Kind::kHour) return Value::integer(hours);
      if (t.kind == Transform::Kind::kDay) return Value::integer(days);
      int64_t y;
      unsigned m, d;
      civil_from_days(days, y, m, d);
      if (t.kind == Transform::Kind::kYear) return Value::integer(y - 1970);
      return Value::integer((y - 1970) * 12 + int64_t(m) - 1);
    }
  }
  return std::nullopt;
}

Transform Transform::parse(std::string_view text) {
  Transform t;
  t.text = std::string(text);
  auto param = [&](std::string_view prefix, Kind kind) {
    if (!text.starts_with(prefix) || !text.ends_with("]")) return false;
    const std::string_view digits = text.substr(prefix.size(), text.size() - prefix.size() - 1);
    int64_t v = 0;
    if (digits.empty() || digits.size() > 9) return false;
    for (char c : digits) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    if (v <= 0) return false;
    t.kind = kind;
    t.parameter = int32_t(v);
    return true;
  };
  if (text == "identity") t.kind = Kind::kIdentity;
  else if (text == "void") t.kind = Kind::kVoid;
  else if (text == "year") t.kind = Kind::kYear;
  else if (text == "month") t.kind = Kind::kMonth;
  else if (text == "day") t.kind = Kind::kDay;
  else if (text == "hour") t.kind = Kind::kHour;
  else if (!param("bucket[", Kind::kBucket) && !param("truncate[", Kind::kTruncate)) t.kind = Kind::kUnknown;
  return t;
}

IcebergType Transform::result_type(const IcebergType& source) const {
  IcebergType out;
  switch (kind) {
    case Kind::kIdentity:
    case Kind::kTruncate: return source;
    case Kind::kBucket:
    case Kind::kYear:
    case Kind::kMonth:
    case Kind::kHour: out.kind = TypeKind::kInt; return out;
    case Kind::kDay: out.kind = TypeKind::kDate; return out;
    case Kind::kVoid:
    case Kind::kUnknown: return source;
  }
  return out;
}

}  // namespace parquetry::iceberg
