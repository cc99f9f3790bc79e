// The footer codec against the parquet-testing corpus: every public file
// decodes, a dozen files are checked fact by fact, encrypted files give the
// documented error, and decode -> encode -> decode is the identity for
// footers, page headers and page indexes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>

#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"
#include "test_support.h"

namespace parquetry {
namespace {

using testing::parquet_testing;
using testing::all_public_parquet_files;

FileMetaData read_footer(const std::string& relative, const MetadataOptions& options = {}) {
  MmapSource source(parquet_testing("data/" + relative).string());
  return read_file_metadata(source, Limits{}, options);
}

const ColumnMetaData& column(const FileMetaData& m, size_t row_group, size_t index) {
  return m.row_groups.at(row_group).columns.at(index).meta_data.value();
}

InlineVector<Encoding, 4> encodings(std::initializer_list<Encoding> list) { return list; }

TEST(MetadataFiles, PublicFileListHasNoEncryptedFiles) {
  auto files = all_public_parquet_files();
  ASSERT_GE(files.size(), 45u);
  for (const auto& f : files) {
    EXPECT_EQ(f.extension(), ".parquet") << f;
    EXPECT_EQ(f.string().find(".encrypted"), std::string::npos) << f;
  }
}

TEST(MetadataFiles, EveryPublicFooterDecodes) {
  for (const auto& path : all_public_parquet_files()) {
    SCOPED_TRACE(path.string());
    MmapSource source(path.string());
    FileMetaData m = read_file_metadata(source);
    ASSERT_FALSE(m.schema.empty());
    EXPECT_EQ(m.schema[0].num_children.has_value(), true);
    int64_t rows = 0;
    for (const auto& g : m.row_groups) rows += g.num_rows;
    EXPECT_EQ(rows, m.num_rows);
    // The same footer read with pread gives the same structs.
    FileSource file(path.string());
    EXPECT_EQ(read_file_metadata(file), m);
  }
}

TEST(MetadataFiles, AllTypesPlain) {
  FileMetaData m = read_footer("alltypes_plain.parquet");
  EXPECT_EQ(m.version, 1);
  EXPECT_EQ(m.num_rows, 8);
  ASSERT_EQ(m.row_groups.size(), 1u);
  ASSERT_EQ(m.schema.size(), 12u);
  EXPECT_EQ(m.schema[0].name, "schema");
  EXPECT_EQ(m.schema[0].num_children, 11);
  EXPECT_EQ(m.schema[11].name, "timestamp_col");
  EXPECT_EQ(m.schema[11].type, Type::INT96);
  EXPECT_EQ(m.schema[11].repetition_type, FieldRepetitionType::OPTIONAL);
  EXPECT_EQ(m.schema[2].type, Type::BOOLEAN);
  EXPECT_EQ(m.created_by, "impala version 1.3.0-INTERNAL (build 8a48ddb1eff84592b3fc06bc6f51ec120e1fffc9)");
  ASSERT_EQ(m.row_groups[0].columns.size(), 11u);
  const ColumnMetaData& id = column(m, 0, 0);
  EXPECT_EQ(id.path_in_schema, std::vector<std::string>{"id"});
  EXPECT_EQ(id.type, Type::INT32);
  EXPECT_EQ(id.codec, CompressionCodec::UNCOMPRESSED);
  EXPECT_EQ(id.num_values, 8);
  EXPECT_EQ(id.encodings, encodings({Encoding::RLE, Encoding::PLAIN_DICTIONARY, Encoding::PLAIN}));
  EXPECT_EQ(id.dictionary_page_offset, 4);
  EXPECT_EQ(id.data_page_offset, 49);
  EXPECT_FALSE(id.statistics.has_value());
  EXPECT_EQ(column(m, 0, 10).type, Type::INT96);
  EXPECT_EQ(column(m, 0, 10).data_page_offset, 1040);
}

TEST(MetadataFiles, DataPageV2Snappy) {
  FileMetaData m = read_footer("datapage_v2.snappy.parquet");
  EXPECT_EQ(m.num_rows, 5);
  ASSERT_EQ(m.row_groups.size(), 1u);
  ASSERT_EQ(m.row_groups[0].columns.size(), 5u);
  for (const auto& c : m.row_groups[0].columns) EXPECT_EQ(c.meta_data->codec, CompressionCodec::SNAPPY);
  EXPECT_EQ(column(m, 0, 1).encodings, encodings({Encoding::DELTA_BINARY_PACKED}));
  EXPECT_EQ(column(m, 0, 4).path_in_schema, (std::vector<std::string>{"e", "list", "element"}));
  EXPECT_EQ(column(m, 0, 4).num_values, 10);
  EXPECT_EQ(m.schema[5].converted_type, ConvertedType::LIST);
  // Every data page of the file is a DATA_PAGE_V2.
  MmapSource source(parquet_testing("data/datapage_v2.snappy.parquet").string());
  int pages = 0;
  for (const auto& chunk : m.row_groups[0].columns) {
    PageHeaderWalker walker(source, *chunk.meta_data);
    PageHeaderAt page;
    while (walker.next(page)) {
      if (page.header.type == PageType::DICTIONARY_PAGE) continue;
      EXPECT_EQ(page.header.type, PageType::DATA_PAGE_V2);
      ASSERT_TRUE(page.header.data_page_header_v2.has_value());
      ++pages;
    }
  }
  EXPECT_GE(pages, 5);
  // parquet-mr 1.8 put the string column's dictionary page at data_page_offset
  // (without dictionary_page_offset); the data page follows it.
  PageHeaderWalker walker(source, column(m, 0, 0));
  PageHeaderAt page;
  ASSERT_TRUE(walker.next(page));
  EXPECT_EQ(page.offset, 4);
  EXPECT_EQ(page.header.type, PageType::DICTIONARY_PAGE);
  ASSERT_TRUE(page.header.dictionary_page_header.has_value());
  EXPECT_EQ(page.header.dictionary_page_header->num_values, 1);  // "abc" is the only string
  const int64_t second_page = page.offset + page.header_size + page.header.compressed_page_size;
  ASSERT_TRUE(walker.next(page));
  EXPECT_EQ(page.offset, second_page);
  ASSERT_TRUE(page.header.data_page_header_v2.has_value());
  EXPECT_EQ(page.header.data_page_header_v2->num_values, 5);
  EXPECT_EQ(page.header.data_page_header_v2->num_rows, 5);
  EXPECT_EQ(page.header.data_page_header_v2->num_nulls, 1);
}

TEST(MetadataFiles, DeltaLengthByteArrayZstd) {
  FileMetaData m = read_footer("delta_length_byte_array.parquet");
  EXPECT_EQ(m.num_rows, 1000);
  EXPECT_FALSE(m.created_by.has_value());
  const ColumnMetaData& c = column(m, 0, 0);
  EXPECT_EQ(c.codec, CompressionCodec::ZSTD);
  EXPECT_EQ(c.path_in_schema, std::vector<std::string>{"FRUIT"});
  EXPECT_EQ(c.encodings, encodings({Encoding::RLE, Encoding::DELTA_LENGTH_BYTE_ARRAY}));
  ASSERT_TRUE(m.schema[1].logical_type.has_value());
  EXPECT_TRUE(m.schema[1].logical_type->is<StringType>());
}

TEST(MetadataFiles, Float16LogicalType) {
  FileMetaData m = read_footer("float16_nonzeros_and_nans.parquet");
  EXPECT_EQ(m.num_rows, 8);
  ASSERT_EQ(m.schema.size(), 2u);
  EXPECT_EQ(m.schema[1].name, "x");
  EXPECT_EQ(m.schema[1].type, Type::FIXED_LEN_BYTE_ARRAY);
  EXPECT_EQ(m.schema[1].type_length, 2);
  ASSERT_TRUE(m.schema[1].logical_type.has_value());
  EXPECT_TRUE(m.schema[1].logical_type->is<Float16Type>());
  EXPECT_EQ(m.schema[1].logical_type->field_id(), 15);
  const ColumnMetaData& c = column(m, 0, 0);
  ASSERT_TRUE(c.statistics.has_value());
  EXPECT_EQ(c.statistics->null_count, 1);
  ASSERT_TRUE(c.statistics->min_value.has_value());
  EXPECT_EQ(c.statistics->min_value->size(), 2u);
  EXPECT_EQ(m.column_orders, std::vector<ColumnOrder>{ColumnOrder::TYPE_ORDER});
}

TEST(MetadataFiles, UnknownLogicalTypeIsKept) {
  FileMetaData m = read_footer("unknown-logical-type.parquet");
  EXPECT_EQ(m.num_rows, 3);
  ASSERT_EQ(m.schema.size(), 3u);
  EXPECT_EQ(m.schema[1].name, "column with known type");
  EXPECT_TRUE(m.schema[1].logical_type->is<StringType>());
  EXPECT_EQ(m.schema[2].name, "column with unknown type");
  ASSERT_TRUE(m.schema[2].logical_type.has_value());
  const auto* unknown = m.schema[2].logical_type->get_if<UnrecognizedLogicalType>();
  ASSERT_NE(unknown, nullptr);
  EXPECT_EQ(unknown->field_id, 2555);
  EXPECT_EQ(m.schema[2].type, Type::BYTE_ARRAY);
}

TEST(MetadataFiles, ColumnChunkKeyValueMetadata) {
  FileMetaData m = read_footer("column_chunk_key_value_metadata.parquet");
  EXPECT_EQ(m.num_rows, 0);
  const ColumnMetaData& c = column(m, 0, 0);
  ASSERT_EQ(c.key_value_metadata.size(), 2u);
  EXPECT_EQ(c.key_value_metadata[0].key, "foo");
  EXPECT_EQ(c.key_value_metadata[0].value, "bar");
  EXPECT_EQ(c.key_value_metadata[1].key, "thisiskeywithoutvalue");
  EXPECT_FALSE(c.key_value_metadata[1].value.has_value());
  EXPECT_TRUE(column(m, 0, 1).key_value_metadata.empty());
}

TEST(MetadataFiles, DictPageOffsetZeroIsIgnoredByTheWalker) {
  FileMetaData m = read_footer("dict-page-offset-zero.parquet");
  EXPECT_EQ(m.num_rows, 39);
  const ColumnMetaData& c = column(m, 0, 0);
  EXPECT_EQ(c.dictionary_page_offset, 0);
  EXPECT_EQ(c.data_page_offset, 4);
  EXPECT_EQ(c.codec, CompressionCodec::SNAPPY);
  MmapSource source(parquet_testing("data/dict-page-offset-zero.parquet").string());
  PageHeaderWalker walker(source, c);
  PageHeaderAt page;
  ASSERT_TRUE(walker.next(page));
  EXPECT_EQ(page.offset, 4);
  EXPECT_EQ(page.header.type, PageType::DATA_PAGE);
  ASSERT_TRUE(page.header.data_page_header.has_value());
  EXPECT_EQ(page.header.data_page_header->num_values, 39);
  EXPECT_FALSE(walker.next(page));
}

TEST(MetadataFiles, SortingColumns) {
  FileMetaData m = read_footer("sort_columns.parquet");
  EXPECT_EQ(m.num_rows, 6);
  ASSERT_EQ(m.row_groups.size(), 2u);
  for (const auto& g : m.row_groups) {
    EXPECT_EQ(g.num_rows, 3);
    ASSERT_EQ(g.sorting_columns.size(), 2u);
    EXPECT_EQ(g.sorting_columns[0], (SortingColumn{0, true, true}));
    EXPECT_EQ(g.sorting_columns[1], (SortingColumn{1, false, false}));
  }
}

TEST(MetadataFiles, Lz4RawAndInt96) {
  FileMetaData lz4 = read_footer("lz4_raw_compressed.parquet");
  EXPECT_EQ(lz4.num_rows, 4);
  ASSERT_EQ(lz4.row_groups[0].columns.size(), 3u);
  for (const auto& c : lz4.row_groups[0].columns) EXPECT_EQ(c.meta_data->codec, CompressionCodec::LZ4_RAW);

  FileMetaData spark = read_footer("int96_from_spark.parquet");
  EXPECT_EQ(spark.num_rows, 6);
  EXPECT_EQ(spark.schema[1].type, Type::INT96);
  EXPECT_EQ(column(spark, 0, 0).codec, CompressionCodec::SNAPPY);
  EXPECT_EQ(column(spark, 0, 0).encodings,
            encodings({Encoding::PLAIN_DICTIONARY, Encoding::BIT_PACKED, Encoding::RLE}));
  EXPECT_TRUE(spark.row_groups[0].columns[0].offset_index_offset.has_value());
}

TEST(MetadataFiles, NullLogicalTypeAndIntegers) {
  FileMetaData m = read_footer("null_list.parquet");
  ASSERT_EQ(m.schema.size(), 4u);
  EXPECT_TRUE(m.schema[1].logical_type->is<ListType>());
  EXPECT_EQ(m.schema[2].repetition_type, FieldRepetitionType::REPEATED);
  EXPECT_TRUE(m.schema[3].logical_type->is<NullType>());
  EXPECT_EQ(m.schema[3].logical_type->field_id(), 11);

  FileMetaData tiny = read_footer("alltypes_tiny_pages.parquet");
  EXPECT_EQ(tiny.num_rows, 7300);
  const IntType* int8 = tiny.schema[3].logical_type->get_if<IntType>();
  ASSERT_NE(int8, nullptr);
  EXPECT_EQ(int8->bit_width, 8);
  EXPECT_TRUE(int8->is_signed);
  EXPECT_EQ(tiny.schema[3].converted_type, ConvertedType::INT_8);
  EXPECT_EQ(tiny.schema[4].logical_type->get_if<IntType>()->bit_width, 16);
}

TEST(MetadataFiles, BloomFilterIndexAndEncodingStats) {
  FileMetaData m = read_footer("data_index_bloom_encoding_stats.parquet");
  EXPECT_EQ(m.num_rows, 14);
  const ColumnChunk& chunk = m.row_groups[0].columns[0];
  const ColumnMetaData& c = *chunk.meta_data;
  EXPECT_EQ(c.codec, CompressionCodec::GZIP);
  ASSERT_TRUE(c.bloom_filter_offset.has_value());
  ASSERT_TRUE(chunk.column_index_offset.has_value());
  ASSERT_TRUE(chunk.offset_index_offset.has_value());
  ASSERT_FALSE(c.encoding_stats.empty());
  EXPECT_TRUE(m.schema[1].logical_type->is<StringType>());

  MmapSource source(parquet_testing("data/data_index_bloom_encoding_stats.parquet").string());
  Buffer scratch;
  auto bytes = source.read(*c.bloom_filter_offset, source.size() - *c.bloom_filter_offset, scratch);
  size_t consumed = 0;
  BloomFilterHeader bloom = decode_bloom_filter_header(bytes, Limits{}, &consumed);
  EXPECT_GT(bloom.num_bytes, 0);
  EXPECT_EQ(bloom.num_bytes % 32, 0);  // split-block filters are whole 32-byte blocks
  EXPECT_EQ(bloom.algorithm, BloomFilterAlgorithm::BLOCK);
  EXPECT_EQ(bloom.hash, BloomFilterHash::XXHASH);
  EXPECT_EQ(bloom.compression, BloomFilterCompression::UNCOMPRESSED);
  EXPECT_GT(consumed, 0u);

  auto oi_bytes = source.read(*chunk.offset_index_offset, *chunk.offset_index_length, scratch);
  OffsetIndex oi = decode_offset_index(oi_bytes);
  ASSERT_FALSE(oi.page_locations.empty());
  EXPECT_EQ(oi.page_locations[0].first_row_index, 0);
  EXPECT_EQ(oi.page_locations[0].offset, c.data_page_offset);
  auto ci_bytes = source.read(*chunk.column_index_offset, *chunk.column_index_length, scratch);
  ColumnIndex ci = decode_column_index(ci_bytes);
  EXPECT_EQ(ci.null_pages.size(), oi.page_locations.size());
  EXPECT_EQ(ci.min_values.size(), oi.page_locations.size());
}

TEST(MetadataFiles, GeospatialStatistics) {
  FileMetaData m = read_footer("geospatial/geospatial.parquet");
  EXPECT_EQ(m.num_rows, 196);
  EXPECT_EQ(m.row_groups.size(), 31u);
  const GeometryType* geometry = m.schema[3].logical_type->get_if<GeometryType>();
  ASSERT_NE(geometry, nullptr);
  EXPECT_FALSE(geometry->crs.has_value());
  const ColumnMetaData& c = column(m, 0, 2);
  ASSERT_TRUE(c.geospatial_statistics.has_value());
  ASSERT_TRUE(c.geospatial_statistics->bbox.has_value());
  EXPECT_LE(c.geospatial_statistics->bbox->xmin, c.geospatial_statistics->bbox->xmax);
  ASSERT_TRUE(c.geospatial_statistics->geospatial_types.has_value());

  FileMetaData geography = read_footer("geospatial/crs-geography.parquet");
  EXPECT_TRUE(geography.schema[2].logical_type->is<GeographyType>());
  FileMetaData srid = read_footer("geospatial/crs-srid.parquet");
  const GeometryType* with_crs = srid.schema.back().logical_type->get_if<GeometryType>();
  ASSERT_NE(with_crs, nullptr);
  EXPECT_EQ(with_crs->crs, "srid:5070");
}

TEST(MetadataFiles, EncryptedFooterGivesUnsupported) {
  int checked = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(parquet_testing("data"))) {
    std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || !name.ends_with(".parquet.encrypted")) continue;
    if (name == "encrypt_columns_plaintext_footer.parquet.encrypted") continue;
    SCOPED_TRACE(name);
    MmapSource source(entry.path().string());
    try {
      read_file_metadata(source);
      ADD_FAILURE() << "expected an encrypted-footer error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
      EXPECT_EQ(e.message(), "encrypted footer: read it with the footer key (ReaderOptions::decryption)");
      EXPECT_EQ(e.where().file, entry.path().string());
    }
    ++checked;
  }
  EXPECT_GE(checked, 6);
}

