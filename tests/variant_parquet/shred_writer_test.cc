// The shredding writer: variants written shredded (explicit or inferred
// schemas) or unshredded read back value for value; every primitive lands in
// its typed column, mismatches in `value`, residual objects keep only the
// unshredded keys; the written schema is annotated VARIANT(1) and accepted by
// our own reader's validation.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "parquetry/schema.h"
#include "parquetry/variant_builder.h"
#include "parquetry/variant_json.h"
#include "parquetry/variant_parquet.h"
#include "parquetry/variant_writer.h"
#include "parquetry/writer.h"
#include "test_support.h"
#include "variant_cases.h"

namespace parquetry {
namespace {

using namespace variant_testing;
using Kind = VariantShredding::Kind;

std::vector<std::optional<Variant>> views(const std::vector<std::optional<OwnedVariant>>& rows) {
  std::vector<std::optional<Variant>> out;
  for (const auto& row : rows) {
    if (row) {
      out.emplace_back(row->view());
    } else {
      out.emplace_back(std::nullopt);
    }
  }
  return out;
}

std::string temp_file(const std::string& name) {
  static const std::filesystem::path dir = parquetry::testing::temp_dir();  // a fresh one per call
  return (dir / name).string();
}

// Writes rows, reads them back and compares; returns the written column's description.
VariantColumn round_trip(const std::vector<std::optional<OwnedVariant>>& rows,
                         const VariantShredding& shredding, const std::string& name,
                         int64_t batch_rows = 65536) {
  const std::string file = temp_file(name);
  WriterOptions options;
  options.row_group_rows = 1000;
  const auto input = views(rows);
  write_variant_file(file, "var", input, shredding, options, batch_rows);
  const auto got = read_variant_column(file, "var");
  EXPECT_EQ(got.size(), rows.size());
  for (size_t i = 0; i < rows.size() && i < got.size(); ++i) {
    EXPECT_EQ(got[i].has_value(), rows[i].has_value()) << "row " << i;
    if (!got[i] || !rows[i]) continue;
    got[i]->view().validate(kVariantMaxDepth, true);
    EXPECT_TRUE(same_variant(got[i]->view(), rows[i]->view(), name + " row " + std::to_string(i)));
  }
  auto columns = find_variant_columns(file);
  EXPECT_EQ(columns.size(), 1u);
  return columns.empty() ? VariantColumn{} : std::move(columns[0]);
}

OwnedVariant from_json(const std::string& json) {
  VariantBuilder builder;
  VariantJsonParser parser;
  parser.parse(json, builder);
  OwnedVariant out;
  const auto metadata = builder.metadata();
  out.metadata.assign(metadata.begin(), metadata.end());
  out.value.assign(builder.value().begin(), builder.value().end());
  return out;
}

TEST(VariantShredWriter, EveryParquetTestingCaseRoundTripsInferredAndUnshredded) {
  std::vector<std::optional<OwnedVariant>> all;
  int cases = 0;
  for (const Case& c : load_cases()) {
    if (!c.error.empty()) continue;
    std::vector<std::optional<OwnedVariant>> rows;
    for (const auto& file : c.expected_files) {
      if (file) {
        rows.emplace_back(load_expected(*file));
      } else {
        rows.emplace_back(std::nullopt);
      }
    }
    SCOPED_TRACE("case " + std::to_string(c.number));
    const auto input = views(rows);
    const VariantShredding inferred = infer_variant_shredding(input);
    round_trip(rows, inferred, "case-" + std::to_string(c.number) + "-shredded.parquet");
    const VariantColumn plain =
        round_trip(rows, VariantShredding{}, "case-" + std::to_string(c.number) + ".parquet");
    EXPECT_FALSE(plain.shredded());
    EXPECT_TRUE(plain.annotated);
    // Unshredded: `value` is required, so only the optional group defines it.
    auto plain_reader = FileReader::open(temp_file("case-" + std::to_string(c.number) + ".parquet"));
    const ColumnDescriptor* plain_value = plain_reader->schema().find_column("var.value");
    ASSERT_NE(plain_value, nullptr);
    EXPECT_EQ(plain_value->max_definition_level, 1);
    for (auto& row : rows) all.push_back(std::move(row));
    ++cases;
  }
  EXPECT_EQ(cases, 89);
  // All cases in one column: mixed types at every path, so most rows mismatch
  // the inferred schema and go through `value` / residuals.
  const auto input = views(all);
  const VariantShredding inferred = infer_variant_shredding(input);
  EXPECT_NE(inferred.kind, Kind::kNone);
  round_trip(all, inferred, "all-cases.parquet", 7);
}

TEST(VariantShredWriter, PrimitivesLandInTheirTypedColumns) {
  const std::vector<VariantValueType> types = {VariantValueType::kBoolean,
                                               VariantValueType::kInt8,
                                               VariantValueType::kInt16,
                                               VariantValueType::kInt32,
                                               VariantValueType::kInt64,
                                               VariantValueType::kDouble,
                                               VariantValueType::kFloat,
                                               VariantValueType::kDecimal4,
                                               VariantValueType::kDecimal8,
                                               VariantValueType::kDecimal16,
                                               VariantValueType::kDate,
                                               VariantValueType::kTimestampMicros,
                                               VariantValueType::kTimestampNtzMicros,
                                               VariantValueType::kTimestampNanos,
                                               VariantValueType::kTimestampNtzNanos,
                                               VariantValueType::kTimeNtzMicros,
                                               VariantValueType::kBinary,
                                               VariantValueType::kString,
                                               VariantValueType::kUuid};
  auto build = [](VariantValueType type, int k) {
    VariantBuilder b;
    switch (type) {
      case VariantValueType::kBoolean: b.append_boolean(k % 2 == 0); break;
      case VariantValueType::kInt8: b.append_int8(int8_t(-k)); break;
      case VariantValueType::kInt16: b.append_int16(int16_t(1000 + k)); break;
      case VariantValueType::kInt32: b.append_int32(100000 + k); break;
      case VariantValueType::kInt64: b.append_int64(-(int64_t(1) << 40) - k); break;
      case VariantValueType::kDouble: b.append_double(k + 0.25); break;
      case VariantValueType::kFloat: b.append_float(float(k) - 0.5f); break;
      case VariantValueType::kDecimal4: b.append_decimal4(-12345 - k, 2); break;
      case VariantValueType::kDecimal8: b.append_decimal8(123456789012LL + k, 4); break;
      case VariantValueType::kDecimal16: b.append_decimal16(__int128(1) << 100, 10); break;
      case VariantValueType::kDate: b.append_date(19000 + k); break;
      case VariantValueType::kTimestampMicros: b.append_timestamp_micros(1700000000000000LL + k); break;
      case VariantValueType::kTimestampNtzMicros: b.append_timestamp_ntz_micros(-k); break;
      case VariantValueType::kTimestampNanos: b.append_timestamp_nanos(1700000000000000123LL + k); break;
      case VariantValueType::kTimestampNtzNanos: b.append_timestamp_ntz_nanos(k); break;
      case VariantValueType::kTimeNtzMicros: b.append_time_ntz_micros(3600000000LL + k); break;
      case VariantValueType::kBinary: {
        const uint8_t bytes[3] = {0, uint8_t(k), 255};
        b.append_binary(bytes);
        break;
      }
      case VariantValueType::kString: b.append_string(std::string(size_t(k * 10), 'x')); break;
      case VariantValueType::kUuid: {
        std::array<uint8_t, 16> uuid{};
        for (int i = 0; i < 16; ++i) uuid[size_t(i)] = uint8_t(i * 16 + k);
        b.append_uuid(uuid);
        break;
      }
      default: break;
    }
    OwnedVariant out;
    const auto md = b.metadata();
    out.metadata.assign(md.begin(), md.end());
    out.value.assign(b.value().begin(), b.value().end());
    return out;
  };
  for (VariantValueType type : types) {
    SCOPED_TRACE(variant_type_name(type));
    std::vector<std::optional<OwnedVariant>> rows;
    for (int k = 0; k < 8; ++k) rows.emplace_back(build(type, k));
    rows.emplace_back(from_json("\"mismatch\""));
    rows.emplace_back(from_json("{\"a\": 1}"));
    rows.emplace_back(from_json("null"));
    rows.emplace_back(std::nullopt);
    const auto input = views(rows);
    const VariantShredding inferred = infer_variant_shredding(input);
    ASSERT_EQ(inferred.kind, Kind::kPrimitive);
    EXPECT_EQ(inferred.type, type);
    const std::string name = std::string("primitive-") + variant_type_name(type) + ".parquet";
    const VariantColumn column = round_trip(rows, inferred, name);
    ASSERT_EQ(column.root.kind, VariantShredKind::kPrimitive);
    EXPECT_TRUE(column.annotated);

    // The typed column holds the 8 matching rows, `value` the 3 others (the
    // string row lands in value unless the level is a string level).
    auto reader = FileReader::open(temp_file(name));
    const auto batches = reader->read_all();
    int64_t typed = 0, value = 0;
    for (const RecordBatch& batch : batches) {
      const ArrayData& group = *batch.columns[0];
      const ArrayData& v = *group.children[1];
      const ArrayData& t = *group.children[2];
      for (int64_t r = 0; r < batch.num_rows; ++r) {
        typed += t.is_valid(r) ? 1 : 0;
        value += v.is_valid(r) ? 1 : 0;
      }
    }
    EXPECT_EQ(typed, type == VariantValueType::kString ? 9 : 8);
    EXPECT_EQ(value, type == VariantValueType::kString ? 2 : 3);
  }
}

TEST(VariantShredWriter, ExplicitObjectSchemaKeepsOnlyUnshreddedKeysInTheResidual) {
  const VariantShredding shredding = VariantShredding::object({
      {"id", VariantShredding::primitive(VariantValueType::kInt64)},
      {"name", VariantShredding::primitive(VariantValueType::kString)},
      {"tags", VariantShredding::array(VariantShredding::primitive(VariantValueType::kString))},
      {"where", VariantShredding::object({{"city", VariantShredding::primitive(VariantValueType::kString)}})},
  });
  EXPECT_EQ(shredding.to_string(),
            "object{id: int64, name: string, tags: array<string>, where: object{city: string}}");
  std::vector<std::optional<OwnedVariant>> rows;
  auto int64_object = [](int64_t id, const std::string& extra_key) {
    VariantBuilder b;
    b.start_object();
    b.field("id");
    b.append_int64(id);
    b.field("name");
    b.append_string("n" + std::to_string(id));
    if (!extra_key.empty()) {
      b.field(extra_key);
      b.append_boolean(true);
    }
    b.finish_object();
    OwnedVariant out;
    const auto md = b.metadata();
    out.metadata.assign(md.begin(), md.end());
    out.value.assign(b.value().begin(), b.value().end());
    return out;
  };
  rows.emplace_back(int64_object(1, ""));
  rows.emplace_back(int64_object(2, "zzz"));
  rows.emplace_back(int64_object(3, "aaa"));
  rows.emplace_back(
      from_json(R"({"id": "seven", "tags": ["a", null, 3, "b"], "where": {"city": "Oslo", "zip": 150}})"));
  rows.emplace_back(from_json(R"({"where": 5, "other": {"deep": [1, 2]}})"));
  rows.emplace_back(from_json(R"([1, 2, 3])"));
  rows.emplace_back(from_json(R"({})"));
  rows.emplace_back(from_json(R"(null)"));
  rows.emplace_back(std::nullopt);
  const std::string name = "explicit-object.parquet";
  const VariantColumn column = round_trip(rows, shredding, name);
  ASSERT_EQ(column.root.kind, VariantShredKind::kObject);
  ASSERT_NE(column.root.field("where"), nullptr);
  EXPECT_EQ(column.root.field("where")->kind, VariantShredKind::kObject);
  ASSERT_NE(column.root.field("tags"), nullptr);
  EXPECT_EQ(column.root.field("tags")->kind, VariantShredKind::kArray);

  // The residual `value` of the top level: null when every key is shredded,
  // else an object of just the other keys.
  auto reader = FileReader::open(temp_file(name));
  const auto batches = reader->read_all();
  ASSERT_EQ(batches.size(), 1u);
  const ArrayData& group = *batches[0].columns[0];
  const ArrayData& metadata = *group.children[0];
  const ArrayData& value = *group.children[1];
  auto residual_json = [&](int64_t row) -> std::string {
    if (!value.is_valid(row)) return "<null>";
    const int32_t* mo = metadata.buffers[1].as<int32_t>();
    const int32_t* vo = value.buffers[1].as<int32_t>();
    VariantMetadata md(
        std::span<const uint8_t>(metadata.buffers[2].data + mo[row], size_t(mo[row + 1] - mo[row])));
    Variant v(md, std::span<const uint8_t>(value.buffers[2].data + vo[row], size_t(vo[row + 1] - vo[row])));
    v.validate(kVariantMaxDepth, true);
    return variant_to_json(v);
  };
  EXPECT_EQ(residual_json(0), "<null>");
  EXPECT_EQ(residual_json(1), R"({"zzz":true})");
  EXPECT_EQ(residual_json(2), R"({"aaa":true})");
  EXPECT_EQ(residual_json(3), "<null>");  // "id" mismatches into its own field group, not the residual
  EXPECT_EQ(residual_json(4), R"({"other":{"deep":[1,2]}})");
  EXPECT_EQ(residual_json(5), "[1,2,3]");  // not an object: all in value
  EXPECT_EQ(residual_json(6), "<null>");   // {}: typed_value with every field missing
  EXPECT_EQ(residual_json(7), "null");     // Variant null
  EXPECT_EQ(residual_json(8), "<null>");   // SQL NULL
}

TEST(VariantShredWriter, InferenceTakesTheMostFrequentTypePerPath) {
  std::vector<std::optional<OwnedVariant>> rows;
  for (int i = 0; i < 10; ++i) {
    rows.emplace_back(
        from_json(R"({"a": )" + std::to_string(1000 + i) + R"(, "b": "s", "c": [1.5, 2.5], "d": null})"));
  }
  rows.emplace_back(from_json(R"({"a": "text", "b": 1})"));
  rows.emplace_back(from_json(R"({"a": {"x": 1}})"));
  const auto input = views(rows);
  const VariantShredding inferred = infer_variant_shredding(input);
  // 1000..1009 are int16 from JSON; 1.5 is decimal4 scale 1; "d" only ever null.
  EXPECT_EQ(inferred.to_string(), "object{a: int16, b: string, c: array<decimal4(1)>}");
  VariantInferenceOptions options;
  options.max_depth = 0;
  EXPECT_EQ(infer_variant_shredding(input, options).kind, Kind::kNone);
  options = {};
  options.max_fields = 1;
  EXPECT_EQ(infer_variant_shredding(input, options).to_string(), "object{a: int16}");
  options = {};
  options.max_rows = 0;
  EXPECT_EQ(infer_variant_shredding(input, options).kind, Kind::kNone);
  round_trip(rows, inferred, "inferred.parquet");
}

TEST(VariantShredWriter, ReadBatchesWriteBackAsVariantColumns) {
  // A parquet-testing file (shredded object, annotated VARIANT) read into
  // batches and written back: the struct carries the extension name, so the
  // copy is annotated again and rebuilds to the same variants.
  const std::string source = case_path("case-044.parquet").string();
  auto reader = FileReader::open(source);
  const auto schema = reader->batch_schema();
  const Field& var = schema->fields.at(size_t(schema->field_index("var")));
  EXPECT_EQ(var.type.extension_name, kVariantExtensionName);
  const std::string copy = temp_file("case-044-copy.parquet");
  auto writer = FileWriter::open(copy, *schema);
  for (const RecordBatch& batch : reader->read_all()) writer->write(batch);
  writer->close();
  bool annotated = false;
  for (const SchemaElement& element : writer->schema_elements()) {
    if (element.name == "var") {
      annotated = element.logical_type && element.logical_type->is<VariantType>() &&
                  element.logical_type->get_if<VariantType>()->specification_version == int8_t(1);
    }
  }
  EXPECT_TRUE(annotated);
  const auto columns = find_variant_columns(copy);
  ASSERT_EQ(columns.size(), 1u);
  EXPECT_TRUE(columns[0].annotated);
  const auto expected = read_variant_column(source, "var");
  const auto got = read_variant_column(copy, "var");
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].has_value(), expected[i].has_value());
    if (got[i]) {
      EXPECT_TRUE(same_variant(got[i]->view(), expected[i]->view(), "row " + std::to_string(i)));
    }
  }
}

