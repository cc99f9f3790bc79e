#include "parquetry/encoding/byte_stream_split.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "parquetry/error.h"

namespace parquetry::encoding {
namespace {

TEST(ByteStreamSplit, SpecExample) {
  const uint8_t values[] = {0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6};
  const uint8_t split[] = {0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6};
  Buffer out;
  byte_stream_split_encode(values, 4, 3, out);
  ASSERT_EQ(out.size(), 12u);
  EXPECT_EQ(std::memcmp(out.data(), split, 12), 0);
  ByteStreamSplitDecoder d(split, 4);
  float f[3];
  EXPECT_EQ(d.decode(f, 3), 3);
  EXPECT_EQ(std::memcmp(f, values, 12), 0);
  EXPECT_EQ(d.bytes_consumed(), 12);
}

TEST(ByteStreamSplit, RoundTripsEveryWidthInBatches) {
  std::mt19937 rng(8);
  for (int width : {1, 2, 3, 4, 8, 12, 16}) {
    for (int64_t n : {0, 1, 63, 64, 65, 1000}) {
      std::vector<uint8_t> values(size_t(n * width));
      for (auto& b : values) b = uint8_t(rng());
      ByteStreamSplitEncoder enc(width);
      enc.put(values.data(), n / 2);
      enc.put(values.data() + (n / 2) * width, n - n / 2);
      EXPECT_EQ(enc.value_count(), n);
      Buffer out;
      enc.flush_to(out);
      ASSERT_EQ(int64_t(out.size()), n * width);
      // Byte k of value i sits at k * n + i.
      if (n > 5) {
        EXPECT_EQ(out.data()[(1 % width) * n + 5], values[size_t(5 * width + 1 % width)]);
      }
      ByteStreamSplitDecoder d(out.span(), width);
      std::vector<uint8_t> got(values.size() + 1, 0xee);
      int64_t done = 0;
      if (n > 3) {
        done += d.decode(got.data(), 3);
        done += d.skip(2);
        for (int64_t i = 3 * width; i < 5 * width; ++i) got[size_t(i)] = values[size_t(i)];
      }
      while (d.values_left() > 0) done += d.decode(got.data() + done * width, 77);
      EXPECT_EQ(done, n);
      EXPECT_EQ(got.back(), 0xee);
      got.pop_back();
      ASSERT_EQ(got, values) << "width " << width << " n " << n;
    }
  }
}

TEST(ByteStreamSplit, SizeNotAMultipleOfWidthIsCorrupt) {
  const uint8_t data[7] = {};
  EXPECT_THROW(ByteStreamSplitDecoder(data, 4), Error);
  EXPECT_THROW(ByteStreamSplitDecoder(data, 0), Error);
  ByteStreamSplitDecoder ok(std::span<const uint8_t>(data, 0), 8);
  double x;
  EXPECT_EQ(ok.decode(&x, 1), 0);
}

}  // namespace
}  // namespace parquetry::encoding
