// Decompresses every page of real files from parquet-testing, written by
// parquet-mr, parquet-cpp/pyarrow and others, and checks the bytes inside.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "mini_thrift.h"
#include "parquetry/compression/codec.h"
#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"
#include "test_support.h"

namespace parquetry {
namespace {

using testing::ThriftReader;
using testing::ThriftValue;
using Bytes = std::vector<uint8_t>;

struct Page {
  PageType type;
  int64_t uncompressed_size;
  ThriftValue header;
  std::span<const uint8_t> body;
};

struct Chunk {
  std::string path;
  CompressionCodec codec;
  Type type;
  int64_t total_uncompressed_size;
  int64_t header_bytes = 0;
  std::vector<Page> pages;
};

struct File {
  Bytes bytes;
  ThriftValue metadata;
  std::vector<Chunk> chunks;

  const Chunk& chunk(const std::string& path) const {
    for (const Chunk& c : chunks) {
      if (c.path == path) return c;
    }
    throw std::runtime_error("no column " + path);
  }
};

uint32_t load_le32(const uint8_t* p) {
  return uint32_t(p[0]) | (p[1] << 8) | (p[2] << 16) | (uint32_t(p[3]) << 24);
}

File parse_file(const std::string& name) {
  File file;
  file.bytes = testing::read_bytes(testing::parquet_testing("data/" + name));
  const Bytes& b = file.bytes;
  if (b.size() < 12 || std::memcmp(&b[b.size() - 4], "PAR1", 4) != 0) throw std::runtime_error("not parquet");
  uint32_t footer = load_le32(&b[b.size() - 8]);
  if (footer > b.size() - 12) throw std::runtime_error("bad footer length");
  file.metadata = ThriftReader(&b[b.size() - 8 - footer], footer).read_struct();
  for (const ThriftValue& row_group : file.metadata.at(4).elements) {
    for (const ThriftValue& column : row_group.at(1).elements) {
      const ThriftValue& meta = column.at(3);
      Chunk chunk;
      for (const ThriftValue& part : meta.at(3).elements) {
        chunk.path += (chunk.path.empty() ? "" : ".") + part.binary;
      }
      chunk.type = Type(meta.int_at(1));
      chunk.codec = CompressionCodec(meta.int_at(4));
      chunk.total_uncompressed_size = meta.int_at(6);
      // The chunk starts at its dictionary page when there is one. Writers
      // of chunks without data pages (0 rows) may leave data_page_offset 0.
      int64_t start = meta.int_at(9);
      if (meta.has(11) && meta.int_at(11) >= 4 && (meta.int_at(11) < start || start < 4))
        start = meta.int_at(11);
      int64_t end = start + meta.int_at(7);
      if (start < 0 || end > int64_t(b.size())) throw std::runtime_error("chunk outside the file");
      int64_t pos = start;
      while (pos < end) {
        ThriftReader reader(&b[size_t(pos)], size_t(end - pos));
        Page page;
        page.header = reader.read_struct();
        chunk.header_bytes += int64_t(reader.consumed());
        pos += int64_t(reader.consumed());
        page.type = PageType(page.header.int_at(1));
        page.uncompressed_size = page.header.int_at(2);
        int64_t compressed = page.header.int_at(3);
        if (compressed < 0 || compressed > end - pos) throw std::runtime_error("page outside the chunk");
        page.body = {&b[size_t(pos)], size_t(compressed)};
        pos += compressed;
        chunk.pages.push_back(std::move(page));
      }
      file.chunks.push_back(std::move(chunk));
    }
  }
  return file;
}

// The page's uncompressed bytes. In v2 data pages the levels lead the body
// uncompressed, and the values may be stored uncompressed too.
Bytes decompress(const Chunk& chunk, const Page& page) {
  Codec& codec = thread_codec(chunk.codec);
  Buffer scratch;
  if (page.type != PageType::DATA_PAGE_V2) {
    auto out = decompress_page(codec, page.body, page.uncompressed_size, scratch);
    return Bytes(out.begin(), out.end());
  }
  const ThriftValue& v2 = page.header.at(8);
  auto levels = size_t(v2.int_at(5) + v2.int_at(6));
  bool compressed = !v2.has(7) || v2.int_at(7) != 0;
  if (levels > page.body.size() || int64_t(levels) > page.uncompressed_size)
    throw std::runtime_error("levels");
  Bytes out(page.body.begin(), page.body.begin() + ptrdiff_t(levels));
  Codec& values_codec = compressed ? codec : thread_codec(CompressionCodec::UNCOMPRESSED);
  auto values = decompress_page(values_codec, page.body.subspan(levels),
                                page.uncompressed_size - int64_t(levels), scratch);
  out.insert(out.end(), values.begin(), values.end());
  return out;
}

// The values section of a v1 data page of an OPTIONAL column with no
// repetition: skip the 4-byte length and the RLE definition levels.
std::span<const uint8_t> after_v1_def_levels(const Bytes& page) {
  if (page.size() < 4) throw std::runtime_error("page too small for levels");
  uint32_t n = load_le32(page.data());
  if (n > page.size() - 4) throw std::runtime_error("levels longer than the page");
  return std::span<const uint8_t>(page).subspan(4 + n);
}

template <typename T>
std::vector<T> plain_values(std::span<const uint8_t> bytes) {
  EXPECT_EQ(bytes.size() % sizeof(T), 0u);
  std::vector<T> out(bytes.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

std::vector<std::string> plain_strings(std::span<const uint8_t> bytes) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < bytes.size()) {
    if (bytes.size() - pos < 4) throw std::runtime_error("truncated length");
    uint32_t n = load_le32(&bytes[pos]);
    if (n > bytes.size() - pos - 4) throw std::runtime_error("truncated string");
    out.emplace_back(reinterpret_cast<const char*>(&bytes[pos + 4]), n);
    pos += 4 + n;
  }
  return out;
}

const Page& only_page(const Chunk& chunk, PageType type) {
  const Page* found = nullptr;
  for (const Page& page : chunk.pages) {
    if (page.type == type) {
      EXPECT_EQ(found, nullptr) << "two pages of type " << int(type) << " in " << chunk.path;
      found = &page;
    }
  }
  if (found == nullptr) throw std::runtime_error("no page of that type in " + chunk.path);
  return *found;
}

uint32_t load_be32(std::span<const uint8_t> b) {
  return (uint32_t(b[0]) << 24) | (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8) | b[3];
}

// Both LZ4 files hold c0 = [1593604800 x2, 1593604801 x2], c1 = [abc, def,
// abc, def], v11 = [42, 7.7, 42.125, 7.7] dictionary-encoded; parquet-mr
// wrote one with the Hadoop framing, old parquet-cpp the other as raw blocks.
void check_lz4_file(const File& file, bool c0_required) {
  for (const Chunk& chunk : file.chunks) EXPECT_EQ(chunk.codec, CompressionCodec::LZ4) << chunk.path;
  const Chunk& c0 = file.chunk("c0");
  const Chunk& c1 = file.chunk("c1");
  const Chunk& v11 = file.chunk("v11");
  EXPECT_EQ(plain_values<int64_t>(decompress(c0, only_page(c0, PageType::DICTIONARY_PAGE))),
            (std::vector<int64_t>{1593604800, 1593604801}));
  EXPECT_EQ(plain_strings(decompress(c1, only_page(c1, PageType::DICTIONARY_PAGE))),
            (std::vector<std::string>{"abc", "def"}));
  EXPECT_EQ(plain_values<double>(decompress(v11, only_page(v11, PageType::DICTIONARY_PAGE))),
            (std::vector<double>{42.0, 7.7, 42.125}));
  // Data pages: dictionary indices as [bit width][bit-packed run of 8].
  // c0 -> 0,0,1,1 ; c1 -> 0,1,0,1 ; v11 -> 0,1,2,1 at 2 bits.
  Bytes c0_data = decompress(c0, only_page(c0, PageType::DATA_PAGE));
  Bytes c1_data = decompress(c1, only_page(c1, PageType::DATA_PAGE));
  Bytes v11_data = decompress(v11, only_page(v11, PageType::DATA_PAGE));
  auto tail = [](const Bytes& page, size_t n) { return Bytes(page.end() - ptrdiff_t(n), page.end()); };
  EXPECT_EQ(tail(c0_data, 3), (Bytes{0x01, 0x03, 0x0c}));
  EXPECT_EQ(tail(c1_data, 3), (Bytes{0x01, 0x03, 0x0a}));
  EXPECT_EQ(tail(v11_data, 4), (Bytes{0x02, 0x03, 0x64, 0x00}));
  EXPECT_EQ(c0_data.size(), c0_required ? 3u : 9u);
  Bytes v11_values(after_v1_def_levels(v11_data).begin(), after_v1_def_levels(v11_data).end());
  EXPECT_EQ(v11_values, (Bytes{0x02, 0x03, 0x64, 0x00}));
}

TEST(RealPages, HadoopFramedLz4FromParquetMr) {
  File file = parse_file("hadoop_lz4_compressed.parquet");
  // The pages really carry the Hadoop framing: [16][18][18-byte block].
  const Page& dict = only_page(file.chunk("c0"), PageType::DICTIONARY_PAGE);
  ASSERT_EQ(dict.body.size(), 26u);
  EXPECT_EQ(load_be32(dict.body), 16u);
  EXPECT_EQ(load_be32(dict.body.subspan(4)), 18u);
  check_lz4_file(file, /*c0_required=*/true);
}

TEST(RealPages, RawBlockLz4FromOldParquetCpp) {
  File file = parse_file("non_hadoop_lz4_compressed.parquet");
  const Page& dict = only_page(file.chunk("c0"), PageType::DICTIONARY_PAGE);
  ASSERT_GE(dict.body.size(), 4u);
  EXPECT_NE(load_be32(dict.body), 16u);  // no Hadoop header: a bare block
  check_lz4_file(file, /*c0_required=*/false);
}

TEST(RealPages, Lz4RawPlainValues) {
  File file = parse_file("lz4_raw_compressed.parquet");
  for (const Chunk& chunk : file.chunks) EXPECT_EQ(chunk.codec, CompressionCodec::LZ4_RAW);
  const Chunk& c0 = file.chunk("c0");
  const Chunk& c1 = file.chunk("c1");
  const Chunk& v11 = file.chunk("v11");
  EXPECT_EQ(plain_values<int64_t>(decompress(c0, only_page(c0, PageType::DATA_PAGE))),
            (std::vector<int64_t>{1593604800, 1593604800, 1593604801, 1593604801}));
  EXPECT_EQ(plain_strings(decompress(c1, only_page(c1, PageType::DATA_PAGE))),
            (std::vector<std::string>{"abc", "def", "abc", "def"}));
  Bytes v11_page = decompress(v11, only_page(v11, PageType::DATA_PAGE));
  EXPECT_EQ(plain_values<double>(after_v1_def_levels(v11_page)),
            (std::vector<double>{42.0, 7.7, 42.125, 7.7}));
}

TEST(RealPages, SnappyV2PagesAndDictionaries) {
  File file = parse_file("datapage_v2.snappy.parquet");
  const Chunk& a = file.chunk("a");
  const Chunk& c = file.chunk("c");
  const Chunk& e = file.chunk("e.list.element");
  EXPECT_EQ(a.codec, CompressionCodec::SNAPPY);
  EXPECT_EQ(plain_strings(decompress(a, only_page(a, PageType::DICTIONARY_PAGE))),
            (std::vector<std::string>{"abc"}));
  EXPECT_EQ(plain_values<double>(decompress(c, only_page(c, PageType::DICTIONARY_PAGE))),
            (std::vector<double>{2.0, 3.0, 4.0, 5.0}));
  EXPECT_EQ(plain_values<int32_t>(decompress(e, only_page(e, PageType::DICTIONARY_PAGE))),
            (std::vector<int32_t>{1, 2, 3}));
  // c's v2 data page: no levels (required), dictionary indices 0,1,2,3,0 at
  // bit width 2, bit-packed: 0b11100100 0b00000000.
  Bytes c_data = decompress(c, only_page(c, PageType::DATA_PAGE_V2));
  EXPECT_EQ(c_data, (Bytes{0x02, 0x03, 0xe4, 0x00}));
}

TEST(RealPages, SnappyV2PageWithEmptyBodyNeverReachesSnappy) {
  File file = parse_file("datapage_v2_empty_datapage.snappy.parquet");
  const Chunk& value = file.chunk("value");
  const Page& page = only_page(value, PageType::DATA_PAGE_V2);
  const ThriftValue& v2 = page.header.at(8);
  // All of the body is levels; the compressed values section is zero bytes.
  ASSERT_EQ(v2.int_at(5) + v2.int_at(6), int64_t(page.body.size()));
  Bytes out = decompress(value, page);
  EXPECT_EQ(out, Bytes(page.body.begin(), page.body.end()));
}

std::vector<std::string> baseline_strings(const std::string& file, const std::string& key) {
  Bytes text = testing::read_bytes(testing::duckdb_baseline("data/" + file + ".jsonl"));
  std::string all(text.begin(), text.end());
  std::vector<std::string> out;
  std::string marker = "\"" + key + "\":\"";
  for (size_t pos = all.find(marker); pos != std::string::npos; pos = all.find(marker, pos)) {
    pos += marker.size();
    size_t end = all.find('"', pos);
    out.push_back(all.substr(pos, end - pos));
  }
  return out;
}

TEST(RealPages, ZstdDeltaLengthByteArrayPage) {
  File file = parse_file("delta_length_byte_array.parquet");
  const Chunk& fruit = file.chunk("FRUIT");
  EXPECT_EQ(fruit.codec, CompressionCodec::ZSTD);
  Bytes page = decompress(fruit, only_page(fruit, PageType::DATA_PAGE_V2));
  // DELTA_LENGTH_BYTE_ARRAY ends with every value's bytes back to back.
  std::vector<std::string> values = baseline_strings("delta_length_byte_array.parquet", "FRUIT");
  ASSERT_EQ(values.size(), 1000u);
  EXPECT_EQ(values[2], "apple_banana_mango4");
  std::string joined;
  for (const auto& v : values) joined += v;
  ASSERT_GE(page.size(), joined.size());
  EXPECT_EQ(std::string(page.end() - ptrdiff_t(joined.size()), page.end()), joined);
}

TEST(RealPages, GzipPlainAndByteStreamSplitPagesAgree) {
  File file = parse_file("byte_stream_split_extended.gzip.parquet");
  const std::pair<const char*, size_t> columns[] = {{"float16", 2}, {"float", 4}, {"double", 8}, {"int32", 4},
                                                    {"int64", 8},   {"flba5", 5}, {"decimal", 4}};
  for (const auto& [name, width] : columns) {
    SCOPED_TRACE(name);
    const Chunk& plain = file.chunk(std::string(name) + "_plain");
    const Chunk& split = file.chunk(std::string(name) + "_byte_stream_split");
    EXPECT_EQ(plain.codec, CompressionCodec::GZIP);
    EXPECT_EQ(split.codec, CompressionCodec::GZIP);
    Bytes plain_page = decompress(plain, only_page(plain, PageType::DATA_PAGE));
    Bytes split_page = decompress(split, only_page(split, PageType::DATA_PAGE));
    auto plain_values_bytes = after_v1_def_levels(plain_page);
    auto split_values_bytes = after_v1_def_levels(split_page);
    ASSERT_EQ(plain_values_bytes.size(), split_values_bytes.size());
    ASSERT_EQ(plain_values_bytes.size() % width, 0u);
    size_t count = plain_values_bytes.size() / width;
    EXPECT_GT(count, 150u);
    // Byte k of value i sits at k * count + i in the split stream.
    size_t mismatches = 0;
    for (size_t i = 0; i < count; ++i) {
      for (size_t k = 0; k < width; ++k) {
        mismatches += plain_values_bytes[i * width + k] != split_values_bytes[k * count + i];
      }
    }
    EXPECT_EQ(mismatches, 0u);
  }
  // And the doubles are real, varied numbers, not a run of zeros.
  const Chunk& d = file.chunk("double_plain");
  Bytes page = decompress(d, only_page(d, PageType::DATA_PAGE));
  auto doubles = plain_values<double>(after_v1_def_levels(page));
  std::set<double> distinct;
  for (double x : doubles) {
    EXPECT_TRUE(std::isfinite(x));
    distinct.insert(x);
  }
  EXPECT_GT(distinct.size(), 150u);
}

TEST(RealPages, BrotliGigabytePageIsStoppedByATighterLimit) {
  File file = parse_file("large_string_map.brotli.parquet");
  const Chunk& key = file.chunk("arr.key_value.key");
  EXPECT_EQ(key.codec, CompressionCodec::BROTLI);
  const Page& dict = only_page(key, PageType::DICTIONARY_PAGE);
  EXPECT_EQ(dict.uncompressed_size, (int64_t(1) << 30) + 4);  // one 1 GiB string of 'a'
  // The default limit takes it (tests/read/large_strings_test.cc); 1 GiB does not.
  Limits one_gigabyte;
  one_gigabyte.max_page_size = int64_t(1) << 30;
  Buffer scratch;
  try {
    decompress_page(thread_codec(CompressionCodec::BROTLI), dict.body, dict.uncompressed_size, scratch,
                    one_gigabyte);
    FAIL() << "1 GiB page accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kLimitExceeded);
  }
  EXPECT_EQ(scratch.capacity(), 0u);  // refused before allocating
  // Declared smaller than it inflates: brotli stops at the bound.
  Bytes out(1 << 20);
  try {
    thread_codec(CompressionCodec::BROTLI).decompress(dict.body, out);
    FAIL() << "bomb accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kCorrupt);
  }
  // The bytes it did write are the start of the page: length 2^30 then 'a's.
  EXPECT_EQ(load_le32(out.data()), 1u << 30);
  EXPECT_EQ(out[4], 'a');
  EXPECT_EQ(out.back(), 'a');
  // The int32 value column decompresses normally: dictionary {1}.
  const Chunk& value = file.chunk("arr.key_value.value");
  EXPECT_EQ(plain_values<int32_t>(decompress(value, only_page(value, PageType::DICTIONARY_PAGE))),
            (std::vector<int32_t>{1}));
}

// Every page of every public file whose codec we read: each decompresses to
// exactly its header's size, and the sizes add up to the chunk's
// total_uncompressed_size (headers included), as the writer recorded it.
TEST(RealPages, EveryPageOfTheCorpusDecompresses) {
  Limits limits;
  limits.max_page_size = 64 << 20;
  size_t pages = 0, files = 0;
  std::set<CompressionCodec> seen;
  for (const auto& path : testing::all_public_parquet_files()) {
    std::string name = path.lexically_relative(testing::parquet_testing("data")).string();
    SCOPED_TRACE(name);
    // Its dictionary page claims more bytes than its column chunk holds: the
    // file exists to test that readers reject it, which is not this layer's job.
    if (name == "nation.dict-malformed.parquet") continue;
    File file;
    try {
      file = parse_file(name);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "mini thrift could not walk " << name << ": " << e.what();
      continue;
    }
    ++files;
    for (const Chunk& chunk : file.chunks) {
      if (!can_decompress(chunk.codec)) continue;
      seen.insert(chunk.codec);
      int64_t total = chunk.header_bytes;
      for (const Page& page : chunk.pages) {
        total += page.uncompressed_size;
        if (page.uncompressed_size > limits.max_page_size) continue;
        Bytes out = decompress(chunk, page);
        EXPECT_EQ(int64_t(out.size()), page.uncompressed_size);
        ++pages;
      }
      EXPECT_EQ(total, chunk.total_uncompressed_size) << chunk.path;
    }
  }
  EXPECT_GT(files, 40u);
  EXPECT_GT(pages, 500u);
  for (CompressionCodec c :
       {CompressionCodec::UNCOMPRESSED, CompressionCodec::SNAPPY, CompressionCodec::GZIP,
        CompressionCodec::ZSTD, CompressionCodec::LZ4, CompressionCodec::LZ4_RAW, CompressionCodec::BROTLI}) {
    EXPECT_EQ(seen.count(c), 1u) << codec_name(c);
  }
}

// The same sweep through the format layer's footer reader and page walker,
// which must agree page for page with the independent mini parser above.
TEST(RealPages, FormatLayerWalkerAgreesAndEveryPageDecompresses) {
  constexpr int64_t kLargestPageTried = 64 << 20;
  size_t pages = 0;
  for (const auto& path : testing::all_public_parquet_files()) {
    std::string name = path.lexically_relative(testing::parquet_testing("data")).string();
    SCOPED_TRACE(name);
    Bytes bytes = testing::read_bytes(path);
    MemorySource source(std::span<const uint8_t>(bytes), name);
    FileMetaData metadata = read_file_metadata(source);
    if (name == "nation.dict-malformed.parquet") {
      // Its dictionary page runs past its chunk: the walker must say so.
      auto walk_all = [&] {
        for (const RowGroup& rg : metadata.row_groups) {
          for (const ColumnChunk& cc : rg.columns) {
            PageHeaderWalker walker(source, *cc.meta_data);
            PageHeaderAt at;
            while (walker.next(at)) {
            }
          }
        }
      };
      EXPECT_THROW(walk_all(), Error);
      continue;
    }
    File mini = parse_file(name);
    size_t chunk_index = 0;
    for (const RowGroup& rg : metadata.row_groups) {
      for (const ColumnChunk& cc : rg.columns) {
        ASSERT_TRUE(cc.meta_data.has_value());
        ASSERT_LT(chunk_index, mini.chunks.size());
        const Chunk& expected = mini.chunks[chunk_index++];
        const ColumnMetaData& meta = *cc.meta_data;
        EXPECT_EQ(meta.codec, expected.codec);
        Codec& codec = thread_codec(meta.codec);
        Buffer scratch;
        PageHeaderWalker walker(source, meta);
        PageHeaderAt at;
        size_t page_index = 0;
        while (walker.next(at)) {
          const PageHeader& h = at.header;
          ASSERT_LT(page_index, expected.pages.size());
          const Page& mini_page = expected.pages[page_index++];
          EXPECT_EQ(h.type, mini_page.type);
          EXPECT_EQ(h.uncompressed_page_size, mini_page.uncompressed_size);
          int64_t body_offset = at.offset + at.header_size;
          ASSERT_EQ(mini_page.body.data() - mini.bytes.data(), body_offset);
          ASSERT_EQ(mini_page.body.size(), size_t(h.compressed_page_size));
          ASSERT_LE(body_offset + h.compressed_page_size, int64_t(bytes.size()));
          if (h.uncompressed_page_size > kLargestPageTried) continue;
          std::span<const uint8_t> body(bytes.data() + body_offset, size_t(h.compressed_page_size));
          int64_t levels = 0;
          bool compressed = true;
          if (h.data_page_header_v2) {
            levels = int64_t(h.data_page_header_v2->definition_levels_byte_length) +
                     h.data_page_header_v2->repetition_levels_byte_length;
            compressed = h.data_page_header_v2->compressed();
            ASSERT_LE(levels, int64_t(body.size()));
          }
          Codec& values_codec = compressed ? codec : thread_codec(CompressionCodec::UNCOMPRESSED);
          auto values = decompress_page(values_codec, body.subspan(size_t(levels)),
                                        int64_t(h.uncompressed_page_size) - levels, scratch);
          EXPECT_EQ(int64_t(values.size()) + levels, h.uncompressed_page_size);
          ++pages;
        }
        EXPECT_EQ(page_index, expected.pages.size()) << expected.path;
      }
    }
    EXPECT_EQ(chunk_index, mini.chunks.size());
  }
  EXPECT_GT(pages, 500u);
}

}  // namespace
}  // namespace parquetry
