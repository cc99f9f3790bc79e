// Files parquetry encrypts read back here in every mode combination: cipher,
// footer mode, uniform or per-column keys, AAD prefix stored or supplied;
// page indexes and Bloom filters of encrypted columns still prune; swapped
// or moved pages fail their GCM tags.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>

#include "parquetry/array_builder.h"
#include "parquetry/encryption.h"
#include "parquetry/error.h"
#include "parquetry/filtered_scan.h"
#include "parquetry/io.h"
#include "parquetry/predicate.h"
#include "parquetry/reader.h"
#include "parquetry/record.h"
#include "parquetry/util/bit_util.h"
#include "parquetry/writer.h"
#include "test_support.h"

namespace parquetry {
namespace {

constexpr int64_t kRows = 1000;

std::string key_of(char seed, size_t size = 16) {
  std::string key(size, '\0');
  for (size_t i = 0; i < size; ++i) key[i] = char(seed + int(i) * 3);
  return key;
}

BatchSchema test_schema() {
  BatchSchema schema;
  schema.fields.push_back(Field{"id", DataType::make(TypeId::kInt64), false, -1, {}});
  schema.fields.push_back(Field{"name", DataType::make(TypeId::kString), true, -1, {}});
  schema.fields.push_back(Field{"score", DataType::make(TypeId::kFloat64), false, -1, {}});
  return schema;
}

std::string name_of(int64_t i) { return "name-" + std::to_string(i % 37); }

RecordBatch test_batch() {
  const BatchSchema schema = test_schema();
  ArrayBuilder id(schema.fields[0]), name(schema.fields[1]), score(schema.fields[2]);
  for (int64_t i = 0; i < kRows; ++i) {
    id.append_int(i * 7);
    if (i % 5 == 4) {
      name.append_null();
    } else {
      name.append_bytes(name_of(i));
    }
    score.append_double(double(i) * 0.25);
  }
  RecordBatch batch;
  batch.schema = std::make_shared<const BatchSchema>(schema);
  batch.num_rows = kRows;
  batch.columns = {id.finish(), name.finish(), score.finish()};
  return batch;
}

WriterOptions writer_options(EncryptionOptions encryption) {
  WriterOptions options;
  options.page_rows = 100;  // ten data pages per column
  options.bloom_filter = true;
  options.dictionary = false;
  options.codec = CompressionCodec::UNCOMPRESSED;
  options.columns["name"].dictionary = true;
  options.columns["name"].codec = CompressionCodec::SNAPPY;
  options.encryption = std::move(encryption);
  return options;
}

std::string write_file(const std::string& name, EncryptionOptions encryption) {
  const std::string path = (testing::temp_dir() / name).string();
  auto writer = FileWriter::open(path, test_schema(), writer_options(std::move(encryption)));
  writer->write(test_batch());
  writer->close();
  return path;
}

// Every value of the columns read, checked against test_batch().
void expect_values(const std::vector<RecordBatch>& batches, const std::vector<std::string>& columns) {
  int64_t row = 0;
  for (const RecordBatch& batch : batches) {
    for (int64_t r = 0; r < batch.num_rows; ++r, ++row) {
      Row values(&batch, r);
      for (size_t c = 0; c < columns.size(); ++c) {
        if (columns[c] == "id") {
          EXPECT_EQ(values[int(c)].as_int64(), row * 7) << row;
        }
        if (columns[c] == "score") {
          EXPECT_EQ(values[int(c)].as_double(), double(row) * 0.25) << row;
        }
        if (columns[c] == "name") {
          if (row % 5 == 4) {
            EXPECT_TRUE(values[int(c)].is_null()) << row;
          } else {
            EXPECT_EQ(values[int(c)].as_string(), name_of(row)) << row;
          }
        }
      }
    }
  }
  EXPECT_EQ(row, kRows);
}

// Every batch of batches(), kept.
std::vector<RecordBatch> streamed(FileReader& reader) {
  std::vector<RecordBatch> out;
  auto batches = reader.batches();
  RecordBatch batch;
  while (batches->next(batch)) out.push_back(batch);
  return out;
}

struct Mode {
  EncryptionCipher cipher;
  bool plaintext_footer;
  bool column_keys;  // id and name with their own keys, score in the clear
  int aad;           // 0 none, 1 stored, 2 supplied by the reader
  size_t key_size;
};

std::string mode_name(const Mode& m) {
  return std::string(m.cipher == EncryptionCipher::kAesGcm ? "gcm" : "ctr") +
         (m.plaintext_footer ? "_plain" : "_enc") + (m.column_keys ? "_columns" : "_uniform") + "_aad" +
         std::to_string(m.aad) + "_k" + std::to_string(m.key_size);
}

class RoundTrip : public ::testing::TestWithParam<Mode> {};

TEST_P(RoundTrip, ReadsBackWithKeysAndFailsWithoutThem) {
  const Mode m = GetParam();
  EncryptionOptions encryption;
  encryption.cipher = m.cipher;
  encryption.plaintext_footer = m.plaintext_footer;
  encryption.footer_key = key_of(1, m.key_size);
  encryption.footer_key_metadata = "footer";
  if (m.column_keys) {
    encryption.columns["id"] = ColumnEncryption{key_of(40, m.key_size), "id-key"};
    encryption.columns["name"] = ColumnEncryption{key_of(80, m.key_size), "name-key"};
  }
  if (m.aad > 0) {
    encryption.aad_prefix = "table/part-0001";
    encryption.store_aad_prefix = m.aad == 1;
  }
  const std::string path = write_file(mode_name(m) + ".parquet", encryption);

  ReaderOptions options;
  options.decryption.footer_key = encryption.footer_key;
  if (m.column_keys) {
    options.decryption.column_keys["id"] = encryption.columns["id"].key;
    options.decryption.column_keys["name"] = encryption.columns["name"].key;
  }
  if (m.aad == 2) options.decryption.aad_prefix = "table/part-0001";
  expect_values(FileReader::open(path, options)->read_all(), {"id", "name", "score"});

  // Streamed from the local file in windows smaller than a header module
  // (1 byte), than a page (100) and holding several pages (4096): every
  // header and page module is read whole however the windows cut it.
  ReaderOptions unwindowed = options;
  unwindowed.window_above = -1;
  unwindowed.batch_size = 64;
  auto whole_chunks = FileReader::open(path, unwindowed);
  expect_values(streamed(*whole_chunks), {"id", "name", "score"});
  for (int64_t window : {int64_t(1), int64_t(100), int64_t(4096)}) {
    SCOPED_TRACE("window_bytes " + std::to_string(window));
    ReaderOptions windowed = options;
    windowed.window_above = 0;
    windowed.window_bytes = window;
    windowed.batch_size = 64;  // streams the 1000-row group
    auto reader = FileReader::open(path, windowed);
    expect_values(streamed(*reader), {"id", "name", "score"});
    // Several windows per chunk of ten pages, where whole chunks are one read each.
    EXPECT_GT(reader->stats().read_calls, whole_chunks->stats().read_calls + (window < 1000 ? 3 * 10 : 3));
  }

  // The same keys through a retriever, by key metadata.
  ReaderOptions by_metadata;
  by_metadata.decryption.key_retriever = [&](const std::string& metadata) -> std::string {
    if (metadata == "footer") return encryption.footer_key;
    if (metadata == "id-key") return encryption.columns["id"].key;
    if (metadata == "name-key") return encryption.columns["name"].key;
    return {};
  };
  by_metadata.decryption.aad_prefix = options.decryption.aad_prefix;
  expect_values(FileReader::open(path, by_metadata)->read_all(), {"id", "name", "score"});

  // Rows 250..259 through the (encrypted) offset index: one page read of ten.
  auto reader = FileReader::open(path, options);
  const RowRange range{250, 260};
  RecordBatch part = reader->read_row_group(0, std::span<const RowRange>(&range, 1));
  ASSERT_EQ(part.num_rows, 10);
  EXPECT_EQ(Row(&part, 0)[0].as_int64(), 250 * 7);
  EXPECT_EQ(Row(&part, 9)[2].as_double(), 259 * 0.25);
  EXPECT_GE(reader->stats().pages_skipped, 9 * 3);

  // Pruning with the encrypted page index and Bloom filter.
  FilteredScanOptions scan_options;
  scan_options.decryption = options.decryption;
  scan_options.filter = ColumnRef("id") == Literal(int64_t(7 * 613));
  auto scan = FilteredScan::open(path, scan_options);
  RecordBatch batch;
  int64_t found = 0;
  while (scan->next(batch)) {
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      EXPECT_EQ(Row(&batch, r)[0].as_int64(), 7 * 613);
      EXPECT_EQ(Row(&batch, r)[1].as_string(), name_of(613));
      ++found;
    }
  }
  EXPECT_EQ(found, 1);
  EXPECT_EQ(scan->stats().rows_after_page_index, 100);  // the one page holding 613
  FilteredScanOptions absent = scan_options;
  absent.filter = ColumnRef("id") == Literal(int64_t(5));  // inside [min, max], not a multiple of 7
  auto pruned = FilteredScan::open(path, absent);
  EXPECT_FALSE(pruned->next(batch));
  EXPECT_EQ(pruned->stats().row_groups_pruned_bloom, 1);

