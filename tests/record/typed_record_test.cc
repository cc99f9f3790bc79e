// Typed readers and writers, and the generic row writer.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <random>

#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "parquetry/record.h"
#include "parquetry/typed_record.h"
#include "test_support.h"

namespace parquetry {
namespace {

struct Plain {
  int32_t id = 0;
  bool flag = false;
  int64_t big = 0;      // read from an int64 column
  int64_t widened = 0;  // read from an int32 column
  double value = 0;
  std::string text;
};

RecordLayout<Plain> plain_layout() {
  return RecordLayout<Plain>()
      .field("id", &Plain::id)
      .field("bool_col", &Plain::flag)
      .field("bigint_col", &Plain::big)
      .field("int_col", &Plain::widened)
      .field("double_col", &Plain::value)
      .field("string_col", &Plain::text);
}

TEST(TypedReader, ReadsAllTypesPlainIntoAStruct) {
  auto reader = TypedReader<Plain>::open(testing::parquet_testing("data/alltypes_plain.parquet").string(),
                                         plain_layout());
  std::vector<Plain> all;
  Plain p;
  while (reader->next(p)) all.push_back(p);
  const std::vector<int32_t> ids = {4, 5, 6, 7, 2, 3, 0, 1};
  ASSERT_EQ(all.size(), ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    EXPECT_EQ(all[i].id, ids[i]);
    EXPECT_EQ(all[i].flag, i % 2 == 0);
    EXPECT_EQ(all[i].big, int64_t(10 * (i % 2)));
    EXPECT_EQ(all[i].widened, int64_t(i % 2));
    EXPECT_DOUBLE_EQ(all[i].value, 10.1 * double(i % 2));
    EXPECT_EQ(all[i].text, i % 2 ? "1" : "0");
  }
}

// A timestamp column read into an int64_t member holds the count in the
// column's unit, as the columnar reader stores it (the copy-from-buffer path
// takes timestamps as well as plain int64 columns).
struct Stamped {
  int32_t id = 0;
  int64_t stamp = 0;
  std::optional<int64_t> maybe_stamp;
};

TEST(TypedReader, TimestampIntoInt64IsTheStoredCount) {
  const std::string path = testing::parquet_testing("data/alltypes_plain.parquet").string();
  auto reader = TypedReader<Stamped>::open(path, RecordLayout<Stamped>()
                                                     .field("id", &Stamped::id)
                                                     .field("timestamp_col", &Stamped::stamp)
                                                     .field("timestamp_col", &Stamped::maybe_stamp));
  std::vector<Stamped> all;
  Stamped s;
  while (reader->next(s)) all.push_back(s);
  auto columnar = FileReader::open(path);
  ASSERT_EQ(columnar->num_row_groups(), 1);
  const RecordBatch batch = columnar->read_row_group(0);
  const int field = batch.schema->field_index("timestamp_col");
  ASSERT_GE(field, 0);
  const ArrayData& stamps = *batch.columns[size_t(field)];
  ASSERT_EQ(stamps.type->id, TypeId::kTimestamp);
  ASSERT_EQ(int64_t(all.size()), stamps.length);
  const int64_t* counts = reinterpret_cast<const int64_t*>(stamps.buffers[1].data) + stamps.offset;
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].stamp, counts[i]) << "row " << i;
    ASSERT_TRUE(all[i].maybe_stamp.has_value());
    EXPECT_EQ(*all[i].maybe_stamp, counts[i]);
  }
  // 2009-03-01 00:00:00 (the first row, id 4) in the column's unit.
  EXPECT_EQ(all[0].id, 4);
  const int64_t per_second = stamps.type->unit == ArrowTimeUnit::kNano ? 1000000000 : 1000000;
  EXPECT_EQ(all[0].stamp, int64_t(1235865600) * per_second);
}

