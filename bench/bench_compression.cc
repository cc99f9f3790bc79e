// Codec throughput on one 1 MiB page of realistic column data.
//
// Two pages: PLAIN doubles (prices drifting by small steps, two decimals:
// partly compressible, like most numeric columns) and PLAIN strings
// (length-prefixed e-mail-like values: repetitive text). Each codec
// compresses and decompresses the page through the same Codec object a
// column reader or writer would keep; bytes/s count uncompressed bytes, and
// the "ratio" counter is uncompressed / compressed size.
//
// compression/snappy_copy_kinds times the snappy decoder's two forms of its
// fast loop, and the adaptive choice between them, on 16 different pages of
// a shape decoded round-robin: a branch predictor that saw one page decoded
// over and over would learn its tags, which real scans never let it do.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parquetry/compression/codec.h"
#include "parquetry/compression/snappy_decompress.h"

namespace parquetry {
namespace {

constexpr size_t kPageSize = 1 << 20;

std::vector<uint8_t> doubles_page() {
  std::vector<uint8_t> page(kPageSize);
  std::mt19937_64 rng(42);
  std::normal_distribution<double> step(0.0, 0.05);
  double price = 250.0;
  for (size_t i = 0; i + 8 <= page.size(); i += 8) {
    price += step(rng);
    double cents = double(int64_t(price * 100.0)) / 100.0;
    std::memcpy(&page[i], &cents, 8);
  }
  return page;
}

std::vector<uint8_t> strings_page() {
  static const char* const kNames[] = {"alice",  "bob",   "carol",  "dave", "erin",    "frank",
                                       "grace",  "heidi", "ivan",   "judy", "mallory", "niaj",
                                       "olivia", "peggy", "rupert", "sybil"};
  static const char* const kDomains[] = {"example.com", "mail.example.org", "corp.example.net",
                                         "test.example"};
  std::vector<uint8_t> page;
  page.reserve(kPageSize + 64);
  std::mt19937 rng(7);
  while (page.size() < kPageSize) {
    std::string value =
        std::string(kNames[rng() % 16]) + "." + std::to_string(rng() % 10000) + "@" + kDomains[rng() % 4];
    uint32_t n = uint32_t(value.size());
    uint8_t len[4];
    std::memcpy(len, &n, 4);
    page.insert(page.end(), len, len + 4);
    page.insert(page.end(), value.begin(), value.end());
  }
  page.resize(kPageSize);
  return page;
}

const std::vector<uint8_t>& page_for(int shape) {
  static const std::vector<uint8_t> doubles = doubles_page();
  static const std::vector<uint8_t> strings = strings_page();
  return shape == 0 ? doubles : strings;
}

void bench_compress(benchmark::State& state, CompressionCodec kind, int level, int shape) {
  const auto& page = page_for(shape);
  auto codec = make_codec(kind, level);
  Buffer out;
  out.reserve(codec->max_compressed_length(page.size()));
  size_t compressed = 0;
  for (auto _ : state) {
    out.clear();
    compressed = codec->compress(page, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(page.size()));
  state.counters["ratio"] = double(page.size()) / double(compressed);
}

void bench_decompress(benchmark::State& state, CompressionCodec kind, int level, int shape) {
  const auto& page = page_for(shape);
  auto codec = make_codec(kind, level);
  Buffer packed;
  codec->compress(page, packed);
  Buffer out(page.size());
  for (auto _ : state) {
    codec->decompress(packed.span(), {out.data(), out.size()});
    benchmark::DoNotOptimize(out.data());
  }
  if (std::memcmp(out.data(), page.data(), page.size()) != 0) state.SkipWithError("round trip differs");
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(page.size()));
  state.counters["ratio"] = double(page.size()) / double(packed.size());
}

// Unsorted pickup times of one month in microseconds (a taxi timestamp
// column): each value packs into a short literal and a copy of its high bytes
// whose offset takes one or two bytes by chance.
std::vector<uint8_t> timestamps_page(uint64_t seed) {
  std::vector<uint8_t> page(kPageSize);
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i + 8 <= page.size(); i += 8) {
    const int64_t micros =
        1640995200000000LL + int64_t(rng() % 2678400) * 1000000LL + int64_t(rng() % 1000000);
    std::memcpy(&page[i], &micros, 8);
  }
  return page;
}

void bench_snappy_copy_kinds(benchmark::State& state, compression_detail::SnappyCopyDecoding decoding,
                             int shape) {
  constexpr int kPages = 16;
  auto codec = make_codec(CompressionCodec::SNAPPY, kDefaultCompressionLevel);
  std::vector<std::vector<uint8_t>> pages;
  std::vector<Buffer> packed(kPages);
  size_t packed_bytes = 0;
  for (int p = 0; p < kPages; ++p) {
    if (shape == 0) {
      pages.push_back(timestamps_page(uint64_t(100 + p)));
    } else {
      // The drifting prices, each page a different window of them.
      const auto& prices = page_for(0);
      std::vector<uint8_t> page(prices.begin() + p * 4096, prices.end());
      page.insert(page.end(), prices.begin(), prices.begin() + p * 4096);
      pages.push_back(std::move(page));
    }
    codec->compress(pages.back(), packed[size_t(p)]);
    packed_bytes += packed[size_t(p)].size();
  }
  Buffer out(kPageSize);
  size_t next = 0;
  for (auto _ : state) {
    const auto status = compression_detail::snappy_decompress(packed[next].span(), {out.data(), out.size()},
                                                              nullptr, decoding);
    if (status != compression_detail::SnappyStatus::kOk) state.SkipWithError("snappy stream rejected");
    benchmark::DoNotOptimize(out.data());
    next = (next + 1) % kPages;
  }
  const size_t last = (next + kPages - 1) % kPages;
  if (std::memcmp(out.data(), pages[last].data(), kPageSize) != 0) state.SkipWithError("round trip differs");
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kPageSize));
  state.counters["ratio"] = double(kPageSize) * kPages / double(packed_bytes);
}

