#include <gtest/gtest.h>

#include "scan_result.h"

namespace parquetry::bench {
namespace {

ScanResult sample() {
  ScanResult r;
  r.rows = 3;
  ColumnStats ints{"id", ValueKind::kInt64, 3, 0, int64_t{-5}, int64_t{9007199254740993}, 0, 0};
  ColumnStats doubles{"fare", ValueKind::kDouble, 2, 1, 2.5, 14.25, 0, 0};
  ColumnStats strings{"flag", ValueKind::kString, 2, 1, std::string("N"), std::string("Y"), 0, 0};
  ColumnStats list{"sums", ValueKind::kListDouble, 250, 0, {}, {}, 0, 1234.5678};
  ColumnStats longs{"ts", ValueKind::kListInt64, 250, 0, {}, {}, 434343434343434343, 0};
  r.columns = {ints, doubles, strings, list, longs};
  return r;
}

TEST(ScanResult, JsonRoundTripIsExact) {
  const ScanResult r = sample();
  const ScanResult back = scan_result_from_json(scan_result_to_json(r));
  EXPECT_TRUE(compare_scan_results(r, back).empty());
  EXPECT_EQ(std::get<int64_t>(back.columns[0].max), 9007199254740993);  // beyond 2^53
  EXPECT_EQ(std::get<double>(back.columns[1].max), 14.25);
  EXPECT_EQ(std::get<std::string>(back.columns[2].min), "N");
  EXPECT_EQ(back.columns[4].sum_int, 434343434343434343);
}

TEST(ScanResult, EveryDifferenceIsNamed) {
  ScanResult peer = sample();
  peer.rows = 4;
  peer.columns[0].min = int64_t{-6};
  peer.columns[1].nulls = 0;
  peer.columns[2].max = std::string("Z");
  peer.columns[4].sum_int += 1;
  const auto diffs = compare_scan_results(sample(), peer);
  ASSERT_EQ(diffs.size(), 5u);
  EXPECT_EQ(diffs[0], "rows 3 (ours) != 4 (peer)");
  EXPECT_EQ(diffs[1], "column id: min -5 (ours) != -6 (peer)");
  EXPECT_EQ(diffs[2], "column fare: nulls 1 (ours) != 0 (peer)");
  EXPECT_EQ(diffs[3], "column flag: max \"Y\" (ours) != \"Z\" (peer)");
  EXPECT_EQ(diffs[4], "column ts: sum 434343434343434343 (ours) != 434343434343434344 (peer)");
}

TEST(ScanResult, DoubleSumsAllowSummationOrder) {
  ScanResult peer = sample();
  peer.columns[3].sum_double = 1234.5678 * (1 + 1e-12);
  EXPECT_TRUE(compare_scan_results(sample(), peer).empty());
  peer.columns[3].sum_double = 1234.6;
  EXPECT_EQ(compare_scan_results(sample(), peer).size(), 1u);
}

TEST(ScanResult, PeerJsonWithNullsParses) {
  const ScanResult r = scan_result_from_json(
      R"({"rows":"2","columns":[{"name":"a","kind":"double","count":"0","nulls":"2","min":null,"max":null},)"
      R"({"name":"b","kind":"list<int64>","count":"0","nulls":"0","sum":null}]})");
  EXPECT_EQ(r.rows, 2);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(r.columns[0].min));
  EXPECT_EQ(r.columns[0].nulls, 2);
  EXPECT_EQ(r.columns[1].kind, ValueKind::kListInt64);
  EXPECT_THROW(scan_result_from_json(R"({"rows":"x","columns":[]})"), std::runtime_error);
}

}  // namespace
}  // namespace parquetry::bench
