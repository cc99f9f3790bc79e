// Encoder -> decoder round trips for every physical type through each
// encoding that applies to it, with seeded random values plus edge values,
// for page sizes 0, 1 and many, decoded in one batch and in several.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "parquetry/encoding/byte_stream_split.h"
#include "parquetry/encoding/delta.h"
#include "parquetry/encoding/dictionary.h"
#include "parquetry/encoding/plain.h"

namespace parquetry::encoding {
namespace {

template <typename T>
std::vector<T> sample(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>) {
      x = T(int64_t(rng() % 2000) - 1000) / T(8);
    } else {
      x = T(rng() % 500) - T(250);
    }
  }
  // Edge values where there is room.
  const T edges[] = {std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max(), T(0), T(-1)};
  for (size_t i = 0; i < 4 && i < n; ++i) v[n - 1 - i] = edges[i];
  return v;
}

template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <typename T>
void round_trip_fixed_type() {
  for (size_t n : {size_t(0), size_t(1), size_t(5), size_t(3001)}) {
    auto v = sample<T>(n, 100 + n);
    // PLAIN.
    {
      Buffer page;
      plain_encode(v.data(), int64_t(n), page);
      PlainDecoder d(page.span());
      std::vector<T> got(n);
      size_t half = n / 2;
      d.decode(got.data(), int64_t(half));
      d.decode(got.data() + half, int64_t(n - half));
      EXPECT_TRUE(same_bits(got, v)) << "PLAIN n=" << n;
      EXPECT_EQ(d.bytes_remaining(), 0);
    }
    // Dictionary.
    {
      DictionaryBuilder<T> b;
      std::vector<int32_t> idx(n);
      ASSERT_EQ(b.put(v.data(), int64_t(n), idx.data()), int64_t(n));
      Buffer dict_page, data_page;
      b.write_dictionary_page(dict_page);
      encode_dictionary_indices(idx.data(), int64_t(n), b.index_bit_width(), data_page);
      std::vector<T> dict(size_t(b.size()));
      PlainDecoder(dict_page.span()).decode(dict.data(), b.size());
      DictionaryIndexDecoder d(data_page.span(), b.size());
      std::vector<int32_t> got_idx(n);
      ASSERT_EQ(d.decode(got_idx.data(), int64_t(n)), int64_t(n));
      std::vector<T> got(n);
      gather(dict.data(), got_idx.data(), int64_t(n), got.data());
      EXPECT_TRUE(same_bits(got, v)) << "dictionary n=" << n;
    }
    // BYTE_STREAM_SPLIT.
    {
      Buffer page;
      byte_stream_split_encode(v.data(), int(sizeof(T)), int64_t(n), page);
      ByteStreamSplitDecoder d(page.span(), int(sizeof(T)));
      EXPECT_EQ(d.total_values(), int64_t(n));
      std::vector<T> got(n);
      int64_t done = 0;
      while (d.values_left() > 0) done += d.decode(got.data() + done, 1000);
      EXPECT_TRUE(same_bits(got, v)) << "BSS n=" << n;
    }
    // DELTA_BINARY_PACKED for the integer types.
    if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
      DeltaBinaryPackedEncoder<T> enc;
      enc.put(v.data(), int64_t(n));
      Buffer page;
      enc.flush_to(page);
      DeltaBinaryPackedDecoder<T> d(page.span());
      std::vector<T> got(n);
      int64_t done = 0;
      while (d.values_left() > 0) done += d.decode(got.data() + done, 129);
      EXPECT_EQ(got, v) << "DELTA n=" << n;
      EXPECT_EQ(d.bytes_consumed(), int64_t(page.size()));
    }
  }
}

TEST(RoundTrip, Int32) { round_trip_fixed_type<int32_t>(); }
TEST(RoundTrip, Int64) { round_trip_fixed_type<int64_t>(); }
TEST(RoundTrip, Float) { round_trip_fixed_type<float>(); }
TEST(RoundTrip, Double) { round_trip_fixed_type<double>(); }

