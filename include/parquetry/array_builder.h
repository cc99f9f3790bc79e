// Builds one Arrow-layout array value by value: the row writer appends
// Datums, the typed writer appends C++ values, anyone may use it to make
// batches for FileWriter. Buffers grow geometrically and are handed to the
// array on finish(), after which the builder starts a new array.
//
//   parquetry::ArrayBuilder tags(parquetry::Field{"tags", list_of_strings});
//   tags.begin_list();
//   tags.child().append_bytes("a");
//   tags.end_list();
//   tags.append_null();
//   std::shared_ptr<parquetry::ArrayData> array = tags.finish();
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "parquetry/export.h"
#include "parquetry/record.h"
#include "parquetry/table.h"
#include "parquetry/util/buffer.h"

namespace parquetry {

class PARQUETRY_API ArrayBuilder {
 public:
  /// Throws kUnsupported for types the builder cannot produce (views,
  /// dictionaries, float16).
  explicit ArrayBuilder(const Field& field);

  /// Appends a Datum, converting it to the field's type. Throws
  /// kInvalidArgument (the builder is left as it was) when it does not fit.
  void append(const Datum& value);
  void append_null();
  /// Typed appends for the typed writer (no conversion checks beyond range).
  void append_int(int64_t value);
  void append_uint(uint64_t value);
  void append_double(double value);
  void append_bool(bool value);
  void append_bytes(std::string_view bytes);
  /// Lists: open an element list, append to child(), then close it.
  void begin_list();
  void end_list();
  ArrayBuilder& child(size_t i = 0) { return *children_[i]; }
  /// Structs: mark the struct valid; its fields are appended to child(i).
  void append_struct_valid();

  int64_t length() const { return length_; }
  /// Drops values past `length` (undoes a partly appended row).
  void truncate(int64_t length);
  /// The array built so far; the builder restarts empty.
  std::shared_ptr<ArrayData> finish();

  const Field& field() const { return field_; }

 private:
  void set_valid(bool valid);
  void append_null_unchecked();
  void append_value(const Datum& value);
  void append_decimal_text(std::string_view text);
  void append_decimal(__int128 unscaled);
  int64_t value_width() const;

  Field field_;
  std::shared_ptr<const DataType> type_;
  TypeId id_;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
  Buffer validity_;
  Buffer values_;  // fixed-width values, bits for bool, offsets for binary and lists
  Buffer data_;    // binary bytes
  std::vector<std::unique_ptr<ArrayBuilder>> children_;
  // Rollback marks for truncate() of variable-width and list arrays.
  int64_t open_list_child_length_ = 0;
};

}  // namespace parquetry
