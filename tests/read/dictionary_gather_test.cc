// Dictionary gathers of fixed-width values: small dictionaries take a
// register-permute path (up to 32 entries, both halves of the register pair,
// whole vectors and a scalar tail), larger ones plain loads. Every
// dictionary size around those limits, at both widths and at counts around
// the vector sizes, must give the entries the indices name, appended after
// what the buffer already held.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "parquetry/column/value_decoders.h"
#include "parquetry/error.h"

namespace parquetry {
namespace {

template <typename T>
void check_gathers(Type physical_type) {
  std::mt19937_64 rng(41);
  LeafSpec spec;
  spec.physical_type = physical_type;
  for (int64_t dict_size : {1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 1000}) {
    std::vector<T> entries(static_cast<size_t>(dict_size));
    for (T& e : entries) e = T(rng());
    Buffer dictionary;
    dictionary.append(entries.data(), entries.size() * sizeof(T));
    const Buffer no_offsets;
    for (int64_t count : {0, 1, 15, 16, 17, 40, 1023}) {
      SCOPED_TRACE(testing::Message() << sizeof(T) << "-byte values, dictionary of " << dict_size << ", "
                                      << count << " indices");
      std::vector<uint32_t> indices(static_cast<size_t>(count));
      for (uint32_t& i : indices) i = uint32_t(rng() % uint64_t(dict_size));
      if (count > 0) indices.back() = uint32_t(dict_size - 1);  // the last entry, in the upper half
      Buffer values;
      const T before = T(0x5A5A5A5A);
      values.append(&before, sizeof(T));
      gather(spec, indices.data(), count, dictionary, no_offsets, dict_size, values, nullptr, 1);
      ASSERT_EQ(values.size(), size_t(count + 1) * sizeof(T));
      std::vector<T> got(static_cast<size_t>(count + 1));
      std::memcpy(got.data(), values.data(), values.size());
      EXPECT_EQ(got[0], before);
      for (int64_t k = 0; k < count; ++k)
        ASSERT_EQ(got[size_t(k + 1)], entries[indices[size_t(k)]]) << "at " << k;
    }
  }
}

TEST(DictionaryGather, FourByteValuesOfEveryDictionarySize) { check_gathers<uint32_t>(Type::INT32); }

TEST(DictionaryGather, EightByteValuesOfEveryDictionarySize) { check_gathers<uint64_t>(Type::INT64); }

TEST(DictionaryGather, AnIndexPastTheDictionaryIsRefused) {
  LeafSpec spec;
  spec.physical_type = Type::INT64;
  const uint64_t entries[3] = {1, 2, 3};
  Buffer dictionary;
  dictionary.append(entries, sizeof(entries));
  std::vector<uint32_t> indices(20, 1);
  indices[17] = 3;
  Buffer values;
  EXPECT_THROW(
      gather(spec, indices.data(), int64_t(indices.size()), dictionary, Buffer(), 3, values, nullptr, 0),
      Error);
}

}  // namespace
}  // namespace parquetry