  // Without keys: an encrypted footer is refused; a plaintext one shows the
  // schema and the clear column, and refuses the encrypted ones by name.
  ReaderOptions no_keys;
  no_keys.decryption.aad_prefix = options.decryption.aad_prefix;
  if (!m.plaintext_footer) {
    EXPECT_THROW(FileReader::open(path, no_keys), Error);
  } else {
    auto plain = FileReader::open(path, no_keys);
    EXPECT_EQ(plain->schema().num_columns(), 3u);
    EXPECT_EQ(plain->metadata().num_rows, kRows);
    if (m.column_keys) {
      ReaderOptions clear_only = no_keys;
      clear_only.columns = {"score"};
      expect_values(FileReader::open(path, clear_only)->read_all(), {"score"});
    }
    try {
      plain->read_all();
      ADD_FAILURE() << "read an encrypted column without its key";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
      EXPECT_NE(e.message().find("is encrypted and no key was given"), std::string::npos) << e.what();
      EXPECT_FALSE(e.where().column.empty()) << e.what();
    }
  }

  // A wrong column key, or a missing / wrong AAD prefix, is a GCM failure naming what failed.
  if (m.column_keys) {
    ReaderOptions wrong = options;
    wrong.decryption.column_keys["name"] = key_of(81, m.key_size);
    try {
      FileReader::open(path, wrong)->read_all();
      ADD_FAILURE();
    } catch (const Error& e) {
      EXPECT_NE(e.message().find("AES-GCM tag mismatch in column metadata"), std::string::npos) << e.what();
      EXPECT_EQ(e.where().column, "name") << e.what();
      EXPECT_EQ(e.where().row_group, 0) << e.what();
    }
  }
  if (m.aad == 2) {
    ReaderOptions missing = options;
    missing.decryption.aad_prefix.reset();
    try {
      FileReader::open(path, missing)->read_all();
      ADD_FAILURE();
    } catch (const Error& e) {
      EXPECT_NE(e.message().find("AAD prefix"), std::string::npos) << e.what();
    }
    ReaderOptions other = options;
    other.decryption.aad_prefix = "table/part-0002";  // a file renamed or swapped in
    EXPECT_THROW(FileReader::open(path, other)->read_all(), Error);
  }
}

std::vector<Mode> all_modes() {
  std::vector<Mode> modes;
  for (EncryptionCipher cipher : {EncryptionCipher::kAesGcm, EncryptionCipher::kAesGcmCtr})
    for (bool plaintext_footer : {false, true})
      for (bool column_keys : {false, true})
        for (int aad : {0, 1, 2}) modes.push_back(Mode{cipher, plaintext_footer, column_keys, aad, 16});
  modes.push_back(Mode{EncryptionCipher::kAesGcm, false, true, 1, 24});
  modes.push_back(Mode{EncryptionCipher::kAesGcm, true, true, 0, 32});
  modes.push_back(Mode{EncryptionCipher::kAesGcmCtr, false, false, 0, 32});
  return modes;
}

INSTANTIATE_TEST_SUITE_P(Modes, RoundTrip, ::testing::ValuesIn(all_modes()),
                         [](const ::testing::TestParamInfo<Mode>& info) { return mode_name(info.param); });

std::vector<uint8_t> file_bytes(const std::string& path) { return testing::read_bytes(path); }

// The byte ranges (header module + body module) of a chunk's pages, walked by
// their length prefixes.
std::vector<std::pair<int64_t, int64_t>> page_modules(const std::vector<uint8_t>& bytes, int64_t start,
                                                      int64_t size) {
  std::vector<std::pair<int64_t, int64_t>> pages;
  int64_t at = start;
  while (at < start + size) {
    const int64_t header = 4 + int64_t(bits::load<uint32_t>(bytes.data() + at));
    const int64_t body = 4 + int64_t(bits::load<uint32_t>(bytes.data() + at + header));
    pages.emplace_back(at, header + body);
    at += header + body;
  }
  return pages;
}

TEST(EncryptedPages, SwappedTamperedOrTruncatedPagesFailByName) {
  EncryptionOptions encryption;
  encryption.footer_key = key_of(1);
  const std::string path = write_file("pages.parquet", encryption);
  ReaderOptions options;
  options.decryption.footer_key = encryption.footer_key;
  options.columns = {"id"};
  auto reader = FileReader::open(path, options);
  const ColumnMetaData& meta = *reader->metadata().row_groups[0].columns[0].meta_data;
  const std::vector<uint8_t> good = file_bytes(path);
  const auto pages = page_modules(good, meta.data_page_offset, meta.total_compressed_size);
  ASSERT_EQ(pages.size(), 10u);
  ASSERT_EQ(pages[1].second, pages[2].second);  // same-size pages of fixed-width values

  // Each altered file fails the same way read whole from memory and
  // streamed from a local file in 100-byte windows.
  int altered = 0;
  auto error_of = [&](std::vector<uint8_t> bytes) -> Error {
    std::optional<Error> whole, windowed;
    try {
      auto source = std::make_shared<MemorySource>(bytes, "pages.parquet");
      FileReader::open(source, options)->read_all();
    } catch (const Error& e) {
      whole = e;
    }
    const std::filesystem::path file =
        testing::temp_dir() / ("altered" + std::to_string(altered++) + ".parquet");
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    try {
      ReaderOptions in_windows = options;
      in_windows.window_above = 0;
      in_windows.window_bytes = 100;
      in_windows.batch_size = 64;
      streamed(*FileReader::open(file.string(), in_windows));
    } catch (const Error& e) {
      windowed = e;
    }
    if (!whole || !windowed) {
      ADD_FAILURE() << "no error" << (whole ? " streamed in windows" : " read whole");
      return Error(ErrorCode::kInternal, "");
    }
    EXPECT_EQ(windowed->message(), whole->message());
    EXPECT_EQ(windowed->where().page, whole->where().page);
    EXPECT_EQ(windowed->where().column, whole->where().column);
    return *whole;
  };

  std::vector<uint8_t> swapped = good;
  std::copy_n(good.begin() + pages[2].first, pages[2].second, swapped.begin() + pages[1].first);
  std::copy_n(good.begin() + pages[1].first, pages[1].second, swapped.begin() + pages[2].first);
  Error swap = error_of(swapped);
  EXPECT_EQ(swap.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(swap.message(),
            "AES-GCM tag mismatch in data page header: wrong key, wrong or missing AAD prefix, or the "
            "bytes were altered or moved");
  EXPECT_EQ(swap.where().column, "id");
  EXPECT_EQ(swap.where().row_group, 0);
  EXPECT_EQ(swap.where().page, 1);
  EXPECT_EQ(swap.where().file, "pages.parquet");

  std::vector<uint8_t> tampered = good;
  tampered[size_t(pages[3].first + pages[3].second - 5)] ^= 1;  // inside page 3's tag
  Error tamper = error_of(tampered);
  EXPECT_NE(tamper.message().find("AES-GCM tag mismatch in data page:"), std::string::npos) << tamper.what();
  EXPECT_EQ(tamper.where().page, 3);

  std::vector<uint8_t> footer_tampered = good;
  footer_tampered[footer_tampered.size() - 20] ^= 1;  // inside the encrypted footer module
  Error footer = error_of(footer_tampered);
  EXPECT_NE(footer.message().find("AES-GCM tag mismatch in footer"), std::string::npos) << footer.what();

  // Truncations anywhere: an error, never a crash (ASan).
  for (size_t cut : {size_t(100), good.size() / 2, good.size() - 9, good.size() - 1}) {
    std::vector<uint8_t> truncated(good.begin(), good.begin() + std::ptrdiff_t(cut));
    EXPECT_THROW(
        {
          auto source = std::make_shared<MemorySource>(std::move(truncated), "cut.parquet");
          FileReader::open(source, options)->read_all();
        },
        Error)
        << cut;
  }
}

}  // namespace
}  // namespace parquetry
