// A footer that claims a chunk is dictionary-encoded while some of its pages
// are not: ReaderOptions::dictionary_arrays trusts the claim to choose the
// output type, and must still return every value correctly (the chunk's
// values become its own dictionary) rather than misread or fail.
#include <gtest/gtest.h>

#include <random>

#include "hardening_support.h"
#include "parquetry/table/json_values.h"
#include "parquetry/util/json_writer.h"
#include "parquetry/writer.h"
#include "test_support.h"

namespace parquetry::hardening {
namespace {

std::vector<std::string> rows_of(const Bytes& image, bool dictionary_arrays) {
  ReaderOptions options;
  options.dictionary_arrays = dictionary_arrays;
  auto source =
      std::make_shared<MemorySource>(std::span<const uint8_t>(image.data(), image.size()), "lying.parquet");
  auto reader = FileReader::open(source, options);
  std::vector<std::string> rows;
  for (const RecordBatch& batch : reader->read_all()) {
    for (const auto& column : batch.columns) column->validate();
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      JsonWriter out;
      write_json_row(out, batch, r);
      rows.push_back(out.take());
    }
  }
  return rows;
}

TEST(DictionaryClaims, ChunkWithFallbackPagesUnderADictionaryOnlyFooterReadsItsValues) {
  // Many distinct strings and numbers: the 2 KiB dictionary limit makes the
  // writer fall back to PLAIN pages part-way through each chunk.
  BatchSchema schema;
  Field text;
  text.name = "text";
  text.type = DataType::make(TypeId::kString);
  Field number;
  number.name = "number";
  number.type = DataType::make(TypeId::kInt64);
  schema.fields = {text, number};
  const auto path = testing::temp_dir() / "fallback.parquet";
  WriterOptions options;
  options.dictionary_page_bytes = 2048;
  options.page_rows = 100;
  auto writer = FileWriter::open(path.string(), schema, options);
  RecordBatch batch;
  batch.schema = std::make_shared<BatchSchema>(schema);
  batch.num_rows = 3000;
  Buffer offsets, data, numbers;
  int32_t end = 0;
  offsets.append(&end, 4);
  std::mt19937 rng(5);
  for (int i = 0; i < 3000; ++i) {
    const std::string value = "value-" + std::to_string(i % 10 == 0 ? 7 : int(rng() % 100000));
    data.append(value.data(), value.size());
    end += int32_t(value.size());
    offsets.append(&end, 4);
    const int64_t n = i % 3 == 0 ? 42 : int64_t(rng());
    numbers.append(&n, 8);
  }
  auto strings = std::make_shared<ArrayData>();
  strings->type = std::make_shared<DataType>(schema.fields[0].type);
  strings->length = 3000;
  strings->buffers = {BufferRef{}, BufferRef::adopt(std::move(offsets)), BufferRef::adopt(std::move(data))};
  auto ints = std::make_shared<ArrayData>();
  ints->type = std::make_shared<DataType>(schema.fields[1].type);
  ints->length = 3000;
  ints->buffers = {BufferRef{}, BufferRef::adopt(std::move(numbers))};
  batch.columns = {strings, ints};
  writer->write(batch);
  writer->close();

  std::optional<FileImage> image = FileImage::parse(testing::read_bytes(path));
  ASSERT_TRUE(image.has_value());
  int fallback_chunks = 0;
  for (RowGroup& group : image->metadata.row_groups) {
    for (ColumnChunk& chunk : group.columns) {
      ColumnMetaData& meta = *chunk.meta_data;
      for (Encoding e : meta.encodings) fallback_chunks += e == Encoding::PLAIN;
      ASSERT_TRUE(meta.dictionary_page_offset.has_value());
      // The lie: only dictionary encodings, no page encoding stats.
      meta.encodings = {Encoding::RLE_DICTIONARY, Encoding::RLE};
      meta.encoding_stats.clear();
    }
  }
  ASSERT_GE(fallback_chunks, 2) << "the writer did not fall back; the test would prove nothing";
  const Bytes lying = image->assemble();

  ReaderOptions dictionary;
  dictionary.dictionary_arrays = true;
  auto source =
      std::make_shared<MemorySource>(std::span<const uint8_t>(lying.data(), lying.size()), "lying.parquet");
  auto reader = FileReader::open(source, dictionary);
  EXPECT_EQ(reader->batch_schema()->fields[0].type.id, TypeId::kDictionary);
  EXPECT_EQ(reader->batch_schema()->fields[1].type.id, TypeId::kDictionary);

  const std::vector<std::string> want = rows_of(lying, false);
  const std::vector<std::string> got = rows_of(lying, true);
  ASSERT_EQ(got.size(), 3000u);
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace parquetry::hardening
