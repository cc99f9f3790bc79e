// Min/max statistics in each column's sort order, their truncation, and
// split-block Bloom filters (BloomFilter.md).
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "parquetry/util/bit_util.h"
#include "parquetry/write/write_internal.h"

namespace parquetry::write {
namespace {

float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h >> 15) << 31;
  const uint32_t exponent = (h >> 10) & 0x1f;
  const uint32_t mantissa = h & 0x3ff;
  uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {  // subnormal: value = mantissa * 2^-24
      float value = float(mantissa) * 5.9604644775390625e-8f;
      return sign ? -value : value;
    }
  } else if (exponent == 31) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  }
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

template <typename T>
std::string_view bytes_of(const T& value) {
  return {reinterpret_cast<const char*>(&value), sizeof(T)};
}

int signed_decimal_compare(std::string_view a, std::string_view b) {
  // Equal widths within a column: flip the sign bit, then compare unsigned.
  const uint8_t a0 = a.empty() ? 0 : uint8_t(uint8_t(a[0]) ^ 0x80);
  const uint8_t b0 = b.empty() ? 0 : uint8_t(uint8_t(b[0]) ^ 0x80);
  if (a0 != b0) return a0 < b0 ? -1 : 1;
  const size_t rest = std::min(a.size(), b.size());
  return rest <= 1 ? 0 : std::memcmp(a.data() + 1, b.data() + 1, rest - 1);
}

template <typename T>
void typed_min_max(const uint8_t* data, int64_t n, T& low, T& high, bool& any) {
  const T* v = reinterpret_cast<const T*>(data);
  T lo = v[0];
  T hi = v[0];
  for (int64_t i = 1; i < n; ++i) {
    lo = v[i] < lo ? v[i] : lo;
    hi = v[i] > hi ? v[i] : hi;
  }
  low = lo;
  high = hi;
  any = true;
}

template <typename T>
void float_min_max(const uint8_t* data, int64_t n, T& low, T& high, bool& any) {
  const T* v = reinterpret_cast<const T*>(data);
  T lo = std::numeric_limits<T>::infinity();
  T hi = -std::numeric_limits<T>::infinity();
  bool seen = false;
  for (int64_t i = 0; i < n; ++i) {
    const T x = v[i];
    if (std::isnan(x)) continue;
    seen = true;
    lo = x < lo ? x : lo;
    hi = x > hi ? x : hi;
  }
  // -0 and +0 compare equal; keep whichever was met, min()/max() normalise.
  low = lo;
  high = hi;
  any = seen;
}

}  // namespace

StatKind stat_kind_for(const ColumnDescriptor& column) {
  const auto& logical = column.logical_type;
  if (logical && logical->is<NullType>()) return StatKind::kNone;
  if (column.sort_order == SortOrder::kUnknown) return StatKind::kNone;
  const bool is_unsigned = column.sort_order == SortOrder::kUnsigned;
  switch (column.physical_type) {
    case Type::BOOLEAN: return StatKind::kBool;
    case Type::INT32: return is_unsigned ? StatKind::kUInt32 : StatKind::kInt32;
    case Type::INT64: return is_unsigned ? StatKind::kUInt64 : StatKind::kInt64;
    case Type::FLOAT: return StatKind::kFloat;
    case Type::DOUBLE: return StatKind::kDouble;
    case Type::INT96: return StatKind::kNone;
    case Type::BYTE_ARRAY:
      if (logical && logical->is<DecimalType>()) return StatKind::kSignedDecimal;
      return StatKind::kBytes;
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (logical && logical->is<Float16Type>()) return StatKind::kFloat16;
      if (logical && logical->is<DecimalType>()) return StatKind::kSignedDecimal;
      return StatKind::kBytes;
  }
  return StatKind::kNone;
}

bool stat_less(StatKind kind, std::string_view a, std::string_view b) {
  switch (kind) {
    case StatKind::kNone: return false;
    case StatKind::kBool: return uint8_t(a[0]) < uint8_t(b[0]);
    case StatKind::kInt32: return bits::load<int32_t>(a.data()) < bits::load<int32_t>(b.data());
    case StatKind::kUInt32: return bits::load<uint32_t>(a.data()) < bits::load<uint32_t>(b.data());
    case StatKind::kInt64: return bits::load<int64_t>(a.data()) < bits::load<int64_t>(b.data());
    case StatKind::kUInt64: return bits::load<uint64_t>(a.data()) < bits::load<uint64_t>(b.data());
    case StatKind::kFloat: return bits::load<float>(a.data()) < bits::load<float>(b.data());
    case StatKind::kDouble: return bits::load<double>(a.data()) < bits::load<double>(b.data());
    case StatKind::kFloat16:
      return half_to_float(bits::load<uint16_t>(a.data())) < half_to_float(bits::load<uint16_t>(b.data()));
    case StatKind::kBytes: {
      // Empty values may come from a null data buffer: memcmp needs valid pointers even for 0 bytes.
      const size_t common = std::min(a.size(), b.size());
      const int c = common == 0 ? 0 : std::memcmp(a.data(), b.data(), common);
      return c < 0 || (c == 0 && a.size() < b.size());
    }
    case StatKind::kSignedDecimal:
      if (a.size() != b.size()) {
        // Different widths only happen for BYTE_ARRAY decimals: compare by sign, then magnitude.
        const bool na = !a.empty() && (uint8_t(a[0]) & 0x80);
        const bool nb = !b.empty() && (uint8_t(b[0]) & 0x80);
        if (na != nb) return na;
        return na ? a.size() > b.size() : a.size() < b.size();
      }
      return !a.empty() && signed_decimal_compare(a, b) < 0;
  }
  return false;
}

