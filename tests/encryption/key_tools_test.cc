// Key tools: the parquet-java file with external key material reads through
// the in-memory test KMS; key material written here round-trips.
#include <gtest/gtest.h>
#include <iostream>

#include "parquetry/array_builder.h"
#include "parquetry/error.h"
#include "parquetry/key_tools.h"
#include "parquetry/reader.h"
#include "parquetry/record.h"
#include "parquetry/writer.h"
#include "test_support.h"

namespace parquetry {
namespace {

// The master keys of parquet-java's and Arrow's key-tools tests.
std::map<std::string, std::string> test_master_keys() {
  return {{"kf", "0123456789012345"}, {"kc1", "1234567890123450"}, {"kc2", "1234567890123451"}};
}

TEST(KeyTools, InMemoryKmsWrapsWithTheMasterKeyIdAsAad) {
  InMemoryKms kms(test_master_keys());
  const std::string key = "abcdefghijklmnop";
  const std::string wrapped = kms.wrap_key(key, "kc1");
  // base64 of nonce (12) + wrapped key (16) + tag (16)
  EXPECT_EQ(wrapped.size(), 60u);
  EXPECT_EQ(wrapped.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="),
            std::string::npos);
  EXPECT_EQ(kms.unwrap_key(wrapped, "kc1"), key);
  EXPECT_THROW(kms.unwrap_key(wrapped, "kc2"), Error);   // other master key
  EXPECT_THROW(kms.unwrap_key(wrapped, "nope"), Error);  // unknown id
}

// parquet-java's file with external key material, and options that read it
// through the in-memory KMS holding the test master keys.
std::string java_key_material_file() {
  return testing::parquet_testing("data/external_key_material_java.parquet.encrypted").string();
}
ReaderOptions read_with_test_kms(const std::string& path) {
  ReaderOptions options;
  options.decryption.key_retriever =
      key_tools_retriever(std::make_shared<InMemoryKms>(test_master_keys()), path);
  return options;
}

TEST(KeyTools, ExternalKeyMaterialFileFromParquetJavaReads) {
  const std::string path = java_key_material_file();
  auto reader = FileReader::open(path, read_with_test_kms(path));
  std::vector<RecordBatch> batches = reader->read_all();
  // parquet-java wrote integers i and strings (letter, i): "a0", "b1", "c2", ...
  int64_t row = 0;
  for (const RecordBatch& batch : batches) {
    for (int64_t r = 0; r < batch.num_rows; ++r, ++row) {
      Row values(&batch, r);
      EXPECT_EQ(values["integers"].as_int64(), row);
      if (row < 3) {
        EXPECT_EQ(values["strings"].as_string(), std::string(1, char('a' + row)) + std::to_string(row));
      }
    }
  }
  // Without the KMS's master keys nothing unwraps.
  auto wrong = std::make_shared<InMemoryKms>(std::map<std::string, std::string>{
      {"kf", "0123456789012346"}, {"kc1", "1234567890123450"}, {"kc2", "1234567890123451"}});
  ReaderOptions wrong_options;
  wrong_options.decryption.key_retriever = key_tools_retriever(wrong, path);
  EXPECT_THROW(FileReader::open(path, wrong_options), Error);
}

// The one public encrypted file `parquetry rewrite` cannot open (its keys
// come from a KMS, which the CLI has no flags for) is rewritten as the CLI
// does, through the API: the Parquet schema and key-value metadata of the
// input given to the writer. The plaintext output has the input's schema,
// element for element, and every value.
TEST(KeyTools, ExternalKeyMaterialFileRewritesWithItsSchema) {
  const std::string path = java_key_material_file();
  ReaderOptions options = read_with_test_kms(path);
  options.int96_as_binary = true;
  auto input = FileReader::open(path, options);
  const FileMetaData& footer = input->metadata();
  WriterOptions writer_options;
  writer_options.parquet_schema = footer.schema;
  writer_options.schema_metadata = false;
  writer_options.key_value_metadata = footer.key_value_metadata;
  const std::string out = (testing::temp_dir() / "external_key_material_plain.parquet").string();
  const std::vector<RecordBatch> batches = input->read_all();
  {
    auto writer = FileWriter::open(out, *input->batch_schema(), writer_options);
    for (const RecordBatch& batch : batches) writer->write(batch);
    writer->close();
  }
  auto output = FileReader::open(out);
  EXPECT_EQ(output->metadata().schema, footer.schema);
  EXPECT_EQ(output->metadata().key_value_metadata, footer.key_value_metadata);
  EXPECT_EQ(output->schema().to_string(), input->schema().to_string());
  auto rows = [](const std::vector<RecordBatch>& all) {
    std::vector<std::string> out;
    for (const RecordBatch& batch : all)
      for (int64_t r = 0; r < batch.num_rows; ++r) out.push_back(Row(&batch, r).to_json());
    return out;
  };
  const std::vector<std::string> expected = rows(batches);
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(rows(output->read_all()), expected);
}

TEST(KeyTools, WrittenKeyMaterialRoundTrips) {
  for (bool double_wrapping : {true, false}) {
    InMemoryKms kms(test_master_keys());
    KeyToolsWriteOptions write_options;
    write_options.footer_master_key_id = "kf";
    write_options.column_master_key_ids["kc1"] = {"secret"};
    write_options.double_wrapping = double_wrapping;
    write_options.data_key_bits = 256;
    BatchSchema schema;
    schema.fields.push_back(Field{"secret", DataType::make(TypeId::kString), false, -1, {}});
    schema.fields.push_back(Field{"open", DataType::make(TypeId::kInt32), false, -1, {}});
    ArrayBuilder secret(schema.fields[0]), open(schema.fields[1]);
    for (int i = 0; i < 100; ++i) {
      secret.append_bytes("s" + std::to_string(i));
      open.append_int(i);
    }
    RecordBatch batch;
    batch.schema = std::make_shared<const BatchSchema>(schema);
    batch.num_rows = 100;
    batch.columns = {secret.finish(), open.finish()};
    WriterOptions writer_options;
    writer_options.encryption = key_tools_encryption(kms, write_options);
    const std::string path =
        (testing::temp_dir() / ("keytools" + std::to_string(double_wrapping) + ".parquet")).string();
    auto writer = FileWriter::open(path, schema, writer_options);
    writer->write(batch);
    writer->close();

    ReaderOptions options;
    options.decryption.key_retriever =
        key_tools_retriever(std::make_shared<InMemoryKms>(test_master_keys()), path);
    std::vector<RecordBatch> back = FileReader::open(path, options)->read_all();
    ASSERT_EQ(back.size(), 1u);
    ASSERT_EQ(back[0].num_rows, 100);
    for (int i = 0; i < 100; ++i) {
      Row row(&back[0], i);
      EXPECT_EQ(row[0].as_string(), "s" + std::to_string(i));
      EXPECT_EQ(row[1].as_int64(), i);
    }
  }
}

}  // namespace
}  // namespace parquetry
