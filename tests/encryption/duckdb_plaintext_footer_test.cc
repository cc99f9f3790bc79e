// A plaintext-footer file parquetry writes, with some columns encrypted and
// the others in the clear, opens in DuckDB (which has no keys), and DuckDB
// reads the clear columns to the values written; asked for an encrypted
// column it fails instead of returning ciphertext as values. DuckDB (1.5.6)
// refuses AES_GCM_CTR_V1 files as a whole, with a message the test pins so a
// DuckDB that learns CTR shows up here. DuckDB runs
// through bench/peers/duckdb_columns.mjs; without node or the peer the test
// is skipped.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parquetry/array_builder.h"
#include "parquetry/encryption.h"
#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "parquetry/record.h"
#include "parquetry/writer.h"
#include "test_support.h"

namespace parquetry {
namespace {

constexpr int64_t kRows = 2500;

std::string name_of(int64_t i) { return "city-" + std::to_string(i % 53); }

std::string write_mixed(const std::string& file, EncryptionCipher cipher, bool aad_prefix,
                        bool store_prefix) {
  BatchSchema schema;
  schema.fields.push_back(Field{"id", DataType::make(TypeId::kInt64), false, -1, {}});
  schema.fields.push_back(Field{"name", DataType::make(TypeId::kString), true, -1, {}});
  schema.fields.push_back(Field{"score", DataType::make(TypeId::kFloat64), false, -1, {}});
  schema.fields.push_back(Field{"secret", DataType::make(TypeId::kString), false, -1, {}});
  ArrayBuilder id(schema.fields[0]), name(schema.fields[1]), score(schema.fields[2]),
      secret(schema.fields[3]);
  for (int64_t i = 0; i < kRows; ++i) {
    id.append_int(i * 11 - 500);
    if (i % 9 == 8) {
      name.append_null();
    } else {
      name.append_bytes(name_of(i));
    }
    score.append_double(double(i) * 0.5);
    secret.append_bytes("secret-" + std::to_string(i));
  }
  RecordBatch batch;
  batch.schema = std::make_shared<const BatchSchema>(schema);
  batch.num_rows = kRows;
  batch.columns = {id.finish(), name.finish(), score.finish(), secret.finish()};

  WriterOptions options;
  options.row_group_rows = 1000;  // three row groups
  options.page_rows = 200;
  options.columns["name"].bloom_filter = true;
  EncryptionOptions encryption;
  encryption.footer_key = std::string(16, '\x11');
  encryption.footer_key_metadata = "footer";
  encryption.cipher = cipher;
  encryption.plaintext_footer = true;
  encryption.columns["score"] = ColumnEncryption{std::string(32, '\x22'), "score-key"};
  encryption.columns["secret"] = ColumnEncryption{};  // the footer key
  if (aad_prefix) encryption.aad_prefix = file;
  encryption.store_aad_prefix = store_prefix;
  options.encryption = encryption;
  const std::string path = (testing::temp_dir() / file).string();
  auto writer = FileWriter::open(path, schema, options);
  writer->write(batch);
  writer->close();
  return path;
}

std::vector<std::string> duckdb_columns(const std::string& path, const std::string& columns, int* status) {
  return testing::run_peer("duckdb_columns.mjs", testing::shell_quote(path) + " " + columns, status);
}

TEST(EncryptedDuckDB, DuckDBReadsTheClearColumnsOfAPlaintextFooterFile) {
  if (!testing::duckdb_peer_available())
    GTEST_SKIP() << "node or the DuckDB peer is not installed (scripts/install-peers.sh)";
  struct Mode {
    const char* file;
    EncryptionCipher cipher;
    bool aad_prefix;
    bool store_prefix;
  };
  for (const Mode& mode : {Mode{"mixed_gcm.parquet", EncryptionCipher::kAesGcm, false, true},
                           Mode{"mixed_gcm_aad.parquet", EncryptionCipher::kAesGcm, true, true},
                           Mode{"mixed_gcm_aad_not_stored.parquet", EncryptionCipher::kAesGcm, true, false},
                           Mode{"mixed_ctr.parquet", EncryptionCipher::kAesGcmCtr, false, true}}) {
    SCOPED_TRACE(mode.file);
    const std::string path = write_mixed(mode.file, mode.cipher, mode.aad_prefix, mode.store_prefix);
    // The file really is encrypted: without keys parquetry reads id and name but not score.
    ReaderOptions no_keys;
    no_keys.columns = {"score"};
    EXPECT_THROW(FileReader::open(path, no_keys)->read_all(), Error);

    int status = -1;
    const std::vector<std::string> lines = duckdb_columns(path, "id name", &status);
    if (mode.cipher == EncryptionCipher::kAesGcmCtr) {
      EXPECT_NE(status, 0);
      ASSERT_FALSE(lines.empty());
      EXPECT_NE(lines[0].find("is encrypted with AES_GCM_CTR_V1, but only AES_GCM_V1 is supported"),
                std::string::npos)
          << lines[0];
      continue;
    }
    ASSERT_EQ(status, 0) << (lines.empty() ? "" : lines.back());
    ASSERT_EQ(lines.size(), size_t(kRows));
    for (int64_t i = 0; i < kRows; ++i) {
      const std::string name = i % 9 == 8 ? "null" : "\"" + name_of(i) + "\"";
      ASSERT_EQ(lines[size_t(i)], "{\"id\":" + std::to_string(i * 11 - 500) + ",\"name\":" + name + "}") << i;
    }

    // An encrypted column: DuckDB fails (it has no keys) rather than returning ciphertext.
    for (const char* encrypted : {"score", "secret"}) {
      SCOPED_TRACE(encrypted);
      int failed = 0;
      const std::vector<std::string> refused = duckdb_columns(path, encrypted, &failed);
      EXPECT_NE(failed, 0);
      ASSERT_FALSE(refused.empty());
      EXPECT_EQ(refused.back().rfind("duckdb: ", 0), 0u) << refused.back();
    }
  }
}

}  // namespace
}  // namespace parquetry
