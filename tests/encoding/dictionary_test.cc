#include "parquetry/encoding/dictionary.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>
#include <vector>

#include "parquetry/error.h"

namespace parquetry::encoding {
namespace {

TEST(Dictionary, Int64BuilderRoundTripThroughPages) {
  std::mt19937_64 rng(3);
  std::vector<int64_t> v(5000);
  for (auto& x : v) x = int64_t(rng() % 300) - 150;
  v[7] = std::numeric_limits<int64_t>::min();
  DictionaryBuilder<int64_t> builder;
  std::vector<int32_t> idx(v.size());
  ASSERT_EQ(builder.put(v.data(), int64_t(v.size()), idx.data()), int64_t(v.size()));
  EXPECT_LE(builder.size(), 301);
  EXPECT_EQ(builder.index_bit_width(), 9);
  for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(builder.values()[size_t(idx[i])], v[i]);

  Buffer dict_page, data_page;
  builder.write_dictionary_page(dict_page);
  encode_dictionary_indices(idx.data(), int64_t(idx.size()), builder.index_bit_width(), data_page);
  EXPECT_EQ(data_page.data()[0], 9);

  std::vector<int64_t> dictionary(size_t(builder.size()));
  PlainDecoder(dict_page.span()).decode(dictionary.data(), builder.size());
  DictionaryIndexDecoder dec(data_page.span(), builder.size());
  std::vector<int32_t> got_idx(v.size());
  int64_t done = 0;
  while (done < int64_t(v.size())) {
    int64_t want = std::min<int64_t>(777, int64_t(v.size()) - done);
    ASSERT_EQ(dec.decode(got_idx.data() + done, want), want);
    done += want;
  }
  EXPECT_EQ(got_idx, idx);
  std::vector<int64_t> got(v.size());
  gather(dictionary.data(), got_idx.data(), int64_t(got.size()), got.data());
  EXPECT_EQ(got, v);
}

TEST(Dictionary, FusedDecodeGather) {
  std::mt19937 rng(21);
  std::vector<int32_t> idx(5000);
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i % 300 < 100 ? 7 : int32_t(rng() % 50);
  Buffer page;
  encode_dictionary_indices(idx.data(), 5000, 6, page);
  std::vector<double> dict(50);
  for (size_t i = 0; i < 50; ++i) dict[i] = double(i) * 1.5;
  DictionaryIndexDecoder d(page.span(), 50);
  std::vector<double> out(5000);
  EXPECT_EQ(d.decode_gather(dict.data(), out.data(), 3000), 3000);
  EXPECT_EQ(d.decode_gather(dict.data(), out.data() + 3000, 2000), 2000);
  for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], double(idx[i]) * 1.5) << i;

  // Views and Arrow binary from a string dictionary.
  std::vector<std::string> words;
  for (int i = 0; i < 50; ++i) words.push_back("w" + std::to_string(i * i));
  std::vector<ByteArrayView> wv;
  for (auto& w : words) wv.push_back({reinterpret_cast<const uint8_t*>(w.data()), uint32_t(w.size())});
  DictionaryIndexDecoder dv(page.span(), 50);
  std::vector<ByteArrayView> views(5000);
  EXPECT_EQ(dv.decode_gather(wv.data(), views.data(), 5000), 5000);
  EXPECT_EQ(views[4999].data, wv[size_t(idx[4999])].data);
  DictionaryIndexDecoder db(page.span(), 50);
  Buffer offsets, data;
  EXPECT_EQ(db.decode_gather_byte_arrays(wv.data(), offsets, data, 5000), 5000);
  const int32_t* o = offsets.as<int32_t>();
  for (size_t i = 0; i < 5000; ++i) {
    ASSERT_EQ(std::string(reinterpret_cast<const char*>(data.data()) + o[i], size_t(o[i + 1] - o[i])),
              words[size_t(idx[i])]);
  }
  // Fixed width.
  DictionaryIndexDecoder df(page.span(), 50);
  std::vector<uint8_t> fixed(50 * 3), fout(5000 * 3);
  for (size_t i = 0; i < fixed.size(); ++i) fixed[i] = uint8_t(i);
  EXPECT_EQ(df.decode_gather_fixed(fixed.data(), 3, fout.data(), 5000), 5000);
  EXPECT_EQ(fout[3 * 4999 + 2], uint8_t(idx[4999] * 3 + 2));
  // A bad index surfaces through the fused path too.
  DictionaryIndexDecoder small(page.span(), 10);
  EXPECT_THROW(small.decode_gather(dict.data(), out.data(), 5000), Error);
}

TEST(Dictionary, FloatsCompareByBitPattern) {
  std::vector<float> v = {
      0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN(), 0.0f, std::numeric_limits<float>::quiet_NaN(),
      1.0f};
  DictionaryBuilder<float> b;
  std::vector<int32_t> idx(v.size());
  b.put(v.data(), int64_t(v.size()), idx.data());
  EXPECT_EQ(b.size(), 4);
  EXPECT_EQ(idx, (std::vector<int32_t>{0, 1, 2, 0, 2, 3}));
}

