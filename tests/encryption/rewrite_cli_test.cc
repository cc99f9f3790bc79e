// `parquetry rewrite` decrypts, encrypts and re-keys: every parquet-testing
// encrypted file decrypts to a plaintext file with the same schema and
// values, and re-encrypts as it was (keys, algorithm, footer mode, AAD
// prefix) to the same schema, values and per-column encryption, a
// plaintext file encrypts (with its page index and Bloom filters encrypted
// too) and reads back only with the new keys, and a re-keyed file no longer
// opens with the old keys.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "parquetry/array_builder.h"
#include "parquetry/encryption.h"
#include "parquetry/error.h"
#include "parquetry/filtered_scan.h"
#include "parquetry/predicate.h"
#include "parquetry/reader.h"
#include "parquetry/record.h"
#include "parquetry/util/bit_util.h"
#include "parquetry/writer.h"
#include "test_support.h"

namespace parquetry {
namespace {

// parquet-testing's keys (data/README.md) are these ASCII digit strings.
const std::string kFooterKey = "0123456789012345";
const std::string kDoubleKey = "1234567890123450";
const std::string kFloatKey = "1234567890123451";

std::string hex(const std::string& bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

RunResult run_cli(const std::vector<std::string>& args) {
  static int counter = 0;
  const std::string err_file =
      (testing::temp_dir() / ("rewrite_stderr" + std::to_string(counter++))).string();
  std::string command = testing::shell_quote(PARQUETRY_CLI_PATH);
  for (const std::string& arg : args) command += " " + testing::shell_quote(arg);
  command += " 2>" + testing::shell_quote(err_file);
  RunResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    ADD_FAILURE() << "popen failed: " << command;
    return result;
  }
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.err = testing::read_text(err_file);
  return result;
}

std::string data_path(const std::string& name) { return testing::parquet_testing("data/" + name).string(); }
std::string out_path(const std::string& name) { return (testing::temp_dir() / name).string(); }

// Every row of the file as JSON (what `parquetry cat` prints): equal lists
// mean equal values, column for column.
std::vector<std::string> rows_of(const std::string& path, const ReaderOptions& options = {}) {
  std::vector<std::string> rows;
  for (const RecordBatch& batch : FileReader::open(path, options)->read_all()) {
    for (int64_t r = 0; r < batch.num_rows; ++r) rows.push_back(Row(&batch, r).to_json());
  }
  return rows;
}

Error error_reading(const std::string& path, const ReaderOptions& options) {
  try {
    FileReader::open(path, options)->read_all();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error reading " << path;
  return Error(ErrorCode::kInternal, "");
}

ReaderOptions parquet_testing_keys() {
  ReaderOptions options;
  options.decryption.footer_key = kFooterKey;
  options.decryption.column_keys["double_field"] = kDoubleKey;
  options.decryption.column_keys["float_field"] = kFloatKey;
  return options;
}

std::vector<std::string> parquet_testing_key_flags() {
  return {"--footer-key", hex(kFooterKey),
          "--column-key", "double_field=" + hex(kDoubleKey),
          "--column-key", "float_field=" + hex(kFloatKey)};
}

// data/aes256: the footer key and one key per column (kc1..kc8, README order).
const std::vector<std::pair<std::string, char>> kAes256Columns = {{"double_field", '2'},
                                                                  {"float_field", '3'},
                                                                  {"boolean_field", '4'},
                                                                  {"int32_field", '5'},
                                                                  {"ba_field", '6'},
                                                                  {"flba_field", '7'},
                                                                  {"int64_field.list.element", '8'},
                                                                  {"int96_field", '9'}};
const std::string kAes256FooterKey = "01234567890123456789012345678901";
std::string aes256_column_key(char last) { return "1234567890123456789012345678901" + std::string(1, last); }

ReaderOptions aes256_keys() {
  ReaderOptions options;
  options.decryption.footer_key = kAes256FooterKey;
  for (const auto& [path, last] : kAes256Columns)
    options.decryption.column_keys[path] = aes256_column_key(last);
  return options;
}

std::vector<std::string> aes256_key_flags() {
  std::vector<std::string> flags = {"--footer-key", hex(kAes256FooterKey)};
  for (const auto& [path, last] : kAes256Columns) {
    flags.push_back("--column-key");
    flags.push_back(path + "=" + hex(aes256_column_key(last)));
  }
  return flags;
}

// No trace of encryption in a file: plaintext footer without algorithm, no chunk crypto metadata.
void expect_plaintext(const std::string& path) {
  auto reader = FileReader::open(path);
  EXPECT_FALSE(reader->metadata().encryption_algorithm.has_value()) << path;
  for (const RowGroup& group : reader->metadata().row_groups) {
    for (const ColumnChunk& chunk : group.columns) {
      EXPECT_FALSE(chunk.crypto_metadata) << path;
      EXPECT_FALSE(chunk.encrypted_column_metadata) << path;
      ASSERT_TRUE(chunk.meta_data) << path;
    }
  }
}

// `parquetry schema` (text, or --json with the file's path taken out) of a
// file read with the given key flags.
std::string schema_text(const std::string& path, const std::vector<std::string>& key_flags, bool json) {
  std::vector<std::string> args = {"schema", path};
  if (json) args.push_back("--json");
  args.insert(args.end(), key_flags.begin(), key_flags.end());
  RunResult run = run_cli(args);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const std::string quoted = "\"" + path + "\"";
  const size_t at = run.out.find(quoted);
  if (at != std::string::npos) run.out.replace(at, quoted.size(), "\"FILE\"");
  return run.out;
}

// How a file is encrypted, as one line: footer in the clear or not, the
// algorithm, whether the AAD prefix is stored or to be supplied, and each
// column's key (footer key, its own key by path, or none).
std::string encryption_layout(const std::string& path, const ReaderOptions& keys) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 12) return "short file";
  const std::string magic = bytes.substr(bytes.size() - 4);
  std::optional<EncryptionAlgorithm> algorithm;
  if (magic == "PARE") {
    const uint32_t length = bits::load<uint32_t>(bytes.data() + bytes.size() - 8);
    if (length > bytes.size() - 8) return "bad footer length";
    const auto* start = reinterpret_cast<const uint8_t*>(bytes.data()) + (bytes.size() - 8 - length);
    algorithm = decode_file_crypto_metadata(std::span<const uint8_t>(start, length)).encryption_algorithm;
  }
  const FileMetaData meta = FileReader::open(path, keys)->metadata();
  if (magic == "PAR1") algorithm = meta.encryption_algorithm;
  std::string out = magic == "PARE" ? "footer encrypted" : "footer in the clear";
  if (algorithm) {
    std::visit(
        [&](const auto& a) {
          out += std::is_same_v<std::decay_t<decltype(a)>, AesGcmV1> ? ", AES_GCM_V1" : ", AES_GCM_CTR_V1";
          out += a.aad_prefix ? ", prefix stored" : "";
          out += a.supply_aad_prefix.value_or(false) ? ", prefix supplied" : "";
        },
        algorithm->value);
  }
  for (const ColumnChunk& chunk : meta.row_groups.at(0).columns) {
    out += "; ";
    if (!chunk.crypto_metadata) {
      out += "clear";
    } else if (std::holds_alternative<EncryptionWithFooterKey>(chunk.crypto_metadata->value)) {
      out += "footer key";
    } else {
      const auto& own = std::get<EncryptionWithColumnKey>(chunk.crypto_metadata->value);
      out += "own key";
      for (const std::string& part : own.path_in_schema) out += " " + part;
    }
  }
  return out;
}

// The rewrite options that encrypt an output as `key_flags` decrypt the
// input (footer key, column keys, AAD prefix to be supplied).
std::vector<std::string> encrypting_flags(const std::vector<std::string>& key_flags) {
  std::vector<std::string> out;
  for (size_t i = 0; i + 1 < key_flags.size(); i += 2) {
    if (key_flags[i] == "--footer-key") out.insert(out.end(), {"--encrypt-footer-key", key_flags[i + 1]});
    if (key_flags[i] == "--column-key") out.insert(out.end(), {"--encrypt-column-key", key_flags[i + 1]});
    if (key_flags[i] == "--aad-prefix")
      out.insert(out.end(), {"--encrypt-aad-prefix", key_flags[i + 1], "--no-store-aad-prefix"});
  }
  return out;
}

TEST(EncryptedRewrite, DecryptsEveryParquetTestingFileToTheSameValues) {
  struct Case {
    std::string name;
    std::vector<std::string> flags;
    ReaderOptions keys;
  };
  ReaderOptions with_prefix = parquet_testing_keys();
  with_prefix.decryption.aad_prefix = "tester";
  std::vector<std::string> prefix_flags = parquet_testing_key_flags();
  prefix_flags.insert(prefix_flags.end(), {"--aad-prefix", "tester"});
  ReaderOptions aes256_prefix = aes256_keys();
  aes256_prefix.decryption.aad_prefix = "tester";
  std::vector<std::string> aes256_prefix_flags = aes256_key_flags();
  aes256_prefix_flags.insert(aes256_prefix_flags.end(), {"--aad-prefix", "tester"});
  const std::vector<Case> cases = {
      {"encrypt_columns_and_footer.parquet.encrypted", parquet_testing_key_flags(), parquet_testing_keys()},
      {"encrypt_columns_plaintext_footer.parquet.encrypted", parquet_testing_key_flags(),
       parquet_testing_keys()},
      {"uniform_encryption.parquet.encrypted", {"--footer-key", hex(kFooterKey)}, parquet_testing_keys()},
      {"encrypt_columns_and_footer_bloom_filter.parquet.encrypted", parquet_testing_key_flags(),
       parquet_testing_keys()},
      {"encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", prefix_flags, with_prefix},
      {"aes256/encrypt_columns_and_footer.parquet.encrypted", aes256_key_flags(), aes256_keys()},
      {"aes256/encrypt_columns_and_footer_ctr.parquet.encrypted", aes256_key_flags(), aes256_keys()},
      {"aes256/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", aes256_prefix_flags,
       aes256_prefix},
  };
  int index = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string output = out_path("decrypted" + std::to_string(index++) + ".parquet");
    std::vector<std::string> args = {"rewrite", data_path(c.name), output};
    args.insert(args.end(), c.flags.begin(), c.flags.end());
    RunResult result = run_cli(args);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    expect_plaintext(output);
    // The plaintext twin, read without keys, holds the values the encrypted file holds.
    const std::vector<std::string> expected = rows_of(data_path(c.name), c.keys);
    const std::vector<std::string> decrypted = rows_of(output);
    EXPECT_EQ(decrypted, expected);
    // The schema is the input's, annotation for annotation.
    const std::string input_schema = schema_text(data_path(c.name), c.flags, false);
    const std::string input_json = schema_text(data_path(c.name), c.flags, true);
    ASSERT_FALSE(input_schema.empty());
    EXPECT_EQ(schema_text(output, {}, false), input_schema);
    EXPECT_EQ(schema_text(output, {}, true), input_json);
    EXPECT_EQ(FileReader::open(output)->metadata().schema,
              FileReader::open(data_path(c.name), c.keys)->metadata().schema);

    // Re-encrypted as the input was (same keys, algorithm, footer mode and
    // prefix handling): the same schema, values and encryption layout.
    const std::string again = out_path("reencrypted" + std::to_string(index) + ".parquet");
    std::vector<std::string> reencrypt = args;
    reencrypt[2] = again;
    const std::vector<std::string> encrypt = encrypting_flags(c.flags);
    reencrypt.insert(reencrypt.end(), encrypt.begin(), encrypt.end());
    if (c.name.find("_ctr") != std::string::npos)
      reencrypt.insert(reencrypt.end(), {"--encrypt-algorithm", "GCM-CTR"});
    if (c.name.find("plaintext_footer") != std::string::npos) reencrypt.push_back("--plaintext-footer");
    RunResult reencrypted = run_cli(reencrypt);
    ASSERT_EQ(reencrypted.exit_code, 0) << reencrypted.err;
    const std::string layout = encryption_layout(data_path(c.name), c.keys);
    EXPECT_NE(layout.find(", AES_GCM"), std::string::npos) << layout;
    EXPECT_EQ(encryption_layout(again, c.keys), layout);
    EXPECT_EQ(schema_text(again, c.flags, false), input_schema);
    EXPECT_EQ(schema_text(again, c.flags, true), input_json);
    EXPECT_EQ(rows_of(again, c.keys), expected);
    // And they are the generator's values (read_files_test checks every one; here a few decoded numbers).
    auto reader = FileReader::open(output);
    const std::vector<RecordBatch> batches = reader->read_all();
    ASSERT_FALSE(batches.empty());
    Row row(&batches[0], 3);
    if (c.name.find("bloom_filter") != std::string::npos) {
      EXPECT_EQ(decrypted.size(), 2000u);
      EXPECT_EQ(row["double_field"].as_double(), 3.5);
      EXPECT_EQ(row["name"].as_bytes(), "name_3");
      // The Bloom filters and page index of the input stay (in the clear now).
      const ColumnChunk& chunk = reader->metadata()
                                     .row_groups[0]
                                     .columns[size_t(reader->schema().find_column("double_field")->index)];
      EXPECT_TRUE(chunk.meta_data->bloom_filter_offset.has_value());
      EXPECT_TRUE(chunk.column_index_offset.has_value());
    } else {
      EXPECT_EQ(decrypted.size(), 50u);
      EXPECT_EQ(row["double_field"].as_double(), 3 * 1.1111111);
      EXPECT_EQ(float(row["float_field"].as_double()), 3 * 1.1f);
      EXPECT_EQ(row["int32_field"].as_int64(), 3);
      EXPECT_TRUE(row["ba_field"].is_null());
      EXPECT_EQ(Row(&batches[0], 4)["ba_field"].as_bytes(), "parquet004");
    }
  }
}

