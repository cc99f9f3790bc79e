// Hostile input sweep: every public footer cut at every byte and with seeded
// random byte changes. Each case must end in a parquetry::Error or a valid
// result (which then re-encodes stably), never a crash or sanitizer report,
// and no single allocation may exceed a bound derived from the input size.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"
#include "test_support.h"

// Records the largest single allocation while `g_watch` is set. Replacing
// the global operator new is the only portable way to see allocations made
// deep inside std::vector / std::string.
namespace {
std::atomic<bool> g_watch{false};
std::atomic<size_t> g_largest{0};

void* counted_alloc(size_t size) {
  if (g_watch.load(std::memory_order_relaxed)) {
    size_t seen = g_largest.load(std::memory_order_relaxed);
    while (size > seen && !g_largest.compare_exchange_weak(seen, size)) {
    }
  }
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(size_t size) { return counted_alloc(size); }
void* operator new[](size_t size) { return counted_alloc(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

namespace parquetry {
namespace {

std::vector<uint8_t> footer_bytes(const std::vector<uint8_t>& file) {
  uint32_t length;
  std::memcpy(&length, file.data() + file.size() - 8, 4);
  return {file.end() - 8 - length, file.end() - 8};
}

/// Decodes; on success checks that encoding is stable (decode(encode(x))
/// encodes to the same bytes; bytes rather than structs because a changed
/// byte may produce a NaN double, which never compares equal).
/// Returns true when the input decoded.
bool decode_checked(std::span<const uint8_t> bytes, const Limits& limits) {
  FileMetaData m;
  try {
    m = decode_file_metadata(bytes, limits);
  } catch (const Error& e) {
    EXPECT_TRUE(e.code() == ErrorCode::kCorrupt || e.code() == ErrorCode::kLimitExceeded) << e.what();
    EXPECT_FALSE(e.message().empty());
    return false;
  }
  Buffer first, second;
  encode_file_metadata(m, first);
  encode_file_metadata(decode_file_metadata(first.span(), limits), second);
  EXPECT_EQ(first.size(), second.size());
  if (first.size() == second.size()) {
    EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size()), 0);
  }
  return true;
}

TEST(MetadataSweep, TruncatedAndMutatedFooters) {
  Limits limits;
  std::mt19937_64 rng(20261202);
  size_t cases = 0, decoded = 0, footers = 0;
  for (const auto& path : testing::all_public_parquet_files()) {
    SCOPED_TRACE(path.string());
    std::vector<uint8_t> file = testing::read_bytes(path);
    std::vector<uint8_t> footer = footer_bytes(file);
    ++footers;
    // Structs grow to at most a few hundred times their encoded size (a 3-byte
    // ColumnChunk becomes a ~700-byte struct); nothing may allocate beyond that.
    const size_t allocation_bound = 1024 * footer.size() + (1 << 20);

    g_largest = 0;
    g_watch = true;
    for (size_t cut = 0; cut < footer.size(); ++cut) {
      // A fresh copy of exactly `cut` bytes so ASan sees any read past the end.
      std::vector<uint8_t> part(footer.begin(), footer.begin() + cut);
      decoded += decode_checked(part, limits);
      ++cases;
    }
    // Random changes: single bytes set to random values, bits flipped, and
    // bursts of up to 8 bytes, 300 mutants per file.
    for (int i = 0; i < 300; ++i) {
      std::vector<uint8_t> mutant = footer;
      int changes = 1 + static_cast<int>(rng() % 4);
      for (int c = 0; c < changes; ++c) {
        size_t at = rng() % mutant.size();
        switch (rng() % 3) {
          case 0: mutant[at] = static_cast<uint8_t>(rng()); break;
          case 1: mutant[at] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;
          default:
            for (size_t k = at; k < std::min(mutant.size(), at + 1 + rng() % 8); ++k) {
              mutant[k] = static_cast<uint8_t>(rng());
            }
        }
      }
      decoded += decode_checked(mutant, limits);
      ++cases;
    }
    g_watch = false;
    EXPECT_LE(g_largest.load(), allocation_bound) << "largest single allocation";
    // The untouched footer still decodes.
    EXPECT_TRUE(decode_checked(footer, limits));
  }
  EXPECT_GT(footers, 45u);
  EXPECT_GT(cases, 100000u);
  // Some mutants decode (changed values), most truncations do not.
  EXPECT_GT(decoded, 0u);
  EXPECT_LT(decoded, cases / 2);
}

TEST(MetadataSweep, TightLimitsAreRespected) {
  // With small limits the corpus footers must fail with kLimitExceeded (not
  // crash, not allocate): containers above 4 elements, strings above 8 bytes.
  Limits tight;
  tight.max_thrift_container_size = 4;
  tight.max_thrift_string_size = 8;
  tight.max_nesting_depth = 3;
  int limited = 0;
  for (const auto& path : testing::all_public_parquet_files()) {
    std::vector<uint8_t> footer = footer_bytes(testing::read_bytes(path));
    try {
      decode_file_metadata(footer, tight);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kLimitExceeded) << path << ": " << e.what();
      ++limited;
    }
  }
  EXPECT_GT(limited, 40);
}

TEST(MetadataSweep, TruncatedAndMutatedPageHeaders) {
  // The first page header of every column chunk of a few files.
  std::mt19937_64 rng(7);
  size_t cases = 0;
  for (const char* name : {"alltypes_plain.parquet", "datapage_v2.snappy.parquet",
                           "float16_nonzeros_and_nans.parquet", "data_index_bloom_encoding_stats.parquet"}) {
    auto path = testing::parquet_testing(std::string("data/") + name);
    MmapSource source(path.string());
    FileMetaData m = read_file_metadata(source);
    for (const auto& chunk : m.row_groups[0].columns) {
      PageHeaderWalker walker(source, *chunk.meta_data);
      PageHeaderAt page;
      ASSERT_TRUE(walker.next(page));
      Buffer scratch;
      auto header = source.read(page.offset, page.header_size, scratch);
      std::vector<uint8_t> bytes(header.begin(), header.end());
      for (size_t cut = 0; cut < bytes.size(); ++cut) {
        std::vector<uint8_t> part(bytes.begin(), bytes.begin() + cut);
        EXPECT_THROW(decode_page_header(part), Error) << name << " cut " << cut;
        ++cases;
      }
      for (int i = 0; i < 200; ++i) {
        std::vector<uint8_t> mutant = bytes;
        mutant[rng() % mutant.size()] = static_cast<uint8_t>(rng());
        try {
          size_t consumed = 0;
          PageHeader h = decode_page_header(mutant, Limits{}, &consumed);
          EXPECT_LE(consumed, mutant.size());
        } catch (const Error& e) {
          EXPECT_NE(e.code(), ErrorCode::kInternal);
        }
        ++cases;
      }
    }
  }
  EXPECT_GT(cases, 1000u);
}

}  // namespace
}  // namespace parquetry