TEST(TypedReader, FilterSelectsRows) {
  TypedReaderOptions options;
  options.filter = col("id") < int64_t(3);
  auto reader = TypedReader<Plain>::open(testing::parquet_testing("data/alltypes_plain.parquet").string(),
                                         plain_layout(), options);
  std::vector<Plain> batch;
  std::vector<int32_t> ids;
  while (reader->next_batch(batch)) {
    for (const Plain& p : batch) ids.push_back(p.id);
  }
  EXPECT_EQ(ids, (std::vector<int32_t>{2, 0, 1}));
}

struct Narrow {
  int32_t big = 0;
};
struct Missing {
  int32_t id = 0;
};
struct WrongKind {
  std::string id;
};

TEST(TypedReader, RejectsAStructThatDoesNotMatchTheSchema) {
  const std::string file = testing::parquet_testing("data/alltypes_plain.parquet").string();
  try {
    TypedReader<Narrow>::open(file, RecordLayout<Narrow>().field("bigint_col", &Narrow::big));
    FAIL() << "an int64 column was bound to an int32 member";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("bigint_col"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("int64"), std::string::npos) << e.what();
  }
  EXPECT_THROW(TypedReader<Missing>::open(file, RecordLayout<Missing>().field("nope", &Missing::id)), Error);
  EXPECT_THROW(TypedReader<WrongKind>::open(file, RecordLayout<WrongKind>().field("id", &WrongKind::id)),
               Error);
}

// Every member kind, nested paths, nulls, lists.
struct Wide {
  int8_t i8 = 0;
  uint16_t u16 = 0;
  int32_t i32 = 0;
  uint64_t u64 = 0;
  float f32 = 0;
  double f64 = 0;
  bool flag = false;
  std::string name;
  std::optional<int64_t> maybe;
  std::optional<std::string> maybe_text;
  std::vector<int32_t> numbers;
  std::vector<std::optional<std::string>> words;
  double x = 0;             // point.x
  std::optional<double> y;  // point.y
  bool operator==(const Wide&) const = default;
};

RecordLayout<Wide> wide_layout() {
  return RecordLayout<Wide>()
      .field("i8", &Wide::i8)
      .field("u16", &Wide::u16)
      .field("i32", &Wide::i32)
      .field("u64", &Wide::u64)
      .field("f32", &Wide::f32)
      .field("f64", &Wide::f64)
      .field("flag", &Wide::flag)
      .field("name", &Wide::name)
      .field("maybe", &Wide::maybe)
      .field("maybe_text", &Wide::maybe_text)
      .field("numbers", &Wide::numbers)
      .field("words", &Wide::words)
      .field("point.x", &Wide::x)
      .field("point.y", &Wide::y);
}

std::vector<Wide> random_wide(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Wide> rows(n);
  for (Wide& w : rows) {
    w.i8 = int8_t(rng());
    w.u16 = uint16_t(rng());
    w.i32 = int32_t(rng());
    w.u64 = rng();
    w.f32 = float(int32_t(rng() % 100000)) / 8.0f;
    w.f64 = double(int64_t(rng() % 1000000)) / 16.0;
    w.flag = rng() & 1;
    w.name = "name-" + std::to_string(rng() % 1000);
    if (rng() % 3) w.maybe = int64_t(rng());
    if (rng() % 4) w.maybe_text = std::string(size_t(rng() % 20), char('a' + rng() % 26));
    for (size_t k = rng() % 5; k > 0; --k) w.numbers.push_back(int32_t(rng() % 1000) - 500);
    for (size_t k = rng() % 4; k > 0; --k) {
      w.words.push_back(rng() % 5 ? std::optional<std::string>("w" + std::to_string(rng() % 50))
                                  : std::nullopt);
    }
    w.x = double(rng() % 1000) / 4.0;
    if (rng() % 2) w.y = -double(rng() % 1000) / 8.0;
  }
  return rows;
}

