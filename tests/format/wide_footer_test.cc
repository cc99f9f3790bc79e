// Footers with thousands of column chunks per row group (the shape of the
// footer benchmark, bench/bench_metadata.cc): every chunk must come back
// with its own values, and a chunk count the bytes cannot hold must fail
// cleanly rather than allocate for it.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/metadata.h"

namespace parquetry {
namespace {

/// `row_groups` x `columns` chunks, each with values derived from its position.
FileMetaData wide_metadata(int columns, int row_groups) {
  FileMetaData m;
  m.version = 2;
  SchemaElement root;
  root.name = "schema";
  root.num_children = columns;
  m.schema.push_back(root);
  for (int c = 0; c < columns; ++c) {
    SchemaElement leaf;
    leaf.name = "column_" + std::to_string(c);
    leaf.type = Type::INT64;
    leaf.repetition_type = FieldRepetitionType::OPTIONAL;
    m.schema.push_back(leaf);
  }
  for (int g = 0; g < row_groups; ++g) {
    RowGroup group;
    group.num_rows = 10 + g;
    for (int c = 0; c < columns; ++c) {
      ColumnChunk chunk;
      chunk.file_offset = 1000LL * c + g;
      ColumnMetaData& md = chunk.meta_data.emplace();
      md.type = Type::INT64;
      md.codec = CompressionCodec::ZSTD;
      md.encodings = {Encoding::PLAIN, Encoding::RLE};
      md.path_in_schema = {m.schema[static_cast<size_t>(c) + 1].name};
      md.num_values = group.num_rows;
      md.total_uncompressed_size = 200 + c;
      md.total_compressed_size = 100 + c + g;
      md.data_page_offset = chunk.file_offset;
      if (c % 3 != 0) {
        Statistics& s = md.statistics.emplace();
        s.null_count = c % 7;
        s.min_value = std::string(static_cast<size_t>(c % 30), 'a');  // some inline, some on the heap
        s.max_value = "max" + std::to_string(c);
      }
      group.columns.push_back(std::move(chunk));
    }
    m.num_rows += group.num_rows;
    m.row_groups.push_back(std::move(group));
  }
  return m;
}

TEST(WideFooter, ThousandsOfChunksPerRowGroupRoundTrip) {
  // 6,000 chunks of ~500 bytes each per row group: multi-megabyte chunk arrays.
  const FileMetaData m = wide_metadata(6000, 3);
  Buffer bytes;
  encode_file_metadata(m, bytes);
  const FileMetaData decoded = decode_file_metadata(bytes.span());
  ASSERT_EQ(decoded.row_groups.size(), 3u);
  ASSERT_EQ(decoded.row_groups[2].columns.size(), 6000u);
  const ColumnChunk& last = decoded.row_groups[2].columns[5999];
  EXPECT_EQ(last.file_offset, 5999002);
  ASSERT_TRUE(last.meta_data.has_value());
  EXPECT_EQ(last.meta_data->total_compressed_size, 100 + 5999 + 2);
  ASSERT_TRUE(last.meta_data->statistics.has_value());
  EXPECT_EQ(last.meta_data->statistics->null_count, 5999 % 7);
  EXPECT_EQ(*last.meta_data->statistics->max_value, "max5999");
  EXPECT_EQ(last.meta_data->path_in_schema.front(), "column_5999");
  EXPECT_FALSE(decoded.row_groups[1].columns[3000].meta_data->statistics.has_value());
  EXPECT_TRUE(decoded == m);
}

TEST(WideFooter, ChunkCountBeyondTheInputFailsCleanly) {
  FileMetaData m = wide_metadata(3000, 1);
  Buffer bytes;
  encode_file_metadata(m, bytes);
  // Keep the first half: the list header still promises 3,000 chunks.
  const std::span<const uint8_t> half = bytes.span().first(bytes.size() / 2);
  EXPECT_THROW(decode_file_metadata(half), Error);
}

}  // namespace
}  // namespace parquetry
