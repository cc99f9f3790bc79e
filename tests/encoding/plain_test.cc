#include "parquetry/encoding/plain.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry::encoding {
namespace {

std::string str(const ByteArrayView& v) {
  return std::string(reinterpret_cast<const char*>(v.data), v.length);
}

std::vector<std::string> binary_values(const Buffer& offsets, const Buffer& data) {
  std::vector<std::string> out;
  const int32_t* o = offsets.as<int32_t>();
  for (size_t i = 0; i + 1 < offsets.size() / 4; ++i) {
    out.emplace_back(reinterpret_cast<const char*>(data.data()) + o[i], size_t(o[i + 1] - o[i]));
  }
  return out;
}

TEST(Plain, FixedWidthRoundTripsInBatches) {
  std::mt19937_64 rng(5);
  std::vector<int64_t> v(1000);
  for (auto& x : v) x = int64_t(rng());
  v[0] = std::numeric_limits<int64_t>::min();
  v[1] = std::numeric_limits<int64_t>::max();
  Buffer enc;
  plain_encode(v.data(), int64_t(v.size()), enc);
  ASSERT_EQ(enc.size(), 8000u);
  EXPECT_EQ(bits::load<int64_t>(enc.data() + 8), std::numeric_limits<int64_t>::max());
  PlainDecoder d(enc.span());
  std::vector<int64_t> got(v.size());
  d.decode(got.data(), 333);
  d.skip_fixed(8, 1);
  got[333] = v[333];
  d.decode(got.data() + 334, 666);
  EXPECT_EQ(got, v);
  EXPECT_EQ(d.bytes_remaining(), 0);
  EXPECT_THROW(d.decode(got.data(), 1), Error);

  // INT96 and FLBA go through the width-generic path.
  const uint8_t int96[24] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                             13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};
  PlainDecoder d96(int96);
  uint8_t out96[24];
  d96.decode_fixed(12, out96, 2);
  EXPECT_EQ(out96[12], 13);
  EXPECT_EQ(out96[23], 24);
  PlainDecoder short96(std::span<const uint8_t>(int96, 23));
  EXPECT_THROW(short96.decode_fixed(12, out96, 2), Error);
  // A huge count does not overflow the size check.
  PlainDecoder huge(int96);
  EXPECT_THROW(huge.decode_fixed(8, out96, int64_t(1) << 61), Error);
}

TEST(Plain, FloatsAndDoublesKeepBitPatterns) {
  std::vector<double> v = {
      0.0, -0.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
      1.5, -2.25};
  Buffer enc;
  plain_encode(v.data(), int64_t(v.size()), enc);
  PlainDecoder d(enc.span());
  std::vector<double> got(v.size());
  d.decode(got.data(), int64_t(v.size()));
  EXPECT_EQ(std::memcmp(got.data(), v.data(), v.size() * 8), 0);
}

TEST(Plain, BooleansAsBytesAndBitmapsAcrossBatches) {
  std::mt19937 rng(11);
  std::vector<uint8_t> v(777);
  for (auto& b : v) b = uint8_t(rng() & 1);
  PlainBooleanEncoder enc;
  enc.put(v.data(), 5);
  enc.put(v.data() + 5, 300);
  // The rest through a bitmap at an odd offset.
  std::vector<uint8_t> bitmap(200, 0);
  for (size_t i = 305; i < v.size(); ++i) bits::set_bit_to(bitmap.data(), int64_t(i - 305 + 3), v[i]);
  enc.put_bitmap(bitmap.data(), 3, int64_t(v.size() - 305));
  Buffer out;
  enc.flush_to(out);
  ASSERT_EQ(out.size(), (v.size() + 7) / 8);
  for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(bits::get_bit(out.data(), int64_t(i)), v[i] == 1) << i;

  PlainDecoder d(out.span());
  std::vector<uint8_t> got(v.size());
  d.decode_booleans(got.data(), 3);
  d.decode_booleans(got.data() + 3, 100);
  std::vector<uint8_t> bm(100, 0);
  d.decode_boolean_bitmap(bm.data(), 1, 200);
  for (int i = 0; i < 200; ++i) got[size_t(103 + i)] = bits::get_bit(bm.data(), 1 + i);
  d.skip_booleans(4);
  for (int i = 303; i < 307; ++i) got[size_t(i)] = v[size_t(i)];
  d.decode_booleans(got.data() + 307, int64_t(v.size()) - 307);
  EXPECT_EQ(got, v);
  EXPECT_EQ(d.bytes_consumed(), int64_t(out.size()));
  EXPECT_THROW(d.decode_booleans(got.data(), 8), Error);
}