constexpr int64_t kRows = 3000;

BatchSchema plain_schema() {
  BatchSchema schema;
  schema.fields.push_back(Field{"id", DataType::make(TypeId::kInt64), false, -1, {}});
  schema.fields.push_back(Field{"name", DataType::make(TypeId::kString), true, -1, {}});
  schema.fields.push_back(Field{"score", DataType::make(TypeId::kFloat64), false, -1, {}});
  return schema;
}

// A plaintext file with a page index and a Bloom filter on name, two row groups.
std::string write_plaintext(const std::string& name) {
  const BatchSchema schema = plain_schema();
  ArrayBuilder id(schema.fields[0]), names(schema.fields[1]), score(schema.fields[2]);
  for (int64_t i = 0; i < kRows; ++i) {
    id.append_int(i * 3);
    if (i % 7 == 6) {
      names.append_null();
    } else {
      names.append_bytes("name-" + std::to_string(i % 41));
    }
    score.append_double(double(i) / 8);
  }
  RecordBatch batch;
  batch.schema = std::make_shared<const BatchSchema>(schema);
  batch.num_rows = kRows;
  batch.columns = {id.finish(), names.finish(), score.finish()};
  WriterOptions options;
  options.row_group_rows = kRows / 2;
  options.page_rows = 250;
  options.columns["name"].bloom_filter = true;
  const std::string path = out_path(name);
  auto writer = FileWriter::open(path, schema, options);
  writer->write(batch);
  writer->close();
  return path;
}

