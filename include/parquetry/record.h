// Row-at-a-time access on top of the columnar batches: a generic row reader
// (values by column name or index, nested values by field name, list index
// and map entry) and a generic row writer. Typed readers and writers that
// fill user structs are in typed_record.h.
//
//   parquetry::RowReaderOptions options;
//   options.columns = {"VendorID", "fare_amount", "tags"};
//   options.filter = parquetry::col("fare_amount") > 10.0;
//   auto rows = parquetry::RowReader::open("taxi.parquet", options);
//   parquetry::Row row;
//   while (rows->next(row)) {
//     int64_t vendor = row["VendorID"].as_int64();
//     for (int64_t i = 0; i < row["tags"].size(); ++i) use(row["tags"][i].as_string());
//   }
//
// A Row and the ValueRefs taken from it are views into the current batch:
// three words each, no allocation per row or per value, valid until the
// reader moves to the next batch (a value that must outlive it is copied out,
// e.g. with to_datum()).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "parquetry/export.h"
#include "parquetry/filtered_scan.h"
#include "parquetry/predicate.h"
#include "parquetry/table.h"
#include "parquetry/writer.h"

namespace parquetry {

struct Datum;

/// One value inside an Arrow-layout array: the array and a row index
/// relative to its offset. Accessors throw kInvalidArgument when the value's
/// type cannot be read that way (a string as a number, a value out of the
/// target's range), naming the type; reading a null as a scalar throws too
/// (check is_null() first).
class PARQUETRY_API ValueRef {
 public:
  ValueRef() = default;
  ValueRef(const ArrayData* array, int64_t index) : array_(array), index_(index) {}

  const DataType& type() const { return *array_->type; }
  /// The type of the value itself (a dictionary's value type for dictionary arrays).
  TypeId value_type_id() const;
  bool is_null() const { return array_->type->id == TypeId::kNull || !array_->is_valid(index_); }

  /// bool columns.
  bool as_bool() const;
  /// Any integer type; date32 (days), time (in its unit), timestamp (in its
  /// unit), decimals with scale 0 that fit.
  int64_t as_int64() const {
    // The common case in the header, so that a row loop inlines it: a valid
    // 64-bit value read in place. Everything else goes through the full switch.
    const TypeId id = array_->type->id;
    if ((id == TypeId::kInt64 || id == TypeId::kTimestamp) && array_->is_valid(index_))
      return fixed<int64_t>();
    return as_int64_any();
  }
  /// Non-negative integers of any integer type.
  uint64_t as_uint64() const;
  /// Floating point (float16 included) and integer types.
  double as_double() const {
    if (array_->type->id == TypeId::kFloat64 && array_->is_valid(index_)) return fixed<double>();
    return as_double_any();
  }
  /// String, binary (all offset widths and views), fixed-size binary: the
  /// bytes, without a copy.
  std::string_view as_bytes() const {
    const TypeId id = array_->type->id;
    if ((id == TypeId::kString || id == TypeId::kBinary) && array_->is_valid(index_)) {
      const int32_t begin = fixed<int32_t>(), end = fixed<int32_t>(1);
      return {reinterpret_cast<const char*>(array_->buffers[2].data) + begin, size_t(end - begin)};
    }
    return as_bytes_any();
  }
  std::string_view as_string() const { return as_bytes(); }
  /// Any value as JSON text (what `parquetry cat` prints).
  std::string to_json() const;
  /// A deep, owning copy (for the row writer, or to outlive the batch).
  Datum to_datum() const;

  /// Elements of a list or map, fields of a struct.
  int64_t size() const;
  /// List element `i`, or struct field `i`.
  ValueRef operator[](int64_t i) const;
  ValueRef operator[](int i) const { return (*this)[int64_t(i)]; }
  /// Struct field by name (throws kInvalidArgument naming the missing field).
  ValueRef operator[](std::string_view name) const;
  /// Map entry `i`.
  ValueRef key(int64_t i) const;
  ValueRef value(int64_t i) const;

  const ArrayData& array() const { return *array_; }
  int64_t index() const { return index_; }

 private:
  // Element index_ + ahead of the values buffer, read in place.
  template <typename T>
  T fixed(int64_t ahead = 0) const {
    T value;
    std::memcpy(&value, array_->buffers[1].data + (array_->offset + index_ + ahead) * int64_t(sizeof(T)),
                sizeof(T));
    return value;
  }
  // The accessors for every type (and the errors).
  int64_t as_int64_any() const;
  double as_double_any() const;
  std::string_view as_bytes_any() const;

