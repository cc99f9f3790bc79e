// In-memory columnar data in the Arrow memory layout.
//
// Every batch parquetry reads is laid out exactly as Arrow lays it out
// (validity bitmap, offsets, values, children), so handing it to any
// Arrow-speaking consumer through the C Data Interface (arrow_export.h) costs
// no copy. Buffers are reference counted: an exported or sliced array keeps
// the memory it points into alive, and the reader reuses a buffer only when
// nobody else holds it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "parquetry/util/buffer.h"

namespace parquetry {

/// Logical type identifiers of the Arrow columnar format that parquetry produces.
enum class TypeId : uint8_t {
  kNull,
  kBool,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat16,
  kFloat32,
  kFloat64,
  kDate32,       ///< days since the epoch
  kTime32,       ///< seconds or milliseconds since midnight
  kTime64,       ///< microseconds or nanoseconds since midnight
  kTimestamp,    ///< int64 since the epoch in `unit`, `timezone` empty = naive
  kDecimal128,   ///< 16-byte little-endian two's complement
  kDecimal256,   ///< 32-byte little-endian two's complement
  kBinary,       ///< int32 offsets
  kString,       ///< int32 offsets, UTF-8
  kLargeBinary,  ///< int64 offsets
  kLargeString,  ///< int64 offsets, UTF-8
  kBinaryView,   ///< 16-byte views + variadic data buffers
  kStringView,
  kFixedSizeBinary,
  kList,       ///< int32 offsets + one child
  kLargeList,  ///< int64 offsets + one child
  kStruct,
  kMap,         ///< list of struct<key, value>
  kDictionary,  ///< int32 indices + a dictionary array of `dictionary_value` type
};

enum class ArrowTimeUnit : uint8_t { kSecond, kMilli, kMicro, kNano };

struct Field;

/// Extension name of a VARIANT column: a struct<metadata: binary, value:
/// binary, typed_value?> that the reader produces for a group annotated
/// VARIANT and that the writer annotates VARIANT(1) (the Arrow canonical
/// extension name).
inline constexpr const char* kVariantExtensionName = "arrow.parquet.variant";

/// Arrow's widest decimal (decimal256) holds 76 digits. A Parquet DECIMAL
/// with more (a FIXED_LEN_BYTE_ARRAY of 33 bytes or more, or a BYTE_ARRAY)
/// is read exactly as the bytes it is stored as: fixed_size_binary(n) or
/// binary holding the big-endian two's complement unscaled value, and the
/// field's metadata carries the decimal under these keys (decimal text).
inline constexpr int32_t kMaxArrowDecimalPrecision = 76;
inline constexpr const char* kWideDecimalPrecisionKey = "parquetry.decimal.precision";
inline constexpr const char* kWideDecimalScaleKey = "parquetry.decimal.scale";

/// A (possibly nested) Arrow data type.
struct DataType {
  TypeId id = TypeId::kNull;
  int32_t byte_width = 0;                      ///< kFixedSizeBinary
  int32_t precision = 0;                       ///< decimals
  int32_t scale = 0;                           ///< decimals
  ArrowTimeUnit unit = ArrowTimeUnit::kMicro;  ///< time and timestamp
  std::string timezone;                        ///< timestamp: "" = naive (not UTC-adjusted), else e.g. "UTC"
  bool keys_sorted = false;                    ///< kMap
  /// kList/kLargeList: one item field; kStruct: the fields; kMap: one field "entries" (struct key, value).
  std::vector<Field> children;
  /// kDictionary: the type of the dictionary values (indices are int32).
  std::shared_ptr<const DataType> dictionary_value;
  /// Arrow extension type name carried in field metadata ("arrow.uuid", "arrow.json", ...), empty if none.
  std::string extension_name;

  bool operator==(const DataType& other) const;
  /// Human-readable form: "int64", "timestamp[us, UTC]", "list<item: string>", ...
  std::string to_string() const;

