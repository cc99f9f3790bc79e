// Every encrypted file of parquet-testing reads to the values its generator
// wrote (data/README.md: the keys; the writer is Arrow's / parquet-java's
// encryption test generator), with keys given directly, through a key
// retriever, with the AAD prefix supplied, and through the key tools; wrong
// keys, a missing prefix and altered bytes fail by name.
#include <gtest/gtest.h>

#include "parquetry/encryption.h"
#include "parquetry/error.h"
#include "parquetry/filtered_scan.h"
#include "parquetry/io.h"
#include "parquetry/predicate.h"
#include "parquetry/reader.h"
#include "parquetry/record.h"
#include "test_support.h"

namespace parquetry {
namespace {

// data/README.md lists these keys as digit sequences; the files hold their
// ASCII digits (as Arrow's and parquet-java's test utilities use them).
const std::string kFooterKey = "0123456789012345";
const std::string kDoubleKey = "1234567890123450";
const std::string kFloatKey = "1234567890123451";

std::string path_of(const std::string& name) { return testing::parquet_testing("data/" + name).string(); }

ReaderOptions direct_keys() {
  ReaderOptions options;
  options.decryption.footer_key = kFooterKey;
  options.decryption.column_keys["double_field"] = kDoubleKey;
  options.decryption.column_keys["float_field"] = kFloatKey;
  return options;
}

// AES-256 files (data/aes256): key ids kf, kc1..kc8 through a retriever.
ReaderOptions aes256_retriever() {
  ReaderOptions options;
  options.decryption.key_retriever = [](const std::string& id) -> std::string {
    if (id == "kf") return "01234567890123456789012345678901";
    if (id.size() == 3 && id.starts_with("kc") && id[2] >= '1' && id[2] <= '8')
      return "1234567890123456789012345678901" + std::string(1, char(id[2] + 1));
    return {};
  };
  return options;
}

// The 50 rows of the generator: row i holds
//   boolean i % 2 == 0, int32 (time millis) i, int64 list [2i, 2i + 1] * 10^12,
//   INT96 words (i, i + 1, i + 2), float i * 1.1f, double i * 1.1111111,
//   ba "parquet%03d" on even rows (null on odd), flba 10 bytes of value i.
void expect_generator_rows(const std::vector<RecordBatch>& batches, const std::vector<std::string>& columns) {
  int64_t i = 0;
  for (const RecordBatch& batch : batches) {
    for (int64_t r = 0; r < batch.num_rows; ++r, ++i) {
      Row row(&batch, r);
      for (const std::string& column : columns) {
        SCOPED_TRACE(column + " row " + std::to_string(i));
        ValueRef value = row[column];
        if (column == "boolean_field") {
          EXPECT_EQ(value.as_bool(), i % 2 == 0);
        }
        if (column == "int32_field") {
          EXPECT_EQ(value.as_int64(), i);
        }
        if (column == "int64_field") {
          ASSERT_EQ(value.size(), 2);
          EXPECT_EQ(value[int64_t(0)].as_int64(), 2 * i * 1000000000000LL);
          EXPECT_EQ(value[int64_t(1)].as_int64(), (2 * i + 1) * 1000000000000LL);
        }
        if (column == "int96_field") {
          // Julian day i + 2, nanoseconds of the day i + (i + 1) << 32. Day 2
          // lies far before 1677, so the nanoseconds since the epoch wrap in
          // 64 bits, as every INT96 reader's conversion does.
          const uint64_t nanos_of_day = uint64_t(i) + (uint64_t(i + 1) << 32);
          const uint64_t days = uint64_t(i + 2) - uint64_t(2440588);
          EXPECT_EQ(value.as_int64(), int64_t(days * 86400000000000ULL + nanos_of_day));
        }
        if (column == "float_field") {
          EXPECT_EQ(float(value.as_double()), float(i) * 1.1f);
        }
        if (column == "double_field") {
          EXPECT_EQ(value.as_double(), double(i) * 1.1111111);
        }
        if (column == "ba_field") {
          if (i % 2 == 0) {
            char expected[16];
            std::snprintf(expected, sizeof expected, "parquet%03d", int(i));
            EXPECT_EQ(value.as_bytes(), expected);
          } else {
            EXPECT_TRUE(value.is_null());
          }
        }
        if (column == "flba_field") {
          EXPECT_EQ(value.as_bytes(), std::string(10, char(i)));
        }
      }
    }
  }
  EXPECT_EQ(i, 50);
}

const std::vector<std::string> kAllColumns = {"boolean_field", "int32_field", "int64_field", "int96_field",
                                              "float_field",   "double_field", "ba_field",   "flba_field"};

Error error_of(const std::string& path, const ReaderOptions& options) {
  try {
    FileReader::open(path, options)->read_all();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error reading " << path;
  return Error(ErrorCode::kInternal, "");
}

TEST(EncryptedFiles, EveryFileReadsToTheGeneratorValues) {
  for (const char* name : {"encrypt_columns_and_footer.parquet.encrypted",
                           "encrypt_columns_plaintext_footer.parquet.encrypted", "uniform_encryption.parquet.encrypted"}) {
    SCOPED_TRACE(name);
    expect_generator_rows(FileReader::open(path_of(name), direct_keys())->read_all(), kAllColumns);
  }
  // The Bloom filter file comes from another generator: 2,000 rows of
  // double_field = i + 0.5, float_field = i + 0.25, int32_field = i, name = "name_<i>".
  int64_t i = 0;
  for (const RecordBatch& batch :
       FileReader::open(path_of("encrypt_columns_and_footer_bloom_filter.parquet.encrypted"), direct_keys())
           ->read_all()) {
    for (int64_t r = 0; r < batch.num_rows; ++r, ++i) {
      Row row(&batch, r);
      ASSERT_EQ(row["double_field"].as_double(), double(i) + 0.5);
      ASSERT_EQ(row["float_field"].as_double(), double(i) + 0.25);
      ASSERT_EQ(row["int32_field"].as_int64(), i);
      ASSERT_EQ(row["name"].as_bytes(), "name_" + std::to_string(i));
    }
  }
  EXPECT_EQ(i, 2000);
  ReaderOptions with_prefix = direct_keys();
  with_prefix.decryption.aad_prefix = "tester";
  expect_generator_rows(
      FileReader::open(path_of("encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted"), with_prefix)
          ->read_all(),
      kAllColumns);
  for (const char* name : {"aes256/encrypt_columns_and_footer.parquet.encrypted",
                           "aes256/encrypt_columns_and_footer_ctr.parquet.encrypted"}) {
    SCOPED_TRACE(name);
    expect_generator_rows(FileReader::open(path_of(name), aes256_retriever())->read_all(), kAllColumns);
  }
  ReaderOptions aes256_prefix = aes256_retriever();
  aes256_prefix.decryption.aad_prefix = "tester";
  expect_generator_rows(
      FileReader::open(path_of("aes256/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted"),
                       aes256_prefix)
          ->read_all(),
      kAllColumns);
}

TEST(EncryptedFiles, KeysByKeyMetadataThroughARetriever) {
  ReaderOptions options;
  options.decryption.key_retriever = [](const std::string& id) -> std::string {
    if (id == "kf") return kFooterKey;
    if (id == "kc1") return kDoubleKey;
    if (id == "kc2") return kFloatKey;
    return {};
  };
  expect_generator_rows(FileReader::open(path_of("encrypt_columns_and_footer.parquet.encrypted"), options)->read_all(),
                        kAllColumns);
}

TEST(EncryptedFiles, PlaintextFooterWithoutKeys) {
  const std::string path = path_of("encrypt_columns_plaintext_footer.parquet.encrypted");
  auto reader = FileReader::open(path, ReaderOptions{});
  EXPECT_EQ(reader->schema().num_columns(), 8u);
  EXPECT_EQ(reader->metadata().num_rows, 50);
  // The clear columns read as usual.
  ReaderOptions clear;
  clear.columns = {"boolean_field", "int32_field", "int64_field", "int96_field", "ba_field", "flba_field"};
  expect_generator_rows(FileReader::open(path, clear)->read_all(), clear.columns);
  // The encrypted ones fail by name, only when read.
  ReaderOptions secret;
  secret.columns = {"double_field"};
  Error e = error_of(path, secret);
  EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(e.message(), "column double_field is encrypted and no key was given for it (key metadata \"kc1\")");
  EXPECT_EQ(e.where().column, "double_field");
  EXPECT_EQ(e.where().row_group, 0);
  // With only the footer key: signature checked, the float column still unreadable.
  ReaderOptions footer_only;
  footer_only.decryption.footer_key = kFooterKey;
  footer_only.columns = {"float_field"};
  EXPECT_NE(error_of(path, footer_only).message().find("float_field is encrypted and no key"), std::string::npos);
}

TEST(EncryptedFiles, WrongKeysAndPrefixesFailClearly) {
  ReaderOptions wrong_footer = direct_keys();
  wrong_footer.decryption.footer_key = "0123456789012346";
  Error footer = error_of(path_of("encrypt_columns_and_footer.parquet.encrypted"), wrong_footer);
  EXPECT_EQ(footer.code(), ErrorCode::kCorrupt);
  EXPECT_NE(footer.message().find("AES-GCM tag mismatch in footer"), std::string::npos) << footer.what();

  ReaderOptions wrong_column = direct_keys();
  wrong_column.decryption.column_keys["float_field"] = kDoubleKey;
  Error column = error_of(path_of("encrypt_columns_and_footer.parquet.encrypted"), wrong_column);
  EXPECT_NE(column.message().find("AES-GCM tag mismatch in column metadata"), std::string::npos) << column.what();
  EXPECT_EQ(column.where().column, "float_field");

  Error no_footer_key = error_of(path_of("uniform_encryption.parquet.encrypted"), ReaderOptions{});
  EXPECT_EQ(no_footer_key.code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(no_footer_key.message().find("no footer key"), std::string::npos);

  const std::string no_aad = path_of("encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted");
  Error missing = error_of(no_aad, direct_keys());
  EXPECT_EQ(missing.code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(missing.message().find("AAD prefix it does not store"), std::string::npos) << missing.what();
  ReaderOptions wrong_prefix = direct_keys();
  wrong_prefix.decryption.aad_prefix = "tester2";
  EXPECT_NE(error_of(no_aad, wrong_prefix).message().find("AES-GCM tag mismatch in footer"), std::string::npos);

  ReaderOptions wrong_signature;
  wrong_signature.decryption.footer_key = "0123456789012346";
  wrong_signature.columns = {"int32_field"};
  Error signature = error_of(path_of("encrypt_columns_plaintext_footer.parquet.encrypted"), wrong_signature);
  EXPECT_NE(signature.message().find("plaintext footer signature mismatch (AES-GCM tag)"), std::string::npos)
      << signature.what();
}

TEST(EncryptedFiles, AlteredBytesFailByModuleNeverCrash) {
  const std::string name = "encrypt_columns_plaintext_footer.parquet.encrypted";
  const std::vector<uint8_t> good = testing::read_bytes(path_of(name));
  auto reader = FileReader::open(path_of(name), direct_keys());
  const ColumnChunk& chunk = reader->metadata().row_groups[0].columns[size_t(reader->schema().find_column("double_field")->index)];
  const int64_t page = chunk.meta_data->dictionary_page_offset.value_or(chunk.meta_data->data_page_offset);
  auto read = [&](std::vector<uint8_t> bytes) {
    auto source = std::make_shared<MemorySource>(std::move(bytes), name);
    FileReader::open(source, direct_keys())->read_all();
  };
  // A byte inside the first page header module of double_field.
  std::vector<uint8_t> page_tampered = good;
  page_tampered[size_t(page + 20)] ^= 0x10;
  try {
    read(page_tampered);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("AES-GCM tag mismatch in dictionary page header"), std::string::npos) << e.what();
    EXPECT_EQ(e.where().column, "double_field");
    EXPECT_EQ(e.where().page, 0);
    EXPECT_EQ(e.where().file, name);
  }
  // The plaintext footer: flip a byte of created_by (inside the signed part).
  std::vector<uint8_t> footer_tampered = good;
  const std::string created_by = *reader->metadata().created_by;
  auto at = std::search(footer_tampered.begin(), footer_tampered.end(), created_by.begin(), created_by.end());
  ASSERT_NE(at, footer_tampered.end());
  *at ^= 0x01;
  try {
    read(footer_tampered);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("plaintext footer signature mismatch"), std::string::npos) << e.what();
  }
  // Every truncation of the encrypted-footer file: an error, never a crash.
  const std::vector<uint8_t> sealed = testing::read_bytes(path_of("encrypt_columns_and_footer.parquet.encrypted"));
  for (size_t cut = 1; cut < sealed.size(); cut += 97) {
    std::vector<uint8_t> truncated(sealed.begin(), sealed.begin() + std::ptrdiff_t(cut));
    EXPECT_THROW(
        {
          auto source = std::make_shared<MemorySource>(std::move(truncated), "cut");
          FileReader::open(source, direct_keys())->read_all();
        },
        Error);
  }
}

TEST(EncryptedFiles, BloomFiltersAndStatisticsOfEncryptedColumnsPrune) {
  FilteredScanOptions options;
  options.decryption = direct_keys().decryption;
  // This file's generator wrote double_field = i + 0.5, float_field = i + 0.25,
  // int32_field = i, name = "name_<i>" for i < 2000, in one row group.
  options.filter = ColumnRef("double_field") == Literal(2.6);  // inside [min, max], absent
  auto scan = FilteredScan::open(path_of("encrypt_columns_and_footer_bloom_filter.parquet.encrypted"), options);
  RecordBatch batch;
  EXPECT_FALSE(scan->next(batch));
  EXPECT_EQ(scan->stats().row_groups_pruned_bloom, 1);
  EXPECT_EQ(scan->stats().row_groups_pruned_statistics, 0);

  options.filter = ColumnRef("double_field") == Literal(7.5);
  auto hit = FilteredScan::open(path_of("encrypt_columns_and_footer_bloom_filter.parquet.encrypted"), options);
  int64_t rows = 0;
  while (hit->next(batch)) {
    for (int64_t r = 0; r < batch.num_rows; ++r, ++rows) EXPECT_EQ(Row(&batch, r)["int32_field"].as_int64(), 7);
  }
  EXPECT_EQ(rows, 1);

  options.filter = ColumnRef("float_field") > Literal(1000.0);  // the decrypted statistics exclude it
  auto stats = FilteredScan::open(path_of("encrypt_columns_and_footer.parquet.encrypted"), options);
  EXPECT_FALSE(stats->next(batch));
  EXPECT_EQ(stats->stats().row_groups_pruned_statistics, 1);
}

}  // namespace
}  // namespace parquetry
