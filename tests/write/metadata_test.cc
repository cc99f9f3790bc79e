// What the writer puts beside the values: chunk statistics in each type's
// order, truncated byte-array bounds, page indexes, Bloom filters, page
// boundaries at records, and atomic output.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <random>

#include "parquetry/arrow_c.h"
#include "parquetry/arrow_export.h"
#include "parquetry/error.h"
#include "parquetry/version.h"
#include "write_test_support.h"

namespace parquetry {
namespace {

using testing::make_batch;
using testing::make_fixed;
using testing::make_strings;

template <typename T>
T load_as(std::string_view bytes) {
  EXPECT_EQ(bytes.size(), sizeof(T));
  T v{};
  std::memcpy(&v, bytes.data(), std::min(bytes.size(), sizeof(T)));
  return v;
}

struct Written {
  std::vector<uint8_t> bytes;
  FileMetaData metadata;
};

Written write_one(const BatchSchema& schema, std::vector<std::shared_ptr<ArrayData>> columns,
                  const WriterOptions& options) {
  auto shared = std::make_shared<const BatchSchema>(schema);
  Written w;
  w.bytes = testing::write_to_memory(schema, {make_batch(shared, std::move(columns))}, options);
  w.metadata = testing::open_memory(w.bytes)->metadata();
  return w;
}

std::span<const uint8_t> at(const std::vector<uint8_t>& bytes, int64_t offset, int64_t length) {
  return std::span<const uint8_t>(bytes).subspan(size_t(offset), size_t(length));
}

// "parquetry version X.Y.Z (build <12 hex>[-dirty]|unknown)", checked by hand:
// std::regex trips GCC 12's -Wmaybe-uninitialized under the sanitizer preset.
bool is_release_form(const std::string& s) {
  const std::string prefix = "parquetry version ";
  if (s.rfind(prefix, 0) != 0) return false;
  size_t i = prefix.size();
  for (int part = 0; part < 3; ++part) {
    const size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == start) return false;
    if (part < 2) {
      if (i >= s.size() || s[i] != '.') return false;
      ++i;
    }
  }
  const std::string rest = s.substr(i);
  if (rest == " (build unknown)") return true;
  const std::string open = " (build ";
  if (rest.rfind(open, 0) != 0 || rest.back() != ')') return false;
  std::string hash = rest.substr(open.size(), rest.size() - open.size() - 1);
  if (hash.size() > 6 && hash.compare(hash.size() - 6, 6, "-dirty") == 0) hash.resize(hash.size() - 6);
  if (hash.size() != 12) return false;
  for (char c : hash)
    if (!std::isdigit(static_cast<unsigned char>(c)) && (c < 'a' || c > 'f')) return false;
  return true;
}

TEST(WriterStatistics, MinMaxFollowEachTypesOrder) {
  BatchSchema schema;
  schema.fields = {Field{"i", DataType::make(TypeId::kInt32), true, -1, {}},
                   Field{"u", DataType::make(TypeId::kUInt32), false, -1, {}},
                   Field{"d", DataType::make(TypeId::kFloat64), false, -1, {}},
                   Field{"z", DataType::make(TypeId::kFloat32), false, -1, {}},
                   Field{"s", DataType::make(TypeId::kString), false, -1, {}}};
  const std::string long_low = std::string(70, 'a') + "tail";
  const std::string long_high = std::string(66, 'y') + "\xff\xff\xff";
  Written w = write_one(
      schema,
      {make_fixed(DataType::make(TypeId::kInt32), std::vector<int32_t>{5, -7, 0, 42, 3},
                  {true, true, false, true, false}),
       make_fixed(DataType::make(TypeId::kUInt32), std::vector<uint32_t>{1, 0x80000000u, 7, 3, 2}),
       make_fixed(DataType::make(TypeId::kFloat64), std::vector<double>{NAN, 2.5, -1.25, NAN, 0.5}),
       make_fixed(DataType::make(TypeId::kFloat32), std::vector<float>{0.0f, 0.0f, -0.0f, 0.0f, 0.0f}),
       make_strings(DataType::make(TypeId::kString), {"m", long_low, "b", long_high, "yy"})},
      WriterOptions{});
  ASSERT_EQ(w.metadata.row_groups.size(), 1u);
  const auto& columns = w.metadata.row_groups[0].columns;
  // The form parquet-mr's VersionParser and Arrow's ApplicationVersion take:
  // "<application> version <X.Y.Z> (build <hash>)", version from CMake.
  EXPECT_EQ(*w.metadata.created_by,
            std::string("parquetry version ") + PARQUETRY_VERSION_STRING + " (build " + build_commit() + ")");
  EXPECT_TRUE(is_release_form(*w.metadata.created_by)) << *w.metadata.created_by;

  const Statistics& i = *columns[0].meta_data->statistics;
  EXPECT_EQ(load_as<int32_t>(*i.min_value), -7);
  EXPECT_EQ(load_as<int32_t>(*i.max_value), 42);
  EXPECT_EQ(*i.null_count, 2);

  const Statistics& u = *columns[1].meta_data->statistics;  // unsigned: 0x80000000 is the largest
  EXPECT_EQ(load_as<uint32_t>(*u.min_value), 1u);
  EXPECT_EQ(load_as<uint32_t>(*u.max_value), 0x80000000u);

  const Statistics& d = *columns[2].meta_data->statistics;  // NaN ignored
  EXPECT_EQ(load_as<double>(*d.min_value), -1.25);
  EXPECT_EQ(load_as<double>(*d.max_value), 2.5);

  const Statistics& z = *columns[3].meta_data->statistics;  // zeros: min -0, max +0
  EXPECT_TRUE(std::signbit(load_as<float>(*z.min_value)));
  EXPECT_FALSE(std::signbit(load_as<float>(*z.max_value)));

  const Statistics& s = *columns[4].meta_data->statistics;
  EXPECT_EQ(*s.min_value, std::string(64, 'a'));  // truncated prefix
  EXPECT_FALSE(*s.is_min_value_exact);
  // max: 64 bytes of "y..." then 0xFF: the last byte before the 0xFFs is incremented.
  EXPECT_EQ(*s.max_value, std::string(63, 'y') + "z");
  EXPECT_FALSE(*s.is_max_value_exact);
  ASSERT_TRUE(columns[4].meta_data->size_statistics);
  EXPECT_EQ(*columns[4].meta_data->size_statistics->unencoded_byte_array_data_bytes,
            int64_t(1 + long_low.size() + 1 + long_high.size() + 2));
}

// Byte-array bounds as the format defines them, from the whole values: the
// writer keeps only a bounded prefix of long candidates, and must land on
// exactly these.
std::string reference_min(const std::string& v, size_t limit, bool* exact) {
  *exact = v.size() <= limit;
  return *exact ? v : v.substr(0, limit);
}
std::string reference_max(const std::string& v, size_t limit, bool* exact) {
  *exact = true;
  if (v.size() <= limit) return v;
  std::string out = v.substr(0, limit);
  while (!out.empty() && uint8_t(out.back()) == 0xFF) out.pop_back();
  if (out.empty()) return v;  // no shorter upper bound exists
  out.back() = char(uint8_t(out.back()) + 1);
  *exact = false;
  return out;
}

TEST(WriterStatistics, LongByteArrayBoundsEqualTruncatedWholeValues) {
  // Values from a five-byte alphabet with lengths around the limit, so that
  // candidates share prefixes longer than the limit, end inside it, and run
  // into 0xFF; pages of seven rows over three batches.
  constexpr size_t kLimit = 4;
  const char alphabet[] = {'\0', 'a', 'b', char(0xFE), char(0xFF)};
  std::mt19937 rng(24);
  BatchSchema schema;
  schema.fields = {Field{"s", DataType::make(TypeId::kBinary), false, -1, {}}};
  auto shared = std::make_shared<const BatchSchema>(schema);
  std::vector<std::vector<std::string>> batches(3);
  std::vector<std::string> all;
  for (auto& batch : batches) {
    for (int k = 0; k < 200; ++k) {
      std::string v(rng() % 11, '\0');
      // Mostly one byte repeated, so that long equal prefixes are common.
      const char fill = alphabet[rng() % 5];
      for (char& c : v) c = rng() % 4 == 0 ? alphabet[rng() % 5] : fill;
      batch.push_back(v);
      all.push_back(v);
    }
  }
  WriterOptions options;
  options.max_statistics_bytes = int32_t(kLimit);
  options.page_rows = 7;
  options.dictionary = false;
  std::vector<RecordBatch> input;
  for (const auto& batch : batches)
    input.push_back(make_batch(shared, {make_strings(DataType::make(TypeId::kBinary), batch)}));
  const std::vector<uint8_t> bytes = testing::write_to_memory(schema, input, options);
  const FileMetaData meta = testing::open_memory(bytes)->metadata();
  const ColumnChunk& chunk = meta.row_groups[0].columns[0];

  bool exact = false;
  const Statistics& s = *chunk.meta_data->statistics;
  const std::string whole_min = *std::min_element(all.begin(), all.end());
  const std::string whole_max = *std::max_element(all.begin(), all.end());
  EXPECT_EQ(*s.min_value, reference_min(whole_min, kLimit, &exact));
  EXPECT_EQ(*s.is_min_value_exact, exact);
  EXPECT_EQ(*s.max_value, reference_max(whole_max, kLimit, &exact));
  EXPECT_EQ(*s.is_max_value_exact, exact);

  ASSERT_TRUE(chunk.column_index_offset);
  ColumnIndex ci = decode_column_index(at(bytes, *chunk.column_index_offset, *chunk.column_index_length));
  ASSERT_EQ(ci.min_values.size(), (all.size() + 6) / 7);
  for (size_t p = 0; p < ci.min_values.size(); ++p) {
    const auto first = all.begin() + ptrdiff_t(p * 7);
    const auto last = all.begin() + ptrdiff_t(std::min(all.size(), p * 7 + 7));
    EXPECT_EQ(ci.min_values[p], reference_min(*std::min_element(first, last), kLimit, &exact))
        << "page " << p;
    EXPECT_EQ(ci.max_values[p], reference_max(*std::max_element(first, last), kLimit, &exact))
        << "page " << p;
  }
}

TEST(WriterStatistics, PageIndexDescribesEveryPage) {
  BatchSchema schema;
  schema.fields = {Field{"v", DataType::make(TypeId::kInt64), true, -1, {}}};
  std::vector<int64_t> values(1000);
  std::vector<bool> valid(1000, true);
  for (int64_t k = 0; k < 1000; ++k) values[size_t(k)] = k * 3;
  for (int64_t k = 100; k < 200; ++k) valid[size_t(k)] = false;  // page 1 is all null
  WriterOptions options;
  options.page_rows = 100;
  Written w = write_one(schema, {make_fixed(DataType::make(TypeId::kInt64), values, valid)}, options);
  const ColumnChunk& chunk = w.metadata.row_groups[0].columns[0];
  ASSERT_TRUE(chunk.column_index_offset && chunk.offset_index_offset);
  ColumnIndex ci = decode_column_index(at(w.bytes, *chunk.column_index_offset, *chunk.column_index_length));
  OffsetIndex oi = decode_offset_index(at(w.bytes, *chunk.offset_index_offset, *chunk.offset_index_length));
  ASSERT_EQ(oi.page_locations.size(), 10u);
  ASSERT_EQ(ci.null_pages.size(), 10u);
  for (size_t p = 0; p < 10; ++p) {
    EXPECT_EQ(oi.page_locations[p].first_row_index, int64_t(p) * 100);
    // Each location points at a data page header whose size matches.
    size_t consumed = 0;
    PageHeader header = decode_page_header(at(w.bytes, oi.page_locations[p].offset, 64), {}, &consumed);
    EXPECT_EQ(int64_t(consumed) + header.compressed_page_size, oi.page_locations[p].compressed_page_size);
    EXPECT_EQ(header.type, PageType::DATA_PAGE);
    if (p == 1) {
      EXPECT_TRUE(ci.null_pages[p]);
      EXPECT_EQ(ci.null_counts[p], 100);
      continue;
    }
    EXPECT_FALSE(ci.null_pages[p]);
    EXPECT_EQ(load_as<int64_t>(ci.min_values[p]), int64_t(p) * 300);
    EXPECT_EQ(load_as<int64_t>(ci.max_values[p]), int64_t(p) * 300 + 297);
    EXPECT_EQ(ci.null_counts[p], 0);
  }
  EXPECT_EQ(ci.boundary_order, BoundaryOrder::ASCENDING);
  // Definition level histograms: two levels per page.
  ASSERT_EQ(ci.definition_level_histograms.size(), 20u);
  EXPECT_EQ(ci.definition_level_histograms[2], 100);  // page 1: 100 nulls
  EXPECT_EQ(ci.definition_level_histograms[3], 0);
}

TEST(WriterStatistics, PagesBreakOnlyAtRecordBoundaries) {
  // 50 rows of 7-element lists with pages of 3 rows: every page starts at a row.
  BatchSchema schema;
  Field item{"element", DataType::make(TypeId::kInt32), false, -1, {}};
  schema.fields = {Field{"l", DataType::list(item), false, -1, {}}};
  auto list = std::make_shared<ArrayData>();
  list->type = std::make_shared<DataType>(schema.fields[0].type);
  list->length = 50;
  std::vector<int32_t> offsets(51), elements(350);
  for (int k = 0; k <= 50; ++k) offsets[size_t(k)] = k * 7;
  for (int k = 0; k < 350; ++k) elements[size_t(k)] = k;
  list->buffers = {BufferRef{}, testing::adopt_vector(offsets)};
  list->children.push_back(make_fixed(DataType::make(TypeId::kInt32), elements));
  WriterOptions options;
  options.page_rows = 3;
  options.data_page_v2 = true;
  Written w = write_one(schema, {list}, options);
  const ColumnChunk& chunk = w.metadata.row_groups[0].columns[0];
  OffsetIndex oi = decode_offset_index(at(w.bytes, *chunk.offset_index_offset, *chunk.offset_index_length));
  ASSERT_EQ(oi.page_locations.size(), 17u);  // ceil(50 / 3)
  for (size_t p = 0; p < oi.page_locations.size(); ++p) {
    EXPECT_EQ(oi.page_locations[p].first_row_index, int64_t(p) * 3);
    size_t consumed = 0;
    PageHeader header = decode_page_header(at(w.bytes, oi.page_locations[p].offset, 64), {}, &consumed);
    ASSERT_TRUE(header.data_page_header_v2);
    EXPECT_EQ(header.data_page_header_v2->num_rows, p == 16 ? 2 : 3);
    EXPECT_EQ(header.data_page_header_v2->num_values, (p == 16 ? 2 : 3) * 7);
  }
}

TEST(WriterBloomFilter, EveryWrittenValueIsFound) {
  BatchSchema schema;
  schema.fields = {Field{"s", DataType::make(TypeId::kString), false, -1, {}},
                   Field{"n", DataType::make(TypeId::kInt64), false, -1, {}}};
  std::vector<std::string> strings;
  std::vector<int64_t> numbers;
  for (int k = 0; k < 5000; ++k) {
    strings.push_back("key-" + std::to_string(k * 7));
    numbers.push_back(int64_t(k) * 1000003);
  }
  WriterOptions options;
  options.bloom_filter = true;
  options.bloom_filter_fpp = 0.01;
  Written w = write_one(schema,
                        {make_strings(DataType::make(TypeId::kString), strings),
                         make_fixed(DataType::make(TypeId::kInt64), numbers)},
                        options);
  for (int c = 0; c < 2; ++c) {
    const ColumnMetaData& meta = *w.metadata.row_groups[0].columns[size_t(c)].meta_data;
    ASSERT_TRUE(meta.bloom_filter_offset && meta.bloom_filter_length);
    auto span = at(w.bytes, *meta.bloom_filter_offset, *meta.bloom_filter_length);
    size_t consumed = 0;
    BloomFilterHeader header = decode_bloom_filter_header(span, {}, &consumed);
    ASSERT_EQ(int64_t(consumed) + header.num_bytes, *meta.bloom_filter_length);
    EXPECT_EQ(header.num_bytes % 32, 0);
    EXPECT_EQ(header.num_bytes & (header.num_bytes - 1), 0);  // a power of two
    const uint8_t* bitset = span.data() + consumed;
    // Split-block lookup (BloomFilter.md), written out independently of the writer.
    static const uint32_t salt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                     0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};
    auto contains = [&](const void* data, size_t size) {
      const uint64_t h = XXH64(data, size, 0);
      const uint64_t blocks = uint64_t(header.num_bytes) / 32;
      const uint8_t* block = bitset + ((h >> 32) * blocks >> 32) * 32;
      for (int k = 0; k < 8; ++k) {
        uint32_t word;
        std::memcpy(&word, block + 4 * k, 4);
        if (!(word & (1u << ((uint32_t(h) * salt[k]) >> 27)))) return false;
      }
      return true;
    };
    int false_positives = 0;
    for (int k = 0; k < 5000; ++k) {
      if (c == 0) {
        ASSERT_TRUE(contains(strings[size_t(k)].data(), strings[size_t(k)].size())) << strings[size_t(k)];
        std::string absent = "absent-" + std::to_string(k);
        false_positives += contains(absent.data(), absent.size());
      } else {
        ASSERT_TRUE(contains(&numbers[size_t(k)], 8));
        int64_t absent = int64_t(k) * 1000003 + 1;
        false_positives += contains(&absent, 8);
      }
    }
    EXPECT_LT(false_positives, 150);  // 1% target on 5000 probes, with margin
  }
}

