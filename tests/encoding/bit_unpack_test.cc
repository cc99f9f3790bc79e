#include "parquetry/encoding/bit_unpack.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry::encoding {
namespace {

// Reference: value i is bits [i*w, (i+1)*w) LSB-first, one bit at a time.
template <typename T>
std::vector<T> reference_unpack(const std::vector<uint8_t>& in, int w, int64_t count) {
  std::vector<T> out(size_t(count), 0);
  for (int64_t i = 0; i < count; ++i) {
    uint64_t v = 0;
    for (int b = 0; b < w; ++b) {
      int64_t bit = i * w + b;
      v |= uint64_t(bits::get_bit(in.data(), bit)) << b;
    }
    out[size_t(i)] = T(v);
  }
  return out;
}

template <typename T>
void check_all_widths() {
  std::mt19937_64 rng(42);
  for (int w = 0; w <= int(8 * sizeof(T)); ++w) {
    for (int64_t count : {0, 1, 7, 8, 31, 32, 33, 64, 100, 257}) {
      // Exact-size input: ASan flags any read past it.
      std::vector<uint8_t> in(size_t(bits::bytes_for_bits(count * w)));
      for (auto& b : in) b = uint8_t(rng());
      std::vector<T> out(size_t(count) + 1, T(0x5a));
      unpack<T>(in.data(), w, out.data(), count);
      auto expect = reference_unpack<T>(in, w, count);
      for (int64_t i = 0; i < count; ++i)
        ASSERT_EQ(out[size_t(i)], expect[size_t(i)]) << "w=" << w << " i=" << i;
      EXPECT_EQ(out[size_t(count)], T(0x5a)) << "wrote past count";

      // pack() is the inverse: packing the unpacked values gives the input
      // bytes back, except the unused high bits of the last byte (zeroed).
      std::vector<uint8_t> repacked(in.size());
      pack<T>(out.data(), w, repacked.data(), count);
      if (!in.empty() && (count * w) % 8 != 0) in.back() &= uint8_t((1u << ((count * w) % 8)) - 1);
      EXPECT_EQ(repacked, in) << "w=" << w << " count=" << count;
    }
  }
}

TEST(BitUnpack, EveryWidthInto8Bits) { check_all_widths<uint8_t>(); }
TEST(BitUnpack, EveryWidthInto16Bits) { check_all_widths<uint16_t>(); }
TEST(BitUnpack, EveryWidthInto32Bits) { check_all_widths<uint32_t>(); }
TEST(BitUnpack, EveryWidthInto64Bits) { check_all_widths<uint64_t>(); }

TEST(BitUnpack, SpecExampleOneThroughSevenWidth3) {
  // Encodings.md: 0..7 at width 3 pack to 10001000 11000110 11111010.
  const uint8_t packed[] = {0b10001000, 0b11000110, 0b11111010};
  uint32_t out[8];
  unpack<uint32_t>(packed, 3, out, 8);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], i);
  uint8_t again[3];
  pack<uint32_t>(out, 3, again, 8);
  EXPECT_EQ(again[0], packed[0]);
  EXPECT_EQ(again[1], packed[1]);
  EXPECT_EQ(again[2], packed[2]);
}

TEST(BitUnpack, RejectsWidthTooWideForOutput) {
  uint8_t in[8] = {};
  uint8_t out8[1];
  uint32_t out32[1];
  EXPECT_THROW(unpack<uint8_t>(in, 9, out8, 1), Error);
  EXPECT_THROW(unpack<uint32_t>(in, 33, out32, 1), Error);
  EXPECT_THROW(unpack<uint32_t>(in, -1, out32, 1), Error);
}

// Found by the page fuzzer: copying fewer than 8 aligned bits into an empty
// (null) bitmap passed a null pointer to memcpy, undefined even for 0 bytes.
TEST(Bitmap, CopyOfZeroWholeBytesAcceptsNullPointers) {
  EXPECT_EQ(copy_bits(nullptr, 0, nullptr, 0, 0), 0);
  const uint8_t src[1] = {0x05};
  uint8_t dst[1] = {0};
  EXPECT_EQ(copy_bits(src, 0, dst, 0, 3), 2);
  EXPECT_EQ(dst[0], 0x05);
}

TEST(Bitmap, CopyFillAndCountAtEveryOffset) {
  std::mt19937 rng(7);
  std::vector<uint8_t> src(40);
  for (auto& b : src) b = uint8_t(rng());
  for (int64_t src_pos : {0, 1, 5, 8, 13}) {
    for (int64_t dst_pos : {0, 3, 8, 11}) {
      for (int64_t n : {0, 1, 7, 8, 9, 63, 64, 65, 200}) {
        std::vector<uint8_t> dst(40, 0xa5), before = dst;
        int64_t set = copy_bits(src.data(), src_pos, dst.data(), dst_pos, n);
        int64_t expect_set = 0;
        for (int64_t i = 0; i < 320; ++i) {
          bool got = bits::get_bit(dst.data(), i);
          bool want = (i >= dst_pos && i < dst_pos + n) ? bits::get_bit(src.data(), src_pos + i - dst_pos)
                                                        : bits::get_bit(before.data(), i);
          ASSERT_EQ(got, want) << src_pos << " " << dst_pos << " " << n << " bit " << i;
        }
        for (int64_t i = 0; i < n; ++i) expect_set += bits::get_bit(src.data(), src_pos + i);
        EXPECT_EQ(set, expect_set);
        EXPECT_EQ(count_set_bits(src.data(), src_pos, n), expect_set);
      }
    }
  }
  for (int64_t pos : {0, 2, 8, 9}) {
    for (int64_t n : {0, 1, 6, 7, 8, 30}) {
      for (bool value : {false, true}) {
        std::vector<uint8_t> dst(8, value ? 0x00 : 0xff), before = dst;
        fill_bits(dst.data(), pos, n, value);
        for (int64_t i = 0; i < 64; ++i) {
          bool want = (i >= pos && i < pos + n) ? value : bits::get_bit(before.data(), i);
          ASSERT_EQ(bits::get_bit(dst.data(), i), want) << pos << " " << n;
        }
      }
    }
  }
}

}  // namespace
}  // namespace parquetry::encoding