void MinMax::keep_min(std::string_view low) {
  const size_t keep = size_t(byte_limit_) + 1;
  min_.assign(byte_limit_ > 0 && low.size() > keep ? low.substr(0, keep) : low);
}

void MinMax::keep_max(std::string_view high) {
  const size_t keep = size_t(byte_limit_) + 1;
  if (byte_limit_ > 0 && high.size() > keep) {
    const std::string_view head = high.substr(0, size_t(byte_limit_));
    const bool all_ff = std::all_of(head.begin(), head.end(), [](char c) { return uint8_t(c) == 0xFF; });
    if (!all_ff) {
      max_.assign(high.substr(0, keep));
      return;
    }
  }
  max_.assign(high);
}

void MinMax::offer(std::string_view low, std::string_view high) {
  if (!has_) {
    keep_min(low);
    keep_max(high);
    has_ = true;
    return;
  }
  if (stat_less(kind_, low, min_)) keep_min(low);
  if (stat_less(kind_, max_, high)) keep_max(high);
}

void MinMax::update(const PhysicalValues& values, int width) {
  const int64_t n = values.count;
  if (n == 0 || kind_ == StatKind::kNone) return;
  bool any = false;
  switch (kind_) {
    case StatKind::kNone: return;
    case StatKind::kBool: {
      const uint8_t* b = values.bools;
      uint8_t lo = 1, hi = 0;
      for (int64_t i = 0; i < n; ++i) {
        lo &= b[i];
        hi |= b[i];
      }
      lo = lo ? 1 : 0;
      hi = hi ? 1 : 0;
      offer(bytes_of(lo), bytes_of(hi));
      return;
    }
    case StatKind::kInt32: {
      int32_t lo, hi;
      typed_min_max(values.fixed, n, lo, hi, any);
      offer(bytes_of(lo), bytes_of(hi));
      return;
    }
    case StatKind::kUInt32: {
      uint32_t lo, hi;
      typed_min_max(values.fixed, n, lo, hi, any);
      offer(bytes_of(lo), bytes_of(hi));
      return;
    }
    case StatKind::kInt64: {
      int64_t lo, hi;
      typed_min_max(values.fixed, n, lo, hi, any);
      offer(bytes_of(lo), bytes_of(hi));
      return;
    }
    case StatKind::kUInt64: {
      uint64_t lo, hi;
      typed_min_max(values.fixed, n, lo, hi, any);
      offer(bytes_of(lo), bytes_of(hi));
      return;
    }
    case StatKind::kFloat: {
      float lo, hi;
      float_min_max(values.fixed, n, lo, hi, any);
      if (any) offer(bytes_of(lo), bytes_of(hi));
      return;
    }
    case StatKind::kDouble: {
      double lo, hi;
      float_min_max(values.fixed, n, lo, hi, any);
      if (any) offer(bytes_of(lo), bytes_of(hi));
      return;
    }
    case StatKind::kFloat16: {
      const uint16_t* v = reinterpret_cast<const uint16_t*>(values.fixed);
      int64_t lo = -1, hi = -1;
      float flo = 0, fhi = 0;
      for (int64_t i = 0; i < n; ++i) {
        const float x = half_to_float(v[i]);
        if (std::isnan(x)) continue;
        if (lo < 0 || x < flo) lo = i, flo = x;
        if (hi < 0 || x > fhi) hi = i, fhi = x;
      }
      if (lo >= 0) offer(bytes_of(v[lo]), bytes_of(v[hi]));
      return;
    }
    case StatKind::kBytes:
    case StatKind::kSignedDecimal: {
      if (values.binary != nullptr) {
        const ByteArrayView* v = values.binary;
        auto view = [&](int64_t i) {
          return std::string_view(reinterpret_cast<const char*>(v[i].data), v[i].length);
        };
        std::string_view lo = view(0), hi = view(0);
        for (int64_t i = 1; i < n; ++i) {
          std::string_view x = view(i);
          if (stat_less(kind_, x, lo)) lo = x;
          if (stat_less(kind_, hi, x)) hi = x;
        }
        offer(lo, hi);
      } else {
        auto view = [&](int64_t i) {
          return std::string_view(reinterpret_cast<const char*>(values.fixed + i * width), size_t(width));
        };
        std::string_view lo = view(0), hi = view(0);
        for (int64_t i = 1; i < n; ++i) {
          std::string_view x = view(i);
          if (stat_less(kind_, x, lo)) lo = x;
          if (stat_less(kind_, hi, x)) hi = x;
        }
        offer(lo, hi);
      }
      return;
    }
  }
}

