#include "parquetry/types.h"

#include <iterator>

namespace parquetry {

std::string_view type_name(Type type) {
  switch (type) {
    case Type::BOOLEAN: return "BOOLEAN";
    case Type::INT32: return "INT32";
    case Type::INT64: return "INT64";
    case Type::INT96: return "INT96";
    case Type::FLOAT: return "FLOAT";
    case Type::DOUBLE: return "DOUBLE";
    case Type::BYTE_ARRAY: return "BYTE_ARRAY";
    case Type::FIXED_LEN_BYTE_ARRAY: return "FIXED_LEN_BYTE_ARRAY";
  }
  return "UNKNOWN";
}

std::string_view converted_type_name(ConvertedType type) {
  static constexpr std::string_view kNames[] = {
      "UTF8",         "MAP",         "MAP_KEY_VALUE", "LIST",   "ENUM",   "DECIMAL",
      "DATE",         "TIME_MILLIS", "TIME_MICROS",   "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS",
      "UINT_8",       "UINT_16",     "UINT_32",       "UINT_64", "INT_8",  "INT_16",
      "INT_32",       "INT_64",      "JSON",          "BSON",   "INTERVAL"};
  auto index = static_cast<int32_t>(type);
  return index >= 0 && index < int32_t(std::size(kNames)) ? kNames[index] : "UNKNOWN";
}

std::string_view repetition_name(FieldRepetitionType repetition) {
  switch (repetition) {
    case FieldRepetitionType::REQUIRED: return "required";
    case FieldRepetitionType::OPTIONAL: return "optional";
    case FieldRepetitionType::REPEATED: return "repeated";
  }
  return "unknown";
}

std::string_view encoding_name(Encoding encoding) {
  switch (encoding) {
    case Encoding::PLAIN: return "PLAIN";
    case Encoding::PLAIN_DICTIONARY: return "PLAIN_DICTIONARY";
    case Encoding::RLE: return "RLE";
    case Encoding::BIT_PACKED: return "BIT_PACKED";
    case Encoding::DELTA_BINARY_PACKED: return "DELTA_BINARY_PACKED";
    case Encoding::DELTA_LENGTH_BYTE_ARRAY: return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::DELTA_BYTE_ARRAY: return "DELTA_BYTE_ARRAY";
    case Encoding::RLE_DICTIONARY: return "RLE_DICTIONARY";
    case Encoding::BYTE_STREAM_SPLIT: return "BYTE_STREAM_SPLIT";
  }
  return "UNKNOWN";
}

std::string_view codec_name(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::UNCOMPRESSED: return "UNCOMPRESSED";
    case CompressionCodec::SNAPPY: return "SNAPPY";
    case CompressionCodec::GZIP: return "GZIP";
    case CompressionCodec::LZO: return "LZO";
    case CompressionCodec::BROTLI: return "BROTLI";
    case CompressionCodec::LZ4: return "LZ4";
    case CompressionCodec::ZSTD: return "ZSTD";
    case CompressionCodec::LZ4_RAW: return "LZ4_RAW";
  }
  return "UNKNOWN";
}

std::string_view page_type_name(PageType type) {
  switch (type) {
    case PageType::DATA_PAGE: return "DATA_PAGE";
    case PageType::INDEX_PAGE: return "INDEX_PAGE";
    case PageType::DICTIONARY_PAGE: return "DICTIONARY_PAGE";
    case PageType::DATA_PAGE_V2: return "DATA_PAGE_V2";
  }
  return "UNKNOWN";
}

std::string_view boundary_order_name(BoundaryOrder order) {
  switch (order) {
    case BoundaryOrder::UNORDERED: return "UNORDERED";
    case BoundaryOrder::ASCENDING: return "ASCENDING";
    case BoundaryOrder::DESCENDING: return "DESCENDING";
  }
  return "UNKNOWN";
}

}  // namespace parquetry
