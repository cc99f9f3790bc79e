// The compact protocol primitives and the struct codec on hand-made bytes.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <limits>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/format/thrift_compact.h"
#include "parquetry/metadata.h"

namespace parquetry {
namespace {

using Bytes = std::vector<uint8_t>;
using thrift::CompactReader;
using thrift::CompactWriter;

Bytes written(const Buffer& b) { return Bytes(b.data(), b.data() + b.size()); }

ErrorCode error_code_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << "no error thrown";
  return ErrorCode::kInternal;
}

TEST(ThriftCompact, VarintEdgeCases) {
  Limits limits;
  struct Case {
    Bytes bytes;
    uint64_t value;
  };
  const Case cases[] = {
      {{0x00}, 0},
      {{0x7f}, 127},
      {{0x80, 0x01}, 128},
      {{0xff, 0x7f}, 16383},
      {{0x80, 0x80, 0x01}, 16384},
      {{0xff, 0xff, 0xff, 0xff, 0x0f}, 0xffffffffu},
      {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, std::numeric_limits<uint64_t>::max()},
      // A redundant (overlong) encoding of 1 is still 1.
      {{0x81, 0x00}, 1},
  };
  for (const auto& c : cases) {
    CompactReader r(c.bytes, limits);
    EXPECT_EQ(r.read_varint(), c.value);
    EXPECT_EQ(r.position(), c.bytes.size());
  }
  // Eleven bytes, or a tenth byte with more than the 64th bit: corrupt.
  Bytes too_long(10, 0xff);
  too_long.push_back(0x01);
  EXPECT_EQ(error_code_of([&] { CompactReader(too_long, limits).read_varint(); }), ErrorCode::kCorrupt);
  Bytes overflow = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
  EXPECT_EQ(error_code_of([&] { CompactReader(overflow, limits).read_varint(); }), ErrorCode::kCorrupt);
  Bytes truncated = {0x80, 0x80};
  EXPECT_EQ(error_code_of([&] { CompactReader(truncated, limits).read_varint(); }), ErrorCode::kCorrupt);
  // An i32 whose varint needs more than 32 bits is corrupt.
  Bytes wide = {0x80, 0x80, 0x80, 0x80, 0x10};
  EXPECT_EQ(error_code_of([&] { CompactReader(wide, limits).read_i32(); }), ErrorCode::kCorrupt);
}

TEST(ThriftCompact, ZigzagIntegers) {
  Limits limits;
  // zigzag: 0 -> 0, -1 -> 1, 1 -> 2, -2 -> 3, ...
  Bytes bytes = {0x00, 0x01, 0x02, 0x03, 0xfe, 0xff, 0xff, 0xff, 0x0f, 0xff, 0xff, 0xff, 0xff, 0x0f};
  CompactReader r(bytes, limits);
  EXPECT_EQ(r.read_i32(), 0);
  EXPECT_EQ(r.read_i32(), -1);
  EXPECT_EQ(r.read_i32(), 1);
  EXPECT_EQ(r.read_i32(), -2);
  EXPECT_EQ(r.read_i32(), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(r.read_i32(), std::numeric_limits<int32_t>::min());

  Buffer out;
  {
    CompactWriter w(out);
    w.put_i64(std::numeric_limits<int64_t>::min());
    w.put_i64(std::numeric_limits<int64_t>::max());
    w.put_i64(-64);
    w.put_i32(-65);
  }
  EXPECT_EQ(written(out)[10 + 10], 0x7f);  // -64 -> 127, one byte
  CompactReader back(out.span(), limits);
  EXPECT_EQ(back.read_i64(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(back.read_i64(), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(back.read_i64(), -64);
  EXPECT_EQ(back.read_i32(), -65);
  EXPECT_EQ(back.remaining(), 0u);
  // i16 range is enforced.
  Bytes big = {0x80, 0x80, 0x04};  // zigzag 65536 -> 32768
  EXPECT_EQ(error_code_of([&] { CompactReader(big, limits).read_i16(); }), ErrorCode::kCorrupt);
}

TEST(ThriftCompact, FieldHeadersShortAndLongForm) {
  Limits limits;
  // field 1 i32 (delta 1), field 16 i64 (delta 15), field 300 binary (long
  // form: type byte then zigzag i16 300 = 600 = 0xd8 0x04), field 301 true
  // (delta 1, type 1), stop.
  Bytes bytes = {0x15, 0x04, 0xf6, 0x06, 0x08, 0xd8, 0x04, 0x01, 'x', 0x11, 0x00};
  CompactReader r(bytes, limits);
  int16_t last = 0;
  auto h = r.read_field_header(last);
  EXPECT_EQ(h.type, thrift::kI32);
  EXPECT_EQ(h.id, 1);
  EXPECT_EQ(r.read_i32(), 2);
  h = r.read_field_header(last);
  EXPECT_EQ(h.type, thrift::kI64);
  EXPECT_EQ(h.id, 16);
  EXPECT_EQ(r.read_i64(), 3);
  h = r.read_field_header(last);
  EXPECT_EQ(h.type, thrift::kBinary);
  EXPECT_EQ(h.id, 300);
  EXPECT_EQ(r.read_binary(), "x");
  h = r.read_field_header(last);
  EXPECT_EQ(h.type, thrift::kTrue);
  EXPECT_EQ(h.id, 301);
  h = r.read_field_header(last);
  EXPECT_EQ(h.type, thrift::kStop);

  // The writer picks the same forms.
  Buffer out;
  {
    CompactWriter w(out);
    w.struct_begin();
    w.field_i32(1, 2);
    w.field_i64(16, 3);
    w.field_binary(300, "x");
    w.field_bool(301, true);
    w.struct_end();
  }
  EXPECT_EQ(written(out), bytes);
}

TEST(ThriftCompact, BoolFieldsAndBoolLists) {
  // SortingColumn{column_idx 7, descending true, nulls_first false}:
  // 0x15 0x0e, 0x11 (field 2 true), 0x12 (field 3 false), stop.
  Bytes sorting = {0x15, 0x0e, 0x11, 0x12, 0x00};
  // Wrap it as RowGroup field 4 inside a minimal FileMetaData to decode it
  // through the public API: version 1, empty schema list, num_rows 0, one row group.
  Bytes footer = {0x15, 0x02,   // version = 1
                  0x19, 0x0c,   // schema: list<struct> of 0
                  0x16, 0x00,   // num_rows = 0
                  0x19, 0x1c,   // row_groups: list<struct> of 1
                  0x19, 0x0c,   //   columns: empty list
                  0x16, 0x00,   //   total_byte_size 0
                  0x16, 0x00,   //   num_rows 0
                  0x19, 0x1c};  //   sorting_columns: list of 1
  footer.insert(footer.end(), sorting.begin(), sorting.end());
  footer.push_back(0x00);  // end RowGroup
  footer.push_back(0x00);  // end FileMetaData
  FileMetaData m = decode_file_metadata(footer);
  ASSERT_EQ(m.row_groups.size(), 1u);
  ASSERT_EQ(m.row_groups[0].sorting_columns.size(), 1u);
  EXPECT_EQ(m.row_groups[0].sorting_columns[0], (SortingColumn{7, true, false}));
  Buffer again;
  encode_file_metadata(m, again);
  EXPECT_EQ(written(again), footer);

  // ColumnIndex.null_pages is a list<bool>: one byte per element (1 true, 2 false).
  Bytes index = {0x19, 0x31, 0x01, 0x02, 0x01,        // null_pages [true, false, true]
                 0x19, 0x38, 0x00, 0x01, 'a',  0x00,  // min_values ["", "a", ""]
                 0x19, 0x38, 0x00, 0x01, 'b',  0x00,  // max_values ["", "b", ""]
                 0x15, 0x02,                          // boundary_order ASCENDING
                 0x00};
  ColumnIndex ci = decode_column_index(index);
  EXPECT_EQ(ci.null_pages, (std::vector<bool>{true, false, true}));
  EXPECT_EQ(ci.min_values, (std::vector<std::string>{"", "a", ""}));
  EXPECT_EQ(ci.max_values, (std::vector<std::string>{"", "b", ""}));
  EXPECT_EQ(ci.boundary_order, BoundaryOrder::ASCENDING);
  EXPECT_TRUE(ci.null_counts.empty());
  Buffer encoded;
  encode_column_index(ci, encoded);
  EXPECT_EQ(written(encoded), index);
}

TEST(ThriftCompact, SkipsUnknownFieldsOfEveryType) {
  // A PageLocation followed by unknown fields of every type, nested ones included.
  const Bytes fields = {
      0x16, 0x0a,                                         // 1: offset = 5 (i64)
      0x15, 0x08,                                         // 2: compressed_page_size = 4
      0x16, 0x04,                                         // 3: first_row_index = 2
      0x11,                                               // 4: bool true (value in the header)
      0x13, 0x7f,                                         // 5: byte
      0x14, 0x05,                                         // 6: i16
      0x17, 1,    2,    3,    4,    5,    6,    7,    8,  // 7: double
      0x18, 0x02, 'h',  'i',                              // 8: binary
      0x19, 0x29, 0x35, 0x02, 0x04, 0x06, 0x05,           // 9: list<list<i32>> [[1, 2, 3], []]
      0x1a, 0x21, 0x01, 0x02,                             // 10: set<bool> {true, false}
      0x1b, 0x02, 0x59, 0x02, 0x15, 0x04, 0x04, 0x05,     // 11: map<i32, list<i32>> {1: [2], 2: []}
      0x1c, 0x15, 0x02, 0x1c, 0x11, 0x00, 0x00,           // 12: struct {1: 1, 2: struct {1: true}}
      0x0b, 0xd0, 0x0f, 0x00,                             // 1000 (long form): empty map
      0x00,                                               // stop
  };
  Bytes index = {0x19, 0x1c};  // OffsetIndex.page_locations: list<struct> of 1
  index.insert(index.end(), fields.begin(), fields.end());
  index.push_back(0x00);
  OffsetIndex oi = decode_offset_index(index);
  ASSERT_EQ(oi.page_locations.size(), 1u);
  EXPECT_EQ(oi.page_locations[0], (PageLocation{5, 4, 2}));
  EXPECT_TRUE(oi.unencoded_byte_array_data_bytes.empty());

  // The same bytes skipped as one unknown struct consume exactly everything.
  CompactReader r(fields, Limits{});
  r.skip_struct();
  EXPECT_EQ(r.remaining(), 0u);
  // Cut anywhere, skipping fails cleanly.
  for (size_t cut = 0; cut < fields.size(); ++cut) {
    Bytes part(fields.begin(), fields.begin() + cut);
    EXPECT_EQ(error_code_of([&] { CompactReader(part, Limits{}).skip_struct(); }), ErrorCode::kCorrupt)
        << cut;
  }
}

TEST(ThriftCompact, LimitsAreEnforced) {
  Limits limits;
  limits.max_thrift_string_size = 4;
  Bytes long_string = {0x05, 'a', 'b', 'c', 'd', 'e'};
  EXPECT_EQ(error_code_of([&] { CompactReader(long_string, limits).read_binary(); }),
            ErrorCode::kLimitExceeded);
  Bytes past_end = {0x04, 'a'};
  EXPECT_EQ(error_code_of([&] { CompactReader(past_end, limits).read_binary(); }), ErrorCode::kCorrupt);

  limits.max_thrift_container_size = 3;
  Bytes big_list = {0x45, 0, 0, 0, 0};  // list<i32> of 4
  EXPECT_EQ(error_code_of([&] { CompactReader(big_list, limits).read_list_header(); }),
            ErrorCode::kLimitExceeded);
  // A count larger than the remaining bytes is refused before any allocation.
  Bytes lying_list = {0xf5, 0xff, 0xff, 0x03, 0x00};
  EXPECT_EQ(error_code_of([&] { CompactReader(lying_list, Limits{}).read_list_header(); }),
            ErrorCode::kCorrupt);

  // Nesting: 100 nested structs as field 1 of each other.
  Bytes deep;
  for (int i = 0; i < 100; ++i) deep.push_back(0x1c);
  for (int i = 0; i < 101; ++i) deep.push_back(0x00);
  EXPECT_EQ(error_code_of([&] { CompactReader(deep, Limits{}).skip_struct(); }), ErrorCode::kLimitExceeded);
  Limits deep_ok;
  deep_ok.max_nesting_depth = 128;
  CompactReader r(deep, deep_ok);
  r.skip_struct();
  EXPECT_EQ(r.remaining(), 0u);

  // An unknown field deep enough to break the limit inside a real struct.
  Bytes page_header = {0x15, 0x00, 0x15, 0x00, 0x15, 0x00};
  page_header.insert(page_header.end(), deep.begin(), deep.end());
  EXPECT_EQ(error_code_of([&] { decode_page_header(page_header); }), ErrorCode::kLimitExceeded);
}

TEST(ThriftCompact, RequiredFieldsAndErrorsNameTheOffset) {
  // PageHeader without compressed_page_size (field 3).
  Bytes missing = {0x15, 0x00, 0x15, 0x02, 0x00};
  try {
    decode_page_header(missing);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kCorrupt);
    EXPECT_NE(e.message().find("PageHeader is missing required field 3"), std::string::npos) << e.message();
    EXPECT_EQ(e.where().offset, 5);
  }
  // Truncated in the middle of a string: the offset is where the string starts.
  Bytes truncated = {0x15, 0x02, 0x19, 0x1c, 0x48, 0x10, 'a'};
  try {
    decode_file_metadata(truncated);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kCorrupt);
    EXPECT_EQ(e.where().offset, 6);
  }
  // An invalid field type nibble.
  Bytes bad_type = {0x1d, 0x00};
  EXPECT_EQ(error_code_of([&] { decode_offset_index(bad_type); }), ErrorCode::kCorrupt);
  // An empty input.
  EXPECT_EQ(error_code_of([&] { decode_file_metadata({}); }), ErrorCode::kCorrupt);
  // A footer above the limit is refused up front.
  Limits small;
  small.max_footer_size = 3;
  Bytes four = {0, 0, 0, 0};
  EXPECT_EQ(error_code_of([&] { decode_file_metadata(four, small); }), ErrorCode::kLimitExceeded);
}

TEST(ThriftCompact, MistypedKnownFieldIsSkipped) {
  // PageLocation whose field 2 is a binary instead of an i32, followed by the
  // real i32 as field 2 again: the mistyped one is skipped like an unknown field.
  Bytes bytes = {0x19, 0x1c, 0x16, 0x0a, 0x18, 0x01, 'z', 0x05, 0x04, 0x08, 0x16, 0x04, 0x00, 0x00};
  // 0x05 0x04: type i32 with long-form id 2 (zigzag 4).
  OffsetIndex oi = decode_offset_index(bytes);
  ASSERT_EQ(oi.page_locations.size(), 1u);
  EXPECT_EQ(oi.page_locations[0], (PageLocation{5, 4, 2}));
}

TEST(ThriftCompact, EveryStructRoundTrips) {
  FileMetaData m;
  m.version = 2;
  m.num_rows = 1234567890123;
  m.created_by = "parquetry test";
  SchemaElement root;
  root.name = "root";
  root.num_children = 3;
  m.schema.push_back(root);
  auto leaf = [](std::string name, Type type, LogicalType lt) {
    SchemaElement e;
    e.name = std::move(name);
    e.type = type;
    e.repetition_type = FieldRepetitionType::OPTIONAL;
    e.logical_type = std::move(lt);
    return e;
  };
  m.schema.push_back(leaf("ts", Type::INT64, LogicalType{TimestampType{true, TimeUnit::NANOS}}));
  m.schema.push_back(leaf("dec", Type::FIXED_LEN_BYTE_ARRAY, LogicalType{DecimalType{2, 10}}));
  m.schema.back().type_length = 5;
  m.schema.back().scale = 2;
  m.schema.back().precision = 10;
  m.schema.push_back(leaf("geo", Type::BYTE_ARRAY,
                          LogicalType{GeographyType{"OGC:CRS84", EdgeInterpolationAlgorithm::KARNEY}}));
  m.schema.push_back(leaf("v", Type::BYTE_ARRAY, LogicalType{VariantType{int8_t{1}}}));
  m.schema.push_back(leaf("t", Type::INT32, LogicalType{TimeType{false, TimeUnit::MILLIS}}));
  m.schema.push_back(leaf("u8", Type::INT32, LogicalType{IntType{8, false}}));
  m.schema.push_back(leaf("g", Type::BYTE_ARRAY, LogicalType{GeometryType{}}));
  m.schema.push_back(leaf("future", Type::BYTE_ARRAY, LogicalType{UnrecognizedLogicalType{77}}));
  m.schema.back().field_id = -3;
  m.key_value_metadata = {{"k", "v"}, {"only key", std::nullopt}};
  m.column_orders = {ColumnOrder::TYPE_ORDER, ColumnOrder::IEEE_754_TOTAL_ORDER,
                     ColumnOrder::INT96_TIMESTAMP_ORDER};
  m.encryption_algorithm = EncryptionAlgorithm{AesGcmCtrV1{"prefix", "unique", true}};
  m.footer_signing_key_metadata = std::string("\0key", 4);

  RowGroup g;
  g.num_rows = 10;
  g.total_byte_size = 999;
  g.file_offset = 4;
  g.total_compressed_size = 500;
  g.ordinal = -2;
  ColumnChunk c;
  c.file_offset = 0;
  c.file_path = "other.parquet";
  ColumnMetaData& md = c.meta_data.emplace();
  md.type = Type::DOUBLE;
  md.encodings = {Encoding::PLAIN, Encoding::RLE_DICTIONARY, static_cast<Encoding>(42)};
  md.path_in_schema = {"a", "b"};
  md.codec = CompressionCodec::ZSTD;
  md.num_values = -1;
  md.total_uncompressed_size = int64_t{1} << 40;
  md.total_compressed_size = 7;
  md.data_page_offset = 100;
  md.dictionary_page_offset = 50;
  md.index_page_offset = 60;
  Statistics stats;
  stats.min_value = std::string("\x00\x01", 2);
  stats.max_value = std::string(300, 'x');
  stats.min = "old";
  stats.null_count = 0;
  stats.distinct_count = 3;
  stats.nan_count = 1;
  stats.is_min_value_exact = false;
  stats.is_max_value_exact = true;
  md.statistics = stats;
  md.encoding_stats = {{PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1},
                       {PageType::DATA_PAGE, Encoding::RLE_DICTIONARY, 20}};
  md.bloom_filter_offset = 1000;
  md.bloom_filter_length = 64;
  md.size_statistics = SizeStatistics{11, {1, 2}, {3, 4, 5}};
  GeospatialStatistics geo;
  geo.bbox = BoundingBox{-1, 1, -2, 2, 0.5, 0.75, std::nullopt, std::nullopt};
  geo.geospatial_types = std::vector<int32_t>{};
  md.geospatial_statistics = geo;
  md.key_value_metadata = {{"ck", "cv"}};
  c.offset_index_offset = 1;
  c.offset_index_length = 2;
  c.column_index_offset = 3;
  c.column_index_length = 4;
  c.crypto_metadata = ColumnCryptoMetaData{EncryptionWithColumnKey{{"a", "b"}, "km"}};
  c.encrypted_column_metadata = "secret";
  g.columns.push_back(c);
  ColumnChunk footer_key;
  footer_key.crypto_metadata = ColumnCryptoMetaData{EncryptionWithFooterKey{}};
  g.columns.push_back(footer_key);
  g.sorting_columns = {{0, false, true}};
  m.row_groups.push_back(g);

  Buffer out;
  encode_file_metadata(m, out);
  EXPECT_EQ(decode_file_metadata(out.span()), m);

  PageHeader v2;
  v2.type = PageType::DATA_PAGE_V2;
  v2.uncompressed_page_size = 100;
  v2.compressed_page_size = 50;
  v2.crc = -12345;
  v2.data_page_header_v2 = DataPageHeaderV2{10, 2, 8, Encoding::DELTA_BINARY_PACKED, 3, 0, false, stats};
  PageHeader dict;
  dict.type = PageType::DICTIONARY_PAGE;
  dict.dictionary_page_header = DictionaryPageHeader{5, Encoding::PLAIN, true};
  PageHeader v1;
  v1.data_page_header = DataPageHeader{7, Encoding::PLAIN, Encoding::RLE, Encoding::BIT_PACKED, std::nullopt};
  v1.index_page_header = IndexPageHeader{};
  for (const PageHeader& h : {v2, dict, v1}) {
    Buffer b;
    encode_page_header(h, b);
    b.append("trailing", 8);  // the decoder stops at the header's end
    size_t consumed = 0;
    EXPECT_EQ(decode_page_header(b.span(), Limits{}, &consumed), h);
    EXPECT_EQ(consumed, b.size() - 8);
  }

  ColumnIndex ci;
  ci.null_pages = {false, true};
  ci.min_values = {"a", ""};
  ci.max_values = {"z", ""};
  ci.boundary_order = BoundaryOrder::DESCENDING;
  ci.null_counts = {0, 5};
  ci.repetition_level_histograms = {1, 2, 3, 4};
  ci.definition_level_histograms = {5, 6, 7, 8};
  ci.nan_counts = {0, 0};
  Buffer cib;
  encode_column_index(ci, cib);
  EXPECT_EQ(decode_column_index(cib.span()), ci);

  OffsetIndex oi;
  oi.page_locations = {{4, 100, 0}, {104, 200, 50}};
  oi.unencoded_byte_array_data_bytes = {10, 20};
  Buffer oib;
  encode_offset_index(oi, oib);
  EXPECT_EQ(decode_offset_index(oib.span()), oi);

  BloomFilterHeader bloom{4096};
  Buffer bb;
  encode_bloom_filter_header(bloom, bb);
  // numBytes 4096 (zigzag 8192), then fields 2..4: a union struct holding
  // member 1 (an empty struct) each, then stop.
  EXPECT_EQ(written(bb), (Bytes{0x15, 0x80, 0x40, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c,
                                0x00, 0x00, 0x00}));
  EXPECT_EQ(decode_bloom_filter_header(bb.span()), bloom);

  FileCryptoMetaData crypto{EncryptionAlgorithm{AesGcmV1{std::nullopt, "u", std::nullopt}}, "key"};
  Buffer cb;
  encode_file_crypto_metadata(crypto, cb);
  EXPECT_EQ(decode_file_crypto_metadata(cb.span()), crypto);
}

}  // namespace
}  // namespace parquetry