void MinMax::merge(const MinMax& other) {
  null_count_ += other.null_count_;
  if (other.has_) offer(other.min_, other.max_);
}

std::string MinMax::min() const {
  std::string out = min_;
  // Statistics.md / parquet.thrift: a zero minimum is written as -0.
  if (kind_ == StatKind::kFloat && bits::load<float>(out.data()) == 0.0f) {
    float z = -0.0f;
    out.assign(bytes_of(z));
  } else if (kind_ == StatKind::kDouble && bits::load<double>(out.data()) == 0.0) {
    double z = -0.0;
    out.assign(bytes_of(z));
  } else if (kind_ == StatKind::kFloat16 && (bits::load<uint16_t>(out.data()) & 0x7fff) == 0) {
    uint16_t z = 0x8000;
    out.assign(bytes_of(z));
  }
  return out;
}

std::string MinMax::max() const {
  std::string out = max_;
  if (kind_ == StatKind::kFloat && bits::load<float>(out.data()) == 0.0f) {
    float z = 0.0f;
    out.assign(bytes_of(z));
  } else if (kind_ == StatKind::kDouble && bits::load<double>(out.data()) == 0.0) {
    double z = 0.0;
    out.assign(bytes_of(z));
  } else if (kind_ == StatKind::kFloat16 && (bits::load<uint16_t>(out.data()) & 0x7fff) == 0) {
    uint16_t z = 0;
    out.assign(bytes_of(z));
  }
  return out;
}

std::string truncate_min(const std::string& value, int32_t limit, bool* exact) {
  if (limit <= 0 || int64_t(value.size()) <= limit) {
    *exact = true;
    return value;
  }
  *exact = false;
  return value.substr(0, size_t(limit));
}

std::string truncate_max(const std::string& value, int32_t limit, bool* exact) {
  if (limit <= 0 || int64_t(value.size()) <= limit) {
    *exact = true;
    return value;
  }
  std::string out = value.substr(0, size_t(limit));
  // Increment the last byte that can be incremented; drop the 0xFF bytes after it.
  while (!out.empty() && uint8_t(out.back()) == 0xFF) out.pop_back();
  if (out.empty()) {
    *exact = true;
    return value;
  }
  out.back() = char(uint8_t(out.back()) + 1);
  *exact = false;
  return out;
}

// ---------------------------------------------------------------------------
// Bloom filters

void hash_values(const PhysicalValues& values, int width, std::vector<uint64_t>& out) {
  const size_t start = out.size();
  out.resize(start + size_t(values.count));
  uint64_t* h = out.data() + start;
  if (values.binary != nullptr) {
    for (int64_t i = 0; i < values.count; ++i)
      h[i] = XXH64(values.binary[i].data, values.binary[i].length, 0);
  } else if (values.bools != nullptr) {
    for (int64_t i = 0; i < values.count; ++i) {
      const uint8_t b = values.bools[i] ? 1 : 0;
      h[i] = XXH64(&b, 1, 0);
    }
  } else {
    for (int64_t i = 0; i < values.count; ++i) h[i] = XXH64(values.fixed + i * width, size_t(width), 0);
  }
}

int64_t bloom_filter_bytes(int64_t ndv, double fpp, int64_t max_bytes) {
  if (!(fpp > 0.0 && fpp < 1.0)) fpp = 0.01;
  // BloomFilter.md: bits = -8 * ndv / ln(1 - fpp^(1/8)).
  const double bits = -8.0 * double(std::max<int64_t>(ndv, 1)) / std::log(1.0 - std::pow(fpp, 1.0 / 8.0));
  int64_t bytes = 32;
  while (bytes < max_bytes && double(bytes) * 8.0 < bits) bytes *= 2;
  return std::min<int64_t>(bytes, std::max<int64_t>(32, max_bytes));
}

namespace {
constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

inline uint8_t* block_of(uint8_t* bitset, int64_t bytes, uint64_t hash) {
  const uint64_t blocks = uint64_t(bytes) / 32;
  return bitset + ((hash >> 32) * blocks >> 32) * 32;
}
}  // namespace

void bloom_insert(uint8_t* bitset, int64_t bytes, uint64_t hash) {
  uint8_t* block = block_of(bitset, bytes, hash);
  const uint32_t key = uint32_t(hash);
  for (int i = 0; i < 8; ++i) {
    uint32_t word = bits::load<uint32_t>(block + 4 * i);
    word |= 1u << ((key * kSalt[i]) >> 27);
    bits::store<uint32_t>(block + 4 * i, word);
  }
}

bool bloom_contains(const uint8_t* bitset, int64_t bytes, uint64_t hash) {
  const uint8_t* block = block_of(const_cast<uint8_t*>(bitset), bytes, hash);
  const uint32_t key = uint32_t(hash);
  for (int i = 0; i < 8; ++i) {
    const uint32_t word = bits::load<uint32_t>(block + 4 * i);
    if ((word & (1u << ((key * kSalt[i]) >> 27))) == 0) return false;
  }
  return true;
}

}  // namespace parquetry::write
