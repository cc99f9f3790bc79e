// A Parquet schema with every annotation the writer must keep when it is
// given the schema to write (WriterOptions::parquet_schema): TIME and
// TIMESTAMP with isAdjustedToUTC either way, legacy converted types without a
// logical type, INT96, decimals on all four physical types, FLOAT16, UUID,
// JSON, BSON, ENUM, INTERVAL, GEOMETRY/GEOGRAPHY with CRS and algorithm,
// integer annotations, field ids, legacy LIST/MAP layouts and nesting; plus
// seeded random batches of the Arrow shape FileReader gives that schema.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "parquetry/metadata.h"
#include "parquetry/nested/arrow_mapping.h"
#include "parquetry/schema.h"
#include "parquetry/table.h"
#include "write_test_support.h"

namespace parquetry::testing {

inline SchemaElement zoo_leaf(std::string name, FieldRepetitionType repetition, Type type,
                              std::optional<LogicalType> logical = std::nullopt,
                              std::optional<ConvertedType> converted = std::nullopt) {
  SchemaElement e;
  e.name = std::move(name);
  e.repetition_type = repetition;
  e.type = type;
  e.logical_type = std::move(logical);
  e.converted_type = converted;
  return e;
}

inline SchemaElement zoo_group(std::string name, std::optional<FieldRepetitionType> repetition,
                               int32_t children, std::optional<LogicalType> logical = std::nullopt,
                               std::optional<ConvertedType> converted = std::nullopt) {
  SchemaElement e;
  e.name = std::move(name);
  e.repetition_type = repetition;
  e.num_children = children;
  e.logical_type = std::move(logical);
  e.converted_type = converted;
  return e;
}

inline SchemaElement zoo_decimal(std::string name, Type type, int32_t precision, int32_t scale,
                                 int32_t length, bool logical) {
  SchemaElement e = zoo_leaf(std::move(name), FieldRepetitionType::OPTIONAL, type);
  if (logical) e.logical_type = LogicalType{DecimalType{scale, precision}};
  e.converted_type = ConvertedType::DECIMAL;
  e.precision = precision;
  e.scale = scale;
  if (length > 0) e.type_length = length;
  return e;
}

/// The annotation zoo, root first.
inline std::vector<SchemaElement> zoo_schema() {
  using R = FieldRepetitionType;
  std::vector<SchemaElement> s;
  s.push_back(zoo_group("hive_schema", std::nullopt, 0));
  auto add = [&](SchemaElement e) { s.push_back(std::move(e)); };
  add(zoo_leaf("time_ms_utc", R::OPTIONAL, Type::INT32, LogicalType{TimeType{true, TimeUnit::MILLIS}},
               ConvertedType::TIME_MILLIS));
  add(zoo_leaf("time_us_utc", R::OPTIONAL, Type::INT64, LogicalType{TimeType{true, TimeUnit::MICROS}}));
  add(zoo_leaf("time_ns_local", R::REQUIRED, Type::INT64, LogicalType{TimeType{false, TimeUnit::NANOS}}));
  add(zoo_leaf("ts_millis_legacy", R::OPTIONAL, Type::INT64, std::nullopt, ConvertedType::TIMESTAMP_MILLIS));
  add(zoo_leaf("ts_micros_utc", R::OPTIONAL, Type::INT64, LogicalType{TimestampType{true, TimeUnit::MICROS}},
               ConvertedType::TIMESTAMP_MICROS));
  add(zoo_leaf("ts_nanos_local", R::OPTIONAL, Type::INT64,
               LogicalType{TimestampType{false, TimeUnit::NANOS}}));
  add(zoo_leaf("ts_int96", R::OPTIONAL, Type::INT96));
  add(zoo_decimal("dec_int32", Type::INT32, 9, 2, 0, true));
  add(zoo_decimal("dec_int64", Type::INT64, 18, 3, 0, true));
  add(zoo_decimal("dec_flba", Type::FIXED_LEN_BYTE_ARRAY, 20, 4, 9, true));
  add(zoo_decimal("dec_binary", Type::BYTE_ARRAY, 30, 5, 0, true));
  add(zoo_decimal("dec_legacy", Type::INT32, 5, 1, 0, false));
  SchemaElement f16 = zoo_leaf("half", R::OPTIONAL, Type::FIXED_LEN_BYTE_ARRAY, LogicalType{Float16Type{}});
  f16.type_length = 2;
  add(f16);
  SchemaElement uuid = zoo_leaf("uuid", R::OPTIONAL, Type::FIXED_LEN_BYTE_ARRAY, LogicalType{UuidType{}});
  uuid.type_length = 16;
  uuid.field_id = 7;
  add(uuid);
  add(zoo_leaf("json_doc", R::OPTIONAL, Type::BYTE_ARRAY, LogicalType{JsonType{}}, ConvertedType::JSON));
  add(zoo_leaf("bson_doc", R::OPTIONAL, Type::BYTE_ARRAY, LogicalType{BsonType{}}, ConvertedType::BSON));
  add(zoo_leaf("colour", R::OPTIONAL, Type::BYTE_ARRAY, LogicalType{EnumType{}}, ConvertedType::ENUM));
  SchemaElement interval =
      zoo_leaf("span", R::OPTIONAL, Type::FIXED_LEN_BYTE_ARRAY, std::nullopt, ConvertedType::INTERVAL);
  interval.type_length = 12;
  add(interval);
  add(zoo_leaf("geo_geometry", R::OPTIONAL, Type::BYTE_ARRAY, LogicalType{GeometryType{"srid:4326"}}));
  add(zoo_leaf("geo_geography", R::OPTIONAL, Type::BYTE_ARRAY,
               LogicalType{GeographyType{"OGC:CRS84", EdgeInterpolationAlgorithm::KARNEY}}));
  add(zoo_leaf("tiny", R::OPTIONAL, Type::INT32, LogicalType{IntType{8, true}}, ConvertedType::INT_8));
  add(zoo_leaf("small_unsigned", R::OPTIONAL, Type::INT32, LogicalType{IntType{16, false}}));
  add(zoo_leaf("big_unsigned_legacy", R::REQUIRED, Type::INT64, std::nullopt, ConvertedType::UINT_64));
  add(zoo_leaf("text", R::OPTIONAL, Type::BYTE_ARRAY, LogicalType{StringType{}}));
  SchemaElement utf8 =
      zoo_leaf("text_legacy", R::OPTIONAL, Type::BYTE_ARRAY, std::nullopt, ConvertedType::UTF8);
  utf8.field_id = 11;
  add(utf8);
  add(zoo_leaf("day", R::OPTIONAL, Type::INT32, std::nullopt, ConvertedType::DATE));
  // Lists: 2-level, bare repeated (with a field id), 3-level, 2-level of structs.
  add(zoo_group("list_two_level", R::OPTIONAL, 1, std::nullopt, ConvertedType::LIST));
  add(zoo_leaf("array", R::REPEATED, Type::INT32));
  SchemaElement bare = zoo_leaf("bare_repeated", R::REPEATED, Type::INT64);
  bare.field_id = 42;
  add(bare);
  add(zoo_group("list_three_level", R::OPTIONAL, 1, LogicalType{ListType{}}, ConvertedType::LIST));
  add(zoo_group("list", R::REPEATED, 1));
  add(zoo_leaf("element", R::OPTIONAL, Type::BYTE_ARRAY, LogicalType{StringType{}}, ConvertedType::UTF8));
  add(zoo_group("list_of_structs", R::REQUIRED, 1, LogicalType{ListType{}}));
  add(zoo_group("array", R::REPEATED, 2));
  add(zoo_leaf("a", R::REQUIRED, Type::INT32));
  add(zoo_leaf("b", R::OPTIONAL, Type::DOUBLE));
  // A legacy map: MAP on the group, MAP_KEY_VALUE on the repeated group, converted types only.
  add(zoo_group("legacy_map", R::OPTIONAL, 1, std::nullopt, ConvertedType::MAP));
  add(zoo_group("map", R::REPEATED, 2, std::nullopt, ConvertedType::MAP_KEY_VALUE));
  add(zoo_leaf("key", R::REQUIRED, Type::BYTE_ARRAY, std::nullopt, ConvertedType::UTF8));
  add(zoo_leaf("value", R::OPTIONAL, Type::INT32));
  // A nested struct with a field id on the group.
  SchemaElement outer = zoo_group("outer", R::OPTIONAL, 2);
  outer.field_id = 100;
  add(outer);
  add(zoo_leaf("x", R::REQUIRED, Type::INT32, LogicalType{IntType{32, true}}, ConvertedType::INT_32));
  add(zoo_group("inner", R::OPTIONAL, 1));
  add(zoo_leaf("when", R::OPTIONAL, Type::INT64, LogicalType{TimestampType{false, TimeUnit::MILLIS}}));
  int32_t top = 0;
  // Count the root's children: walk the flat list.
  size_t i = 1;
  while (i < s.size()) {
    ++top;
    int64_t pending = 1;
    while (pending > 0) {
      pending += s[i].num_children.value_or(0) - 1;
      ++i;
    }
  }
  s[0].num_children = top;
  return s;
}

inline std::vector<KeyValue> zoo_metadata() {
  return {KeyValue{"zoo.owner", std::string("parquetry tests")}, KeyValue{"zoo.no_value", std::nullopt},
          KeyValue{"zoo.empty", std::string()}};
}

/// The batch schema FileReader gives `elements` (INT96 as timestamp[ns]).
inline BatchSchema zoo_batch_schema(const std::vector<SchemaElement>& elements) {
  Schema schema = Schema::from_elements(elements);
  BatchSchema out;
  for (const SchemaNode* child : schema.root().children()) out.fields.push_back(arrow_field_for(*child));
  return out;
}

/// Seeded random arrays of any type FileReader produces. Binary fields named
/// geo* hold WKB points and json* fields JSON text, so that readers that
/// parse those annotations accept them.
class RandomArrays {
 public:
  explicit RandomArrays(uint32_t seed) : rng_(seed) {}

