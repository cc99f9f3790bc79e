// The batch stream (FileReader::batches()): row groups decoded page by page
// into batch-sized buffers from the reader's pool. Checks that every batch
// holds exactly the rows read_row_group() holds (written files with nulls,
// strings, lists, dictionaries and pages that straddle batches; every public
// parquet-testing file, with and without dictionary arrays), that batches
// stay batch-sized, that the pool refills the same buffers batch after batch,
// and that a batch the consumer keeps is never overwritten.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "parquetry/table/json_values.h"
#include "parquetry/util/json_writer.h"
#include "parquetry/writer.h"
#include "test_support.h"

namespace parquetry {
namespace {

constexpr int64_t kRows = 40'000;
constexpr int64_t kGroupRows = 10'000;  // 4 row groups
constexpr int64_t kPageRows = 1'500;    // pages end inside batches

std::shared_ptr<ArrayData> int64_array(const std::vector<int64_t>& values) {
  Buffer data;
  data.append(values.data(), values.size() * 8);
  auto array = std::make_shared<ArrayData>();
  array->type = std::make_shared<DataType>(DataType::make(TypeId::kInt64));
  array->length = int64_t(values.size());
  array->buffers = {BufferRef{}, BufferRef::adopt(std::move(data))};
  return array;
}

std::string name_of(int64_t row) { return "name-" + std::to_string(row % 37); }
bool score_null(int64_t row) { return row % 7 == 3; }
bool tags_null(int64_t row) { return row % 11 == 0; }

// id int64, score double? (nulls), name string (dictionary), tags list<int32>? (nulls, 0-3 elements).
std::string write_test_file(CompressionCodec codec = CompressionCodec::SNAPPY) {
  BatchSchema schema;
  auto field = [](const char* name, DataType type, bool nullable) {
    Field out;
    out.name = name;
    out.type = std::move(type);
    out.nullable = nullable;
    return out;
  };
  const Field id = field("id", DataType::make(TypeId::kInt64), false);
  const Field score = field("score", DataType::make(TypeId::kFloat64), true);
  const Field name = field("name", DataType::make(TypeId::kString), false);
  const Field tags =
      field("tags", DataType::list(field("element", DataType::make(TypeId::kInt32), false)), true);
  schema.fields = {id, score, name, tags};
  auto shared_schema = std::make_shared<BatchSchema>(schema);

  std::vector<int64_t> ids(kRows);
  Buffer score_values, score_valid, name_offsets, name_data, tag_offsets, tag_valid, tag_values;
  score_valid.resize(size_t((kRows + 7) / 8));
  tag_valid.resize(size_t((kRows + 7) / 8));
  std::fill(score_valid.data(), score_valid.data() + score_valid.size(), 0);
  std::fill(tag_valid.data(), tag_valid.data() + tag_valid.size(), 0);
  int32_t offset = 0;
  name_offsets.append(&offset, 4);
  int32_t tag_offset = 0;
  tag_offsets.append(&tag_offset, 4);
  int64_t score_nulls = 0, tag_nulls = 0;
  for (int64_t row = 0; row < kRows; ++row) {
    ids[size_t(row)] = row;
    const double s = score_null(row) ? 0.0 : double(row) * 0.5;
    score_values.append(&s, 8);
    if (!score_null(row)) {
      score_valid.data()[row / 8] |= uint8_t(1u << (row % 8));
    } else {
      ++score_nulls;
    }
    const std::string n = name_of(row);
    name_data.append(n.data(), n.size());
    offset += int32_t(n.size());
    name_offsets.append(&offset, 4);
    if (tags_null(row)) {
      ++tag_nulls;
    } else {
      tag_valid.data()[row / 8] |= uint8_t(1u << (row % 8));
      for (int64_t k = 0; k < row % 4; ++k) {
        const int32_t v = int32_t(row + k);
        tag_values.append(&v, 4);
        ++tag_offset;
      }
    }
    tag_offsets.append(&tag_offset, 4);
  }
  RecordBatch batch;
  batch.schema = shared_schema;
  batch.num_rows = kRows;
  batch.columns.push_back(int64_array(ids));
  auto score_array = std::make_shared<ArrayData>();
  score_array->type = std::make_shared<DataType>(score.type);
  score_array->length = kRows;
  score_array->null_count = score_nulls;
  score_array->buffers = {BufferRef::adopt(std::move(score_valid)),
                          BufferRef::adopt(std::move(score_values))};
  batch.columns.push_back(score_array);
  auto name_array = std::make_shared<ArrayData>();
  name_array->type = std::make_shared<DataType>(name.type);
  name_array->length = kRows;
  name_array->buffers = {BufferRef{}, BufferRef::adopt(std::move(name_offsets)),
                         BufferRef::adopt(std::move(name_data))};
  batch.columns.push_back(name_array);
  auto elements = std::make_shared<ArrayData>();
  elements->type = std::make_shared<DataType>(DataType::make(TypeId::kInt32));
  elements->length = tag_offset;
  elements->buffers = {BufferRef{}, BufferRef::adopt(std::move(tag_values))};
  auto tags_array = std::make_shared<ArrayData>();
  tags_array->type = std::make_shared<DataType>(tags.type);
  tags_array->length = kRows;
  tags_array->null_count = tag_nulls;
  tags_array->buffers = {BufferRef::adopt(std::move(tag_valid)), BufferRef::adopt(std::move(tag_offsets))};
  tags_array->children = {elements};
  batch.columns.push_back(tags_array);

  const std::string path = (testing::temp_dir() / "stream.parquet").string();
  WriterOptions options;
  options.codec = codec;
  options.row_group_rows = kGroupRows;
  options.page_rows = kPageRows;
  auto writer = FileWriter::open(path, schema, options);
  writer->write(batch);
  writer->close();
  return path;
}

const std::string& test_file() {
  static const std::string path = write_test_file();
  return path;
}

std::vector<std::string> rows_as_json(const RecordBatch& batch) {
  std::vector<std::string> out;
  for (int64_t row = 0; row < batch.num_rows; ++row) {
    JsonWriter json;
    write_json_row(json, batch, row);
    out.push_back(json.take());
  }
  return out;
}

// Every row of the file as read_row_group() gives it, then as batches() does.
std::vector<std::string> whole_rows(const std::string& path, const ReaderOptions& options) {
  auto reader = FileReader::open(path, options);
  std::vector<std::string> out;
  std::vector<int32_t> groups = options.row_groups;
  if (groups.empty()) {
    for (int g = 0; g < reader->num_row_groups(); ++g) groups.push_back(g);
  }
  for (int32_t g : groups) {
    for (std::string& row : rows_as_json(reader->read_row_group(g))) out.push_back(std::move(row));
  }
  return out;
}

std::vector<std::string> streamed_rows(const std::string& path, const ReaderOptions& options,
                                       std::vector<int64_t>* batch_rows = nullptr) {
  auto reader = FileReader::open(path, options);
  auto batches = reader->batches();
  std::vector<std::string> out;
  RecordBatch batch;
  while (batches->next(batch)) {
    for (const auto& column : batch.columns) {
      column->validate();
      EXPECT_EQ(column->length, batch.num_rows);
    }
    if (batch_rows != nullptr) batch_rows->push_back(batch.num_rows);
    for (std::string& row : rows_as_json(batch)) out.push_back(std::move(row));
  }
  return out;
}

TEST(BatchStream, BatchesHoldTheRowsOfWholeRowGroups) {
  ReaderOptions options;
  const std::vector<std::string> expected = whole_rows(test_file(), options);
  ASSERT_EQ(expected.size(), size_t(kRows));
  EXPECT_EQ(expected[3], R"({"id":3,"score":null,"name":"name-3","tags":[3,4,5]})");
  EXPECT_EQ(expected[22], R"({"id":22,"score":11,"name":"name-22","tags":null})");
  const std::pair<int, int64_t> runs[] = {{1, 777}, {1, 65'536}, {2, 4096}};
  for (const auto& [threads, batch_size] : runs) {
    {
      SCOPED_TRACE("threads " + std::to_string(threads) + ", batch_size " + std::to_string(batch_size));
      options.threads = threads;
      options.batch_size = batch_size;
      std::vector<int64_t> sizes;
      EXPECT_EQ(streamed_rows(test_file(), options, &sizes), expected);
      // Batches are batch_size rows, shorter only at a row group's end.
      int64_t in_group = 0;
      for (int64_t size : sizes) {
        EXPECT_EQ(size, std::min(batch_size, kGroupRows - in_group));
        in_group = (in_group + size) % kGroupRows;
      }
    }
  }
}

// Each worker decodes with its own codec contexts: a streamed chunk's pages
// are decompressed by whichever thread decodes the next batch, and ZSTD and
// deflate contexts shared by two threads corrupt pages.
TEST(BatchStream, CompressedChunksDecodeOnAnyWorker) {
  for (CompressionCodec codec : {CompressionCodec::ZSTD, CompressionCodec::GZIP}) {
    SCOPED_TRACE(std::string(codec_name(codec)));
    const std::string path = write_test_file(codec);
    ReaderOptions options;
    const std::vector<std::string> expected = whole_rows(path, options);
    ASSERT_EQ(expected.size(), size_t(kRows));
    EXPECT_EQ(expected[22], R"({"id":22,"score":11,"name":"name-22","tags":null})");
    options.threads = 2;
    for (int64_t batch_size : {333, 1024, 4096}) {
      options.batch_size = batch_size;
      EXPECT_EQ(streamed_rows(path, options), expected) << "batch_size " << batch_size;
    }
  }
}

TEST(BatchStream, OneRowBatchesAndDictionaryArrays) {
  ReaderOptions options;
  options.row_groups = {2};
  options.dictionary_arrays = true;
  const std::vector<std::string> expected = whole_rows(test_file(), options);
  ASSERT_EQ(expected.size(), size_t(kGroupRows));
  auto reader = FileReader::open(test_file(), options);
  ASSERT_EQ(reader->batch_schema()->fields[2].type.id, TypeId::kDictionary);
  options.batch_size = 1;
  EXPECT_EQ(streamed_rows(test_file(), options), expected);
  options.batch_size = 3001;
  EXPECT_EQ(streamed_rows(test_file(), options), expected);
}

TEST(BatchStream, PoolRefillsTheSameBuffersBatchAfterBatch) {
  ReaderOptions options;
  options.batch_size = 1000;  // 40 batches, each straddling pages
  auto reader = FileReader::open(test_file(), options);
  auto batches = reader->batches();
  RecordBatch batch;
  int64_t count = 0, next_id = 0;
  while (batches->next(batch)) {
    ++count;
    // The id column's values buffer is exactly the batch's rows, not a row group's.
    const ArrayData& ids = *batch.columns[0];
    ASSERT_EQ(ids.length, 1000);
    EXPECT_EQ(ids.buffers[1].size, 1000 * 8);
    const int64_t* values = ids.buffers[1].as<int64_t>() + ids.offset;
    for (int64_t i = 0; i < ids.length; ++i) ASSERT_EQ(values[i], next_id + i);
    next_id += ids.length;
    const ArrayData& tags = *batch.columns[3];
    EXPECT_LE(tags.children[0]->length, 1000 * 3);
  }
  EXPECT_EQ(count, 40);
  EXPECT_EQ(next_id, kRows);
  // Slots: id values; score validity + values; name offsets + data; tags
  // def + rep levels + values: 8. The consumer lets each batch go before
  // asking for the next, and the rows a page decoded past a batch wait in
  // the stream's own carry, so one set of 8 buffers serves all 40 batches.
  const FileReader::Stats stats = reader->stats();
  EXPECT_EQ(stats.batch_buffer_allocations, 8);
  EXPECT_EQ(stats.batch_buffer_reuses, 40 * 8 - 8);
}

TEST(BatchStream, BatchesTheConsumerKeepsStayIntact) {
  ReaderOptions options;
  options.batch_size = 2500;
  auto reader = FileReader::open(test_file(), options);
  auto batches = reader->batches();
  std::vector<RecordBatch> kept;
  RecordBatch batch;
  while (batches->next(batch)) {
    kept.push_back(batch);
  }
  ASSERT_EQ(kept.size(), size_t(16));
  int64_t id = 0;
  for (const RecordBatch& held : kept) {
    const int64_t* values = held.columns[0]->buffers[1].as<int64_t>();
    for (int64_t i = 0; i < held.num_rows; ++i, ++id) {
      ASSERT_EQ(values[i], id);
      const ArrayData& names = *held.columns[2];
      const int32_t* offsets = names.buffers[1].as<int32_t>();
      ASSERT_EQ(std::string(reinterpret_cast<const char*>(names.buffers[2].data) + offsets[i],
                            size_t(offsets[i + 1] - offsets[i])),
                name_of(id));
    }
  }
  EXPECT_EQ(id, kRows);
  // Nothing could be refilled while every batch was held.
  EXPECT_GE(reader->stats().batch_buffer_allocations, 16 * 8 / 2);
}

// The stream shares the reader's state, so it outlives the FileReader: the
// form `FileReader::open(path)->batches()` (what the read_arrow example hands
// to export_stream) used to read a freed reader.
TEST(BatchStream, StreamOutlivesItsReader) {
  ReaderOptions options;
  options.batch_size = 3000;
  std::unique_ptr<BatchReader> batches = FileReader::open(test_file(), options)->batches();
  ASSERT_EQ(batches->schema()->fields.size(), size_t(4));
  EXPECT_EQ(batches->schema()->fields[2].name, "name");
  int64_t id = 0;
  RecordBatch batch;
  while (batches->next(batch)) {
    const int64_t* values = batch.columns[0]->buffers[1].as<int64_t>();
    const ArrayData& names = *batch.columns[2];
    const int32_t* offsets = names.buffers[1].as<int32_t>();
    for (int64_t i = 0; i < batch.num_rows; ++i, ++id) {
      ASSERT_EQ(values[batch.columns[0]->offset + i], id);
      const int64_t at = names.offset + i;
      ASSERT_EQ(std::string(reinterpret_cast<const char*>(names.buffers[2].data) + offsets[at],
                            size_t(offsets[at + 1] - offsets[at])),
                name_of(id));
    }
  }
  EXPECT_EQ(id, kRows);
  // Reading past the end stays at the end.
  EXPECT_FALSE(batches->next(batch));
}

// Windowed reads: each column chunk is read a small window at a time into
// one buffer per column, so the bytes held stay far below a row group's
// while the rows are those of whole-row-group reads.
TEST(BatchStream, WindowedReadsHoldLessThanARowGroup) {
  ReaderOptions whole;
  whole.window_above = -1;
  const std::vector<std::string> expected = whole_rows(test_file(), whole);
  ASSERT_EQ(expected.size(), size_t(kRows));

  auto reference = FileReader::open(test_file(), whole);
  int64_t group_bytes = 0;
  for (const ColumnChunk& chunk : reference->metadata().row_groups[0].columns) {
    group_bytes += chunk.meta_data->total_compressed_size;
  }

  ReaderOptions windowed;
  windowed.window_above = 0;
  windowed.window_bytes = 1024;
  windowed.batch_size = 3000;
  auto reader = FileReader::open(test_file(), windowed);
  auto batches = reader->batches();
  std::vector<std::string> rows;
  RecordBatch batch;
  while (batches->next(batch)) {
    for (std::string& row : rows_as_json(batch)) rows.push_back(std::move(row));
  }
  EXPECT_EQ(rows, expected);
  const FileReader::Stats stats = reader->stats();
  // Several reads per chunk (4 row groups x 4 leaf columns), a window per
  // column held: less than half a row group's bytes.
  EXPECT_GT(stats.read_calls, 4 * 4 * 2);
  EXPECT_GT(stats.peak_fetched_bytes, 0);
  EXPECT_LT(stats.peak_fetched_bytes, group_bytes / 2) << "row group of " << group_bytes << " bytes";
  EXPECT_GE(stats.bytes_read, group_bytes * 4);

  // The same file through the whole-row-group fetch holds a row group.
  auto fetched = FileReader::open(test_file(), whole);
  auto all = fetched->batches();
  while (all->next(batch)) {
  }
  EXPECT_GE(fetched->stats().peak_fetched_bytes, group_bytes);
}

// Every public test file: batches() renders exactly the rows read_row_group() does
// (read_row_group never reads in windows).
// A file whose rows go on from one page into the next, as v1 pages may
// (FileWriter cuts pages at rows, so this one is put together by hand): two
// bare repeated columns, int32 and string, six rows of 13 entries in four
// PLAIN pages cut at entries 3, 6 and 10, so rows 0, 1 and 4 start in one
// page and end in the next, and row 2 is empty.
std::string write_rows_across_pages() {
  struct Entry {
    int16_t rep, def;
    int32_t value;
  };
  const std::vector<Entry> entries = {{0, 1, 1},  {1, 1, 2},  {1, 1, 3}, {1, 1, 4}, {1, 1, 5},
                                      {0, 1, 6},  {1, 1, 7},  {0, 0, 0}, {0, 1, 8}, {0, 1, 9},
                                      {1, 1, 10}, {1, 1, 11}, {0, 1, 12}};
  const std::vector<std::pair<size_t, size_t>> pages = {{0, 3}, {3, 6}, {6, 10}, {10, 13}};
  // One bit-packed run of width 1 (at most 8 levels), behind its 4-byte length.
  auto levels = [](Buffer& out, const std::vector<int16_t>& values) {
    uint8_t run[2] = {3, 0};  // header: one group of 8, bit-packed
    for (size_t i = 0; i < values.size(); ++i) run[1] |= uint8_t(values[i] << i);
    const uint32_t length = 2;
    out.append(&length, 4);
    out.append(run, 2);
  };
  Buffer file;
  file.append("PAR1", 4);
  FileMetaData metadata;
  metadata.num_rows = 6;
  metadata.created_by = "parquetry test: rows across pages";
  SchemaElement root;
  root.name = "schema";
  root.num_children = 2;
  metadata.schema.push_back(root);
  RowGroup group;
  group.num_rows = 6;
  for (const bool strings : {false, true}) {
    SchemaElement leaf;
    leaf.name = strings ? "s" : "n";
    leaf.type = strings ? Type::BYTE_ARRAY : Type::INT32;
    leaf.repetition_type = FieldRepetitionType::REPEATED;
    if (strings) leaf.converted_type = ConvertedType::UTF8;
    metadata.schema.push_back(leaf);
    ColumnChunk chunk;
    ColumnMetaData meta;
    meta.type = *leaf.type;
    meta.encodings = {Encoding::PLAIN, Encoding::RLE};
    meta.path_in_schema = StringList{leaf.name};
    meta.num_values = int64_t(entries.size());
    meta.data_page_offset = int64_t(file.size());
    for (const auto& [begin, end] : pages) {
      Buffer body;
      std::vector<int16_t> rep, def;
      for (size_t i = begin; i < end; ++i) {
        rep.push_back(entries[i].rep);
        def.push_back(entries[i].def);
      }
      levels(body, rep);
      levels(body, def);
      for (size_t i = begin; i < end; ++i) {
        if (entries[i].def == 0) continue;
        if (strings) {
          const std::string text = "v" + std::to_string(entries[i].value);
          const uint32_t length = uint32_t(text.size());
          body.append(&length, 4);
          body.append(text.data(), text.size());
        } else {
          body.append(&entries[i].value, 4);
        }
      }
      PageHeader header;
      header.type = PageType::DATA_PAGE;
      header.uncompressed_page_size = header.compressed_page_size = int32_t(body.size());
      header.data_page_header = DataPageHeader{};
      header.data_page_header->num_values = int32_t(end - begin);
      Buffer encoded;
      encode_page_header(header, encoded);
      file.append(encoded.data(), encoded.size());
      file.append(body.data(), body.size());
    }
    meta.total_compressed_size = meta.total_uncompressed_size = int64_t(file.size()) - meta.data_page_offset;
    group.total_byte_size += meta.total_uncompressed_size;
    chunk.file_offset = meta.data_page_offset;
    chunk.meta_data = meta;
    group.columns.push_back(chunk);
  }
  metadata.row_groups.push_back(group);
  Buffer footer;
  encode_file_metadata(metadata, footer);
  file.append(footer.data(), footer.size());
  const uint32_t footer_length = uint32_t(footer.size());
  file.append(&footer_length, 4);
  file.append("PAR1", 4);
  const std::string path = (testing::temp_dir() / "rows_across_pages.parquet").string();
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(file.data()), std::streamsize(file.size()));
  return path;
}

TEST(BatchStream, RowsThatGoOnIntoTheNextPageStayWhole) {
  const std::string path = write_rows_across_pages();
  ReaderOptions options;
  const std::vector<std::string> expected = whole_rows(path, options);
  ASSERT_EQ(expected.size(), 6u);
  EXPECT_EQ(expected[0], R"({"n":[1,2,3,4,5],"s":["v1","v2","v3","v4","v5"]})");
  EXPECT_EQ(expected[1], R"({"n":[6,7],"s":["v6","v7"]})");
  EXPECT_EQ(expected[2], R"({"n":[],"s":[]})");
  EXPECT_EQ(expected[4], R"({"n":[9,10,11],"s":["v9","v10","v11"]})");
  EXPECT_EQ(expected[5], R"({"n":[12],"s":["v12"]})");
  // One- and two-row batches are streamed (six rows are more than two
  // batches): each batch's last row is completed from the next page.
  for (int64_t batch_size : {1, 2}) {
    options.batch_size = batch_size;
    std::vector<int64_t> sizes;
    EXPECT_EQ(streamed_rows(path, options, &sizes), expected) << "batch_size " << batch_size;
    EXPECT_EQ(sizes, std::vector<int64_t>(size_t(6 / batch_size), batch_size));
  }
}

TEST(BatchStream, EveryPublicFileStreamsItsRowGroups) {
  std::vector<std::filesystem::path> files = testing::public_parquet_files();
  for (const char* folder : {"shredded_variant", "variant"}) {
    const auto dir = testing::parquet_testing(folder);
    if (!std::filesystem::exists(dir)) continue;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (entry.is_regular_file() && entry.path().extension() == ".parquet") files.push_back(entry.path());
    }
  }
  ASSERT_GT(files.size(), size_t(100));
  int compared = 0;
  for (const auto& file : files) {
    // Plain, dictionary arrays, and windowed reads of 100 bytes (page
    // headers cut by windows, pages larger than a window).
    for (int mode : {0, 1, 2}) {
      const bool dictionary = mode == 1;
      SCOPED_TRACE(file.string() + (mode == 1 ? " (dictionary arrays)" : mode == 2 ? " (windowed)" : ""));
      ReaderOptions options;
      options.dictionary_arrays = dictionary;
      if (mode == 2) {
        options.window_above = 0;
        options.window_bytes = 100;
      }
      std::vector<std::string> expected;
      std::string whole_error;
      try {
        expected = whole_rows(file.string(), options);
      } catch (const Error& e) {
        whole_error = e.what();
      }
      // One-row batches where that stays quick; 7 rows straddle every page.
      std::vector<int64_t> sizes = {7, 65'536};
      if (expected.size() <= 2000) sizes.push_back(1);
      for (int64_t batch_size : sizes) {
        options.batch_size = batch_size;
        try {
          EXPECT_EQ(streamed_rows(file.string(), options), expected) << "batch_size " << batch_size;
          EXPECT_TRUE(whole_error.empty())
              << "read_row_group failed (" << whole_error << ") but batches() did not";
        } catch (const Error& e) {
          // A file the reader rejects must be rejected either way.
          EXPECT_FALSE(whole_error.empty()) << "batches() failed: " << e.what();
        }
      }
      compared += whole_error.empty();
    }
  }
  EXPECT_GT(compared, 200);
}

}  // namespace
}  // namespace parquetry
