// Round trips, hostile input and the framing corner cases of every codec.
#include "parquetry/compression/codec.h"

#include <gtest/gtest.h>
#include <lz4.h>
#include <lz4frame.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "parquetry/error.h"

namespace parquetry {
namespace {

using Bytes = std::vector<uint8_t>;

const CompressionCodec kAllCodecs[] = {
    CompressionCodec::UNCOMPRESSED, CompressionCodec::SNAPPY,  CompressionCodec::GZIP,
    CompressionCodec::ZSTD,         CompressionCodec::LZ4_RAW, CompressionCodec::LZ4,
    CompressionCodec::BROTLI,
};
const CompressionCodec kRealCodecs[] = {
    CompressionCodec::SNAPPY,  CompressionCodec::GZIP, CompressionCodec::ZSTD,
    CompressionCodec::LZ4_RAW, CompressionCodec::LZ4,  CompressionCodec::BROTLI,
};

Bytes random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes out(n);
  for (auto& b : out) b = uint8_t(rng());
  return out;
}

// Text-like data: words from a small vocabulary, like a string column.
Bytes repetitive_bytes(size_t n) {
  static const char* const kWords[] = {"alpha ", "beta ", "gamma ", "delta ", "epsilon ", "zeta ", "eta "};
  Bytes out;
  out.reserve(n);
  std::mt19937 rng(7);
  while (out.size() < n) {
    const char* w = kWords[rng() % 7];
    for (const char* p = w; *p != '\0' && out.size() < n; ++p) out.push_back(uint8_t(*p));
  }
  return out;
}

// Doubles of a slowly drifting series: partly compressible, like real pages.
Bytes double_bytes(size_t n) {
  Bytes out(n);
  std::mt19937 rng(11);
  std::normal_distribution<double> step(0.0, 0.01);
  double value = 100.0;
  for (size_t i = 0; i + 8 <= n; i += 8) {
    value += step(rng);
    double rounded = double(int64_t(value * 100)) / 100;
    std::memcpy(out.data() + i, &rounded, 8);
  }
  for (size_t i = n / 8 * 8; i < n; ++i) out[i] = uint8_t(i);
  return out;
}

Bytes compress(Codec& codec, const Bytes& input) {
  Buffer out;
  size_t n = codec.compress(input, out);
  EXPECT_EQ(n, out.size());
  return Bytes(out.data(), out.data() + out.size());
}

Bytes decompress(Codec& codec, const Bytes& input, size_t declared) {
  Bytes out(declared);
  codec.decompress(input, out);
  return out;
}

ErrorCode error_code_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << "expected a parquetry::Error";
  return ErrorCode::kInternal;
}

std::string name_of(CompressionCodec c) { return std::string(codec_name(c)); }

// --- round trips -----------------------------------------------------------

struct Shape {
  const char* name;
  Bytes data;
};