// An encrypted module starts with its length (4 bytes LE) and, for a
// column or offset index, fills its whole stored range.
void expect_sealed_module(const std::vector<uint8_t>& bytes, int64_t offset, int64_t length,
                          const char* what) {
  ASSERT_GE(offset, 0) << what;
  ASSERT_LE(offset + length, int64_t(bytes.size())) << what;
  EXPECT_EQ(int64_t(bits::load<uint32_t>(bytes.data() + offset)) + 4, length) << what;
}

TEST(EncryptedRewrite, EncryptsAPlaintextFileWithItsPageIndexAndBloomFilters) {
  const std::string input = write_plaintext("plain.parquet");
  const std::vector<std::string> expected = rows_of(input);
  ASSERT_EQ(expected.size(), size_t(kRows));
  const std::string footer_key(16, '\x21'), name_key(32, '\x42');

  // Uniform: every column and the footer with one key, AES-GCM, encrypted footer.
  const std::string uniform = out_path("uniform.parquet");
  RunResult result = run_cli({"rewrite", input, uniform, "--encrypt-footer-key", hex(footer_key)});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  ReaderOptions keys;
  keys.decryption.footer_key = footer_key;
  EXPECT_EQ(rows_of(uniform, keys), expected);
  Error no_key = error_reading(uniform, {});
  EXPECT_NE(no_key.message().find("no footer key"), std::string::npos) << no_key.what();

  // Column keys, plaintext footer, GCM-CTR, an AAD prefix the file does not store.
  const std::string columns = out_path("columns.parquet");
  result =
      run_cli({"rewrite", input, columns, "--encrypt-footer-key", hex(footer_key), "--encrypt-column-key",
               "name=" + hex(name_key), "--encrypt-column", "id", "--encrypt-column-key-metadata",
               "name=k-name", "--encrypt-algorithm", "gcm-ctr", "--plaintext-footer", "--encrypt-aad-prefix",
               "columns.parquet", "--no-store-aad-prefix"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  ReaderOptions column_keys;
  column_keys.decryption.footer_key = footer_key;
  column_keys.decryption.column_keys = {{"name", name_key}};  // id: the footer key
  column_keys.decryption.aad_prefix = "columns.parquet";
  EXPECT_EQ(rows_of(columns, column_keys), expected);
  // Without the prefix nothing decrypts; with a wrong one, the signature fails.
  ReaderOptions no_prefix = column_keys;
  no_prefix.decryption.aad_prefix.reset();
  EXPECT_NE(error_reading(columns, no_prefix).message().find("AAD prefix it does not store"),
            std::string::npos);
  ReaderOptions wrong_prefix = column_keys;
  wrong_prefix.decryption.aad_prefix = "renamed.parquet";
  Error wrong = error_reading(columns, wrong_prefix);
  EXPECT_NE(wrong.message().find("plaintext footer signature mismatch"), std::string::npos) << wrong.what();
  // score stays in the clear: readable with no keys at all; name needs its key (named by its metadata).
  ReaderOptions clear_only;
  clear_only.columns = {"score"};
  const std::vector<std::string> scores = rows_of(columns, clear_only);
  ASSERT_EQ(scores.size(), size_t(kRows));
  EXPECT_EQ(scores[17], "{\"score\":2.125}");
  ReaderOptions name_only;
  name_only.columns = {"name"};
  Error missing = error_reading(columns, name_only);
  EXPECT_NE(missing.message().find(
                "column name is encrypted and no key was given for it (key metadata \"k-name\")"),
            std::string::npos)
      << missing.what();

  // Page index and Bloom filters are present and sealed as modules of their column's key.
  auto reader = FileReader::open(columns, column_keys);
  const std::vector<uint8_t> bytes = testing::read_bytes(columns);
  ASSERT_EQ(reader->metadata().row_groups.size(), 2u);
  for (const RowGroup& group : reader->metadata().row_groups) {
    const ColumnChunk& name = group.columns[1];
    ASSERT_TRUE(name.crypto_metadata);
    EXPECT_TRUE(std::holds_alternative<EncryptionWithColumnKey>(name.crypto_metadata->value));
    ASSERT_TRUE(name.column_index_offset && name.column_index_length);
    expect_sealed_module(bytes, *name.column_index_offset, *name.column_index_length, "column index");
    ASSERT_TRUE(name.offset_index_offset && name.offset_index_length);
    expect_sealed_module(bytes, *name.offset_index_offset, *name.offset_index_length, "offset index");
    ASSERT_TRUE(name.meta_data->bloom_filter_offset.has_value());
    ASSERT_TRUE(group.columns[0].crypto_metadata);  // id: --encrypt-column, the footer key
    EXPECT_TRUE(std::holds_alternative<EncryptionWithFooterKey>(group.columns[0].crypto_metadata->value));
    EXPECT_FALSE(group.columns[2].crypto_metadata);  // score in the clear
  }
  // ... and still prune: "name-3x" lies inside every row group's [min, max] but is in no filter.
  FilteredScanOptions scan_options;
  scan_options.decryption = column_keys.decryption;
  scan_options.use_dictionary = false;  // else the (encrypted) dictionary prunes first
  scan_options.filter = ColumnRef("name") == Literal(std::string("name-3x"));
  auto scan = FilteredScan::open(columns, scan_options);
  RecordBatch batch;
  EXPECT_FALSE(scan->next(batch));
  EXPECT_EQ(scan->stats().row_groups_pruned_bloom, 2);
  scan_options.filter = ColumnRef("name") == Literal(std::string("name-40"));
  auto hit = FilteredScan::open(columns, scan_options);
  int64_t rows = 0;
  while (hit->next(batch)) rows += batch.num_rows;
  EXPECT_EQ(rows, 63);  // i % 41 == 40 and i % 7 != 6 for i < 3000

  // Decrypting the encrypted output gives the plaintext input's values back.
  const std::string back = out_path("back.parquet");
  result = run_cli({"rewrite", columns, back, "--footer-key", hex(footer_key), "--column-key",
                    "name=" + hex(name_key), "--aad-prefix", "columns.parquet"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  expect_plaintext(back);
  EXPECT_EQ(rows_of(back), expected);
}

TEST(EncryptedRewrite, ReKeyedFileFailsWithTheOldKeys) {
  const std::string input = data_path("encrypt_columns_and_footer.parquet.encrypted");
  const std::string rekeyed = out_path("rekeyed.parquet");
  const std::string new_footer(16, '\x5a'), new_double(16, '\x6b'), new_float(16, '\x7c');
  std::vector<std::string> args = {"rewrite", input, rekeyed};
  for (const std::string& flag : parquet_testing_key_flags()) args.push_back(flag);
  args.insert(args.end(),
              {"--encrypt-footer-key", hex(new_footer), "--encrypt-column-key",
               "double_field=" + hex(new_double), "--encrypt-column-key", "float_field=" + hex(new_float)});
  RunResult result = run_cli(args);
  ASSERT_EQ(result.exit_code, 0) << result.err;

  ReaderOptions new_keys;
  new_keys.decryption.footer_key = new_footer;
  new_keys.decryption.column_keys = {{"double_field", new_double}, {"float_field", new_float}};
  EXPECT_EQ(rows_of(rekeyed, new_keys), rows_of(input, parquet_testing_keys()));

  Error old_footer = error_reading(rekeyed, parquet_testing_keys());
  EXPECT_EQ(old_footer.code(), ErrorCode::kCorrupt);
  EXPECT_NE(old_footer.message().find("AES-GCM tag mismatch in footer"), std::string::npos)
      << old_footer.what();
  ReaderOptions old_column = new_keys;
  old_column.decryption.column_keys["double_field"] = kDoubleKey;
  Error column = error_reading(rekeyed, old_column);
  EXPECT_NE(column.message().find("AES-GCM tag mismatch in column metadata"), std::string::npos)
      << column.what();
  EXPECT_EQ(column.where().column, "double_field");

  // The CLI says the same in one line.
  RunResult old = run_cli({"head", "-n", "1", "--footer-key", hex(kFooterKey), rekeyed});
  EXPECT_EQ(old.exit_code, 1);
  EXPECT_EQ(old.out, "");
  EXPECT_NE(old.err.find("AES-GCM tag mismatch in footer"), std::string::npos) << old.err;
}

TEST(EncryptedRewrite, EncryptionFlagsAreCheckedAndKeysNeverEchoed) {
  const std::string input = data_path("alltypes_plain.parquet");
  RunResult lone = run_cli({"rewrite", input, out_path("x.parquet"), "--plaintext-footer"});
  EXPECT_EQ(lone.exit_code, 1);
  EXPECT_NE(lone.err.find("need --encrypt-footer-key"), std::string::npos) << lone.err;
  RunResult bad =
      run_cli({"rewrite", input, out_path("y.parquet"), "--encrypt-footer-key", "secret-not-a-key"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("--encrypt-footer-key"), std::string::npos) << bad.err;
  EXPECT_EQ(bad.err.find("secret-not-a-key"), std::string::npos) << bad.err;
  RunResult unknown = run_cli({"rewrite", input, out_path("z.parquet"), "--encrypt-footer-key",
                               hex(kFooterKey), "--encrypt-column-key", "no_such_column=" + hex(kDoubleKey)});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("no_such_column"), std::string::npos) << unknown.err;
  EXPECT_EQ(unknown.err.find(hex(kDoubleKey)), std::string::npos) << unknown.err;
  RunResult prefix = run_cli({"rewrite", input, out_path("w.parquet"), "--encrypt-footer-key",
                              hex(kFooterKey), "--no-store-aad-prefix"});
  EXPECT_EQ(prefix.exit_code, 1);
  EXPECT_NE(prefix.err.find("--no-store-aad-prefix needs --encrypt-aad-prefix"), std::string::npos)
      << prefix.err;
}

}  // namespace
}  // namespace parquetry
