// Comparing scan summaries in the scan tests: bounds equal (NaN equal to
// NaN: a fold that saw only NaN keeps no bound either way), counts equal,
// sums of doubles equal within `relative_sum_error` of the expected sum
// (0: equal to 4 ulps, for folds that add in the same order).
#pragma once

#include <gtest/gtest.h>

#include <cmath>

#include "parquetry/scan.h"

namespace parquetry::testing {

inline bool same_bound(const ScanScalar& a, const ScanScalar& b) {
  if (a.index() != b.index()) return false;
  if (const auto* x = std::get_if<double>(&a)) {
    const double y = std::get<double>(b);
    return *x == y || (std::isnan(*x) && std::isnan(y));
  }
  return a == b;
}

inline void expect_same_summary(const ScanSummary& got, const ScanSummary& want,
                                double relative_sum_error = 0) {
  EXPECT_EQ(got.rows, want.rows);
  ASSERT_EQ(got.columns.size(), want.columns.size());
  for (size_t c = 0; c < want.columns.size(); ++c) {
    const ColumnScanSummary& g = got.columns[c];
    const ColumnScanSummary& w = want.columns[c];
    SCOPED_TRACE(w.name);
    EXPECT_EQ(g.name, w.name);
    EXPECT_EQ(g.count, w.count);
    EXPECT_EQ(g.nulls, w.nulls);
    EXPECT_TRUE(same_bound(g.min, w.min));
    EXPECT_TRUE(same_bound(g.max, w.max));
    EXPECT_EQ(g.sum_int, w.sum_int);
    if (relative_sum_error == 0) {
      EXPECT_DOUBLE_EQ(g.sum_double, w.sum_double);
    } else {
      EXPECT_NEAR(g.sum_double, w.sum_double, std::abs(w.sum_double) * relative_sum_error);
    }
  }
}

}  // namespace parquetry::testing