TEST(Plain, ByteArraysToOffsetsLargeOffsetsAndViews) {
  std::vector<std::string> v = {"hello", "", "world", std::string(300, 'x'), "", "z"};
  Buffer offsets_in, data_in;
  std::vector<int32_t> off = {0};
  std::string all;
  for (auto& s : v) {
    all += s;
    off.push_back(int32_t(all.size()));
  }
  Buffer enc;
  plain_encode_byte_arrays(off.data(), reinterpret_cast<const uint8_t*>(all.data()), int64_t(v.size()), enc);
  EXPECT_EQ(enc.size(), 4 * v.size() + all.size());
  EXPECT_EQ(bits::load<uint32_t>(enc.data()), 5u);

  PlainDecoder d(enc.span());
  Buffer offsets, data;
  d.decode_byte_arrays(offsets, data, 2);
  d.decode_byte_arrays(offsets, data, 4);  // offsets continue from the end
  EXPECT_EQ(binary_values(offsets, data), v);
  EXPECT_EQ(offsets.as<int32_t>()[6], int32_t(all.size()));

  PlainDecoder large(enc.span());
  Buffer off64, data64;
  large.decode_byte_arrays_large(off64, data64, 6);
  EXPECT_EQ(off64.as<int64_t>()[4], 310);  // 5 + 0 + 5 + 300
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(data64.data()), data64.size()), all);

  PlainDecoder views(enc.span());
  std::vector<ByteArrayView> out(6);
  views.decode_byte_array_views(out.data(), 6);
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(str(out[i]), v[i]);
  EXPECT_GE(out[0].data, enc.data());  // points into the page
  EXPECT_LT(out[0].data, enc.data() + enc.size());

  // Views re-encode to the same bytes.
  Buffer again;
  plain_encode_byte_arrays(out.data(), 6, again);
  EXPECT_EQ(std::vector<uint8_t>(again.data(), again.data() + again.size()),
            std::vector<uint8_t>(enc.data(), enc.data() + enc.size()));
}

TEST(Plain, ByteArrayTruncatedAtEveryByteThrows) {
  std::vector<int32_t> off = {0, 3, 3, 10};
  const char* data = "abcdefghij";
  Buffer enc;
  plain_encode_byte_arrays(off.data(), reinterpret_cast<const uint8_t*>(data), 3, enc);
  for (size_t len = 0; len < enc.size(); ++len) {
    std::vector<uint8_t> prefix(enc.data(), enc.data() + len);  // exact size: ASan catches overreads
    PlainDecoder a(prefix);
    Buffer o, dd;
    EXPECT_THROW(a.decode_byte_arrays(o, dd, 3), Error) << len;
    PlainDecoder b(prefix);
    ByteArrayView views[3];
    EXPECT_THROW(b.decode_byte_array_views(views, 3), Error) << len;
    PlainDecoder c(prefix);
    EXPECT_THROW(c.skip_byte_arrays(3), Error) << len;
  }
  // A declared length of 4 GiB - 1.
  const uint8_t hostile[] = {0xff, 0xff, 0xff, 0xff, 'a'};
  PlainDecoder h(hostile);
  Buffer o, dd;
  try {
    h.decode_byte_arrays(o, dd, 1);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kCorrupt);
    EXPECT_NE(e.message().find("4294967295"), std::string::npos) << e.message();
  }
  // Offsets that do not continue the data buffer are a caller error.
  Buffer bad_off, bad_data;
  int32_t zero_and_five[2] = {0, 5};
  bad_off.append(zero_and_five, 8);
  PlainDecoder e(enc.span());
  EXPECT_THROW(e.decode_byte_arrays(bad_off, bad_data, 1), Error);
}

TEST(Plain, ZeroValues) {
  PlainDecoder d(std::span<const uint8_t>{});
  Buffer o, dd;
  d.decode_byte_arrays(o, dd, 0);
  EXPECT_EQ(o.size(), 4u);  // just the leading 0
  d.decode_fixed(4, nullptr, 0);
  d.decode_booleans(nullptr, 0);
  Buffer out;
  PlainBooleanEncoder enc;
  enc.flush_to(out);
  EXPECT_EQ(out.size(), 0u);
}

}  // namespace
}  // namespace parquetry::encoding