TEST(WriterFooter, ArrowStreamInputAndFooterExtras) {
  BatchSchema schema;
  schema.fields = {Field{"k", DataType::make(TypeId::kInt32), false, 7, {}},
                   Field{"s", DataType::dictionary(DataType::make(TypeId::kString)), true, -1, {}}};
  schema.metadata = {{"origin", "test"}};
  auto dictionary = make_strings(DataType::make(TypeId::kString), {"red", "green"});
  auto s = make_fixed(DataType::dictionary(DataType::make(TypeId::kString)), std::vector<int32_t>{1, 0, 1, 1},
                      {true, true, false, true});
  s->dictionary = dictionary;
  auto shared = std::make_shared<const BatchSchema>(schema);
  WriterOptions options;
  options.sorting_columns = {SortingColumn{0, false, true}};
  options.key_value_metadata = {KeyValue{"extra", std::string("1")}};
  std::vector<uint8_t> first = testing::write_to_memory(
      schema,
      {make_batch(shared, {make_fixed(DataType::make(TypeId::kInt32), std::vector<int32_t>{1, 2, 3, 4}), s})},
      options);
  auto reader = testing::open_memory(first);
  const FileMetaData& meta = reader->metadata();
  ASSERT_EQ(meta.row_groups.size(), 1u);
  ASSERT_EQ(meta.row_groups[0].sorting_columns.size(), 1u);
  EXPECT_TRUE(meta.row_groups[0].sorting_columns[0].nulls_first);
  ASSERT_EQ(meta.key_value_metadata.size(), 2u);
  EXPECT_EQ(meta.key_value_metadata[0].key, "origin");
  EXPECT_EQ(*meta.key_value_metadata[1].value, "1");
  EXPECT_EQ(*meta.schema[1].field_id, 7);
  // The dictionary column is written as strings; read back through an Arrow C stream into a second file.
  ArrowArrayStream stream;
  export_stream(reader->batches(), &stream);
  auto sink = std::make_unique<MemorySink>();
  MemorySink* raw = sink.get();
  auto writer = FileWriter::open(std::move(sink), *reader->batch_schema());
  writer->write(&stream);
  writer->close();
  auto again = testing::open_memory(
      std::vector<uint8_t>(raw->buffer().data(), raw->buffer().data() + raw->buffer().size()));
  std::vector<std::string> rows = testing::render_rows(again->read_all());
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0], "\"01000000\" | \"677265656e\"");  // 1 | "green"
  EXPECT_EQ(rows[2], "\"03000000\" | null");
  EXPECT_EQ(rows[3], "\"04000000\" | \"677265656e\"");
}