std::vector<Shape> shapes() {
  std::vector<Shape> out;
  out.push_back({"empty", {}});
  out.push_back({"one byte", {0x5a}});
  out.push_back({"random 100k", random_bytes(100'000, 1)});
  out.push_back({"repetitive 300k", repetitive_bytes(300'000)});
  out.push_back({"doubles 5MiB", double_bytes(5 << 20)});
  return out;
}

TEST(CodecRoundTrip, EveryCodecEveryShape) {
  auto all_shapes = shapes();
  for (CompressionCodec kind : kAllCodecs) {
    auto codec = make_codec(kind);
    ASSERT_EQ(codec->kind(), kind);
    for (const Shape& shape : all_shapes) {
      SCOPED_TRACE(name_of(kind) + " / " + shape.name);
      Bytes packed = compress(*codec, shape.data);
      EXPECT_LE(packed.size(), codec->max_compressed_length(shape.data.size()));
      Bytes unpacked = decompress(*codec, packed, shape.data.size());
      EXPECT_EQ(unpacked, shape.data);
    }
  }
}

TEST(CodecRoundTrip, RepetitiveDataActuallyShrinks) {
  Bytes text = repetitive_bytes(300'000);
  for (CompressionCodec kind : kRealCodecs) {
    SCOPED_TRACE(name_of(kind));
    auto codec = make_codec(kind);
    Bytes packed = compress(*codec, text);
    // Seven words chosen at random carry under 3 bits per ~6 bytes; even the
    // fast LZ codecs, which only find the repeats, halve it.
    EXPECT_LT(packed.size(), text.size() / 2);
  }
}

TEST(CodecRoundTrip, CompressAppendsAfterExistingBytes) {
  Bytes data = repetitive_bytes(5000);
  for (CompressionCodec kind : kAllCodecs) {
    SCOPED_TRACE(name_of(kind));
    auto codec = make_codec(kind);
    Buffer out;
    const char prefix[] = "header";
    out.append(prefix, 6);
    size_t n = codec->compress(data, out);
    ASSERT_EQ(out.size(), 6 + n);
    EXPECT_EQ(std::memcmp(out.data(), prefix, 6), 0);
    Bytes unpacked(data.size());
    codec->decompress({out.data() + 6, n}, unpacked);
    EXPECT_EQ(unpacked, data);
  }
}

TEST(CodecRoundTrip, OneCodecServesManyPagesOfDifferentSizes) {
  for (CompressionCodec kind : kAllCodecs) {
    SCOPED_TRACE(name_of(kind));
    auto codec = make_codec(kind);
    Buffer packed;
    for (size_t size : {70'000u, 10u, 0u, 250'000u, 3u}) {
      Bytes data = size % 2 == 0 ? repetitive_bytes(size) : random_bytes(size, uint32_t(size));
      packed.clear();
      codec->compress(data, packed);
      Bytes unpacked(size);
      codec->decompress(packed.span(), unpacked);
      EXPECT_EQ(unpacked, data) << size;
    }
  }
}

TEST(CodecLevels, EveryLevelInRangeRoundTrips) {
  struct Range {
    CompressionCodec kind;
    std::vector<int> levels;
  };
  const Range ranges[] = {
      {CompressionCodec::GZIP, {0, 1, 6, 9, 12}},   {CompressionCodec::ZSTD, {-5, 0, 1, 3, 19}},
      {CompressionCodec::BROTLI, {0, 1, 5, 9, 11}}, {CompressionCodec::LZ4_RAW, {1, 2, 3, 9, 12}},
      {CompressionCodec::LZ4, {1, 3, 12}},
  };
  Bytes data = double_bytes(200'000);
  for (const Range& range : ranges) {
    for (int level : range.levels) {
      SCOPED_TRACE(name_of(range.kind) + " level " + std::to_string(level));
      auto codec = make_codec(range.kind, level);
      EXPECT_EQ(codec->level(), level);
      EXPECT_EQ(decompress(*codec, compress(*codec, data), data.size()), data);
    }
  }
}

TEST(CodecLevels, HigherLevelsCompressBetter) {
  Bytes text = repetitive_bytes(500'000);
  auto size_at = [&](CompressionCodec kind, int level) {
    return compress(*make_codec(kind, level), text).size();
  };
  EXPECT_LT(size_at(CompressionCodec::GZIP, 9), size_at(CompressionCodec::GZIP, 1));
  EXPECT_LT(size_at(CompressionCodec::ZSTD, 19), size_at(CompressionCodec::ZSTD, 1));
  EXPECT_LT(size_at(CompressionCodec::BROTLI, 9), size_at(CompressionCodec::BROTLI, 1));
  EXPECT_LT(size_at(CompressionCodec::LZ4_RAW, 9), size_at(CompressionCodec::LZ4_RAW, 1));
}

TEST(CodecLevels, DefaultsAndRangeChecks) {
  EXPECT_EQ(default_compression_level(CompressionCodec::GZIP), 6);
  EXPECT_EQ(default_compression_level(CompressionCodec::ZSTD), 3);
  EXPECT_EQ(default_compression_level(CompressionCodec::BROTLI), 5);
  EXPECT_EQ(default_compression_level(CompressionCodec::LZ4_RAW), 1);
  EXPECT_EQ(default_compression_level(CompressionCodec::SNAPPY), 0);
  EXPECT_EQ(make_codec(CompressionCodec::ZSTD)->level(), 3);
  EXPECT_EQ(make_codec(CompressionCodec::GZIP)->level(), 6);
  EXPECT_EQ(error_code_of([] { make_codec(CompressionCodec::GZIP, 13); }), ErrorCode::kInvalidArgument);
  EXPECT_EQ(error_code_of([] { make_codec(CompressionCodec::GZIP, -1); }), ErrorCode::kInvalidArgument);
  EXPECT_EQ(error_code_of([] { make_codec(CompressionCodec::ZSTD, 23); }), ErrorCode::kInvalidArgument);
  EXPECT_EQ(error_code_of([] { make_codec(CompressionCodec::BROTLI, 12); }), ErrorCode::kInvalidArgument);
  EXPECT_EQ(error_code_of([] { make_codec(CompressionCodec::LZ4_RAW, 0); }), ErrorCode::kInvalidArgument);
  EXPECT_EQ(error_code_of([] { make_codec(CompressionCodec::LZ4, 13); }), ErrorCode::kInvalidArgument);
  // Codecs without levels ignore one.
  EXPECT_EQ(make_codec(CompressionCodec::SNAPPY, 9)->kind(), CompressionCodec::SNAPPY);
}

TEST(CodecSupport, LzoIsRefusedWithAClearMessage) {
  EXPECT_FALSE(can_decompress(CompressionCodec::LZO));
  EXPECT_FALSE(can_compress(CompressionCodec::LZO));
  for (CompressionCodec kind : kAllCodecs) {
    EXPECT_TRUE(can_decompress(kind));
    EXPECT_TRUE(can_compress(kind));
  }
  try {
    make_codec(CompressionCodec::LZO);
    FAIL() << "LZO accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    EXPECT_EQ(e.message(), "LZO codec is not supported");
    EXPECT_STREQ(e.what(), "unsupported: LZO codec is not supported");
  }
  EXPECT_EQ(error_code_of([] { thread_codec(CompressionCodec::LZO); }), ErrorCode::kUnsupported);
}

TEST(CodecSupport, UnknownCodecValueIsCorrupt) {
  auto bogus = static_cast<CompressionCodec>(42);
  EXPECT_EQ(error_code_of([&] { make_codec(bogus); }), ErrorCode::kCorrupt);
  EXPECT_EQ(error_code_of([&] { thread_codec(bogus); }), ErrorCode::kCorrupt);
  EXPECT_EQ(error_code_of([&] { thread_codec(static_cast<CompressionCodec>(-1)); }), ErrorCode::kCorrupt);
}

TEST(CodecSupport, CacheReturnsTheSameCodecEachTime) {
  CodecCache cache;
  Codec& a = cache.get(CompressionCodec::ZSTD);
  Codec& b = cache.get(CompressionCodec::ZSTD);
  EXPECT_EQ(&a, &b);
  EXPECT_EQ(a.kind(), CompressionCodec::ZSTD);
  EXPECT_NE(&cache.get(CompressionCodec::SNAPPY), &a);
  EXPECT_EQ(&thread_codec(CompressionCodec::GZIP), &thread_codec(CompressionCodec::GZIP));
}

TEST(CodecSupport, EachThreadHasItsOwnCodecs) {
  Codec* mine = &thread_codec(CompressionCodec::ZSTD);
  Codec* theirs = nullptr;
  Bytes data = repetitive_bytes(10'000);
  Bytes theirs_result;
  std::thread worker([&] {
    theirs = &thread_codec(CompressionCodec::ZSTD);
    theirs_result = compress(*theirs, data);
  });
  worker.join();
  EXPECT_NE(mine, theirs);
  EXPECT_EQ(decompress(*mine, theirs_result, data.size()), data);
}

// --- empty pages -----------------------------------------------------------

TEST(CodecEmpty, EmptyBodyWithZeroSizeNeedsNoLibrary) {
  for (CompressionCodec kind : kAllCodecs) {
    SCOPED_TRACE(name_of(kind));
    auto codec = make_codec(kind);
    codec->decompress({}, {});  // a v2 page of nulls has a zero-byte body
    std::span<uint8_t> nothing;
    EXPECT_NO_THROW(codec->decompress({}, nothing));
  }
}

TEST(CodecEmpty, EmptyBodyWithDeclaredBytesIsCorrupt) {
  for (CompressionCodec kind : kAllCodecs) {
    SCOPED_TRACE(name_of(kind));
    auto codec = make_codec(kind);
    Bytes out(10);
    EXPECT_EQ(error_code_of([&] { codec->decompress({}, out); }), ErrorCode::kCorrupt);
  }
}

TEST(CodecEmpty, ZstdStreamOfZeroBytesDecodesToNothing) {
  // As in page_v2_empty_compressed.parquet: a real zstd frame holding nothing.
  Bytes frame(ZSTD_compressBound(0));
  size_t n = ZSTD_compress(frame.data(), frame.size(), "", 0, 3);
  ASSERT_FALSE(ZSTD_isError(n));
  frame.resize(n);
  ASSERT_GT(frame.size(), 0u);
  auto codec = make_codec(CompressionCodec::ZSTD);
  Bytes out;
  codec->decompress(frame, out);
  Bytes one(1);
  EXPECT_EQ(error_code_of([&] { codec->decompress(frame, one); }), ErrorCode::kCorrupt);
}

// --- declared size disagrees -----------------------------------------------

TEST(CodecSizes, DeclaredSizeTooSmallOrTooLargeIsCorrupt) {
  Bytes data = repetitive_bytes(50'000);
  for (CompressionCodec kind : kAllCodecs) {
    SCOPED_TRACE(name_of(kind));
    auto codec = make_codec(kind);
    Bytes packed = compress(*codec, data);
    for (size_t declared : {data.size() - 1, data.size() + 1, data.size() / 2, data.size() * 2, size_t(1)}) {
      SCOPED_TRACE(declared);
      Bytes out(declared);
      try {
        codec->decompress(packed, out);
        ADD_FAILURE() << "accepted a declared size of " << declared;
      } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::kCorrupt);
        EXPECT_NE(e.message().find(name_of(kind)), std::string::npos) << e.message();
      }
    }
  }
}

TEST(CodecSizes, BombIsStoppedAtTheDeclaredSize) {
  // 32 MiB of zeros packs into a few KiB; a header claiming 4 KiB must not
  // let it inflate further (ASan would flag any write past `out`).
  Bytes zeros(32 << 20, 0);
  for (CompressionCodec kind : kRealCodecs) {
    SCOPED_TRACE(name_of(kind));
    auto codec = make_codec(kind, kind == CompressionCodec::BROTLI ? 1 : kDefaultCompressionLevel);
    Bytes packed = compress(*codec, zeros);
    EXPECT_LT(packed.size(), zeros.size() / 16);  // snappy tops out near 21:1
    Bytes out(4096);
    EXPECT_EQ(error_code_of([&] { codec->decompress(packed, out); }), ErrorCode::kCorrupt);
  }
}

TEST(CodecSizes, DecompressPageChecksLimitsAndAvoidsCopies) {
  Buffer scratch;
  Bytes data = repetitive_bytes(10'000);
  auto& plain = thread_codec(CompressionCodec::UNCOMPRESSED);
  auto view = decompress_page(plain, data, int64_t(data.size()), scratch);
  EXPECT_EQ(view.data(), data.data());  // stored pages are not copied
  EXPECT_EQ(view.size(), data.size());
  EXPECT_EQ(error_code_of([&] { decompress_page(plain, data, 9999, scratch); }), ErrorCode::kCorrupt);

  auto& zstd = thread_codec(CompressionCodec::ZSTD);
  Bytes packed = compress(zstd, data);
  auto page = decompress_page(zstd, packed, int64_t(data.size()), scratch);
  EXPECT_EQ(Bytes(page.begin(), page.end()), data);

  Limits small;
  small.max_page_size = 9999;
  EXPECT_EQ(error_code_of([&] { decompress_page(zstd, packed, int64_t(data.size()), scratch, small); }),
            ErrorCode::kLimitExceeded);
  EXPECT_EQ(error_code_of([&] { decompress_page(zstd, packed, -1, scratch); }), ErrorCode::kCorrupt);
}

// --- hostile input ---------------------------------------------------------

TEST(CodecHostile, TruncatedInputIsCorruptNeverACrash) {
  Bytes data = double_bytes(60'000);
  for (CompressionCodec kind : kAllCodecs) {
    SCOPED_TRACE(name_of(kind));
    auto codec = make_codec(kind);
    Bytes packed = compress(*codec, data);
    Bytes out(data.size());
    for (size_t cut = 1; cut < packed.size(); cut += std::max<size_t>(1, packed.size() / 37)) {
      Bytes truncated(packed.begin(), packed.begin() + ptrdiff_t(cut));
      EXPECT_EQ(error_code_of([&] { codec->decompress(truncated, out); }), ErrorCode::kCorrupt) << cut;
    }
    Bytes minus_one(packed.begin(), packed.end() - 1);
    EXPECT_EQ(error_code_of([&] { codec->decompress(minus_one, out); }), ErrorCode::kCorrupt);
  }
}

TEST(CodecHostile, GarbageInputIsCorrupt) {
  for (CompressionCodec kind : kRealCodecs) {
    SCOPED_TRACE(name_of(kind));
    auto codec = make_codec(kind);
    for (uint32_t seed = 0; seed < 20; ++seed) {
      Bytes garbage = random_bytes(64 + seed * 97, seed);
      Bytes out(1000 + seed);
      EXPECT_EQ(error_code_of([&] { codec->decompress(garbage, out); }), ErrorCode::kCorrupt) << seed;
    }
  }
}

TEST(CodecHostile, BytesWhereNothingWasDeclaredAreCorrupt) {
  for (CompressionCodec kind : kAllCodecs) {
    SCOPED_TRACE(name_of(kind));
    auto codec = make_codec(kind);
    for (Bytes junk : {Bytes{0xff}, Bytes{0x01, 0x02, 0x03}, random_bytes(40, 5)}) {
      std::span<uint8_t> nothing;
      EXPECT_EQ(error_code_of([&] { codec->decompress(junk, nothing); }), ErrorCode::kCorrupt);
    }
  }
}

TEST(CodecHostile, SnappyLengthPrefixIsCheckedBeforeDecoding) {
  // Varint 0xffffffff: a 4 GiB claim in a 6-byte stream.
  Bytes stream = {0xff, 0xff, 0xff, 0xff, 0x0f, 0x00};
  Bytes out(100);
  try {
    make_codec(CompressionCodec::SNAPPY)->decompress(stream, out);
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kCorrupt);
    EXPECT_EQ(e.message(), "SNAPPY: page decompresses to 4294967295 bytes but its header declares 100");
  }
}

TEST(CodecHostile, FlippedBitsNeverCrash) {
  // A flipped bit may still decode (a changed literal), but must never read
  // or write out of bounds; ASan and UBSan watch this loop.
  Bytes data = repetitive_bytes(20'000);
  for (CompressionCodec kind : kRealCodecs) {
    SCOPED_TRACE(name_of(kind));
    auto codec = make_codec(kind);
    Bytes packed = compress(*codec, data);
    std::mt19937 rng(3);
    int rejected = 0;
    for (int trial = 0; trial < 200; ++trial) {
      Bytes damaged = packed;
      size_t at = rng() % damaged.size();
      damaged[at] ^= uint8_t(1u << (rng() % 8));
      Bytes out(data.size());
      try {
        codec->decompress(damaged, out);
      } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::kCorrupt);
        ++rejected;
      }
    }
    EXPECT_GT(rejected, 0);
  }
}

// --- GZIP framing ----------------------------------------------------------

// Compresses with zlib itself (an independent writer), as a gzip member.
Bytes zlib_gzip(const Bytes& data, int window_bits = 15 + 16) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY), Z_OK);
  Bytes out(deflateBound(&zs, uLong(data.size())) + 32);
  zs.next_in = const_cast<Bytef*>(data.data());
  zs.avail_in = uInt(data.size());
  zs.next_out = out.data();
  zs.avail_out = uInt(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

TEST(Gzip, ReadsWhatZlibWrites) {
  Bytes data = double_bytes(300'000);
  auto codec = make_codec(CompressionCodec::GZIP);
  EXPECT_EQ(decompress(*codec, zlib_gzip(data), data.size()), data);
}

TEST(Gzip, ConcatenatedMembersFormOnePage) {
  Bytes first = repetitive_bytes(70'000);
  Bytes second = random_bytes(5'000, 9);
  Bytes third = double_bytes(40'000);
  auto codec = make_codec(CompressionCodec::GZIP);
  Bytes stream = zlib_gzip(first);
  Bytes packed_second = compress(*codec, second);
  Bytes packed_third = zlib_gzip(third);
  Bytes packed_empty = zlib_gzip({});
  stream.insert(stream.end(), packed_second.begin(), packed_second.end());
  stream.insert(stream.end(), packed_empty.begin(), packed_empty.end());
  stream.insert(stream.end(), packed_third.begin(), packed_third.end());
  Bytes expected = first;
  expected.insert(expected.end(), second.begin(), second.end());
  expected.insert(expected.end(), third.begin(), third.end());
  EXPECT_EQ(decompress(*codec, stream, expected.size()), expected);
  // The members together exceed a smaller declared size.
  Bytes short_out(expected.size() - 10);
  EXPECT_EQ(error_code_of([&] { codec->decompress(stream, short_out); }), ErrorCode::kCorrupt);
}

TEST(Gzip, TrailingGarbageAfterAMemberIsCorrupt) {
  Bytes data = repetitive_bytes(1000);
  Bytes stream = zlib_gzip(data);
  stream.push_back(0);
  stream.push_back(0);
  auto codec = make_codec(CompressionCodec::GZIP);
  Bytes out(data.size());
  try {
    codec->decompress(stream, out);
    FAIL() << "trailing bytes accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kCorrupt);
    EXPECT_NE(e.message().find("member at byte " + std::to_string(stream.size() - 2)), std::string::npos)
        << e.message();
  }
}

TEST(Gzip, AcceptsZlibWrappedDeflate) {
  Bytes data = repetitive_bytes(30'000);
  Bytes wrapped = zlib_gzip(data, 15);  // window bits 15: the zlib wrapper
  ASSERT_EQ(wrapped[0], 0x78);
  auto codec = make_codec(CompressionCodec::GZIP);
  EXPECT_EQ(decompress(*codec, wrapped, data.size()), data);
}

TEST(Gzip, WritesStandardGzipMembers) {
  Bytes data = repetitive_bytes(30'000);
  Bytes packed = compress(*make_codec(CompressionCodec::GZIP), data);
  ASSERT_GE(packed.size(), 18u);
  EXPECT_EQ(packed[0], 0x1f);
  EXPECT_EQ(packed[1], 0x8b);
  // zlib reads it back.
  Bytes out(data.size());
  z_stream zs{};
  ASSERT_EQ(inflateInit2(&zs, 15 + 16), Z_OK);
  zs.next_in = packed.data();
  zs.avail_in = uInt(packed.size());
  zs.next_out = out.data();
  zs.avail_out = uInt(out.size());
  EXPECT_EQ(inflate(&zs, Z_FINISH), Z_STREAM_END);
  EXPECT_EQ(zs.total_out, data.size());
  inflateEnd(&zs);
  EXPECT_EQ(out, data);
}

// --- LZ4 framings ----------------------------------------------------------

Bytes lz4_block(const uint8_t* data, size_t n) {
  Bytes out(static_cast<size_t>(LZ4_compressBound(int(n))));
  int written = LZ4_compress_default(reinterpret_cast<const char*>(data), reinterpret_cast<char*>(out.data()),
                                     int(n), int(out.size()));
  EXPECT_GT(written, 0);
  out.resize(size_t(written));
  return out;
}

void put_be32(Bytes& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(uint8_t(v >> shift));
}

uint32_t get_be32(const uint8_t* p) { return (uint32_t(p[0]) << 24) | (p[1] << 16) | (p[2] << 8) | p[3]; }

// Hadoop framing: each block [uncompressed size][compressed size][lz4 block].
Bytes hadoop_frames(const Bytes& data, const std::vector<size_t>& block_sizes) {
  Bytes out;
  size_t pos = 0;
  for (size_t size : block_sizes) {
    Bytes block = lz4_block(data.data() + pos, size);
    put_be32(out, uint32_t(size));
    put_be32(out, uint32_t(block.size()));
    out.insert(out.end(), block.begin(), block.end());
    pos += size;
  }
  EXPECT_EQ(pos, data.size());
  return out;
}

TEST(Lz4Hadoop, ReadsSeveralFrames) {
  Bytes data = double_bytes(300'000);
  Bytes stream = hadoop_frames(data, {100'000, 1, 150'000, 49'999});
  auto codec = make_codec(CompressionCodec::LZ4);
  EXPECT_EQ(decompress(*codec, stream, data.size()), data);
}

TEST(Lz4Hadoop, ReadsABlockSplitIntoSeveralChunks) {
  // Hadoop's BlockCompressorStream: one uncompressed size, then chunks.
  Bytes data = repetitive_bytes(90'000);
  Bytes stream;
  put_be32(stream, uint32_t(data.size()));
  size_t pos = 0;
  for (size_t chunk : {30'000u, 30'000u, 30'000u}) {
    Bytes block = lz4_block(data.data() + pos, chunk);
    put_be32(stream, uint32_t(block.size()));
    stream.insert(stream.end(), block.begin(), block.end());
    pos += chunk;
  }
  auto codec = make_codec(CompressionCodec::LZ4);
  EXPECT_EQ(decompress(*codec, stream, data.size()), data);
}

TEST(Lz4Hadoop, FallsBackToARawBlock) {
  Bytes data = repetitive_bytes(120'000);
  Bytes raw = lz4_block(data.data(), data.size());
  auto codec = make_codec(CompressionCodec::LZ4);
  EXPECT_EQ(decompress(*codec, raw, data.size()), data);
  // LZ4_RAW reads the same block, but not the Hadoop framing.
  auto raw_codec = make_codec(CompressionCodec::LZ4_RAW);
  EXPECT_EQ(decompress(*raw_codec, raw, data.size()), data);
  Bytes framed = hadoop_frames(data, {data.size()});
  Bytes out(data.size());
  EXPECT_EQ(error_code_of([&] { raw_codec->decompress(framed, out); }), ErrorCode::kCorrupt);
}

TEST(Lz4Hadoop, FallsBackToTheFrameFormat) {
  Bytes data = double_bytes(200'000);
  Bytes frame(LZ4F_compressFrameBound(data.size(), nullptr));
  size_t n = LZ4F_compressFrame(frame.data(), frame.size(), data.data(), data.size(), nullptr);
  ASSERT_FALSE(LZ4F_isError(n));
  frame.resize(n);
  auto codec = make_codec(CompressionCodec::LZ4);
  EXPECT_EQ(decompress(*codec, frame, data.size()), data);
  // The same codec object then reads Hadoop framing again (context reset).
  Bytes hadoop = hadoop_frames(data, {50'000, 150'000});
  EXPECT_EQ(decompress(*codec, hadoop, data.size()), data);
  // A frame that inflates past the declared size is refused.
  Bytes short_out(data.size() - 1);
  EXPECT_EQ(error_code_of([&] { codec->decompress(frame, short_out); }), ErrorCode::kCorrupt);
}

TEST(Lz4Hadoop, FramesThatDoNotFillThePageAreCorrupt) {
  Bytes data = repetitive_bytes(10'000);
  Bytes stream = hadoop_frames(data, {4'000, 6'000});
  auto codec = make_codec(CompressionCodec::LZ4);
  Bytes larger(data.size() + 5);
  EXPECT_EQ(error_code_of([&] { codec->decompress(stream, larger); }), ErrorCode::kCorrupt);
  // A frame claiming more than its chunk holds.
  Bytes lying = stream;
  lying[3] ^= 0x01;  // first frame's uncompressed size 4000 -> 4001
  Bytes out(data.size());
  EXPECT_EQ(error_code_of([&] { codec->decompress(lying, out); }), ErrorCode::kCorrupt);
}

TEST(Lz4Hadoop, WritesHadoopFramingIn128KiBBlocks) {
  Bytes data = double_bytes(300'000);
  auto codec = make_codec(CompressionCodec::LZ4);
  Bytes packed = compress(*codec, data);
  // Walk the frames by hand: 131072 + 131072 + 37856 bytes.
  size_t pos = 0, total = 0;
  std::vector<uint32_t> sizes;
  while (pos < packed.size()) {
    ASSERT_LE(pos + 8, packed.size());
    uint32_t raw_size = get_be32(&packed[pos]);
    uint32_t packed_size = get_be32(&packed[pos + 4]);
    ASSERT_LE(pos + 8 + packed_size, packed.size());
    Bytes out(raw_size);
    int n = LZ4_decompress_safe(reinterpret_cast<const char*>(&packed[pos + 8]),
                                reinterpret_cast<char*>(out.data()), int(packed_size), int(raw_size));
    ASSERT_EQ(n, int(raw_size));
    EXPECT_TRUE(std::equal(out.begin(), out.end(), data.begin() + ptrdiff_t(total)));
    sizes.push_back(raw_size);
    total += raw_size;
    pos += 8 + packed_size;
  }
  EXPECT_EQ(sizes, (std::vector<uint32_t>{131072, 131072, 37856}));
  EXPECT_EQ(total, data.size());
}

}  // namespace
}  // namespace parquetry