TEST(MetadataFiles, PlaintextFooterOfEncryptedFileDecodes) {
  FileMetaData m = read_footer("encrypt_columns_plaintext_footer.parquet.encrypted");
  EXPECT_EQ(m.num_rows, 50);
  ASSERT_EQ(m.schema.size(), 9u);
  EXPECT_EQ(m.schema[1].name, "boolean_field");
  EXPECT_EQ(m.schema[8].name, "flba_field");
  ASSERT_TRUE(m.encryption_algorithm.has_value());
  EXPECT_TRUE(std::holds_alternative<AesGcmV1>(m.encryption_algorithm->value));
  ASSERT_EQ(m.row_groups.size(), 1u);
  ASSERT_EQ(m.row_groups[0].columns.size(), 8u);
  int column_keyed = 0;
  for (const auto& c : m.row_groups[0].columns) {
    if (c.crypto_metadata && std::holds_alternative<EncryptionWithColumnKey>(c.crypto_metadata->value)) {
      ++column_keyed;
      EXPECT_FALSE(std::get<EncryptionWithColumnKey>(c.crypto_metadata->value).path_in_schema.empty());
    }
  }
  EXPECT_GT(column_keyed, 0);
}

// --- round trips -----------------------------------------------------------

std::vector<std::filesystem::path> round_trip_files() {
  auto files = all_public_parquet_files();
  files.push_back(parquet_testing("data/encrypt_columns_plaintext_footer.parquet.encrypted"));
  return files;
}

