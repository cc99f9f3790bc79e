// The generic row reader against the columnar reader, on every public file.
#include <gtest/gtest.h>

#include <cmath>

#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "parquetry/record.h"
#include "parquetry/table/json_values.h"
#include "parquetry/util/json_writer.h"
#include "test_support.h"

namespace parquetry {
namespace {

// Renders a value using only ValueRef's typed accessors, so the comparison
// with the columnar JSON rendering checks the accessors and the navigation
// (struct fields, list elements, map entries) rather than one shared routine.
void render(JsonWriter& out, const ValueRef& v) {
  if (v.is_null()) {
    out.null();
    return;
  }
  switch (v.value_type_id()) {
    case TypeId::kBool: out.boolean(v.as_bool()); return;
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32: out.int64(v.as_int64()); return;
    case TypeId::kUInt64: out.uint64(v.as_uint64()); return;
    case TypeId::kFloat32:
    case TypeId::kFloat64: {
      // Non-finite values print as the strings the columnar rendering uses.
      const double d = v.as_double();
      if (std::isnan(d)) {
        out.string("NaN");
      } else if (std::isinf(d)) {
        out.string(d > 0 ? "Infinity" : "-Infinity");
      } else {
        out.number(d);
      }
      return;
    }
    case TypeId::kString:
    case TypeId::kLargeString:
    case TypeId::kStringView: out.string(v.as_string()); return;
    case TypeId::kStruct: {
      out.begin_object();
      const DataType& type = v.value_type_id() == v.type().id ? v.type() : *v.type().dictionary_value;
      for (int64_t f = 0; f < v.size(); ++f) {
        out.key(type.children[size_t(f)].name);
        render(out, v[f]);
      }
      out.end_object();
      return;
    }
    case TypeId::kList:
    case TypeId::kLargeList:
      out.begin_array();
      for (int64_t i = 0; i < v.size(); ++i) render(out, v[i]);
      out.end_array();
      return;
    case TypeId::kMap:
      // Maps render as a list of {"key", "value"} objects.
      out.begin_array();
      for (int64_t i = 0; i < v.size(); ++i) {
        out.begin_object().key("key");
        render(out, v.key(i));
        out.key("value");
        render(out, v.value(i));
        out.end_object();
      }
      out.end_array();
      return;
    default: out.raw(v.to_json()); return;  // temporal, decimal, binary: text forms
  }
}

TEST(RowReader, EveryPublicFileMatchesTheColumnarReader) {
  int files = 0;
  int64_t rows_checked = 0;
  for (const auto& path : testing::public_parquet_files()) {
    std::unique_ptr<FileReader> columnar;
    try {
      columnar = FileReader::open(path.string());
    } catch (const Error&) {
      continue;  // files the reader refuses (encrypted, LZO...) are covered elsewhere
    }
    std::vector<RecordBatch> batches;
    try {
      auto stream = columnar->batches();
      RecordBatch batch;
      while (stream->next(batch)) batches.push_back(batch);
    } catch (const Error&) {
      continue;
    }
    SCOPED_TRACE(path.string());
    auto rows = RowReader::open(path.string());
    Row row;
    for (const RecordBatch& batch : batches) {
      for (int64_t r = 0; r < batch.num_rows; ++r) {
        ASSERT_TRUE(rows->next(row)) << "row reader ended early";
        JsonWriter expected;
        write_json_row(expected, batch, r);
        ASSERT_EQ(row.to_json(), expected.str());
        for (int c = 0; c < row.num_fields(); ++c) {
          JsonWriter want;
          write_json_value(want, *batch.columns[size_t(c)], r);
          JsonWriter got;
          render(got, row[c]);
          // Floats: the accessor and the columnar path print the same shortest form.
          ASSERT_EQ(got.str(), want.str())
              << "column " << batch.schema->fields[size_t(c)].name << " row " << r;
          // By name too.
          ASSERT_EQ(row[batch.schema->fields[size_t(c)].name].to_json(), want.str());
        }
        ++rows_checked;
      }
    }
    EXPECT_FALSE(rows->next(row)) << "row reader has extra rows";
    ++files;
  }
  EXPECT_GE(files, 40);
  EXPECT_GT(rows_checked, 10000);
}

TEST(RowReader, TypedAccessorsOnAllTypesPlain) {
  auto rows = RowReader::open(testing::parquet_testing("data/alltypes_plain.parquet").string());
  const std::vector<int64_t> ids = {4, 5, 6, 7, 2, 3, 0, 1};
  Row row;
  for (size_t i = 0; i < ids.size(); ++i) {
    ASSERT_TRUE(rows->next(row));
    EXPECT_EQ(row["id"].as_int64(), ids[i]);
    EXPECT_EQ(row["bool_col"].as_bool(), i % 2 == 0);
    EXPECT_EQ(row["bigint_col"].as_int64(), int64_t(10 * (i % 2)));
    EXPECT_DOUBLE_EQ(row["double_col"].as_double(), 10.1 * double(i % 2));
    EXPECT_EQ(row["string_col"].as_string(), i % 2 ? "1" : "0");
    EXPECT_THROW(row["string_col"].as_int64(), Error);
    EXPECT_THROW(row["no_such_column"], Error);
  }
  EXPECT_FALSE(rows->next(row));
}

TEST(RowReader, NestedNavigationOnNestedMaps) {
  // nested_maps: a map<string, map<int32, bool>>, b int32, c double.
  auto rows = RowReader::open(testing::parquet_testing("data/nested_maps.snappy.parquet").string());
  Row row;
  ASSERT_TRUE(rows->next(row));
  const ValueRef a = row["a"];
  ASSERT_EQ(a.size(), 1);
  EXPECT_EQ(a.key(0).as_string(), "a");
  const ValueRef inner = a.value(0);
  ASSERT_EQ(inner.size(), 2);
  EXPECT_EQ(inner.key(0).as_int64(), 1);
  EXPECT_TRUE(inner.value(0).as_bool());
  EXPECT_EQ(inner.key(1).as_int64(), 2);
  EXPECT_FALSE(inner.value(1).as_bool());
  EXPECT_EQ(row["b"].as_int64(), 1);
  EXPECT_DOUBLE_EQ(row["c"].as_double(), 1.0);
}

TEST(RowReader, FilterAndProjection) {
  RowReaderOptions options;
  options.columns = {"id", "string_col"};
  options.filter = col("id") >= int64_t(5);
  auto rows = RowReader::open(testing::parquet_testing("data/alltypes_plain.parquet").string(), options);
  ASSERT_EQ(rows->schema()->fields.size(), 2u);
  std::vector<int64_t> ids;
  Row row;
  while (rows->next(row)) ids.push_back(row["id"].as_int64());
  EXPECT_EQ(ids, (std::vector<int64_t>{5, 6, 7}));
}

}  // namespace
}  // namespace parquetry