TEST(Dictionary, SizeLimitStopsBeforeTheFirstValueThatDoesNotFit) {
  DictionaryBuilder<int32_t> b(/*max_dictionary_bytes=*/12);  // 3 entries
  std::vector<int32_t> v = {5, 6, 5, 7, 6, 8, 5};
  std::vector<int32_t> idx(v.size());
  EXPECT_EQ(b.put(v.data(), int64_t(v.size()), idx.data()), 5);
  EXPECT_EQ(b.size(), 3);
  EXPECT_EQ(b.dictionary_bytes(), 12);
  // Known values still map after the limit is hit.
  int32_t known[2] = {7, 5};
  int32_t k[2];
  EXPECT_EQ(b.put(known, 2, k), 2);
  EXPECT_EQ(k[0], 2);
  EXPECT_EQ(k[1], 0);
  b.reset();
  EXPECT_EQ(b.size(), 0);
}

TEST(Dictionary, ByteArraysManyEntriesAndGather) {
  std::vector<std::string> v;
  for (int i = 0; i < 10000; ++i) v.push_back(i % 3 == 0 ? "" : "s" + std::to_string(i % 2500));
  std::vector<ByteArrayView> views;
  for (auto& s : v) views.push_back({reinterpret_cast<const uint8_t*>(s.data()), uint32_t(s.size())});
  ByteArrayDictionaryBuilder b;
  std::vector<int32_t> idx(v.size());
  ASSERT_EQ(b.put(views.data(), int64_t(views.size()), idx.data()), int64_t(v.size()));
  EXPECT_EQ(b.size(), 1 + 2500);  // "" and every residue modulo 2500
  Buffer page;
  b.write_dictionary_page(page);
  EXPECT_EQ(int64_t(page.size()), b.dictionary_bytes());

  std::vector<ByteArrayView> dict(size_t(b.size()));
  PlainDecoder(page.span()).decode_byte_array_views(dict.data(), b.size());
  Buffer offsets, data;
  gather_byte_arrays(dict.data(), idx.data(), 4000, offsets, data);
  gather_byte_arrays(dict.data(), idx.data() + 4000, 6000, offsets, data);
  const int32_t* o = offsets.as<int32_t>();
  for (size_t i = 0; i < v.size(); ++i) {
    ASSERT_EQ(std::string(reinterpret_cast<const char*>(data.data()) + o[i], size_t(o[i + 1] - o[i])), v[i]);
  }
  Buffer off64, data64;
  gather_byte_arrays_large(dict.data(), idx.data(), 10, off64, data64);
  EXPECT_EQ(off64.as<int64_t>()[2], 2);  // "", "s1"

  // Offsets-based dictionary form.
  std::vector<int32_t> doff = {0, 3, 3, 5};
  const uint8_t* ddata = reinterpret_cast<const uint8_t*>("abcde");
  int32_t pick[4] = {2, 0, 1, 2};
  Buffer go, gd;
  gather_byte_arrays(doff.data(), ddata, pick, 4, go, gd);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(gd.data()), gd.size()), "deabcde");
}

TEST(Dictionary, FixedLenByteArrays) {
  const uint8_t values[] = {1, 2, 3, 4, 5, 6, 1, 2, 3, 7, 8, 9};
  ByteArrayDictionaryBuilder b(1 << 20, 3);
  int32_t idx[4];
  EXPECT_EQ(b.put_fixed(values, 4, idx), 4);
  EXPECT_EQ(b.size(), 3);
  EXPECT_EQ(idx[2], 0);
  Buffer page;
  b.write_dictionary_page(page);
  EXPECT_EQ(page.size(), 9u);
  uint8_t out[12];
  gather_fixed(page.data(), 3, idx, 4, out);
  EXPECT_EQ(std::memcmp(out, values, 12), 0);
  ByteArrayView wrong{values, 2};
  EXPECT_THROW(b.put(&wrong, 1, idx), Error);
}

TEST(Dictionary, HostileIndices) {
  // Index 5 in a dictionary of 5 entries.
  int32_t idx[3] = {1, 5, 0};
  Buffer page;
  encode_dictionary_indices(idx, 3, 3, page);
  DictionaryIndexDecoder d(page.span(), 5);
  int32_t out[3];
  try {
    d.decode(out, 3);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kCorrupt);
    EXPECT_NE(e.message().find("dictionary index 5"), std::string::npos) << e.message();
  }
  // Width byte above 32, empty section, empty dictionary.
  const uint8_t wide[] = {33, 0};
  EXPECT_THROW(DictionaryIndexDecoder(wide, 10), Error);
  EXPECT_THROW(DictionaryIndexDecoder(std::span<const uint8_t>{}, 10), Error);
  DictionaryIndexDecoder empty_dict(page.span(), 0);
  EXPECT_THROW(empty_dict.decode(out, 1), Error);
  // Truncated at every byte.
  std::vector<int32_t> many(100);
  for (int i = 0; i < 100; ++i) many[size_t(i)] = (i * 7) % 13;
  Buffer p2;
  encode_dictionary_indices(many.data(), 100, 4, p2);
  for (size_t len = 1; len < p2.size(); ++len) {
    std::vector<uint8_t> prefix(p2.data(), p2.data() + len);
    DictionaryIndexDecoder t(prefix, 13);
    std::vector<int32_t> got(100);
    try {
      int64_t n = t.decode(got.data(), 100);
      EXPECT_LT(n, 100);
    } catch (const Error&) {
    }
  }
  // Width 0 with one entry: all zeros.
  const uint8_t zero_width[] = {0, 20};  // RLE run of 10 (no value bytes)
  DictionaryIndexDecoder z(zero_width, 1);
  int32_t zs[10];
  EXPECT_EQ(z.decode(zs, 10), 10);
  EXPECT_EQ(zs[9], 0);
}

}  // namespace
}  // namespace parquetry::encoding
