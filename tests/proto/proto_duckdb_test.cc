// DuckDB reads what both protobuf paths write, with the expected values: enums
// as names, unsigned values above 2^31, lists, maps and nested groups, in the
// 3-level and in the legacy layout. DuckDB runs through
// bench/peers/duckdb_check.mjs; without node or the peer the test is skipped.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cstdio>
#include <filesystem>

#include "proto3_types.parquetry.h"
#include "test_support.h"

namespace parquetry::proto {
namespace {

std::vector<std::string> duckdb_rows(const std::string& file) {
  int status = 0;
  std::vector<std::string> lines =
      parquetry::testing::run_peer("duckdb_check.mjs", parquetry::testing::shell_quote(file), &status);
  EXPECT_EQ(status, 0) << (lines.empty() ? "" : lines.back());
  return lines;
}

std::vector<parquetry::test::AllTypes3> sample() {
  std::vector<parquetry::test::AllTypes3> rows(2);
  auto& a = rows[0];
  a.set_f_int32(-7);
  a.set_f_uint32(4'000'000'000u);
  a.set_f_sint64(-1234567890123LL);
  a.set_f_double(2.5);
  a.set_f_bool(true);
  a.set_f_string("fieldA:1");
  a.set_f_enum(parquetry::test::GREEN);
  a.mutable_inner()->set_a(11);
  a.mutable_inner()->set_b("nested");
  a.add_r_int32(1);
  a.add_r_int32(2);
  a.add_r_int32(3);
  a.add_r_enum(parquetry::test::BLUE);
  (*a.mutable_m_str_int())["k"] = 9;
  a.set_c_str("picked");
  a.mutable_ts()->set_seconds(86400);
  a.mutable_ts()->set_nanos(5);
  auto& b = rows[1];
  b.set_f_int32(42);
  b.set_o_int32(0);
  b.add_r_string("x");
  return rows;
}

void expect_rows(const std::vector<std::string>& lines, bool legacy) {
  ASSERT_EQ(lines.size(), 2u);
  simdjson::dom::parser parser;
  simdjson::dom::element a = parser.parse(lines[0]);
  EXPECT_EQ(int64_t(a["f_int32"]), -7);
  EXPECT_EQ(int64_t(a["f_uint32"]), legacy ? int64_t(int32_t(4'000'000'000u)) : 4'000'000'000LL);
  EXPECT_EQ(int64_t(a["f_sint64"]), -1234567890123LL);
  EXPECT_EQ(double(a["f_double"]), 2.5);
  EXPECT_EQ(bool(a["f_bool"]), true);
  EXPECT_EQ(std::string_view(a["f_string"]), "fieldA:1");
  EXPECT_EQ(std::string_view(a["f_enum"]), "GREEN");
  EXPECT_EQ(std::string_view(a["f_bytes"]), "");  // proto3 writes defaults
  EXPECT_TRUE(a["o_int32"].is_null());            // unset explicit-presence field
  EXPECT_EQ(int64_t(a["inner"]["a"]), 11);
  EXPECT_EQ(std::string_view(a["inner"]["b"]), "nested");
  simdjson::dom::array list = a["r_int32"];
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(int64_t(list.at(2)), 3);
  EXPECT_EQ(std::string_view(a["r_enum"].at(0)), "BLUE");
  if (legacy) {
    // A bare repeated group reads as a list of {key, value}.
    EXPECT_EQ(std::string_view(a["m_str_int"].at(0)["key"]), "k");
    EXPECT_EQ(int64_t(a["m_str_int"].at(0)["value"]), 9);
  } else {
    EXPECT_EQ(int64_t(a["m_str_int"]["k"]), 9);
  }
  EXPECT_EQ(std::string_view(a["c_str"]), "picked");
  EXPECT_TRUE(a["c_int"].is_null());
  EXPECT_EQ(int64_t(a["ts"]["seconds"]), 86400);
  EXPECT_EQ(int64_t(a["ts"]["nanos"]), 5);
  simdjson::dom::element b = parser.parse(lines[1]);
  EXPECT_EQ(int64_t(b["f_int32"]), 42);
  EXPECT_EQ(int64_t(b["o_int32"]), 0);
  EXPECT_EQ(std::string_view(b["f_enum"]), "COLOR_UNSPECIFIED");
  EXPECT_TRUE(b["inner"].is_null());
  EXPECT_EQ(std::string_view(b["r_string"].at(0)), "x");
  if (legacy) {
    EXPECT_EQ(simdjson::dom::array(b["r_int32"]).size(), 0u);  // empty, not null
  } else {
    EXPECT_TRUE(b["r_int32"].is_null());  // empty collections are not written
  }
}

TEST(ProtoDuckDb, ReadsBothPathsAndBothLayouts) {
  if (!parquetry::testing::duckdb_peer_available())
    GTEST_SKIP() << "node or @duckdb/node-api missing (scripts/install-peers.sh)";
  const auto rows = sample();
  for (bool legacy : {false, true}) {
    SCOPED_TRACE(legacy ? "legacy" : "3-level");
    const ProtoOptions options = legacy ? ProtoOptions::legacy() : ProtoOptions{};
    const auto dir = parquetry::testing::temp_dir();
    const std::string generated = (dir / "generated.parquet").string();
    const std::string reflected = (dir / "reflected.parquet").string();
    parquetry::test::AllTypes3ParquetWriter writer(generated, options);
    for (const auto& m : rows) writer.write(m);
    writer.close();
    auto reflect = ProtoWriter::open(reflected, parquetry::test::AllTypes3::descriptor(), options);
    for (const auto& m : rows) reflect->write(m);
    reflect->close();
    expect_rows(duckdb_rows(generated), legacy);
    expect_rows(duckdb_rows(reflected), legacy);
  }
}

TEST(ProtoDuckDb, UnwrappedWellKnownTypesAreDatesAndTimes) {
  if (!parquetry::testing::duckdb_peer_available())
    GTEST_SKIP() << "node or @duckdb/node-api missing (scripts/install-peers.sh)";
  parquetry::test::AllTypes3 m;
  m.mutable_date()->set_year(2024);
  m.mutable_date()->set_month(2);
  m.mutable_date()->set_day(29);
  m.mutable_time()->set_hours(13);
  m.mutable_time()->set_minutes(45);
  m.mutable_time()->set_seconds(30);
  m.mutable_time()->set_nanos(123000);
  m.mutable_ts()->set_seconds(1'700'000'000);
  m.mutable_w_int32()->set_value(-3);
  ProtoOptions options;
  options.unwrap_well_known_types = true;
  const std::string path = (parquetry::testing::temp_dir() / "wkt.parquet").string();
  parquetry::test::AllTypes3ParquetWriter writer(path, options);
  writer.write(m);
  writer.close();
  const auto lines = duckdb_rows(path);
  ASSERT_EQ(lines.size(), 1u);
  simdjson::dom::parser parser;
  simdjson::dom::element row = parser.parse(lines[0]);
  EXPECT_EQ(std::string_view(row["date"]), "2024-02-29");
  EXPECT_EQ(std::string_view(row["time"]), "13:45:30.000123");
  EXPECT_EQ(std::string_view(row["ts"]).substr(0, 19), "2023-11-14 22:13:20");
  EXPECT_EQ(int64_t(row["w_int32"]), -3);
  EXPECT_TRUE(row["w_string"].is_null());
}

}  // namespace
}  // namespace parquetry::proto