// Empty row groups where asked for: first, between two groups of rows and
// last; each chunk without pages, and every other group read unchanged.
TEST(WriterFooter, EmptyRowGroupsStayInPlace) {
  BatchSchema schema;
  schema.fields = {Field{"k", DataType::make(TypeId::kInt32), false, -1, {}},
                   Field{"s", DataType::make(TypeId::kString), true, -1, {}}};
  auto shared = std::make_shared<const BatchSchema>(schema);
  auto batch = [&](std::vector<int32_t> keys, std::vector<std::string> names) {
    return make_batch(shared, {make_fixed(DataType::make(TypeId::kInt32), keys),
                               make_strings(DataType::make(TypeId::kString), names)});
  };
  auto sink = std::make_unique<MemorySink>();
  MemorySink* raw = sink.get();
  auto writer = FileWriter::open(std::move(sink), schema);
  writer->write_empty_row_group();
  writer->write(batch({1, 2, 3}, {"a", "b", "c"}));
  writer->write_empty_row_group();  // closes the group of 1, 2, 3 first
  writer->write(batch({4, 5}, {"d", "e"}));
  writer->flush_row_group();
  writer->write_empty_row_group();
  writer->close();
  auto reader = testing::open_memory(
      std::vector<uint8_t>(raw->buffer().data(), raw->buffer().data() + raw->buffer().size()));
  const FileMetaData& meta = reader->metadata();
  std::vector<int64_t> rows;
  for (const RowGroup& group : meta.row_groups) rows.push_back(group.num_rows);
  EXPECT_EQ(rows, (std::vector<int64_t>{0, 3, 0, 2, 0}));
  EXPECT_EQ(meta.num_rows, 5);
  for (size_t g : {size_t(0), size_t(2), size_t(4)}) {
    ASSERT_EQ(meta.row_groups[g].columns.size(), 2u);
    for (const ColumnChunk& chunk : meta.row_groups[g].columns) {
      EXPECT_EQ(chunk.meta_data->num_values, 0);
      EXPECT_EQ(chunk.meta_data->total_compressed_size, 0);
      ASSERT_TRUE(chunk.meta_data->statistics);
      EXPECT_EQ(chunk.meta_data->statistics->null_count, 0);
      EXPECT_FALSE(chunk.meta_data->statistics->min_value);
    }
    EXPECT_EQ(reader->read_row_group(int(g)).num_rows, 0);
  }
  std::vector<std::string> all = testing::render_rows(reader->read_all());
  EXPECT_EQ(all, (std::vector<std::string>{"\"01000000\" | \"61\"", "\"02000000\" | \"62\"",
                                           "\"03000000\" | \"63\"", "\"04000000\" | \"64\"",
                                           "\"05000000\" | \"65\""}));
}

