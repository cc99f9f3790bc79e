// Summary statistics over the measurement repetitions of one case, computed
// the way JMH prints them: the error is the half-width of a 99.9% confidence
// interval of the mean, Student t with n-1 degrees of freedom.
#pragma once

#include <vector>

namespace parquetry::bench {

struct Summary {
  int count = 0;      ///< measurement repetitions (JMH "Cnt")
  double median = 0;  ///< the score printed in tables
  double mean = 0;
  double stddev = 0;  ///< sample standard deviation (n-1)
  double error = 0;   ///< 99.9% confidence half-width; NaN when count < 2
  double min = 0;
  double max = 0;
};

/// Summarises `samples` (any unit). An empty input gives count 0 and NaNs.
Summary summarize(std::vector<double> samples);

/// The p-quantile of Student's t distribution with `dof` degrees of freedom
/// (dof >= 1, 0 < p < 1). summarize() uses p = 0.9995.
double student_t_quantile(double p, int dof);

}  // namespace parquetry::bench