TEST(TypedWriter, RoundTripsEveryMemberKind) {
  const auto path = (testing::temp_dir() / "typed_wide.parquet").string();
  const std::vector<Wide> rows = random_wide(5000, 7);
  WriterOptions options;
  options.row_group_rows = 1500;  // several row groups and batches
  auto writer = TypedWriter<Wide>::open(path, wide_layout(), options, /*batch_rows=*/700);
  writer->write(std::span<const Wide>(rows));
  EXPECT_EQ(writer->num_rows(), 5000);
  writer->close();

  // The schema: required scalars, optional members nullable, a required struct.
  auto file = FileReader::open(path);
  const BatchSchema& schema = *file->batch_schema();
  ASSERT_EQ(schema.fields.size(), 13u);  // point.x and point.y share one struct
  EXPECT_FALSE(schema.fields[0].nullable);
  EXPECT_EQ(schema.fields[0].type.id, TypeId::kInt8);
  EXPECT_EQ(schema.fields[3].type.id, TypeId::kUInt64);
  EXPECT_TRUE(schema.fields[8].nullable);
  EXPECT_EQ(schema.fields[12].name, "point");
  EXPECT_EQ(schema.fields[12].type.id, TypeId::kStruct);
  EXPECT_EQ(file->metadata().row_groups.size(), 4u);

  auto reader = TypedReader<Wide>::open(path, wide_layout());
  std::vector<Wide> back;
  Wide w;
  while (reader->next(w)) back.push_back(w);
  ASSERT_EQ(back.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) ASSERT_EQ(back[i], rows[i]) << "row " << i;

  // The generic reader sees the same values.
  auto generic = RowReader::open(path);
  Row row;
  ASSERT_TRUE(generic->next(row));
  EXPECT_EQ(row["name"].as_string(), rows[0].name);
  EXPECT_EQ(row["u64"].as_uint64(), rows[0].u64);
  EXPECT_DOUBLE_EQ(row["point.x"].as_double(), rows[0].x);
  EXPECT_EQ(row["numbers"].size(), int64_t(rows[0].numbers.size()));
}

// The typed reader asks the scan for dictionary arrays, and members take
// dictionary entries by index: low-cardinality columns with nulls, over
// several batches and the 64-record tiles inside them, read back exactly.
struct Coded {
  int64_t id = 0;
  std::optional<double> fare;
  std::optional<std::string> flag;
  std::optional<int64_t> zone;
};

TEST(TypedReader, DictionaryColumnsWithNullsReadBackExactly) {
  const auto path = (testing::temp_dir() / "typed_dictionary.parquet").string();
  const auto layout = RecordLayout<Coded>()
                          .field("id", &Coded::id)
                          .field("fare", &Coded::fare)
                          .field("flag", &Coded::flag)
                          .field("zone", &Coded::zone);
  std::mt19937 rng(53);
  std::vector<Coded> rows(3000);
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].id = int64_t(i);
    if (rng() % 7 != 0) rows[i].fare = double(rng() % 40) / 4.0;
    if (rng() % 5 != 0) rows[i].flag = rng() % 2 ? "Y" : "N";
    if (rng() % 3 != 0) rows[i].zone = int64_t(100 + rng() % 20);
  }
  auto writer = TypedWriter<Coded>::open(path, layout);
  writer->write(std::span<const Coded>(rows));
  writer->close();
  // The three coded columns are dictionary-encoded, so their path is the one read.
  auto file = FileReader::open(path);
  for (size_t c = 1; c < 4; ++c) {
    const auto& encodings = file->metadata().row_groups[0].columns[c].meta_data->encodings;
    EXPECT_NE(std::find(encodings.begin(), encodings.end(), Encoding::RLE_DICTIONARY), encodings.end())
        << "column " << c;
  }
  TypedReaderOptions options;
  options.batch_rows = 1000;  // batches end inside tiles
  auto reader = TypedReader<Coded>::open(path, layout, options);
  std::vector<Coded> back, batch;
  while (reader->next_batch(batch)) back.insert(back.end(), batch.begin(), batch.end());
  ASSERT_EQ(back.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(back[i].id, rows[i].id);
    EXPECT_EQ(back[i].fare, rows[i].fare) << "row " << i;
    EXPECT_EQ(back[i].flag, rows[i].flag) << "row " << i;
    EXPECT_EQ(back[i].zone, rows[i].zone) << "row " << i;
  }
}