  std::shared_ptr<ArrayData> make(const Field& field, int64_t length) {
    std::vector<bool> valid(size_t(length), true);
    if (field.nullable) {
      for (auto&& v : valid) v = pick(7) != 0;
    }
    return make(field, length, valid);
  }

  RecordBatch batch(const BatchSchema& schema, int64_t rows) {
    auto shared = std::make_shared<BatchSchema>(schema);
    std::vector<std::shared_ptr<ArrayData>> columns;
    for (const Field& field : schema.fields) columns.push_back(make(field, rows));
    return make_batch(shared, std::move(columns));
  }

 private:
  uint64_t pick(uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); }
  int64_t between(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }

  template <typename T, typename F>
  std::shared_ptr<ArrayData> fixed(const DataType& type, int64_t n, const std::vector<bool>& valid, F&& f) {
    std::vector<T> values(static_cast<size_t>(n));
    for (auto& v : values) v = f();
    return make_fixed<T>(type, values, valid);
  }

  std::string bytes_for(const Field& field, const DataType& type) {
    if (field.name.rfind("geo", 0) == 0) {
      // WKB point, little-endian: order byte, type 1, x, y.
      std::string wkb(21, '\0');
      wkb[0] = 1;
      wkb[1] = 1;
      const double x = double(between(-180, 180)) + 0.25;
      const double y = double(between(-90, 90)) - 0.5;
      std::memcpy(wkb.data() + 5, &x, 8);
      std::memcpy(wkb.data() + 13, &y, 8);
      return wkb;
    }
    if (field.name.rfind("json", 0) == 0) return "{\"k\":" + std::to_string(between(-1000, 1000)) + "}";
    std::string s(size_t(pick(9)), ' ');
    const bool text = type.id == TypeId::kString;
    for (char& c : s) c = text ? char('a' + pick(26)) : char(pick(256));
    return s;
  }

