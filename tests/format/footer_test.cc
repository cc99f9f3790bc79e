// Footer framing (magic, length, speculative read) and the page-header walker
// on synthetic files.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"
#include "test_support.h"

namespace parquetry {
namespace {

using Bytes = std::vector<uint8_t>;

FileMetaData small_metadata(size_t key_value_bytes = 0) {
  FileMetaData m;
  m.version = 1;
  m.num_rows = 3;
  SchemaElement root;
  root.name = "schema";
  root.num_children = 1;
  SchemaElement leaf;
  leaf.name = "x";
  leaf.type = Type::INT32;
  leaf.repetition_type = FieldRepetitionType::REQUIRED;
  m.schema = {root, leaf};
  if (key_value_bytes > 0) m.key_value_metadata.push_back({"big", std::string(key_value_bytes, 'v')});
  return m;
}

/// "PAR1" + body + footer written by write_file_metadata.
Bytes make_file(const FileMetaData& m, const Bytes& body = {}) {
  MemorySink sink;
  sink.write("PAR1", 4);
  sink.write(body.data(), body.size());
  write_file_metadata(m, sink);
  const Buffer& b = sink.buffer();
  return Bytes(b.data(), b.data() + b.size());
}

Error error_of(const Bytes& file) {
  MemorySource source(std::span<const uint8_t>(file), "test.parquet");
  try {
    read_file_metadata(source);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return Error(ErrorCode::kInternal, "none");
}

TEST(Footer, WriteThenRead) {
  FileMetaData m = small_metadata();
  Bytes file = make_file(m);
  EXPECT_EQ(std::string(file.end() - 4, file.end()), "PAR1");
  uint32_t length;
  std::memcpy(&length, file.data() + file.size() - 8, 4);
  EXPECT_EQ(length, file.size() - 12);
  MemorySource source{std::span<const uint8_t>(file)};
  EXPECT_EQ(read_file_metadata(source), m);
}

TEST(Footer, LargeFooterNeedsASecondExactRead) {
  // A footer bigger than the speculative tail read, in a real file read with pread.
  FileMetaData m = small_metadata(200 * 1024);
  Bytes file = make_file(m, Bytes(1000, 0xab));
  ASSERT_GT(file.size(), static_cast<size_t>(kFooterSpeculativeRead) * 2);
  auto path = (testing::temp_dir() / "large_footer.parquet").string();
  {
    AtomicFileSink sink(path);
    sink.write(file.data(), file.size());
    sink.commit();
  }
  FileSource source(path);
  EXPECT_EQ(read_file_metadata(source), m);
  // Also a footer that ends exactly at the speculative boundary.
  for (size_t extra : {size_t{0}, size_t{1}}) {
    FileMetaData edge = small_metadata(1);
    Bytes probe = make_file(edge);
    size_t grow = static_cast<size_t>(kFooterSpeculativeRead) - 8 - (probe.size() - 12) + extra;
    edge = small_metadata(1 + grow);
    Bytes edge_file = make_file(edge, Bytes(16, 0));
    MemorySource edge_source{std::span<const uint8_t>(edge_file)};
    EXPECT_EQ(read_file_metadata(edge_source), edge);
  }
}

TEST(Footer, Errors) {
  Bytes good = make_file(small_metadata());

  Error tiny = error_of(Bytes{'P', 'A', 'R', '1'});
  EXPECT_EQ(tiny.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(tiny.where().file, "test.parquet");

  Bytes bad_tail = good;
  bad_tail.back() = 'X';
  Error tail = error_of(bad_tail);
  EXPECT_EQ(tail.code(), ErrorCode::kCorrupt);
  EXPECT_NE(tail.message().find("trailing magic"), std::string::npos);

  Bytes bad_head = good;
  bad_head[0] = 'Q';
  Error head = error_of(bad_head);
  EXPECT_EQ(head.code(), ErrorCode::kCorrupt);
  EXPECT_NE(head.message().find("leading magic"), std::string::npos);

  Bytes encrypted = good;
  std::memcpy(encrypted.data() + encrypted.size() - 4, "PARE", 4);
  std::memcpy(encrypted.data(), "PARE", 4);
  Error enc = error_of(encrypted);
  EXPECT_EQ(enc.code(), ErrorCode::kUnsupported);
  EXPECT_EQ(enc.message(), "encrypted footer: read it with the footer key (ReaderOptions::decryption)");
  EXPECT_EQ(std::string(enc.what()),
            "unsupported: test.parquet: encrypted footer: read it with the footer key (ReaderOptions::decryption)");

  // An encrypted-footer tail after a plaintext head is no Parquet file.
  Bytes mixed = good;
  std::memcpy(mixed.data() + mixed.size() - 4, "PARE", 4);
  Error mixed_error = error_of(mixed);
  EXPECT_EQ(mixed_error.code(), ErrorCode::kCorrupt);
  EXPECT_NE(mixed_error.message().find("expected \"PARE\""), std::string::npos) << mixed_error.message();

  Bytes long_length = good;
  uint32_t huge = static_cast<uint32_t>(good.size());
  std::memcpy(long_length.data() + long_length.size() - 8, &huge, 4);
  Error len = error_of(long_length);
  EXPECT_EQ(len.code(), ErrorCode::kCorrupt);
  EXPECT_NE(len.message().find("footer length"), std::string::npos);

  // Corrupt footer bytes: the error's offset is a file offset inside the footer.
  Bytes garbage = good;
  uint32_t length;
  std::memcpy(&length, good.data() + good.size() - 8, 4);
  const size_t footer_start = good.size() - 8 - length;
  garbage[footer_start] = 0x0d;  // an invalid field type
  Error bad = error_of(garbage);
  EXPECT_EQ(bad.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(bad.where().file, "test.parquet");
  EXPECT_EQ(bad.where().offset, static_cast<int64_t>(footer_start) + 1);

  Limits small;
  small.max_footer_size = 10;
  MemorySource source(std::span<const uint8_t>(good), "test.parquet");
  try {
    read_file_metadata(source, small);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kLimitExceeded);
  }
}

/// A chunk of pages: [dictionary page] + data pages, each header + body.
struct SyntheticChunk {
  Bytes file;
  ColumnMetaData column;
  std::vector<int64_t> page_offsets;
};

SyntheticChunk make_chunk(bool with_dictionary, int data_pages) {
  SyntheticChunk chunk;
  chunk.file = {'P', 'A', 'R', '1'};
  auto add_page = [&](const PageHeader& h, size_t body) {
    chunk.page_offsets.push_back(static_cast<int64_t>(chunk.file.size()));
    Buffer b;
    encode_page_header(h, b);
    chunk.file.insert(chunk.file.end(), b.data(), b.data() + b.size());
    chunk.file.insert(chunk.file.end(), body, 0x5a);
  };
  if (with_dictionary) {
    PageHeader dict;
    dict.type = PageType::DICTIONARY_PAGE;
    dict.compressed_page_size = dict.uncompressed_page_size = 12;
    dict.dictionary_page_header = DictionaryPageHeader{3, Encoding::PLAIN, std::nullopt};
    add_page(dict, 12);
  }
  for (int i = 0; i < data_pages; ++i) {
    PageHeader data;
    data.type = PageType::DATA_PAGE;
    data.compressed_page_size = data.uncompressed_page_size = 20 + i;
    data.data_page_header =
        DataPageHeader{5 + i, Encoding::RLE_DICTIONARY, Encoding::RLE, Encoding::RLE, std::nullopt};
    add_page(data, 20 + i);
  }
  chunk.column.type = Type::INT32;
  chunk.column.data_page_offset = chunk.page_offsets[with_dictionary ? 1 : 0];
  if (with_dictionary) chunk.column.dictionary_page_offset = chunk.page_offsets[0];
  chunk.column.total_compressed_size = static_cast<int64_t>(chunk.file.size()) - 4;
  chunk.file.insert(chunk.file.end(), {'P', 'A', 'R', '1'});  // something after the chunk
  return chunk;
}

std::vector<PageHeaderAt> walk(RandomAccessSource& source, const ColumnMetaData& column) {
  std::vector<PageHeaderAt> pages;
  PageHeaderWalker walker(source, column);
  PageHeaderAt page;
  while (walker.next(page)) pages.push_back(page);
  return pages;
}

TEST(PageWalker, WalksDictionaryAndDataPages) {
  SyntheticChunk chunk = make_chunk(true, 3);
  MemorySource source{std::span<const uint8_t>(chunk.file)};
  auto pages = walk(source, chunk.column);
  ASSERT_EQ(pages.size(), 4u);
  for (size_t i = 0; i < pages.size(); ++i) EXPECT_EQ(pages[i].offset, chunk.page_offsets[i]);
  EXPECT_EQ(pages[0].header.type, PageType::DICTIONARY_PAGE);
  EXPECT_EQ(pages[0].header.dictionary_page_header->num_values, 3);
  EXPECT_EQ(pages[3].header.data_page_header->num_values, 7);
  EXPECT_EQ(pages[1].offset, pages[0].offset + pages[0].header_size + 12);
}

TEST(PageWalker, IgnoresBogusDictionaryOffsets) {
  SyntheticChunk chunk = make_chunk(false, 2);
  MemorySource source{std::span<const uint8_t>(chunk.file)};
  for (int64_t bogus : {int64_t{0}, int64_t{-5}, chunk.column.data_page_offset + 7}) {
    ColumnMetaData column = chunk.column;
    column.dictionary_page_offset = bogus;
    auto pages = walk(source, column);
    ASSERT_EQ(pages.size(), 2u) << bogus;
    EXPECT_EQ(pages[0].offset, 4);
  }
}

TEST(PageWalker, RejectsChunksOutsideTheFileAndOverlongPages) {
  SyntheticChunk chunk = make_chunk(true, 2);
  MemorySource source(std::span<const uint8_t>(chunk.file), "chunk.parquet");
  ColumnMetaData past_end = chunk.column;
  past_end.total_compressed_size += 100;
  EXPECT_THROW(PageHeaderWalker(source, past_end), Error);
  ColumnMetaData negative = chunk.column;
  negative.total_compressed_size = -1;
  EXPECT_THROW(PageHeaderWalker(source, negative), Error);
  ColumnMetaData beyond = chunk.column;
  beyond.dictionary_page_offset.reset();
  beyond.data_page_offset = static_cast<int64_t>(chunk.file.size()) + 10;
  EXPECT_THROW(PageHeaderWalker(source, beyond), Error);

  // A chunk that ends inside the last page's body.
  ColumnMetaData short_chunk = chunk.column;
  short_chunk.total_compressed_size -= 3;
  PageHeaderWalker walker(source, short_chunk);
  PageHeaderAt page;
  EXPECT_TRUE(walker.next(page));
  EXPECT_TRUE(walker.next(page));
  try {
    walker.next(page);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kCorrupt);
    EXPECT_EQ(e.where().file, "chunk.parquet");
    EXPECT_EQ(e.where().offset, chunk.page_offsets[2]);
  }
}

TEST(PageWalker, GarbageWhereAHeaderShouldBe) {
  Bytes file = {'P', 'A', 'R', '1'};
  for (int i = 0; i < 9000; ++i) file.push_back(static_cast<uint8_t>(0x19));  // endless nested lists
  file.insert(file.end(), {'P', 'A', 'R', '1'});
  MemorySource source{std::span<const uint8_t>(file)};
  ColumnMetaData column;
  column.data_page_offset = 4;
  column.total_compressed_size = 9000;
  PageHeaderWalker walker(source, column);
  PageHeaderAt page;
  EXPECT_THROW(walker.next(page), Error);
}

}  // namespace
}  // namespace parquetry
