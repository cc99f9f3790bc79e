// One file per catalogue entry: pages written by FileWriter, a footer (and
// column index) rewritten by hand with the created_by of an affected writer
// and statistics that contradict the pages. The filtered scan must return
// what a naive filter of the full read returns, and `parquetry meta` must
// say which statistics it will not use. Each file has a twin whose footer
// names a writer outside the catalogue: there the same statistics are used,
// which shows the file's statistics really lie (the twin's scan is wrong on
// purpose) and that pruning still happens for writers we trust.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "parquetry/writer_quirks.h"
#include "quirky_file.h"

// GCC 12 at -O1 under ASan reports std::variant's move constructor as reading
// uninitialised storage when a Datum temporary is pushed into a vector: a
// false positive of the inliner, not a read of anything uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace parquetry {
namespace {

using testing::FooterEdit;
using testing::make_batch;
using testing::naive_rows;
using testing::run_cli;
using testing::scanned_rows;
using testing::TestColumn;
using testing::write_quirky_file;

std::string compact(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c != ' ' && c != '\n') out += c;
  }
  return out;
}

std::string bytes_of(double v) { return std::string(reinterpret_cast<const char*>(&v), 8); }
std::string bytes_of(int32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }

Field field(const char* name, TypeId id, bool nullable = true) {
  return Field{name, DataType::make(id), nullable, -1, {}};
}

// The `meta --json` of a file, whitespace removed.
std::string meta_json(const std::string& path) {
  testing::CliResult result = run_cli({"meta", "--json", path});
  EXPECT_EQ(result.exit_code, 0) << result.out;
  return compact(result.out);
}

// ---------------------------------------------------------------------------
// ARROW-12513: null_count = 0 on a dictionary-encoded column with nulls.