  std::shared_ptr<ArrayData> make(const Field& field, int64_t n, const std::vector<bool>& valid) {
    const DataType& type = field.type;
    switch (type.id) {
      case TypeId::kBool: {
        std::vector<bool> v(static_cast<size_t>(n));
        for (auto&& b : v) b = pick(2) != 0;
        auto a = std::make_shared<ArrayData>();
        a->type = std::make_shared<DataType>(type);
        a->length = n;
        a->buffers.push_back(validity_of(valid, &a->null_count));
        std::vector<uint8_t> bitmap(size_t((n + 7) / 8), 0);
        for (int64_t i = 0; i < n; ++i)
          if (v[size_t(i)]) bitmap[size_t(i >> 3)] |= uint8_t(1u << (i & 7));
        a->buffers.push_back(adopt_vector(bitmap));
        return a;
      }
      case TypeId::kInt8: return fixed<int8_t>(type, n, valid, [&] { return int8_t(between(-128, 127)); });
      case TypeId::kUInt8: return fixed<uint8_t>(type, n, valid, [&] { return uint8_t(pick(256)); });
      case TypeId::kInt16:
        return fixed<int16_t>(type, n, valid, [&] { return int16_t(between(-32768, 32767)); });
      case TypeId::kUInt16: return fixed<uint16_t>(type, n, valid, [&] { return uint16_t(pick(65536)); });
      case TypeId::kInt32:
        return fixed<int32_t>(type, n, valid, [&] { return int32_t(between(-1000000, 1000000)); });
      case TypeId::kUInt32:
        return fixed<uint32_t>(type, n, valid, [&] { return uint32_t(pick(1ull << 32)); });
      case TypeId::kInt64:
        return fixed<int64_t>(type, n, valid, [&] { return between(-(1ll << 40), 1ll << 40); });
      case TypeId::kUInt64:
        return fixed<uint64_t>(type, n, valid, [&] { return uint64_t(rng_()) << 32 | rng_(); });
      case TypeId::kFloat16:
        // Finite halves: exponent below 31.
        return fixed<uint16_t>(type, n, valid,
                               [&] { return uint16_t((pick(2) << 15) | (pick(31) << 10) | pick(1024)); });
      case TypeId::kFloat32:
        return fixed<float>(type, n, valid, [&] { return float(between(-100000, 100000)) / 8; });
      case TypeId::kFloat64:
        return fixed<double>(type, n, valid, [&] { return double(between(-1000000, 1000000)) / 16; });
      case TypeId::kDate32:
        return fixed<int32_t>(type, n, valid, [&] { return int32_t(between(-20000, 40000)); });
      case TypeId::kTime32:
        return fixed<int32_t>(type, n, valid, [&] { return int32_t(between(0, 86399999)); });
      case TypeId::kTime64: {
        const int64_t per_day = type.unit == ArrowTimeUnit::kMicro ? 86'400'000'000 : 86'400'000'000'000;
        return fixed<int64_t>(type, n, valid, [&] { return between(0, per_day - 1); });
      }
      case TypeId::kTimestamp: {
        // 1900 .. 2200 in the field's unit.
        const int64_t per_second = type.unit == ArrowTimeUnit::kMilli   ? 1000
                                   : type.unit == ArrowTimeUnit::kMicro ? 1'000'000
                                   : type.unit == ArrowTimeUnit::kNano  ? 1'000'000'000
                                                                        : 1;
        return fixed<int64_t>(type, n, valid, [&] {
          return between(-2'208'988'800, 7'258'118'400) * per_second + between(0, per_second - 1);
        });
      }
      case TypeId::kDecimal128: {
        const int digits = std::min(type.precision, 18);
        int64_t limit = 1;
        for (int d = 0; d < digits; ++d) limit *= 10;
        std::vector<__int128> values(static_cast<size_t>(n));
        for (auto& v : values) {
          v = __int128(between(-(limit - 1), limit - 1));
          if (type.precision > 18 && pick(2)) v *= 1000;  // beyond int64, within the precision
        }
        return make_fixed<__int128>(type, values, valid);
      }
      case TypeId::kString:
      case TypeId::kBinary: {
        std::vector<std::string> values(static_cast<size_t>(n));
        for (auto& v : values) v = bytes_for(field, type);
        return make_strings(type, values, valid);
      }
      case TypeId::kFixedSizeBinary: {
        const size_t width = size_t(type.byte_width);
        auto a = std::make_shared<ArrayData>();
        a->type = std::make_shared<DataType>(type);
        a->length = n;
        a->buffers.push_back(validity_of(valid, &a->null_count));
        std::vector<uint8_t> bytes(size_t(n) * width);
        for (auto& b : bytes) b = uint8_t(pick(256));
        a->buffers.push_back(adopt_vector(bytes));
        return a;
      }
      case TypeId::kList:
      case TypeId::kMap: {
        std::vector<int32_t> offsets{0};
        for (int64_t i = 0; i < n; ++i)
          offsets.push_back(offsets.back() + (valid[size_t(i)] ? int32_t(pick(4)) : 0));
        const int64_t total = offsets.back();
        auto a = std::make_shared<ArrayData>();
        a->type = std::make_shared<DataType>(type);
        a->length = n;
        a->buffers.push_back(validity_of(valid, &a->null_count));
        a->buffers.push_back(adopt_vector(offsets));
        if (type.id == TypeId::kList) {
          a->children.push_back(make(type.children[0], total));
        } else {
          // Entries: unique string keys within each map ("k0", "k1", ...), random values.
          const Field& entries = type.children[0];
          auto e = std::make_shared<ArrayData>();
          e->type = std::make_shared<DataType>(entries.type);
          e->length = total;
          e->buffers.push_back({});
          std::vector<std::string> keys;
          for (int64_t i = 0; i < n; ++i)
            for (int32_t k = 0; k < offsets[size_t(i) + 1] - offsets[size_t(i)]; ++k)
              keys.push_back("k" + std::to_string(k));
          e->children.push_back(make_strings(entries.type.children[0].type, keys));
          e->children.push_back(make(entries.type.children[1], total));
          a->children.push_back(e);
        }
        return a;
      }
      case TypeId::kStruct: {
        auto a = std::make_shared<ArrayData>();
        a->type = std::make_shared<DataType>(type);
        a->length = n;
        a->buffers.push_back(validity_of(valid, &a->null_count));
        for (const Field& child : type.children) a->children.push_back(make(child, n));
        return a;
      }
      default: {
        auto a = std::make_shared<ArrayData>();
        a->type = std::make_shared<DataType>(type);
        a->length = n;
        a->null_count = n;
        return a;
      }
    }
  }

  std::mt19937 rng_;
};

}  // namespace parquetry::testing