TEST(RoundTrip, Int96AndFixedLenByteArrays) {
  std::mt19937 rng(31);
  for (int width : {1, 5, 12, 16}) {
    for (int64_t n : {0, 1, 700}) {
      std::vector<uint8_t> v(size_t(n * width));
      for (auto& b : v) b = uint8_t(rng() % 4);  // few distinct values: dictionary-friendly
      // PLAIN.
      Buffer plain;
      plain_encode_fixed(v.data(), width, n, plain);
      std::vector<uint8_t> got(v.size());
      PlainDecoder(plain.span()).decode_fixed(width, got.data(), n);
      EXPECT_EQ(got, v);
      // Dictionary.
      ByteArrayDictionaryBuilder b(1 << 20, width);
      std::vector<int32_t> idx(static_cast<size_t>(n));
      ASSERT_EQ(b.put_fixed(v.data(), n, idx.data()), n);
      Buffer dict_page, data_page;
      b.write_dictionary_page(dict_page);
      encode_dictionary_indices(idx.data(), n, b.index_bit_width(), data_page);
      std::vector<uint8_t> dict(size_t(b.size() * width));
      PlainDecoder(dict_page.span()).decode_fixed(width, dict.data(), b.size());
      DictionaryIndexDecoder d(data_page.span(), b.size());
      std::vector<int32_t> got_idx(static_cast<size_t>(n));
      ASSERT_EQ(d.decode(got_idx.data(), n), n);
      std::fill(got.begin(), got.end(), 0);
      gather_fixed(dict.data(), width, got_idx.data(), n, got.data());
      EXPECT_EQ(got, v);
      // BYTE_STREAM_SPLIT.
      Buffer bss;
      byte_stream_split_encode(v.data(), width, n, bss);
      std::fill(got.begin(), got.end(), 0);
      ByteStreamSplitDecoder(bss.span(), width).decode(got.data(), n);
      EXPECT_EQ(got, v);
      // DELTA_BYTE_ARRAY.
      DeltaByteArrayEncoder dba;
      dba.put_fixed(v.data(), width, n);
      Buffer delta;
      dba.flush_to(delta);
      DeltaByteArrayDecoder dd;
      dd.reset(delta.span(), n);
      std::fill(got.begin(), got.end(), 0);
      EXPECT_EQ(dd.decode_fixed(got.data(), width, n), n);
      EXPECT_EQ(got, v);
    }
  }
}

TEST(RoundTrip, ByteArraysThroughEveryEncoding) {
  std::mt19937 rng(41);
  for (int64_t n : {0, 1, 2000}) {
    std::vector<std::string> v;
    for (int64_t i = 0; i < n; ++i) {
      std::string s;
      int len = i % 11 == 0 ? 0 : int(rng() % 40);
      for (int j = 0; j < len; ++j) s.push_back(char(rng() % 256));  // arbitrary bytes, NULs included
      v.push_back(i % 5 == 0 && i > 0 ? v[size_t(i - 1)] : s);
    }
    std::vector<ByteArrayView> views;
    for (auto& s : v) views.push_back({reinterpret_cast<const uint8_t*>(s.data()), uint32_t(s.size())});
    auto check = [&](const Buffer& offsets, const Buffer& data, const char* what) {
      ASSERT_EQ(offsets.size(), size_t(n + 1) * 4) << what;
      const int32_t* o = offsets.as<int32_t>();
      for (int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(std::string(reinterpret_cast<const char*>(data.data()) + o[i], size_t(o[i + 1] - o[i])),
                  v[size_t(i)])
            << what << " " << i;
      }
    };
    {
      Buffer page, offsets, data;
      plain_encode_byte_arrays(views.data(), n, page);
      PlainDecoder(page.span()).decode_byte_arrays(offsets, data, n);
      check(offsets, data, "PLAIN");
    }
    {
      ByteArrayDictionaryBuilder b;
      std::vector<int32_t> idx(static_cast<size_t>(n));
      ASSERT_EQ(b.put(views.data(), n, idx.data()), n);
      Buffer dict_page, data_page, offsets, data;
      b.write_dictionary_page(dict_page);
      encode_dictionary_indices(idx.data(), n, b.index_bit_width(), data_page);
      std::vector<ByteArrayView> dict(size_t(b.size()));
      PlainDecoder(dict_page.span()).decode_byte_array_views(dict.data(), b.size());
      DictionaryIndexDecoder d(data_page.span(), b.size());
      std::vector<int32_t> got_idx(static_cast<size_t>(n));
      ASSERT_EQ(d.decode(got_idx.data(), n), n);
      gather_byte_arrays(dict.data(), got_idx.data(), n, offsets, data);
      check(offsets, data, "dictionary");
    }
    {
      DeltaLengthByteArrayEncoder enc;
      enc.put(views.data(), n);
      Buffer page, offsets, data;
      enc.flush_to(page);
      DeltaLengthByteArrayDecoder d;
      d.reset(page.span(), n);
      EXPECT_EQ(d.bytes_consumed(), int64_t(page.size()));
      while (d.values_left() > 0) d.decode(offsets, data, 333);
      if (n == 0) d.decode(offsets, data, 1);
      check(offsets, data, "DELTA_LENGTH_BYTE_ARRAY");
    }
    {
      DeltaByteArrayEncoder enc;
      enc.put(views.data(), n);
      Buffer page, offsets, data;
      enc.flush_to(page);
      DeltaByteArrayDecoder d;
      d.reset(page.span(), n);
      EXPECT_EQ(d.bytes_consumed(), int64_t(page.size()));
      while (d.values_left() > 0) d.decode(offsets, data, 333);
      if (n == 0) d.decode(offsets, data, 1);
      check(offsets, data, "DELTA_BYTE_ARRAY");
    }
  }
}