TEST(VariantShredWriter, InvalidShreddingsAreRejected) {
  EXPECT_THROW(variant_arrow_type(VariantShredding::object({})), Error);
  EXPECT_THROW(variant_arrow_type(VariantShredding::primitive(VariantValueType::kObject)), Error);
  EXPECT_THROW(variant_arrow_type(VariantShredding::primitive(VariantValueType::kDecimal4, 10)), Error);
  VariantShredding broken_array;
  broken_array.kind = Kind::kArray;
  EXPECT_THROW(variant_arrow_type(broken_array), Error);
  // A struct marked variant without a proper metadata child cannot be written.
  DataType bad = DataType::struct_({Field{"value", DataType::make(TypeId::kBinary), true, -1, {}}});
  bad.extension_name = kVariantExtensionName;
  BatchSchema schema;
  schema.fields.push_back(Field{"v", bad, true, -1, {}});
  EXPECT_THROW(parquet_schema_for(schema), Error);
}

// Random JSON documents of a loosely shared shape: stable keys with a
// dominant type, occasional type changes, extra keys, nested arrays.
std::string random_json(std::mt19937_64& rng, int depth) {
  auto pick = [&](int n) { return int(rng() % uint64_t(n)); };
  auto scalar = [&]() -> std::string {
    switch (pick(7)) {
      case 0: return std::to_string(int64_t(rng() % 100000) - 50000);
      case 1: return "\"s" + std::to_string(pick(1000)) + "\"";
      case 2: return pick(2) ? "true" : "false";
      case 3: return "null";
      case 4: return std::to_string(pick(1000)) + ".25";
      case 5: return "1e" + std::to_string(pick(30) + 20);
      default: return std::to_string(pick(100));
    }
  };
  if (depth >= 3) return scalar();
  std::string out = "{";
  const char* keys[] = {"id", "kind", "score", "tags", "child", "rare"};
  bool first = true;
  for (const char* key : keys) {
    if (pick(5) == 0) continue;  // key absent
    if (!first) out += ",";
    first = false;
    out += "\"" + std::string(key) + "\":";
    const std::string k = key;
    if (pick(8) == 0) {
      out += scalar();  // a type change
    } else if (k == "id") {
      out += std::to_string(pick(100));
    } else if (k == "kind") {
      out += "\"k" + std::to_string(pick(5)) + "\"";
    } else if (k == "score") {
      out += std::to_string(pick(100)) + ".5";
    } else if (k == "tags") {
      out += "[";
      const int n = pick(4);
      for (int i = 0; i < n; ++i)
        out += (i ? "," : "") + (pick(6) ? "\"t" + std::to_string(i) + "\"" : scalar());
      out += "]";
    } else if (k == "child") {
      out += random_json(rng, depth + 1);
    } else {
      out += "{\"x" + std::to_string(pick(3)) + "\":" + scalar() + "}";
    }
  }
  return out + "}";
}

