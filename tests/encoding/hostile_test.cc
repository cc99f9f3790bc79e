// Random and mutated bytes through every decoder: each must either decode or
// throw parquetry::Error, never crash, hang or read out of bounds (the test
// binary runs under ASan+UBSan, and every input is an exact-size vector).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "parquetry/encoding/encoding.h"
#include "parquetry/error.h"

namespace parquetry::encoding {
namespace {

constexpr int64_t kMaxValues = 4096;

// Runs `body` on `input`; returns whether it threw a parquetry::Error (any
// other exception fails the test through gtest).
template <typename Body>
bool survives(const std::vector<uint8_t>& input, Body body) {
  try {
    body(std::span<const uint8_t>(input));
    return false;
  } catch (const Error&) {
    return true;
  }
}

void run_every_decoder(const std::vector<uint8_t>& input) {
  std::vector<uint32_t> u32(kMaxValues + 8);
  std::vector<int64_t> i64(kMaxValues);
  std::vector<int32_t> i32(kMaxValues + 8);
  std::vector<uint8_t> bytes(kMaxValues * 16);
  std::vector<ByteArrayView> views(kMaxValues);
  for (int w : {0, 1, 3, 8, 17, 32}) {
    survives(input, [&](auto in) {
      RleBitPackedDecoder d(in, w);
      d.decode(u32.data(), kMaxValues);
    });
  }
  survives(input, [&](auto in) {
    RleBitPackedDecoder d(in, 1);
    int64_t nulls = 0;
    d.decode_validity(bytes.data(), 3, kMaxValues, &nulls);
  });
  survives(input, [&](auto in) {
    LevelDecoder d;
    d.reset_v1(Encoding::RLE, in, 3, kMaxValues);
    d.decode(reinterpret_cast<int16_t*>(i32.data()), kMaxValues);
  });
  survives(input, [&](auto in) {
    LevelDecoder d;
    d.reset_v1(Encoding::BIT_PACKED, in, 3, 100);
    d.decode(reinterpret_cast<int16_t*>(i32.data()), 100);
  });
  survives(input, [&](auto in) {
    DictionaryIndexDecoder d(in, 100);
    d.decode(i32.data(), kMaxValues);
  });
  survives(input, [&](auto in) {
    PlainDecoder d(in);
    Buffer o, data;
    d.decode_byte_arrays(o, data, 50);
  });
  survives(input, [&](auto in) {
    PlainDecoder d(in);
    d.decode_byte_array_views(views.data(), 50);
  });
  survives(input, [&](auto in) {
    PlainDecoder d(in);
    d.decode_booleans(bytes.data(), 100);
  });
  survives(input, [&](auto in) {
    DeltaBinaryPackedDecoder<int32_t> d(in);
    d.decode(i32.data(), std::min<int64_t>(kMaxValues, d.total_values()));
  });
  survives(input, [&](auto in) {
    DeltaBinaryPackedDecoder<int64_t> d(in);
    d.decode(i64.data(), std::min<int64_t>(kMaxValues, d.total_values()));
  });
  survives(input, [&](auto in) {
    DeltaLengthByteArrayDecoder d;
    d.reset(in, kMaxValues);
    Buffer o, data;
    d.decode(o, data, kMaxValues);
  });
  survives(input, [&](auto in) {
    DeltaByteArrayDecoder d;
    d.reset(in, kMaxValues);
    Buffer o, data;
    d.decode(o, data, kMaxValues);
  });
  survives(input, [&](auto in) {
    DeltaByteArrayDecoder d;
    d.reset(in, kMaxValues);
    d.decode_fixed(bytes.data(), 4, std::min<int64_t>(kMaxValues, d.values_left()));
  });
  survives(input, [&](auto in) {
    ByteStreamSplitDecoder d(in, 4);
    d.decode(bytes.data(), kMaxValues);
  });
}

TEST(Hostile, RandomBytesNeverCrash) {
  std::mt19937_64 rng(0xbad);
  for (int round = 0; round < 1500; ++round) {
    std::vector<uint8_t> input(rng() % 64);
    for (auto& b : input) b = uint8_t(rng());
    run_every_decoder(input);
  }
}

TEST(Hostile, MutatedValidPagesNeverCrash) {
  // Valid pages of each encoding, then byte flips and truncations.
  std::vector<std::vector<uint8_t>> pages;
  auto take = [&](Buffer& b) { pages.emplace_back(b.data(), b.data() + b.size()); };
  std::vector<int32_t> ints(300);
  for (size_t i = 0; i < ints.size(); ++i) ints[i] = int32_t(i * 31 % 97);
  {
    Buffer b;
    DeltaBinaryPackedEncoder<int32_t> e;
    e.put(ints.data(), 300);
    e.flush_to(b);
    take(b);
  }
  {
    Buffer b;
    encode_dictionary_indices(ints.data(), 300, 7, b);
    take(b);
  }
  {
    std::vector<ByteArrayView> v;
    static const char* words[] = {"alpha", "alpine", "beta", "", "betamax"};
    for (int i = 0; i < 40; ++i) {
      v.push_back({reinterpret_cast<const uint8_t*>(words[i % 5]), uint32_t(std::strlen(words[i % 5]))});
    }
    Buffer a, b, c;
    DeltaByteArrayEncoder dba;
    dba.put(v.data(), 40);
    dba.flush_to(a);
    take(a);
    DeltaLengthByteArrayEncoder dlba;
    dlba.put(v.data(), 40);
    dlba.flush_to(b);
    take(b);
    plain_encode_byte_arrays(v.data(), 40, c);
    take(c);
  }
  std::mt19937_64 rng(0xfeed);
  for (const auto& page : pages) {
    for (int round = 0; round < 300; ++round) {
      std::vector<uint8_t> m = page;
      int flips = 1 + int(rng() % 3);
      for (int f = 0; f < flips; ++f) m[rng() % m.size()] = uint8_t(rng());
      if (rng() % 2) m.resize(rng() % (m.size() + 1));
      run_every_decoder(m);
    }
  }
}

}  // namespace
}  // namespace parquetry::encoding
