#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "datasets.h"
#include "test_support.h"

namespace parquetry::bench::datasets {
namespace {

const Column& column(const Table& t, const std::string& name) {
  for (const Column& c : t.columns) {
    if (c.name == name) return c;
  }
  throw std::runtime_error("no column " + name);
}

TEST(Datasets, TaxiHasTheTlcSchemaAndDistributions) {
  const Table t = generate_taxi(20'000);
  ASSERT_EQ(t.columns.size(), 19u);
  EXPECT_EQ(t.columns[0].name, "VendorID");
  EXPECT_EQ(t.columns[18].name, "airport_fee");
  EXPECT_EQ(column(t, "tpep_pickup_datetime").type, ColumnType::kTimestampMicros);
  EXPECT_EQ(column(t, "store_and_fwd_flag").type, ColumnType::kString);

  const Column& pu = column(t, "PULocationID");
  std::map<int64_t, int> zone_counts;
  for (int64_t z : pu.ints) {
    ASSERT_GE(z, 1);
    ASSERT_LE(z, 265);
    ++zone_counts[z];
  }
  int busiest = 0;
  for (const auto& [zone, n] : zone_counts) busiest = std::max(busiest, n);
  EXPECT_GT(busiest, 20'000 / 265 * 5);  // skewed, far from uniform

  int card_or_cash = 0;
  for (int64_t p : column(t, "payment_type").ints) {
    ASSERT_GE(p, 1);
    ASSERT_LE(p, 5);
    card_or_cash += p <= 2;
  }
  EXPECT_GT(card_or_cash, 20'000 * 9 / 10);

  // Pickups fall inside January 2022; dropoffs follow pickups.
  const Column& pickup = column(t, "tpep_pickup_datetime");
  const Column& dropoff = column(t, "tpep_dropoff_datetime");
  for (size_t r = 0; r < pickup.ints.size(); ++r) {
    ASSERT_GE(pickup.ints[r], 1'640'995'200'000'000);
    ASSERT_LT(pickup.ints[r], 1'643'673'600'000'000);
    ASSERT_GT(dropoff.ints[r], pickup.ints[r]);
  }

  // ~3% nulls, the same rows in every optional column.
  const Column& passengers = column(t, "passenger_count");
  const Column& airport = column(t, "airport_fee");
  int nulls = 0;
  for (size_t r = 0; r < passengers.valid.size(); ++r) {
    nulls += passengers.valid[r] == 0;
    ASSERT_EQ(passengers.valid[r], airport.valid[r]);
  }
  EXPECT_GT(nulls, 20'000 * 2 / 100);
  EXPECT_LT(nulls, 20'000 * 4 / 100);
  const Column& flag = column(t, "store_and_fwd_flag");
  for (int64_t r = 0; r < t.rows; ++r) {
    const auto len = flag.offsets[static_cast<size_t>(r) + 1] - flag.offsets[static_cast<size_t>(r)];
    ASSERT_EQ(len, flag.is_valid(r) ? 1 : 0);
  }
  EXPECT_TRUE(column(t, "VendorID").valid.empty());  // required column
}

TEST(Datasets, TaxiTotalsAddUp) {
  const Table t = generate_taxi(1'000);
  const std::vector<std::string> parts = {"fare_amount", "extra",        "mta_tax",
                                          "tip_amount",  "tolls_amount", "improvement_surcharge"};
  for (int64_t r = 0; r < t.rows; ++r) {
    const size_t row = static_cast<size_t>(r);
    double sum = 0;
    for (const std::string& p : parts) sum += column(t, p).doubles[row];
    const Column& congestion = column(t, "congestion_surcharge");
    const Column& airport = column(t, "airport_fee");
    sum += congestion.is_valid(r) ? congestion.doubles[row] : 2.5;
    sum += airport.is_valid(r) ? airport.doubles[row] : 0;
    ASSERT_NEAR(column(t, "total_amount").doubles[row], sum, 1e-6) << "row " << r;
  }
}

TEST(Datasets, MetricsHasTagsAndLists) {
  const Table t = generate_metrics();
  ASSERT_EQ(t.rows, 1000);
  ASSERT_EQ(t.columns.size(), 45u);
  for (size_t c = 0; c < 41; ++c) EXPECT_EQ(t.columns[c].type, ColumnType::kString) << t.columns[c].name;
  EXPECT_EQ(t.columns[0].name, "application");
  EXPECT_EQ(t.columns[41].name, "ts");
  EXPECT_EQ(t.columns[42].type, ColumnType::kListDouble);
  EXPECT_EQ(t.columns[44].name, "count");
  const Column& ts = t.columns[41];
  int empty = 0;
  for (size_t r = 0; r < 1000; ++r) {
    const int64_t n = ts.offsets[r + 1] - ts.offsets[r];
    empty += n == 0;
    if (n != 0) {
      ASSERT_GE(n, 50);
      ASSERT_LE(n, 200);
      EXPECT_EQ(ts.ints[static_cast<size_t>(ts.offsets[r])], 1'737'967'143'010);
    }
  }
  EXPECT_GT(empty, 10);
  EXPECT_LT(empty, 150);
  // Tags are low/mid cardinality.
  std::map<std::string, int> zones;
  const Column& zone = t.columns[1];
  for (size_t r = 0; r < 1000; ++r) {
    zones[zone.chars.substr(static_cast<size_t>(zone.offsets[r]),
                            static_cast<size_t>(zone.offsets[r + 1] - zone.offsets[r]))]++;
  }
  EXPECT_EQ(zones.size(), 3u);
  EXPECT_TRUE(zones.count("zone-a"));
}

TEST(Datasets, GeneratorsAreDeterministic) {
  EXPECT_EQ(content_checksum(generate_metrics()), content_checksum(generate_metrics()));
  EXPECT_EQ(content_checksum(generate_taxi(5'000)), content_checksum(generate_taxi(5'000)));
  EXPECT_NE(content_checksum(generate_taxi(5'000)), content_checksum(generate_taxi(5'000, 7)));
}

TEST(Datasets, FoldCountsNullsAndListElements) {
  Table t;
  t.rows = 3;
  Column a;
  a.name = "a";
  a.type = ColumnType::kDouble;
  a.nullable = true;
  a.valid = {1, 0, 1};
  a.doubles = {2.5, 0, -1.25};
  Column l;
  l.name = "l";
  l.type = ColumnType::kListInt64;
  l.offsets = {0, 2, 2, 5};
  l.ints = {1, 2, 10, 20, 30};
  t.columns = {a, l};
  const ScanResult r = fold_table(t);
  EXPECT_EQ(r.columns[0].count, 2);
  EXPECT_EQ(r.columns[0].nulls, 1);
  EXPECT_EQ(std::get<double>(r.columns[0].min), -1.25);
  EXPECT_EQ(std::get<double>(r.columns[0].max), 2.5);
  EXPECT_EQ(r.columns[1].count, 5);
  EXPECT_EQ(r.columns[1].sum_int, 63);
}

TEST(Datasets, CsvHandOffIsExact) {
  Table t;
  t.rows = 2;
  Column ts{
      "ts", ColumnType::kTimestampMicros, false, {}, {1'641'000'000'000'000, 1'643'673'599'500'000}, {}, {},
      {}};
  Column d{"d", ColumnType::kDouble, true, {1, 0}, {}, {0.1, 0}, {}, {}};
  Column s{"s", ColumnType::kString, true, {0, 1}, {}, {}, {0, 0, 1}, "Y"};
  Column l{"l", ColumnType::kListDouble, false, {}, {}, {1.5, 2}, {0, 0, 2}, {}};
  t.columns = {ts, d, s, l};
  const std::string path = (parquetry::testing::temp_dir() / "t.csv").string();
  write_csv(t, path);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(),
            "ts,d,s,l\n"
            "2022-01-01 01:20:00,0.1,,\"[]\"\n"
            "2022-01-31 23:59:59.500000,,\"Y\",\"[1.5,2]\"\n");
}

// The whole hand-off: generator -> CSV -> DuckDB -> Parquet -> DuckDB full
// scan, which must equal the in-memory fold (ensure_dataset checks it).
TEST(Datasets, DuckDBWritesTheMetricsFileAndReusesIt) {
  const std::string peers = std::string(PARQUETRY_SOURCE_DIR) + "/bench/peers";
  if (!std::filesystem::exists(peers + "/node_modules/@duckdb/node-api")) {
    GTEST_SKIP() << "DuckDB peer not installed (scripts/install-peers.sh)";
  }
  const std::string dir = (parquetry::testing::temp_dir() / "data").string();
  const DatasetFile first = ensure_dataset("metrics", dir, peers, "node");
  EXPECT_FALSE(first.reused);
  EXPECT_EQ(first.rows, 1000);
  EXPECT_GT(first.bytes, 10'000);
  EXPECT_EQ(first.content_checksum, content_checksum(generate_metrics()));
  EXPECT_EQ(first.file_checksum, file_checksum(first.path));
  const DatasetFile second = ensure_dataset("metrics", dir, peers, "node");
  EXPECT_TRUE(second.reused);
  EXPECT_EQ(second.file_checksum, first.file_checksum);
  EXPECT_FALSE(std::filesystem::exists(dir + "/metrics.handoff.csv"));
}

}  // namespace
}  // namespace parquetry::bench::datasets
