// Hostile encrypted files beyond single altered bytes (read_files_test and
// write_round_trip_test cover wrong keys, a missing or wrong AAD prefix, a
// tampered page, a tampered footer and two pages swapped): pages carried over
// from another file or another row group under the same key, a page cut
// short inside the file, and files truncated anywhere. Each fails with a
// parquetry::Error that names what failed and where, never a crash (ASan).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parquetry/array_builder.h"
#include "parquetry/encryption.h"
#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/reader.h"
#include "parquetry/util/bit_util.h"
#include "parquetry/writer.h"
#include "test_support.h"

namespace parquetry {
namespace {

const std::string kKey(16, '\x35');

// Two row groups of 1,000 rows (id INT64 PLAIN, ten pages each), the same
// values in both, so pages of the two row groups and of two files written
// alike have the same sizes and differ only in their encryption.
std::string write_file(const std::string& name, bool plaintext_footer) {
  BatchSchema schema;
  schema.fields.push_back(Field{"id", DataType::make(TypeId::kInt64), false, -1, {}});
  ArrayBuilder id(schema.fields[0]);
  for (int64_t i = 0; i < 2000; ++i) id.append_int(i % 1000);
  RecordBatch batch;
  batch.schema = std::make_shared<const BatchSchema>(schema);
  batch.num_rows = 2000;
  batch.columns = {id.finish()};
  WriterOptions options;
  options.row_group_rows = 1000;
  options.page_rows = 100;
  options.dictionary = false;
  options.codec = CompressionCodec::UNCOMPRESSED;
  EncryptionOptions encryption;
  encryption.footer_key = kKey;
  encryption.plaintext_footer = plaintext_footer;
  options.encryption = encryption;
  const std::string path = (testing::temp_dir() / name).string();
  auto writer = FileWriter::open(path, schema, options);
  writer->write(batch);
  writer->close();
  return path;
}

ReaderOptions with_key() {
  ReaderOptions options;
  options.decryption.footer_key = kKey;
  return options;
}

Error error_of(std::vector<uint8_t> bytes, const std::string& name) {
  try {
    auto source = std::make_shared<MemorySource>(std::move(bytes), name);
    FileReader::open(source, with_key())->read_all();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error reading " << name;
  return Error(ErrorCode::kInternal, "");
}

// [offset, size) of each page (header module + body module) of a chunk.
std::vector<std::pair<int64_t, int64_t>> pages_of(const std::vector<uint8_t>& bytes,
                                                  const ColumnMetaData& meta) {
  std::vector<std::pair<int64_t, int64_t>> pages;
  int64_t at = meta.data_page_offset;
  while (at < meta.data_page_offset + meta.total_compressed_size) {
    const int64_t header = 4 + int64_t(bits::load<uint32_t>(bytes.data() + at));
    const int64_t body = 4 + int64_t(bits::load<uint32_t>(bytes.data() + at + header));
    pages.emplace_back(at, header + body);
    at += header + body;
  }
  return pages;
}

const std::string kTagMismatchHeader =
    "AES-GCM tag mismatch in data page header: wrong key, wrong or missing AAD prefix, or the bytes were "
    "altered or "
    "moved";

TEST(EncryptedHostile, PagesFromAnotherFileOrRowGroupFailTheirTags) {
  const std::string a = write_file("a.parquet", false);
  const std::string b = write_file("b.parquet", false);
  const std::vector<uint8_t> bytes_a = testing::read_bytes(a), bytes_b = testing::read_bytes(b);
  auto reader = FileReader::open(a, with_key());
  const FileMetaData& meta = reader->metadata();
  ASSERT_EQ(meta.row_groups.size(), 2u);
  const auto group0 = pages_of(bytes_a, *meta.row_groups[0].columns[0].meta_data);
  const auto group1 = pages_of(bytes_a, *meta.row_groups[1].columns[0].meta_data);
  ASSERT_EQ(group0.size(), 10u);
  ASSERT_EQ(group0[4].second, group1[4].second);
  // Same key, same position, same plaintext, other file: the file AADs differ.
  ASSERT_EQ(bytes_a.size(), bytes_b.size());
  std::vector<uint8_t> from_b = bytes_a;
  std::copy_n(bytes_b.begin() + group0[4].first, group0[4].second, from_b.begin() + group0[4].first);
  ASSERT_NE(from_b, bytes_a);
  Error other_file = error_of(from_b, "a.parquet");
  EXPECT_EQ(other_file.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(other_file.message(), kTagMismatchHeader);
  EXPECT_EQ(other_file.where().file, "a.parquet");
  EXPECT_EQ(other_file.where().row_group, 0);
  EXPECT_EQ(other_file.where().column, "id");
  EXPECT_EQ(other_file.where().page, 4);
  // Page 4 of row group 0 written over page 4 of row group 1: the row group ordinal differs.
  std::vector<uint8_t> moved = bytes_a;
  std::copy_n(bytes_a.begin() + group0[4].first, group0[4].second, moved.begin() + group1[4].first);
  Error other_group = error_of(moved, "a.parquet");
  EXPECT_EQ(other_group.message(), kTagMismatchHeader);
  EXPECT_EQ(other_group.where().row_group, 1);
  EXPECT_EQ(other_group.where().page, 4);
}

TEST(EncryptedHostile, APageCutShortInsideTheFileFailsItsTag) {
  const std::string path = write_file("cut.parquet", true);
  const std::vector<uint8_t> good = testing::read_bytes(path);
  auto reader = FileReader::open(path, with_key());
  const auto pages = pages_of(good, *reader->metadata().row_groups[0].columns[0].meta_data);
  // The last 10 bytes of page 2's body module (inside its GCM tag) removed;
  // everything after it, footer included, moves up by 10 bytes.
  const int64_t end = pages[2].first + pages[2].second;
  std::vector<uint8_t> cut(good.begin(), good.begin() + (end - 10));
  cut.insert(cut.end(), good.begin() + end, good.end());
  Error e = error_of(cut, "cut.parquet");
  EXPECT_EQ(e.code(), ErrorCode::kCorrupt);
  EXPECT_NE(e.message().find("AES-GCM tag mismatch"), std::string::npos) << e.what();
  EXPECT_EQ(e.where().file, "cut.parquet");
}

TEST(EncryptedHostile, TruncatedFilesFailNamingTheFile) {
  for (bool plaintext_footer : {false, true}) {
    SCOPED_TRACE(plaintext_footer ? "plaintext footer" : "encrypted footer");
    const std::string name = plaintext_footer ? "t_plain.parquet" : "t_enc.parquet";
    const std::vector<uint8_t> good = testing::read_bytes(write_file(name, plaintext_footer));
    // Every cut: the tail is gone, so the file is rejected at its last bytes
    // before any decryption, with the reason and the file's name.
    for (size_t cut = 0; cut < good.size(); cut += cut < good.size() - 64 ? 61 : 1) {
      SCOPED_TRACE(cut);
      Error e = error_of(std::vector<uint8_t>(good.begin(), good.begin() + std::ptrdiff_t(cut)), name);
      EXPECT_EQ(e.code(), ErrorCode::kCorrupt);
      EXPECT_EQ(e.where().file, name);
      const bool named = e.message().find("too small to be Parquet") != std::string::npos ||
                         e.message().find("trailing magic") != std::string::npos ||
                         e.message().find("does not fit in a file") != std::string::npos;
      EXPECT_TRUE(named) << e.what();
    }
  }
}

}  // namespace
}  // namespace parquetry
