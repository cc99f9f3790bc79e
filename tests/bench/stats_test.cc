#include <gtest/gtest.h>

#include <cmath>

#include "stats.h"

namespace parquetry::bench {
namespace {

TEST(Stats, StudentQuantilesMatchTables) {
  // t(0.9995) for the degrees of freedom JMH uses with 2, 5 and 30 samples.
  EXPECT_NEAR(student_t_quantile(0.9995, 1), 636.619, 0.01);
  EXPECT_NEAR(student_t_quantile(0.9995, 4), 8.6103, 0.0005);
  EXPECT_NEAR(student_t_quantile(0.9995, 29), 3.6594, 0.0005);
  EXPECT_NEAR(student_t_quantile(0.975, 10), 2.2281, 0.0005);
  EXPECT_NEAR(student_t_quantile(0.025, 10), -2.2281, 0.0005);
}

TEST(Stats, SummaryIsMedianWithJmhError) {
  const Summary s = summarize({10, 12, 11, 13, 14});
  EXPECT_EQ(s.count, 5);
  EXPECT_DOUBLE_EQ(s.median, 12);
  EXPECT_DOUBLE_EQ(s.mean, 12);
  EXPECT_NEAR(s.stddev, std::sqrt(2.5), 1e-12);
  EXPECT_NEAR(s.error, 8.6103 * std::sqrt(2.5) / std::sqrt(5.0), 1e-3);
  EXPECT_DOUBLE_EQ(s.min, 10);
  EXPECT_DOUBLE_EQ(s.max, 14);
  EXPECT_DOUBLE_EQ(summarize({4, 1, 3, 2}).median, 2.5);
}

TEST(Stats, SingleSampleHasNoError) {
  const Summary s = summarize({7});
  EXPECT_EQ(s.count, 1);
  EXPECT_DOUBLE_EQ(s.median, 7);
  EXPECT_TRUE(std::isnan(s.error));
}

}  // namespace
}  // namespace parquetry::bench
