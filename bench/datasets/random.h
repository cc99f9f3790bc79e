// The generators' pseudo-random source: xoshiro256** seeded through
// splitmix64. Fixed algorithms (not std::mt19937 + std::*_distribution,
// whose outputs differ between standard libraries) keep datasets identical
// on every machine.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace parquetry::bench::datasets {

class Random {
 public:
  explicit Random(uint64_t seed) {
    for (uint64_t& word : state_) {
      seed += 0x9e3779b97f4a7c15ULL;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      word = z ^ (z >> 31);
    }
  }

  uint64_t next() {
    const uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Uniform integer in [low, high].
  int64_t between(int64_t low, int64_t high) {
    return low + static_cast<int64_t>(next() % static_cast<uint64_t>(high - low + 1));
  }
  bool chance(double p) { return uniform() < p; }
  /// Standard normal (Box-Muller, one value per call).
  double normal() {
    const double u1 = 1.0 - uniform();
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  /// Log-normal with the given median and shape.
  double lognormal(double median, double sigma) { return median * std::exp(sigma * normal()); }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t state_[4];
};

/// Draws an index with probability proportional to its weight (binary search over the cumulative sums).
class WeightedChoice {
 public:
  explicit WeightedChoice(const std::vector<double>& weights) {
    double total = 0;
    for (double w : weights) cumulative_.push_back(total += w);
    for (double& c : cumulative_) c /= total;
  }
  size_t draw(Random& random) const {
    const double u = random.uniform();
    size_t low = 0, high = cumulative_.size() - 1;
    while (low < high) {
      const size_t mid = (low + high) / 2;
      if (cumulative_[mid] > u) {
        high = mid;
      } else {
        low = mid + 1;
      }
    }
    return low;
  }

 private:
  std::vector<double> cumulative_;
};

/// Zipf-like weights 1/(rank^s) for `n` items.
inline std::vector<double> zipf_weights(size_t n, double s) {
  std::vector<double> weights(n);
  for (size_t i = 0; i < n; ++i) weights[i] = 1.0 / std::pow(static_cast<double>(i + 1), s);
  return weights;
}

}  // namespace parquetry::bench::datasets
