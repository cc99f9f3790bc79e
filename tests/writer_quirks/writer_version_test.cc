// created_by parsing and the catalogue's rules on descriptors built by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "parquetry/writer_quirks.h"

namespace parquetry {
namespace {

TEST(WriterVersion, ParsesTheCommonForms) {
  WriterVersion mr = parse_created_by("parquet-mr version 1.8.0 (build abcd)");
  EXPECT_TRUE(mr.present);
  EXPECT_EQ(mr.application, "parquet-mr");
  EXPECT_TRUE(mr.has_version);
  EXPECT_EQ(mr.major, 1);
  EXPECT_EQ(mr.minor, 8);
  EXPECT_EQ(mr.patch, 0);
  EXPECT_EQ(mr.pre_release, "");
  EXPECT_EQ(mr.build, "abcd");
  EXPECT_EQ(mr.to_string(), "parquet-mr 1.8.0 (build abcd)");

  WriterVersion arrow = parse_created_by("parquet-cpp-arrow version 4.0.1");
  EXPECT_EQ(arrow.application, "parquet-cpp-arrow");
  EXPECT_EQ(arrow.major * 10000 + arrow.minor * 100 + arrow.patch, 40001);
  EXPECT_EQ(arrow.build, "");

  WriterVersion cpp = parse_created_by("parquet-cpp version 1.5.1-SNAPSHOT");
  EXPECT_EQ(cpp.application, "parquet-cpp");
  EXPECT_EQ(cpp.patch, 1);
  EXPECT_EQ(cpp.pre_release, "SNAPSHOT");

  WriterVersion impala = parse_created_by("impala version 1.2.3-cdh5 (build 4a2d3c)");
  EXPECT_EQ(impala.application, "impala");
  EXPECT_EQ(impala.minor, 2);
  EXPECT_EQ(impala.pre_release, "cdh5");
  EXPECT_EQ(impala.build, "4a2d3c");

  WriterVersion ours = parse_created_by("parquetry version 0.2.1 (build 3f2e1d0c)");
  EXPECT_TRUE(ours.is("parquetry"));
  EXPECT_EQ(ours.minor, 2);
  EXPECT_EQ(ours.patch, 1);
  EXPECT_EQ(ours.build, "3f2e1d0c");
  EXPECT_TRUE(parse_created_by("parquetry version 0.1.0").is("PARQUETRY"));

  WriterVersion duck = parse_created_by("DuckDB version v1.1.3 (build 19864453f7)");
  EXPECT_EQ(duck.application, "DuckDB");
  EXPECT_EQ(duck.major, 1);
  EXPECT_EQ(duck.minor, 1);
  EXPECT_EQ(duck.patch, 3);
  EXPECT_EQ(duck.build, "19864453f7");

  WriterVersion rs = parse_created_by("parquet-rs version 53.2.0");
  EXPECT_EQ(rs.application, "parquet-rs");
  EXPECT_EQ(rs.major, 53);

  WriterVersion spark =
      parse_created_by("parquet-mr version 1.10.1 (build a89df8f9932b6ef6633d06069e50c9b7970bebd1)");
  EXPECT_EQ(spark.minor, 10);
  EXPECT_EQ(spark.build, "a89df8f9932b6ef6633d06069e50c9b7970bebd1");

  WriterVersion bare = parse_created_by("Polars");
  EXPECT_EQ(bare.application, "Polars");
  EXPECT_FALSE(bare.has_version);

  WriterVersion two = parse_created_by("  fastparquet-python version 2024.2  ");
  EXPECT_EQ(two.application, "fastparquet-python");
  EXPECT_EQ(two.major, 2024);
  EXPECT_EQ(two.minor, 2);
  EXPECT_EQ(two.patch, 0);

  WriterVersion none = parse_created_by("");
  EXPECT_FALSE(none.present);
  EXPECT_EQ(none.to_string(), "unknown writer");
  // Hostile text never throws and never overflows.
  WriterVersion huge = parse_created_by("x version 99999999999999999999.1 (build");
  EXPECT_EQ(huge.application, "x");
  EXPECT_TRUE(huge.has_version);
}

TEST(WriterVersion, OrdersPreReleasesBeforeTheirRelease) {
  EXPECT_TRUE(parse_created_by("parquet-mr version 1.7.9").before(1, 8, 0));
  EXPECT_TRUE(parse_created_by("parquet-mr version 1.8.0-SNAPSHOT").before(1, 8, 0));
  EXPECT_FALSE(parse_created_by("parquet-mr version 1.8.0").before(1, 8, 0));
  EXPECT_FALSE(parse_created_by("parquet-mr version 1.8.1").before(1, 8, 0));
  EXPECT_FALSE(parse_created_by("parquet-mr version 2.0").before(1, 8, 0));
  EXPECT_TRUE(parse_created_by("parquet-mr version 0.9").before(1, 8, 0));
  // An unreadable version counts as affected.
  EXPECT_TRUE(parse_created_by("parquet-mr version unknown").before(1, 8, 0));
}

ColumnDescriptor descriptor(Type type, SortOrder order, int16_t max_rep = 0) {
  ColumnDescriptor column;
  column.physical_type = type;
  column.sort_order = order;
  column.max_repetition_level = max_rep;
  column.max_definition_level = int16_t(max_rep + 1);
  column.path = "c";
  return column;
}

FileMetaData footer(const char* created_by, bool column_orders = true) {
  FileMetaData metadata;
  metadata.created_by = created_by;
  if (column_orders) metadata.column_orders = {ColumnOrder::TYPE_ORDER};
  return metadata;
}

ColumnMetaData chunk_with(Statistics stats, bool dictionary) {
  ColumnMetaData meta;
  meta.statistics = std::move(stats);
  meta.encodings = {Encoding::PLAIN, Encoding::RLE};
  if (dictionary) {
    meta.encodings = {Encoding::RLE_DICTIONARY, Encoding::PLAIN, Encoding::RLE};
    meta.dictionary_page_offset = 4;
  }
  return meta;
}

Statistics min_max(std::string min, std::string max, int64_t nulls = 0) {
  Statistics stats;
  stats.min_value = std::move(min);
  stats.max_value = std::move(max);
  stats.null_count = nulls;
  return stats;
}

TEST(StatisticsCatalogue, AppliesEachRuleToItsWritersOnly) {
  const ColumnDescriptor text = descriptor(Type::BYTE_ARRAY, SortOrder::kUnsigned);
  const ColumnDescriptor number = descriptor(Type::INT64, SortOrder::kSigned);
  const ColumnDescriptor nested = descriptor(Type::INT32, SortOrder::kSigned, 1);
  const ColumnMetaData dict = chunk_with(min_max("a", "b"), true);
  const ColumnMetaData plain = chunk_with(min_max("a", "b"), false);
  const ColumnMetaData numbers = chunk_with(min_max(std::string(8, '\0'), std::string(8, '\1')), false);

  auto defects = [](const StatisticsTrust& trust) {
    std::set<StatisticsDefect> out;
    for (StatisticsDefect d : trust.list()) out.insert(d);
    return out;
  };
  using D = StatisticsDefect;
  EXPECT_EQ(defects(StatisticsCatalogue(footer("parquet-cpp-arrow version 4.0.1")).chunk_trust(text, dict)),
            std::set<D>{D::kDictionaryNullCount});
  EXPECT_TRUE(
      StatisticsCatalogue(footer("parquet-cpp-arrow version 4.0.1")).chunk_trust(text, plain).defects == 0);
  EXPECT_TRUE(
      StatisticsCatalogue(footer("parquet-cpp-arrow version 5.0.0")).chunk_trust(text, dict).defects == 0);
  EXPECT_EQ(
      defects(StatisticsCatalogue(footer("parquet-cpp version 1.5.1-SNAPSHOT")).chunk_trust(text, dict)),
      std::set<D>{D::kDictionaryNullCount});
  EXPECT_EQ(
      defects(StatisticsCatalogue(footer("parquet-cpp-arrow version 5.0.0")).chunk_trust(nested, numbers)),
      std::set<D>{D::kNestedNullCount});
  EXPECT_TRUE(
      StatisticsCatalogue(footer("parquet-cpp-arrow version 6.0.0")).chunk_trust(nested, numbers).defects ==
      0);
  EXPECT_TRUE(StatisticsCatalogue(footer("parquet-mr version 1.12.3")).chunk_trust(nested, numbers).defects ==
              0);
  EXPECT_EQ(defects(StatisticsCatalogue(footer("parquet-mr version 1.7.0")).chunk_trust(text, plain)),
            (std::set<D>{D::kCorruptBinaryMinMax, D::kSignedOrderWriter}));
  EXPECT_EQ(defects(StatisticsCatalogue(footer("parquet-mr version 1.9.0")).chunk_trust(text, plain)),
            std::set<D>{D::kSignedOrderWriter});
  EXPECT_TRUE(StatisticsCatalogue(footer("parquet-mr version 1.9.0")).chunk_trust(number, numbers).defects ==
              0);
  EXPECT_TRUE(StatisticsCatalogue(footer("parquet-mr version 1.10.0")).chunk_trust(text, plain).defects == 0);
  // Unknown writers and files without created_by keep their statistics.
  EXPECT_TRUE(StatisticsCatalogue(footer("DuckDB version v1.1.3")).chunk_trust(text, dict).defects == 0);
  EXPECT_TRUE(StatisticsCatalogue(footer("")).chunk_trust(text, dict).defects == 0);
  // No column_orders: min_value/max_value only for signed types.
  EXPECT_EQ(defects(StatisticsCatalogue(footer("x", false)).chunk_trust(text, plain)),
            std::set<D>{D::kNoColumnOrder});
  EXPECT_TRUE(StatisticsCatalogue(footer("x", false)).chunk_trust(number, numbers).defects == 0);
  FileMetaData odd = footer("x");
  odd.column_orders = {ColumnOrder(9)};
  EXPECT_EQ(defects(StatisticsCatalogue(odd).chunk_trust(number, numbers)),
            std::set<D>{D::kUnknownColumnOrder});
  odd.column_orders = {ColumnOrder::IEEE_754_TOTAL_ORDER};
  EXPECT_EQ(defects(StatisticsCatalogue(odd).chunk_trust(number, numbers)),
            std::set<D>{D::kUnknownColumnOrder});
  const ColumnDescriptor real = descriptor(Type::DOUBLE, SortOrder::kSigned);
  const double one = 1.0;
  const double nan = std::nan("");
  const std::string one_bytes(reinterpret_cast<const char*>(&one), 8);
  const std::string nan_bytes(reinterpret_cast<const char*>(&nan), 8);
  EXPECT_TRUE(
      StatisticsCatalogue(odd).chunk_trust(real, chunk_with(min_max(one_bytes, one_bytes), false)).defects ==
      0);
  EXPECT_EQ(
      defects(StatisticsCatalogue(odd).chunk_trust(real, chunk_with(min_max(one_bytes, nan_bytes), false))),
      std::set<D>{D::kNanBound});
  const ColumnDescriptor int96 = descriptor(Type::INT96, SortOrder::kUnknown);
  EXPECT_EQ(defects(StatisticsCatalogue(footer("x"))
                        .chunk_trust(int96,
                                     chunk_with(min_max(std::string(12, 'a'), std::string(12, 'b')), false))),
            std::set<D>{D::kUndefinedSortOrder});
}

TEST(StatisticsCatalogue, LegacyFieldsOnlyWhereSignedOrderIsRight) {
  using D = StatisticsDefect;
  Statistics legacy;
  legacy.min = std::string(4, '\0');
  legacy.max = std::string(4, '\1');
  EXPECT_TRUE(statistics_value_trust(descriptor(Type::INT32, SortOrder::kSigned), legacy).defects == 0);
  EXPECT_TRUE(statistics_value_trust(descriptor(Type::INT32, SortOrder::kUnsigned), legacy)
                  .has(D::kLegacyMinMaxOrder));
  EXPECT_TRUE(statistics_value_trust(descriptor(Type::BYTE_ARRAY, SortOrder::kUnsigned), legacy)
                  .has(D::kLegacyMinMaxOrder));
  // A decimal in a byte array is signed but its bytes are not compared as numbers.
  EXPECT_TRUE(statistics_value_trust(descriptor(Type::FIXED_LEN_BYTE_ARRAY, SortOrder::kSigned), legacy)
                  .has(D::kLegacyMinMaxOrder));
  Statistics booleans;
  booleans.min = std::string(1, '\0');
  booleans.max = std::string(1, '\1');
  EXPECT_TRUE(statistics_value_trust(descriptor(Type::BOOLEAN, SortOrder::kUnsigned), booleans).defects == 0);
  // Every catalogue row names its source.
  for (const StatisticsDefectInfo& info : statistics_defect_catalogue()) {
    EXPECT_FALSE(info.source.empty());
    EXPECT_FALSE(info.description.empty());
    EXPECT_EQ(&statistics_defect_info(info.defect), &info);
  }
  EXPECT_EQ(statistics_defect_catalogue().size(), size_t(kStatisticsDefectCount));
}

}  // namespace
}  // namespace parquetry