TEST(VariantShredWriter, RandomJsonRoundTripsThroughInferredShredding) {
  std::mt19937_64 rng(7);
  std::vector<std::optional<OwnedVariant>> rows;
  for (int i = 0; i < 3000; ++i) {
    if (i % 97 == 0) {
      rows.emplace_back(std::nullopt);
    } else if (i % 89 == 0) {
      rows.emplace_back(from_json("[1, {\"id\": 2}]"));
    } else {
      rows.emplace_back(from_json(random_json(rng, 0)));
    }
  }
  const auto input = views(rows);
  VariantInferenceOptions options;
  options.max_rows = 200;
  const VariantShredding inferred = infer_variant_shredding(input, options);
  ASSERT_EQ(inferred.kind, Kind::kObject);
  const VariantColumn column = round_trip(rows, inferred, "random-json.parquet", 512);
  EXPECT_TRUE(column.shredded());
  round_trip(rows, VariantShredding{}, "random-json-plain.parquet", 512);
  // variant_get agrees with extraction from the input on the shredded file.
  for (const char* path : {"id", "kind", "child.kind", "child.child.tags", "rare", "missing"}) {
    SCOPED_TRACE(path);
    const VariantGetResult got = variant_get(temp_file("random-json.parquet"), "var", path);
    ASSERT_EQ(got.values.size(), rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      const std::optional<Variant> want =
          rows[i] ? variant_find_path(rows[i]->view(), split_variant_path(path)) : std::nullopt;
      ASSERT_EQ(got.values[i].has_value(), want.has_value()) << "row " << i;
      if (want) {
        EXPECT_TRUE(same_variant(got.values[i]->view(), *want, path));
      }
    }
  }
}

}  // namespace
}  // namespace parquetry