  /// Bytes per value of a fixed-width type (bool: 0, variable width: 0).
  int32_t fixed_width() const;
  bool is_binary_like() const;  ///< binary, string and their large/view forms
  bool is_nested() const {
    return id == TypeId::kList || id == TypeId::kLargeList || id == TypeId::kStruct || id == TypeId::kMap;
  }

  static DataType make(TypeId id);
  static DataType fixed_size_binary(int32_t width);
  static DataType decimal(int32_t precision, int32_t scale);  ///< decimal128 up to 38 digits, else decimal256
  static DataType time(ArrowTimeUnit unit);                   ///< time32 for s/ms, time64 for us/ns
  static DataType timestamp(ArrowTimeUnit unit, std::string timezone);
  static DataType list(Field item);
  static DataType large_list(Field item);
  static DataType struct_(std::vector<Field> fields);
  static DataType map(Field key, Field value, bool keys_sorted = false);
  static DataType dictionary(DataType value_type);
};

/// A named, possibly nullable column or child.
struct Field {
  std::string name;
  DataType type;
  bool nullable = true;
  int32_t field_id = -1;  ///< Parquet field id, -1 when absent
  std::vector<std::pair<std::string, std::string>> metadata;

  bool operator==(const Field& other) const = default;
};

/// The columns of a batch.
struct BatchSchema {
  std::vector<Field> fields;
  std::vector<std::pair<std::string, std::string>> metadata;

  int field_index(const std::string& name) const;  ///< -1 when absent
  bool operator==(const BatchSchema& other) const = default;
};

/// A read-only view of bytes kept alive by `owner` (a parquetry::Buffer, an
/// imported ArrowArray, an mmap'd file...).
struct BufferRef {
  const uint8_t* data = nullptr;
  int64_t size = 0;
  std::shared_ptr<const void> owner;

  template <typename T>
  const T* as() const {
    return reinterpret_cast<const T*>(data);
  }
  explicit operator bool() const { return data != nullptr; }

  /// Takes ownership of a filled Buffer.
  static BufferRef adopt(Buffer&& buffer);
  /// Shares a Buffer that its creator may keep (and reuse once unshared).
  static BufferRef share(std::shared_ptr<Buffer> buffer);
};

/// One array in Arrow layout. `buffers` follow the Arrow specification for
/// the type: [validity, values] for fixed width, [validity, offsets, data]
/// for binary, [validity, offsets] for lists, [validity] for structs,
/// [validity, views, data..., ] for views (no trailing sizes buffer: the
/// exporter adds it). A null validity buffer means "no nulls".
struct ArrayData {
  std::shared_ptr<const DataType> type;
  int64_t length = 0;
  int64_t null_count = 0;
  int64_t offset = 0;
  std::vector<BufferRef> buffers;
  std::vector<std::shared_ptr<ArrayData>> children;
  std::shared_ptr<ArrayData> dictionary;  ///< kDictionary only

  bool is_valid(int64_t i) const {
    const BufferRef& validity = buffers.empty() ? kNoBuffer : buffers[0];
    return !validity || ((validity.data[(offset + i) >> 3] >> ((offset + i) & 7)) & 1);
  }
  /// Checks buffer sizes, offsets monotonic and in range, child lengths; throws kInvalidArgument
  /// (or kCorrupt for imported data) on the first violation. Used on import and in tests.
  void validate() const;

 private:
  static const BufferRef kNoBuffer;
};

/// A set of equal-length columns.
struct RecordBatch {
  std::shared_ptr<const BatchSchema> schema;
  std::vector<std::shared_ptr<ArrayData>> columns;
  int64_t num_rows = 0;
};

/// Rows [begin, end) of a batch, a row group or a file.
struct RowRange {
  int64_t begin = 0;
  int64_t end = 0;
  int64_t length() const { return end - begin; }
  bool operator==(const RowRange&) const = default;
};

/// A source of batches sharing one schema (the reader, an imported stream...).
class BatchReader {
 public:
  virtual ~BatchReader() = default;
  virtual std::shared_ptr<const BatchSchema> schema() const = 0;
  /// Fills `out` with the next batch; false at the end.
  virtual bool next(RecordBatch& out) = 0;
};

}  // namespace parquetry