struct Variant {
  CompressionCodec kind;
  int level;
  const char* name;
};

const int kRegistered = [] {
  const Variant variants[] = {
      {CompressionCodec::UNCOMPRESSED, kDefaultCompressionLevel, "uncompressed"},
      {CompressionCodec::SNAPPY, kDefaultCompressionLevel, "snappy"},
      {CompressionCodec::LZ4_RAW, kDefaultCompressionLevel, "lz4_raw"},
      {CompressionCodec::LZ4, kDefaultCompressionLevel, "lz4_hadoop"},
      {CompressionCodec::ZSTD, 1, "zstd1"},
      {CompressionCodec::ZSTD, kDefaultCompressionLevel, "zstd3"},
      {CompressionCodec::GZIP, 1, "gzip1"},
      {CompressionCodec::GZIP, kDefaultCompressionLevel, "gzip6"},
      {CompressionCodec::BROTLI, 1, "brotli1"},
      {CompressionCodec::BROTLI, kDefaultCompressionLevel, "brotli5"},
  };
  const char* const shapes[] = {"doubles", "strings"};
  for (const Variant& v : variants) {
    for (int shape = 0; shape < 2; ++shape) {
      std::string suffix = std::string(v.name) + "/" + shapes[shape];
      benchmark::RegisterBenchmark(("compression/decompress/" + suffix).c_str(), bench_decompress, v.kind,
                                   v.level, shape);
      benchmark::RegisterBenchmark(("compression/compress/" + suffix).c_str(), bench_compress, v.kind,
                                   v.level, shape);
    }
  }
  const std::pair<compression_detail::SnappyCopyDecoding, const char*> forms[] = {
      {compression_detail::SnappyCopyDecoding::kAdaptive, "adaptive"},
      {compression_detail::SnappyCopyDecoding::kBranching, "branching"},
      {compression_detail::SnappyCopyDecoding::kBranchless, "branchless"},
  };
  const char* const kinds_shapes[] = {"timestamps", "doubles"};
  for (const auto& [form, name] : forms) {
    for (int shape = 0; shape < 2; ++shape) {
      benchmark::RegisterBenchmark(
          ("compression/snappy_copy_kinds/" + std::string(name) + "/" + kinds_shapes[shape]).c_str(),
          bench_snappy_copy_kinds, form, shape);
    }
  }
  return 0;
}();

}  // namespace
}  // namespace parquetry