  const ArrayData* array_ = nullptr;
  int64_t index_ = 0;
};

/// One row of a batch.
class PARQUETRY_API Row {
 public:
  Row() = default;
  Row(const RecordBatch* batch, int64_t index) : batch_(batch), index_(index) {}

  int num_fields() const { return int(batch_->columns.size()); }
  const BatchSchema& schema() const { return *batch_->schema; }
  /// Column `i` of the row.
  ValueRef operator[](int i) const { return ValueRef(batch_->columns.at(size_t(i)).get(), index_); }
  /// Column by name, or a dotted path into structs ("point.x").
  ValueRef operator[](std::string_view path) const;
  /// The row as one JSON object keyed by column name.
  std::string to_json() const;
  /// Index of the row in its batch.
  int64_t index() const { return index_; }

 private:
  const RecordBatch* batch_ = nullptr;
  int64_t index_ = 0;
};

struct RowReaderOptions {
  /// Columns (dotted paths; groups select their leaves; "_row_number" and
  /// "_row_group" are virtual columns); empty = every column.
  std::vector<std::string> columns;
  /// Rows for which the predicate is false are not returned; pruning as in FilteredScan.
  Predicate filter;
  int threads = 1;
};

/// Rows of a file, one at a time, in file order.
class PARQUETRY_API RowReader {
 public:
  static std::unique_ptr<RowReader> open(const std::string& path, RowReaderOptions options = {});
  /// Rows of any batch source (an imported stream, a FileReader...).
  static std::unique_ptr<RowReader> over(std::unique_ptr<BatchReader> batches);

  /// Points `row` at the next row; false at the end. The previous row's
  /// values stay valid until the reader moves past their batch.
  bool next(Row& row);
  std::shared_ptr<const BatchSchema> schema() const { return schema_; }
  /// Rows returned so far.
  int64_t rows_read() const { return rows_read_; }

 private:
  RowReader() = default;
  std::unique_ptr<FilteredScan> scan_;
  std::unique_ptr<BatchReader> batches_;
  std::shared_ptr<const BatchSchema> schema_;
  RecordBatch batch_;
  int64_t position_ = 0;
  int64_t rows_read_ = 0;
};

/// An owning value for writing rows: null, a scalar, bytes, or a list of
/// Datums (list elements, struct fields in schema order, or map entries as
/// two-element lists {key, value}). Integers are stored as int64 (uint64 for
/// values above INT64_MAX); decimals are given unscaled (int64) or as text
/// ("12.34"); dates as days, times and timestamps as counts of the column's unit.
struct Datum {
  using List = std::vector<Datum>;
  std::variant<std::monostate, bool, int64_t, uint64_t, double, std::string, List> value;

  Datum() = default;
  Datum(std::nullptr_t) {}
  Datum(bool v) : value(v) {}
  Datum(int v) : value(int64_t(v)) {}
  Datum(int64_t v) : value(v) {}
  Datum(uint64_t v) : value(v) {}
  Datum(double v) : value(v) {}
  Datum(const char* v) : value(std::string(v)) {}
  Datum(std::string v) : value(std::move(v)) {}
  Datum(std::string_view v) : value(std::string(v)) {}
  Datum(List v) : value(std::move(v)) {}
  static Datum list(List items) { return Datum(std::move(items)); }

  bool is_null() const { return std::holds_alternative<std::monostate>(value); }
  bool operator==(const Datum&) const = default;
};

/// Writes rows of Datums; they are gathered into Arrow-layout batches of
/// `batch_rows` rows and handed to a FileWriter (so memory stays bounded by
/// one batch plus the writer's row group).
class PARQUETRY_API RowWriter {
 public:
  static std::unique_ptr<RowWriter> open(const std::string& path, const BatchSchema& schema,
                                         WriterOptions options = {}, int64_t batch_rows = 64 * 1024);
  ~RowWriter();

  /// One row: a Datum per schema field, in schema order. A value that does
  /// not fit its column (wrong kind, out of range, null in a non-nullable
  /// field) throws kInvalidArgument naming the column; the row is not written.
  void write(const std::vector<Datum>& row);
  /// Writes the buffered rows, the footer, and commits the file.
  void close();
  int64_t num_rows() const;

  struct Impl;

 private:
  explicit RowWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace parquetry
