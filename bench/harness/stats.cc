#include "stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace parquetry::bench {
namespace {

// Continued fraction of the regularized incomplete beta function (Lentz's
// method); converges quickly for x < (a + 1) / (a + b + 2).
double beta_continued_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= 300; ++m) {
    const double m2 = 2.0 * m;
    double numerator = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
    d = 1.0 + numerator * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + numerator / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    h *= d * c;
    numerator = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
    d = 1.0 + numerator * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + numerator / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1.0) < 1e-15) break;
  }
  return h;
}

double regularized_incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  if (x < (a + 1.0) / (a + b + 2.0)) return std::exp(log_front) * beta_continued_fraction(a, b, x) / a;
  return 1.0 - std::exp(log_front) * beta_continued_fraction(b, a, 1.0 - x) / b;
}

// P(T <= t) for Student's t with `dof` degrees of freedom.
double student_t_cdf(double t, int dof) {
  const double v = dof;
  const double tail = 0.5 * regularized_incomplete_beta(v / 2.0, 0.5, v / (v + t * t));
  return t >= 0 ? 1.0 - tail : tail;
}

}  // namespace

double student_t_quantile(double p, int dof) {
  if (dof < 1 || !(p > 0 && p < 1)) return std::numeric_limits<double>::quiet_NaN();
  if (p == 0.5) return 0;
  if (p < 0.5) return -student_t_quantile(1 - p, dof);
  // The CDF is monotonic: bracket, then bisect to double precision.
  double low = 0, high = 1;
  while (student_t_cdf(high, dof) < p) high *= 2;
  for (int i = 0; i < 200 && high - low > 1e-12 * high; ++i) {
    const double mid = 0.5 * (low + high);
    (student_t_cdf(mid, dof) < p ? low : high) = mid;
  }
  return 0.5 * (low + high);
}

Summary summarize(std::vector<double> samples) {
  Summary s;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  s.count = static_cast<int>(samples.size());
  if (samples.empty()) {
    s.median = s.mean = s.stddev = s.error = s.min = s.max = nan;
    return s;
  }
  std::sort(samples.begin(), samples.end());
  const size_t n = samples.size();
  s.min = samples.front();
  s.max = samples.back();
  s.median = n % 2 == 1 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(n);
  if (n < 2) {
    s.stddev = s.error = nan;
    return s;
  }
  double squares = 0;
  for (double x : samples) squares += (x - s.mean) * (x - s.mean);
  s.stddev = std::sqrt(squares / static_cast<double>(n - 1));
  s.error =
      student_t_quantile(0.9995, static_cast<int>(n - 1)) * s.stddev / std::sqrt(static_cast<double>(n));
  return s;
}

}  // namespace parquetry::bench