TEST(WriterAtomic, AbandonedWriterLeavesNothing) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("pq_writer_atomic_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "out.parquet").string();
  BatchSchema schema;
  schema.fields = {Field{"v", DataType::make(TypeId::kInt32), false, -1, {}}};
  auto shared = std::make_shared<const BatchSchema>(schema);
  {
    auto writer = FileWriter::open(path, schema);
    writer->write(
        make_batch(shared, {make_fixed(DataType::make(TypeId::kInt32), std::vector<int32_t>{1, 2, 3})}));
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  {
    // A batch of the wrong type is refused before anything is written.
    auto writer = FileWriter::open(path, schema);
    RecordBatch bad =
        make_batch(shared, {make_fixed(DataType::make(TypeId::kInt64), std::vector<int64_t>{1})});
    EXPECT_THROW(writer->write(bad), Error);
    // A null in a non-nullable column fails while encoding: the writer is
    // poisoned, close() refuses and nothing appears.
    RecordBatch nulls = make_batch(
        shared, {make_fixed(DataType::make(TypeId::kInt32), std::vector<int32_t>{1, 2}, {true, false})});
    EXPECT_THROW(writer->write(nulls), Error);
    EXPECT_THROW(writer->close(), Error);
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  {
    auto writer = FileWriter::open(path, schema);
    writer->write(
        make_batch(shared, {make_fixed(DataType::make(TypeId::kInt32), std::vector<int32_t>{4, 5})}));
    writer->close();
  }
  auto reader = FileReader::open(path);
  EXPECT_EQ(reader->metadata().num_rows, 2);
  std::filesystem::remove_all(dir);
}

TEST(WriterAtomic, KilledWriterNeverLeavesAPartialFile) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("pq_writer_kill_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::mt19937_64 rng(2024);
  int complete = 0, absent = 0;
  for (int attempt = 0; attempt < 12; ++attempt) {
    const std::string path = (dir / ("out" + std::to_string(attempt) + ".parquet")).string();
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      BatchSchema schema;
      schema.fields = {Field{"v", DataType::make(TypeId::kInt64), false, -1, {}}};
      auto shared = std::make_shared<const BatchSchema>(schema);
      std::vector<int64_t> values(20000);
      for (size_t k = 0; k < values.size(); ++k) values[k] = int64_t(k * k);
      WriterOptions options;
      options.row_group_rows = 20000;
      auto writer = FileWriter::open(path, schema, options);
      for (int b = 0; b < 40; ++b)
        writer->write(make_batch(shared, {make_fixed(DataType::make(TypeId::kInt64), values)}));
      writer->close();
      _exit(0);
    }
    usleep(useconds_t(std::uniform_int_distribution<int>(0, 400000)(rng)));
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    if (!std::filesystem::exists(path)) {
      ++absent;
      continue;
    }
    // Whatever is at the final path is the whole file.
    auto reader = FileReader::open(path);
    EXPECT_EQ(reader->metadata().num_rows, 800000);
    int64_t rows = 0;
    for (const RecordBatch& batch : reader->read_all()) rows += batch.num_rows;
    EXPECT_EQ(rows, 800000);
    ++complete;
  }
  EXPECT_EQ(complete + absent, 12);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace parquetry