TEST(MetadataRoundTrip, FootersPageHeadersAndPageIndexes) {
  int64_t page_headers = 0, column_indexes = 0, offset_indexes = 0;
  std::set<std::string> malformed;
  for (const auto& path : round_trip_files()) {
    SCOPED_TRACE(path.string());
    MmapSource source(path.string());
    FileMetaData m = read_file_metadata(source);
    Buffer encoded;
    encode_file_metadata(m, encoded);
    FileMetaData again = decode_file_metadata(encoded.span());
    ASSERT_EQ(again, m);
    // Encoding is deterministic.
    Buffer encoded_again;
    encode_file_metadata(again, encoded_again);
    ASSERT_EQ(encoded_again.size(), encoded.size());
    EXPECT_EQ(std::memcmp(encoded_again.data(), encoded.data(), encoded.size()), 0);

    const bool encrypted_columns = m.encryption_algorithm.has_value();
    for (size_t g = 0; g < m.row_groups.size(); ++g) {
      for (const auto& chunk : m.row_groups[g].columns) {
        Buffer scratch;
        if (chunk.offset_index_offset && chunk.offset_index_length && !encrypted_columns) {
          OffsetIndex oi = decode_offset_index(
              source.read(*chunk.offset_index_offset, *chunk.offset_index_length, scratch));
          Buffer out;
          encode_offset_index(oi, out);
          EXPECT_EQ(decode_offset_index(out.span()), oi);
          ++offset_indexes;
        }
        if (chunk.column_index_offset && chunk.column_index_length && !encrypted_columns) {
          ColumnIndex ci = decode_column_index(
              source.read(*chunk.column_index_offset, *chunk.column_index_length, scratch));
          Buffer out;
          encode_column_index(ci, out);
          EXPECT_EQ(decode_column_index(out.span()), ci);
          ++column_indexes;
        }
        if (!chunk.meta_data || encrypted_columns) continue;
        try {
          PageHeaderWalker walker(source, *chunk.meta_data);
          PageHeaderAt page;
          while (walker.next(page)) {
            Buffer out;
            encode_page_header(page.header, out);
            size_t consumed = 0;
            ASSERT_EQ(decode_page_header(out.span(), Limits{}, &consumed), page.header);
            EXPECT_EQ(consumed, out.size());
            ++page_headers;
          }
        } catch (const Error& e) {
          EXPECT_EQ(e.code(), ErrorCode::kCorrupt);
          malformed.insert(path.filename().string());
        }
      }
    }
  }
  // The corpus has tens of thousands of pages (overflow_i16_page_cnt alone has 40,000).
  EXPECT_GT(page_headers, 40000);
  EXPECT_GT(column_indexes, 20);
  EXPECT_GT(offset_indexes, 20);
  // Only the deliberately broken file has a page running past its chunk.
  EXPECT_EQ(malformed, std::set<std::string>{"nation.dict-malformed.parquet"});
}

