// The enumerations of the Parquet format (parquet.thrift), shared by every
// layer. Numeric values are the Thrift wire values.
#pragma once

#include <cstdint>
#include <string_view>

#include "parquetry/export.h"

namespace parquetry {

/// Physical (storage) type of a leaf column.
enum class Type : int32_t {
  BOOLEAN = 0,
  INT32 = 1,
  INT64 = 2,
  INT96 = 3,
  FLOAT = 4,
  DOUBLE = 5,
  BYTE_ARRAY = 6,
  FIXED_LEN_BYTE_ARRAY = 7,
};

/// Legacy type annotation (superseded by LogicalType, still written for compatibility).
enum class ConvertedType : int32_t {
  UTF8 = 0,
  MAP = 1,
  MAP_KEY_VALUE = 2,
  LIST = 3,
  ENUM = 4,
  DECIMAL = 5,
  DATE = 6,
  TIME_MILLIS = 7,
  TIME_MICROS = 8,
  TIMESTAMP_MILLIS = 9,
  TIMESTAMP_MICROS = 10,
  UINT_8 = 11,
  UINT_16 = 12,
  UINT_32 = 13,
  UINT_64 = 14,
  INT_8 = 15,
  INT_16 = 16,
  INT_32 = 17,
  INT_64 = 18,
  JSON = 19,
  BSON = 20,
  INTERVAL = 21,
};

enum class FieldRepetitionType : int32_t {
  REQUIRED = 0,
  OPTIONAL = 1,
  REPEATED = 2,
};

enum class Encoding : int32_t {
  PLAIN = 0,
  // 1 was GROUP_VAR_INT, never used.
  PLAIN_DICTIONARY = 2,
  RLE = 3,
  BIT_PACKED = 4,
  DELTA_BINARY_PACKED = 5,
  DELTA_LENGTH_BYTE_ARRAY = 6,
  DELTA_BYTE_ARRAY = 7,
  RLE_DICTIONARY = 8,
  BYTE_STREAM_SPLIT = 9,
};

enum class CompressionCodec : int32_t {
  UNCOMPRESSED = 0,
  SNAPPY = 1,
  GZIP = 2,
  LZO = 3,
  BROTLI = 4,
  LZ4 = 5,  ///< deprecated: Hadoop-framed LZ4 (or raw blocks from some writers)
  ZSTD = 6,
  LZ4_RAW = 7,
};

enum class PageType : int32_t {
  DATA_PAGE = 0,
  INDEX_PAGE = 1,
  DICTIONARY_PAGE = 2,
  DATA_PAGE_V2 = 3,
};

enum class BoundaryOrder : int32_t {
  UNORDERED = 0,
  ASCENDING = 1,
  DESCENDING = 2,
};

/// Upper-case names as they appear in parquet.thrift ("INT32", "SNAPPY", ...).
PARQUETRY_API std::string_view type_name(Type type);
PARQUETRY_API std::string_view converted_type_name(ConvertedType type);
PARQUETRY_API std::string_view repetition_name(FieldRepetitionType repetition);
PARQUETRY_API std::string_view encoding_name(Encoding encoding);
PARQUETRY_API std::string_view codec_name(CompressionCodec codec);
PARQUETRY_API std::string_view page_type_name(PageType type);
PARQUETRY_API std::string_view boundary_order_name(BoundaryOrder order);

/// Byte width of fixed-width physical types (BOOLEAN: 0, BYTE_ARRAY: 0, FLBA: 0).
constexpr int physical_width(Type type) {
  switch (type) {
    case Type::INT32:
    case Type::FLOAT: return 4;
    case Type::INT64:
    case Type::DOUBLE: return 8;
    case Type::INT96: return 12;
    default: return 0;
  }
}

}  // namespace parquetry