TEST(RoundTrip, EncoderSizeEstimatesBoundTheOutput) {
  std::mt19937_64 rng(51);
  for (int64_t n : {0, 1, 9, 130, 5000}) {
    std::vector<int64_t> ints(static_cast<size_t>(n));
    for (auto& x : ints) x = rng() % 3 == 0 ? int64_t(rng()) : 5;
    std::vector<uint32_t> small(static_cast<size_t>(n));
    for (auto& x : small) x = rng() % 4 == 0 ? uint32_t(rng() % 1000) : 3;
    std::vector<std::string> strings;
    for (int64_t i = 0; i < n; ++i) strings.push_back("s" + std::to_string(rng() % 100));
    std::vector<ByteArrayView> views;
    for (auto& s : strings) views.push_back({reinterpret_cast<const uint8_t*>(s.data()), uint32_t(s.size())});

    auto check = [&](auto& enc, auto put, const char* what) {
      // Estimates hold after every put, and after the last the output fits.
      for (int64_t done = 0; done < n;) {
        int64_t c = std::min<int64_t>(n - done, 1 + int64_t(rng() % 300));
        put(done, c);
        done += c;
      }
      int64_t estimate = enc.estimated_size();
      Buffer out;
      enc.flush_to(out);
      EXPECT_LE(int64_t(out.size()), estimate) << what << " n=" << n;
      EXPECT_LE(estimate, int64_t(out.size()) * 3 + 1200) << what << " n=" << n;  // and is not wild
    };
    RleBitPackedEncoder rle(10);
    check(
        rle, [&](int64_t at, int64_t c) { rle.put(small.data() + at, c); }, "RLE");
    EXPECT_LE(RleBitPackedEncoder::max_encoded_size(10, n), RleBitPackedEncoder::max_encoded_size(10, n + 1));
    DeltaBinaryPackedEncoder<int64_t> dbp;
    check(
        dbp, [&](int64_t at, int64_t c) { dbp.put(ints.data() + at, c); }, "DELTA_BINARY_PACKED");
    DeltaLengthByteArrayEncoder dlba;
    check(
        dlba, [&](int64_t at, int64_t c) { dlba.put(views.data() + at, c); }, "DELTA_LENGTH_BYTE_ARRAY");
    DeltaByteArrayEncoder dba;
    check(
        dba, [&](int64_t at, int64_t c) { dba.put(views.data() + at, c); }, "DELTA_BYTE_ARRAY");
    ByteStreamSplitEncoder bss(8);
    check(
        bss, [&](int64_t at, int64_t c) { bss.put(ints.data() + at, c); }, "BYTE_STREAM_SPLIT");
    PlainBooleanEncoder booleans;
    std::vector<uint8_t> bools(static_cast<size_t>(n), 1);
    check(
        booleans, [&](int64_t at, int64_t c) { booleans.put(bools.data() + at, c); }, "PLAIN booleans");
  }
}

}  // namespace
}  // namespace parquetry::encoding