TEST(MetadataRoundTrip, SkipOptionsRecordTheSkippedBytes) {
  MmapSource source(parquet_testing("data/unknown-logical-type.parquet").string());
  FileMetaData full = read_file_metadata(source);
  MetadataOptions skip{
      .skip_statistics = true, .skip_page_encoding_stats = true, .skip_size_statistics = true};
  // Decode the footer bytes directly so the recorded spans refer to them.
  Buffer scratch;
  int64_t size = source.size();
  auto tail = source.read(size - 8, 8, scratch);
  uint32_t footer_size;
  std::memcpy(&footer_size, tail.data(), 4);
  Buffer footer_bytes;
  source.read_at(size - 8 - footer_size, footer_size, footer_bytes);
  FileMetaData lean = decode_file_metadata(footer_bytes.span(), Limits{}, skip);

  const ColumnMetaData& full_c = column(full, 0, 0);
  const ColumnMetaData& lean_c = column(lean, 0, 0);
  ASSERT_TRUE(full_c.statistics.has_value());
  ASSERT_TRUE(full_c.size_statistics.has_value());
  ASSERT_FALSE(full_c.encoding_stats.empty());
  EXPECT_FALSE(lean_c.statistics.has_value());
  EXPECT_FALSE(lean_c.size_statistics.has_value());
  EXPECT_TRUE(lean_c.encoding_stats.empty());
  EXPECT_EQ(lean_c.path_in_schema, full_c.path_in_schema);
  EXPECT_EQ(lean_c.data_page_offset, full_c.data_page_offset);

  auto span_of = [&](SkippedBytes s) { return footer_bytes.span().subspan(s.offset, s.length); };
  ASSERT_GT(lean_c.skipped_statistics.length, 0u);
  EXPECT_EQ(decode_statistics(span_of(lean_c.skipped_statistics)), *full_c.statistics);
  EXPECT_EQ(decode_size_statistics(span_of(lean_c.skipped_size_statistics)), *full_c.size_statistics);
  EXPECT_EQ(decode_page_encoding_stats(span_of(lean_c.skipped_encoding_stats)), full_c.encoding_stats);
}

}  // namespace
}  // namespace parquetry