TEST(TypedReader, NullIntoANonOptionalMemberIsAnError) {
  const auto path = (testing::temp_dir() / "typed_nulls.parquet").string();
  struct Opt {
    std::optional<int32_t> v;
  };
  auto writer = TypedWriter<Opt>::open(path, RecordLayout<Opt>().field("v", &Opt::v));
  writer->write(Opt{1});
  writer->write(Opt{std::nullopt});
  writer->close();
  struct Req {
    int32_t v = 0;
  };
  auto reader = TypedReader<Req>::open(path, RecordLayout<Req>().field("v", &Req::v));
  Req r;
  try {
    reader->next(r);
    FAIL() << "a null was read into an int32 member";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("non-optional"), std::string::npos) << e.what();
  }
}

Field field(std::string name, DataType type, bool nullable) {
  Field f;
  f.name = std::move(name);
  f.type = std::move(type);
  f.nullable = nullable;
  return f;
}

TEST(RowWriter, RoundTripsNestedDatumsAndRejectsBadRowsWhole) {
  BatchSchema schema;
  schema.fields.push_back(field("id", DataType::make(TypeId::kInt64), false));
  schema.fields.push_back(field("name", DataType::make(TypeId::kString), true));
  schema.fields.push_back(field("price", DataType::decimal(9, 2), true));
  schema.fields.push_back(
      field("tags", DataType::list(field("element", DataType::make(TypeId::kString), true)), true));
  schema.fields.push_back(field("attrs",
                                DataType::map(field("key", DataType::make(TypeId::kString), false),
                                              field("value", DataType::make(TypeId::kInt32), true)),
                                true));
  schema.fields.push_back(field("pos",
                                DataType::struct_({field("lat", DataType::make(TypeId::kFloat64), false),
                                                   field("lon", DataType::make(TypeId::kFloat64), false)}),
                                true));
  const auto path = (testing::temp_dir() / "rows.parquet").string();
  auto writer = RowWriter::open(path, schema, {}, /*batch_rows=*/3);
  std::vector<std::vector<Datum>> rows;
  for (int64_t i = 0; i < 10; ++i) {
    rows.push_back({Datum(i), i % 3 ? Datum("n" + std::to_string(i)) : Datum(),
                    Datum(std::to_string(i) + ".5"),
                    Datum::list({Datum("a"), Datum(), Datum("t" + std::to_string(i))}),
                    Datum::list({Datum::list({Datum("k"), Datum(i * 2)})}),
                    i % 4 ? Datum::list({Datum(1.5 * double(i)), Datum(-2.0)}) : Datum()});
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    writer->write(rows[i]);
    if (i == 4) {
      // A bad value in the last column: nothing of the row may be written.
      std::vector<Datum> bad = rows[i];
      bad[5] = Datum::list({Datum("not a double"), Datum(1.0)});
      EXPECT_THROW(writer->write(bad), Error);
      bad = rows[i];
      bad[2] = Datum("1234567890.5");  // beyond precision 9
      EXPECT_THROW(writer->write(bad), Error);
      bad[0] = Datum();  // null in a required column
      EXPECT_THROW(writer->write(bad), Error);
    }
  }
  writer->close();
  EXPECT_EQ(writer->num_rows(), 10);

  auto reader = RowReader::open(path);
  Row row;
  for (size_t i = 0; i < rows.size(); ++i) {
    ASSERT_TRUE(reader->next(row));
    std::vector<Datum> got;
    for (int c = 0; c < row.num_fields(); ++c) got.push_back(row[c].to_datum());
    // Decimals come back as text at the column's scale.
    std::vector<Datum> want = rows[i];
    want[2] = Datum(std::to_string(i) + ".50");
    EXPECT_EQ(got, want) << "row " << i << ": " << row.to_json();
  }
  EXPECT_FALSE(reader->next(row));
}

}  // namespace
}  // namespace parquetry
