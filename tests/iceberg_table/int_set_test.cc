// FlatInt64Set, the set equality deletes on an integer column are looked up
// in: in its bitmap form (keys within 64 bits per table slot of each other)
// and its hash-table form, every answer equals std::set's, at the int64
// extremes, for negative keys and duplicates, and for probes beside keys.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <set>
#include <vector>

#include "parquetry/iceberg_table/int_set.h"

namespace parquetry::iceberg {
namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

void expect_same_as_std_set(const std::vector<int64_t>& keys, std::mt19937_64& rng) {
  const FlatInt64Set set(keys);
  const std::set<int64_t> model(keys.begin(), keys.end());
  EXPECT_EQ(set.size(), model.size());
  std::vector<int64_t> probes = {kMin, kMin + 1, -1, 0, 1, kMax - 1, kMax};
  for (int64_t key : keys) {
    probes.push_back(key);
    probes.push_back(int64_t(uint64_t(key) - 1));
    probes.push_back(int64_t(uint64_t(key) + 1));
    probes.push_back(int64_t(uint64_t(key) + 64));
  }
  for (int i = 0; i < 2000; ++i) probes.push_back(int64_t(rng()));
  for (int64_t probe : probes) {
    ASSERT_EQ(set.contains(probe), model.count(probe) == 1) << "probe " << probe;
  }
}

TEST(FlatInt64Set, EveryNthIdAsBitmap) {
  std::mt19937_64 rng(1);
  std::vector<int64_t> keys;
  for (int64_t id = 0; id < 200'000; id += 20) keys.push_back(id);
  keys.push_back(40);  // a duplicate
  expect_same_as_std_set(keys, rng);
}

TEST(FlatInt64Set, NegativeAndDenseRanges) {
  std::mt19937_64 rng(2);
  std::vector<int64_t> keys;
  for (int64_t id = -5000; id < 5000; id += 3) keys.push_back(id);
  expect_same_as_std_set(keys, rng);
  // A range reaching the lowest int64, and one reaching the highest.
  expect_same_as_std_set({kMin, kMin + 2, kMin + 63, kMin + 64, kMin + 700}, rng);
  expect_same_as_std_set({kMax, kMax - 5, kMax - 64, kMax - 900}, rng);
}

TEST(FlatInt64Set, SpreadKeysAsTable) {
  std::mt19937_64 rng(3);
  std::vector<int64_t> keys;
  for (int i = 0; i < 10'000; ++i) keys.push_back(int64_t(rng()));
  keys.push_back(kMin);  // the table's empty marker, as a key
  keys.push_back(kMax);
  keys.push_back(keys[5]);
  expect_same_as_std_set(keys, rng);
  expect_same_as_std_set({kMin, kMax}, rng);
  expect_same_as_std_set({}, rng);
  expect_same_as_std_set({0}, rng);
}

}  // namespace
}  // namespace parquetry::iceberg