TEST(QuirkyFiles, ArrowDictionaryNullCountIsNotUsed) {
  TestColumn s{field("s", TypeId::kString), {}};
  for (int i = 0; i < 1000; ++i) s.values.push_back(i % 4 == 1 ? Datum() : Datum(i % 2 ? "b" : "a"));
  const RecordBatch batch = make_batch({s});
  auto write = [&](const char* name, const char* created_by) {
    return write_quirky_file(name, batch, {}, [&](FooterEdit& f) {
      f.metadata.created_by = created_by;
      ColumnChunk& chunk = f.metadata.row_groups[0].columns[0];
      EXPECT_TRUE(chunk_dictionary_encoded(*chunk.meta_data));
      EXPECT_EQ(chunk.meta_data->statistics->null_count, 250);
      chunk.meta_data->statistics->null_count = 0;  // what the affected writer wrote
      ColumnIndex index = f.column_index(chunk);
      for (int64_t& n : index.null_counts) n = 0;
      f.replace_column_index(chunk, index);
    });
  };
  const std::string bad = write("arrow_12513.parquet", "parquet-cpp-arrow version 4.0.1");
  const std::string twin = write("arrow_12513_fixed.parquet", "parquet-cpp-arrow version 5.0.0");
  const Predicate is_null = col("s").is_null();

  const std::vector<int64_t> expected = naive_rows(bad, is_null);
  ASSERT_EQ(expected.size(), 250u);
  EXPECT_EQ(expected[0], 1);
  EXPECT_EQ(expected[249], 997);
  FilterStats stats;
  EXPECT_EQ(scanned_rows(bad, is_null, &stats), expected);
  EXPECT_EQ(stats.row_groups_pruned_statistics, 0);
  EXPECT_EQ(scanned_rows(bad, is_null, &stats, /*use_statistics=*/false), expected);  // page index alone
  EXPECT_EQ(stats.rows_after_page_index, 1000);
  // "parquet-cpp version 1.5.1-SNAPSHOT" is Arrow before 4.0: affected too.
  const std::string older = write("arrow_12513_cpp.parquet", "parquet-cpp version 1.5.1-SNAPSHOT");
  EXPECT_EQ(scanned_rows(older, is_null), expected);

  // The fixed writer's statistics are trusted: the lie prunes everything.
  EXPECT_TRUE(scanned_rows(twin, is_null, &stats).empty());
  EXPECT_EQ(stats.row_groups_pruned_statistics, 1);
  EXPECT_TRUE(scanned_rows(twin, is_null, &stats, false).empty());
  EXPECT_EQ(stats.rows_after_page_index, 0);

  const std::string json = meta_json(bad);
  EXPECT_NE(json.find(R"("null_count_used":false)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("defect":"dictionary-null-count")"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("source":"ARROW-12513")"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("min_max_used":true)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("application":"parquet-cpp-arrow","version":"4.0.1")"), std::string::npos) << json;
  const std::string twin_json = meta_json(twin);
  EXPECT_NE(twin_json.find(R"("null_count_used":true,"not_used":[])"), std::string::npos) << twin_json;
  const testing::CliResult text = run_cli({"meta", bad});
  EXPECT_NE(text.out.find("statistics not used: null_count (ARROW-12513: "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("writer: parquet-cpp-arrow 4.0.1"), std::string::npos) << text.out;

  // Rewritten, the file keeps its schema and values and gets statistics of
  // its own, which are true and used: 250 nulls, nothing pruned.
  const std::string rewritten = testing::expect_rewrite_keeps_schema(bad);
  const FileMetaData repaired = FileReader::open(rewritten)->metadata();
  EXPECT_EQ(repaired.row_groups[0].columns[0].meta_data->statistics->null_count, 250);
  EXPECT_EQ(scanned_rows(rewritten, is_null, &stats), expected);
  EXPECT_EQ(stats.row_groups_pruned_statistics, 0);
  const std::string repaired_json = meta_json(rewritten);
  EXPECT_NE(repaired_json.find(R"("null_count_used":true,"not_used":[])"), std::string::npos)
      << repaired_json;
}

// ---------------------------------------------------------------------------
// PARQUET-2067: null lists left out of a repeated column's null_count.
// Predicates cannot name a column inside a list, so the pruning decision is
// checked directly, on the chunk statistics the reader sees.

TEST(QuirkyFiles, NestedNullCountOfOldArrowIsNotUsed) {
  Field item = field("element", TypeId::kInt32);
  Field list{"l", DataType::list(item), true, -1, {}};
  TestColumn l{list, {}};
  for (int i = 0; i < 100; ++i) {
    if (i % 10 == 3) {
      l.values.push_back(Datum());
    } else {
      l.values.push_back(Datum::list({Datum(i), Datum(i + 1)}));
    }
  }
  const RecordBatch batch = make_batch({l});
  auto write = [&](const char* name, const char* created_by) {
    return write_quirky_file(name, batch, {}, [&](FooterEdit& f) {
      f.metadata.created_by = created_by;
      ColumnChunk& chunk = f.metadata.row_groups[0].columns[0];
      EXPECT_EQ(chunk.meta_data->statistics->null_count, 10);  // one per null list
      chunk.meta_data->statistics->null_count = 0;
    });
  };
  const std::string bad = write("parquet_2067.parquet", "parquet-cpp-arrow version 5.0.0");
  const std::string twin = write("parquet_2067_fixed.parquet", "parquet-cpp-arrow version 6.0.1");

  // The full read has the null lists.
  const std::vector<RecordBatch> batches = FileReader::open(bad)->read_all();
  ASSERT_EQ(batches.size(), 1u);
  EXPECT_EQ(batches[0].columns[0]->null_count, 10);
  EXPECT_FALSE(batches[0].columns[0]->is_valid(3));

  for (const auto& [path, trusted] : {std::pair{bad, false}, std::pair{twin, true}}) {
    auto reader = FileReader::open(path);
    const ColumnDescriptor& leaf = reader->schema().column(0);
    ASSERT_EQ(leaf.max_repetition_level, 1);
    const StatisticsCatalogue catalogue(reader->metadata());
    const Predicate is_null = col(leaf.path).is_null();
    EXPECT_EQ(row_group_excluded_by_statistics(is_null, reader->schema(), reader->metadata().row_groups[0],
                                               catalogue),
              trusted)
        << path;
    const StatisticsTrust trust =
        catalogue.chunk_trust(leaf, *reader->metadata().row_groups[0].columns[0].meta_data);
    EXPECT_EQ(trust.has(StatisticsDefect::kNestedNullCount), !trusted);
  }
  const std::string json = meta_json(bad);
  EXPECT_NE(json.find(R"("defect":"nested-null-count","source":"PARQUET-2067")"), std::string::npos) << json;
}

// ---------------------------------------------------------------------------
// PARQUET-251: parquet-mr before 1.8.0, binary min/max.

TEST(QuirkyFiles, OldParquetMrBinaryMinMaxIsNotUsed) {
  TestColumn s{field("s", TypeId::kString, false), {Datum("a"), Datum("z"), Datum("\xc3\xa9t\xc3\xa9")}};
  const RecordBatch batch = make_batch({s});
  auto write = [&](const char* name, const char* created_by) {
    return write_quirky_file(name, batch, {}, [&](FooterEdit& f) {
      f.metadata.created_by = created_by;
      Statistics& stats = *f.metadata.row_groups[0].columns[0].meta_data->statistics;
      // Signed byte order: 0xc3 is negative, so "été" came out as the minimum.
      stats.min_value = std::string("\xc3\xa9t\xc3\xa9");
      stats.max_value = std::string("z");
      stats.min = stats.min_value;
      stats.max = stats.max_value;
      ColumnChunk& chunk = f.metadata.row_groups[0].columns[0];
      ColumnIndex index = f.column_index(chunk);
      index.min_values = {"\xc3\xa9t\xc3\xa9"};
      index.max_values = {"z"};
      f.replace_column_index(chunk, index);
    });
  };
  const std::string bad = write("parquet_251.parquet", "parquet-mr version 1.7.0 (build 1234abcd)");
  const std::string twin = write("parquet_251_fixed.parquet", "parquet-mr version 1.12.3 (build f8dced1)");
  const Predicate equal = col("s") == "a";
  ASSERT_EQ(naive_rows(bad, equal), std::vector<int64_t>{0});
  EXPECT_EQ(scanned_rows(bad, equal), std::vector<int64_t>{0});
  EXPECT_EQ(scanned_rows(bad, equal, nullptr, false), std::vector<int64_t>{0});
  FilterStats stats;
  EXPECT_TRUE(scanned_rows(twin, equal, &stats).empty());
  EXPECT_EQ(stats.row_groups_pruned_statistics, 1);
  const std::string json = meta_json(bad);
  EXPECT_NE(json.find(R"("defect":"binary-min-max","source":"PARQUET-251")"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("min_max_used":false)"), std::string::npos) << json;
  // Rewritten: unsigned bounds ("a" .. "été"), used, and "a" found.
  const std::string rewritten = testing::expect_rewrite_keeps_schema(bad);
  const FileMetaData repaired_footer = FileReader::open(rewritten)->metadata();
  const Statistics& repaired = *repaired_footer.row_groups[0].columns[0].meta_data->statistics;
  EXPECT_EQ(*repaired.min_value, "a");
  EXPECT_EQ(*repaired.max_value, "\xc3\xa9t\xc3\xa9");
  EXPECT_EQ(scanned_rows(rewritten, equal), std::vector<int64_t>{0});
  EXPECT_NE(meta_json(rewritten).find(R"("min_max_used":true)"), std::string::npos);
  // The same version with a pre-release suffix is still before 1.8.0.
  EXPECT_TRUE(parse_created_by("parquet-mr version 1.8.0-SNAPSHOT (build x)").before(1, 8, 0));
}

// ---------------------------------------------------------------------------
// PARQUET-686: the deprecated min/max are signed; an unsigned column's are
// wrong for values above 2^31. Also a parquet-mr before 1.10.0 that wrote
// signed order into a string column.

TEST(QuirkyFiles, LegacyMinMaxOfUnsignedColumnIsNotUsed) {
  Field u{"u", DataType::make(TypeId::kUInt32), false, -1, {}};
  TestColumn values{u, {Datum(uint64_t(1)), Datum(uint64_t(3'000'000'000u)), Datum(uint64_t(7))}};
  const RecordBatch batch = make_batch({values});
  auto write = [&](const char* name, bool legacy) {
    return write_quirky_file(name, batch, {}, [&](FooterEdit& f) {
      f.metadata.created_by = "parquet-mr version 1.12.3 (build f8dced1)";
      Statistics& stats = *f.metadata.row_groups[0].columns[0].meta_data->statistics;
      // Signed: 3e9 reads as a negative int32, the minimum; 7 the maximum.
      const std::string min = bytes_of(int32_t(uint32_t(3'000'000'000u)));
      const std::string max = bytes_of(int32_t(7));
      stats.min_value.reset();
      stats.max_value.reset();
      stats.min.reset();
      stats.max.reset();
      if (legacy) {
        stats.min = min;
        stats.max = max;
      } else {
        stats.min_value = min;
        stats.max_value = max;
      }
      f.metadata.row_groups[0].columns[0].column_index_offset.reset();
      f.metadata.row_groups[0].columns[0].column_index_length.reset();
    });
  };
  const std::string bad = write("parquet_686_legacy.parquet", true);
  const std::string twin = write("parquet_686_min_value.parquet", false);
  const Predicate small = col("u") < 5;
  ASSERT_EQ(naive_rows(bad, small), std::vector<int64_t>{0});
  EXPECT_EQ(scanned_rows(bad, small), std::vector<int64_t>{0});
  FilterStats stats;
  EXPECT_TRUE(scanned_rows(twin, small, &stats).empty());  // min_value 3e9 > 5: trusted, pruned
  EXPECT_EQ(stats.row_groups_pruned_statistics, 1);
  const std::string json = meta_json(bad);
  EXPECT_NE(json.find(R"("defect":"legacy-min-max-order")"), std::string::npos) << json;
}

TEST(QuirkyFiles, SignedOrderWriterStringMinMaxIsNotUsed) {
  TestColumn s{field("s", TypeId::kString, false), {Datum("a"), Datum("\xc3\xa9")}};
  const RecordBatch batch = make_batch({s});
  auto write = [&](const char* name, const char* created_by) {
    return write_quirky_file(name, batch, {}, [&](FooterEdit& f) {
      f.metadata.created_by = created_by;
      Statistics& stats = *f.metadata.row_groups[0].columns[0].meta_data->statistics;
      stats.min_value = std::string("\xc3\xa9");  // signed order
      stats.max_value = std::string("a");
      f.metadata.row_groups[0].columns[0].column_index_offset.reset();
      f.metadata.row_groups[0].columns[0].column_index_length.reset();
    });
  };
  const std::string bad = write("parquet_686_mr19.parquet", "parquet-mr version 1.9.0 (build 38262e2)");
  const std::string twin = write("parquet_686_mr110.parquet", "parquet-mr version 1.10.0 (build 031a6654)");
  const Predicate equal = col("s") == "\xc3\xa9";
  ASSERT_EQ(naive_rows(bad, equal), std::vector<int64_t>{1});
  EXPECT_EQ(scanned_rows(bad, equal), std::vector<int64_t>{1});
  EXPECT_TRUE(scanned_rows(twin, equal).empty());
  const std::string json = meta_json(bad);
  EXPECT_NE(json.find(R"("defect":"signed-order-writer","source":"PARQUET-686")"), std::string::npos) << json;
}

// ---------------------------------------------------------------------------
// column_orders: absent (min_value/max_value undefined) or unknown.

TEST(QuirkyFiles, MinMaxWithoutColumnOrdersAreUsedOnlyForSignedTypes) {
  TestColumn s{field("s", TypeId::kString, false), {Datum("a"), Datum("m"), Datum("z")}};
  TestColumn i{field("i", TypeId::kInt32, false), {Datum(1), Datum(2), Datum(3)}};
  const RecordBatch batch = make_batch({s, i});
  auto write = [&](const char* name, std::vector<ColumnOrder> orders) {
    return write_quirky_file(name, batch, {}, [&](FooterEdit& f) {
      f.metadata.created_by = "parquet-rs version 53.1.0";
      f.metadata.column_orders = orders;
      Statistics& stats = *f.metadata.row_groups[0].columns[0].meta_data->statistics;
      stats.min_value = std::string("m");  // some other order put "a" last
      stats.max_value = std::string("z");
      ColumnChunk& chunk = f.metadata.row_groups[0].columns[0];
      ColumnIndex index = f.column_index(chunk);
      index.min_values = {"m"};
      index.max_values = {"z"};
      f.replace_column_index(chunk, index);
    });
  };
  const std::string bad = write("no_column_orders.parquet", {});
  const std::string unknown =
      write("unknown_column_order.parquet", {ColumnOrder(7), ColumnOrder::TYPE_ORDER});
  const std::string twin =
      write("type_column_order.parquet", {ColumnOrder::TYPE_ORDER, ColumnOrder::TYPE_ORDER});
  const Predicate equal = col("s") == "a";
  for (const std::string& path : {bad, unknown}) {
    ASSERT_EQ(naive_rows(path, equal), std::vector<int64_t>{0});
    EXPECT_EQ(scanned_rows(path, equal), std::vector<int64_t>{0}) << path;
    EXPECT_EQ(scanned_rows(path, equal, nullptr, false), std::vector<int64_t>{0}) << path;
  }
  EXPECT_TRUE(scanned_rows(twin, equal).empty());
  // A signed column's bounds mean the same in every order: still pruned.
  FilterStats stats;
  EXPECT_TRUE(scanned_rows(bad, col("i") > 10, &stats).empty());
  EXPECT_EQ(stats.row_groups_pruned_statistics, 1);
  EXPECT_NE(meta_json(bad).find(R"("defect":"no-column-order")"), std::string::npos);
  EXPECT_NE(meta_json(unknown).find(R"("defect":"unknown-column-order")"), std::string::npos);
}

// ---------------------------------------------------------------------------
// NaN as a float min or max.

TEST(QuirkyFiles, NanBoundsAreNotUsed) {
  TestColumn d{field("d", TypeId::kFloat64, false), {Datum(1.0), Datum(5.0), Datum(2.5)}};
  const RecordBatch batch = make_batch({d});
  const std::string path = write_quirky_file("nan_bounds.parquet", batch, {}, [&](FooterEdit& f) {
    f.metadata.created_by = "parquet-cpp-arrow version 15.0.0";
    Statistics& stats = *f.metadata.row_groups[0].columns[0].meta_data->statistics;
    stats.min_value = bytes_of(0.0);
    stats.max_value = bytes_of(std::nan(""));
    ColumnChunk& chunk = f.metadata.row_groups[0].columns[0];
    ColumnIndex index = f.column_index(chunk);
    index.min_values = {bytes_of(std::nan(""))};
    index.max_values = {bytes_of(2.0)};
    f.replace_column_index(chunk, index);
  });
  const Predicate big = col("d") > 3.0;
  ASSERT_EQ(naive_rows(path, big), std::vector<int64_t>{1});
  EXPECT_EQ(scanned_rows(path, big), std::vector<int64_t>{1});
  EXPECT_EQ(scanned_rows(path, big, nullptr, false), std::vector<int64_t>{1});
  EXPECT_NE(meta_json(path).find(R"("defect":"nan-bound")"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Writers outside the catalogue keep full pruning: row groups by statistics
// and pages by the column index, with their real statistics.

TEST(QuirkyFiles, ModernWriterStillPrunesRowGroupsAndPages) {
  TestColumn i{field("i", TypeId::kInt64, false), {}};
  TestColumn s{field("s", TypeId::kString), {}};
  for (int64_t r = 0; r < 40'000; ++r) {
    i.values.push_back(Datum(r));
    // Two-digit keys, so that each row group's string range excludes the others' keys.
    const int64_t k = r / 1000;
    s.values.push_back(r % 7 == 0 ? Datum() : Datum((k < 10 ? "k0" : "k") + std::to_string(k)));
  }
  const RecordBatch batch = make_batch({i, s});
  WriterOptions options;
  options.row_group_rows = 10'000;
  options.page_rows = 1'000;
  const std::string path = write_quirky_file("modern.parquet", batch, options, [](FooterEdit&) {});
  const FileMetaData metadata = FileReader::open(path)->metadata();
  ASSERT_TRUE(metadata.created_by);
  EXPECT_EQ(metadata.created_by->rfind("parquetry version ", 0), 0u);
  const StatisticsCatalogue catalogue(metadata);
  EXPECT_TRUE(catalogue.writer().is("parquetry"));

  const Predicate range = col("i") >= 25'500 && col("i") < 25'700;
  FilterStats stats;
  const std::vector<int64_t> rows = scanned_rows(path, range, &stats);
  EXPECT_EQ(rows, naive_rows(path, range));
  ASSERT_EQ(rows.size(), 200u);
  EXPECT_EQ(rows.front(), 25'500);
  EXPECT_EQ(stats.row_groups_pruned_statistics, 3);
  EXPECT_EQ(stats.rows_after_page_index, 1'000);  // one page of the remaining row group

  const Predicate key = col("s") == "k31";
  const std::vector<int64_t> keyed = scanned_rows(path, key, &stats);
  EXPECT_EQ(keyed, naive_rows(path, key));
  EXPECT_EQ(keyed.size(), 1000u - 143u);  // rows 31000..31999 minus the multiples of 7
  EXPECT_EQ(stats.row_groups_pruned_statistics, 3);
  EXPECT_EQ(meta_json(path).find(R"("not_used":[{)"), std::string::npos);
}

}  // namespace
}  // namespace parquetry
