// Typed records: user C++ structs read from and written to Parquet through a
// field list declared once.
//
//   struct Trip {
//     int64_t vendor;
//     double fare;
//     std::optional<std::string> zone;
//     std::vector<int32_t> stops;
//   };
//   const auto layout = parquetry::RecordLayout<Trip>()
//                           .field("VendorID", &Trip::vendor)
//                           .field("fare_amount", &Trip::fare)
//                           .field("zone.name", &Trip::zone)   // a dotted path into a struct
//                           .field("stops", &Trip::stops);
//   auto reader = parquetry::TypedReader<Trip>::open("trips.parquet", layout);
//   std::vector<Trip> trips;
//   while (reader->next_batch(trips)) { ... }
//
//   auto writer = parquetry::TypedWriter<Trip>::open("out.parquet", layout);
//   writer->write(trips);
//   writer->close();
//
// Member types: bool, the fixed-size integers, float, double, std::string,
// std::optional<X> of those (a nullable column), std::vector<X> (a list).
// Reading checks once, at open, that each column can be read into its member
// (an int64 column into an int32 member cannot; an int32 column into int64
// can) and throws kInvalidArgument naming the column otherwise; a null read
// into a non-optional member throws too. Batches are filled column by
// column, with a plain loop over the value buffer where the column's type is
// the member's own.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "parquetry/array_builder.h"
#include "parquetry/error.h"
#include "parquetry/export.h"
#include "parquetry/filtered_scan.h"
#include "parquetry/record.h"
#include "parquetry/writer.h"

namespace parquetry {

namespace typed_detail {

template <typename M>
struct MemberTraits;

template <typename M>
inline constexpr bool kIsPlainInteger = std::is_integral_v<M> && !std::is_same_v<M, bool>;

/// The Arrow type id that stores an M natively (kNull when none).
template <typename M>
constexpr TypeId native_id() {
  if constexpr (std::is_same_v<M, bool>)
    return TypeId::kBool;
  else if constexpr (std::is_same_v<M, float>)
    return TypeId::kFloat32;
  else if constexpr (std::is_same_v<M, double>)
    return TypeId::kFloat64;
  else if constexpr (kIsPlainInteger<M> && std::is_signed_v<M>) {
    return sizeof(M) == 1   ? TypeId::kInt8
           : sizeof(M) == 2 ? TypeId::kInt16
           : sizeof(M) == 4 ? TypeId::kInt32
                            : TypeId::kInt64;
  } else if constexpr (kIsPlainInteger<M>) {
    return sizeof(M) == 1   ? TypeId::kUInt8
           : sizeof(M) == 2 ? TypeId::kUInt16
           : sizeof(M) == 4 ? TypeId::kUInt32
                            : TypeId::kUInt64;
  } else {
    return TypeId::kNull;
  }
}

/// True when a column of type `id` stores its values as M itself, so a
/// member of type M can be copied from the buffer: M's own type, and the
/// temporal types kept as 32- or 64-bit counts (a timestamp member is the
/// count in the column's unit, as ValueRef::as_int64 reads it).
template <typename M>
constexpr bool stored_as(TypeId id) {
  if (id == native_id<M>()) return true;
  if constexpr (std::is_same_v<M, int64_t>) return id == TypeId::kTimestamp || id == TypeId::kTime64;
  if constexpr (std::is_same_v<M, int32_t>) return id == TypeId::kDate32 || id == TypeId::kTime32;
  return false;
}

/// Whether an integer column of type `id` always fits an integer member M.
template <typename M>
bool integer_fits(TypeId id) {
  struct Range {
    int bytes;
    bool is_signed;
  };
  Range column{};
  switch (id) {
    case TypeId::kInt8: column = {1, true}; break;
    case TypeId::kInt16: column = {2, true}; break;
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32: column = {4, true}; break;
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp: column = {8, true}; break;
    case TypeId::kUInt8: column = {1, false}; break;
    case TypeId::kUInt16: column = {2, false}; break;
    case TypeId::kUInt32: column = {4, false}; break;
    case TypeId::kUInt64: column = {8, false}; break;
    default: return false;
  }
  if constexpr (std::is_signed_v<M>) {
    return column.is_signed ? column.bytes <= int(sizeof(M)) : column.bytes < int(sizeof(M));
  } else {
    return !column.is_signed && column.bytes <= int(sizeof(M));
  }
}

template <typename M>
struct ScalarTraits {
  static constexpr bool kNullable = false;
  static DataType type() { return DataType::make(native_id<M>()); }
  static bool accepts(const DataType& t) {
    const TypeId id = t.id == TypeId::kDictionary ? t.dictionary_value->id : t.id;
    if constexpr (std::is_same_v<M, bool>)
      return id == TypeId::kBool;
    else if constexpr (std::is_same_v<M, float>)
      return id == TypeId::kFloat32 || id == TypeId::kFloat16;
    else if constexpr (std::is_same_v<M, double>) {
      return id == TypeId::kFloat64 || id == TypeId::kFloat32 || id == TypeId::kFloat16;
    } else {
      return integer_fits<M>(id);
    }
  }
  static void read(const ValueRef& v, M& out) {
    if constexpr (std::is_same_v<M, bool>)
      out = v.as_bool();
    else if constexpr (std::is_floating_point_v<M>)
      out = M(v.as_double());
    else if constexpr (std::is_signed_v<M>)
      out = M(v.as_int64());
    else
      out = M(v.as_uint64());
  }
  static void write(ArrayBuilder& b, const M& value) {
    if constexpr (std::is_same_v<M, bool>)
      b.append_bool(value);
    else if constexpr (std::is_floating_point_v<M>)
      b.append_double(value);
    else if constexpr (std::is_signed_v<M>)
      b.append_int(int64_t(value));
    else
      b.append_uint(uint64_t(value));
  }
};

template <>
struct MemberTraits<bool> : ScalarTraits<bool> {};
template <>
struct MemberTraits<int8_t> : ScalarTraits<int8_t> {};
template <>
struct MemberTraits<int16_t> : ScalarTraits<int16_t> {};
template <>
struct MemberTraits<int32_t> : ScalarTraits<int32_t> {};
template <>
struct MemberTraits<int64_t> : ScalarTraits<int64_t> {};
template <>
struct MemberTraits<uint8_t> : ScalarTraits<uint8_t> {};
template <>
struct MemberTraits<uint16_t> : ScalarTraits<uint16_t> {};
template <>
struct MemberTraits<uint32_t> : ScalarTraits<uint32_t> {};
template <>
struct MemberTraits<uint64_t> : ScalarTraits<uint64_t> {};
template <>
struct MemberTraits<float> : ScalarTraits<float> {};
template <>
struct MemberTraits<double> : ScalarTraits<double> {};

template <>
struct MemberTraits<std::string> {
  static constexpr bool kNullable = false;
  static DataType type() { return DataType::make(TypeId::kString); }
  static bool accepts(const DataType& t) {
    const DataType& v = t.id == TypeId::kDictionary ? *t.dictionary_value : t;
    return v.is_binary_like() || v.id == TypeId::kFixedSizeBinary;
  }
  static void read(const ValueRef& v, std::string& out) {
    const std::string_view bytes = v.as_bytes();
    out.assign(bytes.data(), bytes.size());
  }
  static void write(ArrayBuilder& b, const std::string& value) { b.append_bytes(value); }
};

template <typename X>
struct MemberTraits<std::optional<X>> {
  static constexpr bool kNullable = true;
  static DataType type() { return MemberTraits<X>::type(); }
  static bool accepts(const DataType& t) { return MemberTraits<X>::accepts(t); }
  static void read(const ValueRef& v, std::optional<X>& out) {
    if (v.is_null()) {
      out.reset();
    } else {
      MemberTraits<X>::read(v, out.emplace());
    }
  }
  static void write(ArrayBuilder& b, const std::optional<X>& value) {
    if (value) {
      MemberTraits<X>::write(b, *value);
    } else {
      b.append_null();
    }
  }
};

template <typename X>
struct MemberTraits<std::vector<X>> {
  static constexpr bool kNullable = false;
  static DataType type() {
    Field item;
    item.name = "element";
    item.type = MemberTraits<X>::type();
    item.nullable = MemberTraits<X>::kNullable;
    return DataType::list(std::move(item));
  }
  static bool accepts(const DataType& t) {
    return (t.id == TypeId::kList || t.id == TypeId::kLargeList) &&
           MemberTraits<X>::accepts(t.children[0].type);
  }
  static void read(const ValueRef& v, std::vector<X>& out) {
    const int64_t n = v.size();
    out.resize(size_t(n));
    for (int64_t i = 0; i < n; ++i) {
      const ValueRef item = v[i];
      if (!MemberTraits<X>::kNullable && item.is_null())
        throw_invalid("null list element for a non-optional element type");
      MemberTraits<X>::read(item, out[size_t(i)]);
    }
  }
  static void write(ArrayBuilder& b, const std::vector<X>& value) {
    b.begin_list();
    for (const X& item : value) MemberTraits<X>::write(b.child(), item);
    b.end_list();
  }
};

/// A member type without its std::optional.
template <typename M>
struct Unwrapped {
  using type = M;
  static constexpr bool kOptional = false;
};
template <typename X>
struct Unwrapped<std::optional<X>> {
  using type = X;
  static constexpr bool kOptional = true;
};

/// The array a dotted path names in a batch, and the struct arrays above it
/// (whose nulls make the leaf null). Row r of the batch is row r + shift of `leaf`.
struct ResolvedColumn {
  const ArrayData* leaf = nullptr;
  int64_t shift = 0;
  std::vector<std::pair<const ArrayData*, int64_t>> ancestors;  // (struct array, shift)

  bool ancestor_null(int64_t row) const {
    for (const auto& [array, s] : ancestors) {
      if (!array->is_valid(row + s)) return true;
    }
    return false;
  }
};

/// Finds `path` (a column name, or a column name and struct fields joined by
/// dots) among the fields; nullptr when absent. `type` returns the leaf type.
PARQUETRY_API const DataType* find_path_type(const std::vector<Field>& fields, const std::string& path);
/// Indexes of the fields along `path` (top level first); empty when absent.
PARQUETRY_API std::vector<int> locate_path(const std::vector<Field>& fields, const std::string& path);
PARQUETRY_API ResolvedColumn resolve_path(const RecordBatch& batch, const std::string& path);

/// Adds the dotted `path` with `type` to a writer schema, creating (required)
/// struct fields for its prefixes. Returns the top-level field index and the
/// child indexes down to the leaf.
PARQUETRY_API std::vector<int> add_path(std::vector<Field>& fields, const std::string& path, DataType type,
                                        bool nullable);

}  // namespace typed_detail

/// One member of T bound to a column path.
template <typename T>
class RecordField {
 public:
  explicit RecordField(std::string path) : path_(std::move(path)) {}
  virtual ~RecordField() = default;
  const std::string& path() const { return path_; }
  virtual DataType type() const = 0;
  virtual bool nullable() const = 0;
  virtual bool accepts(const DataType& column) const = 0;
  /// Fills the member of rows[0..count) from batch rows [begin, begin + count).
  virtual void read(const typed_detail::ResolvedColumn& column, int64_t begin, int64_t count,
                    T* rows) const = 0;
  virtual void write(ArrayBuilder& builder, const T& row) const = 0;

 private:
  std::string path_;
};

template <typename T, typename M>
class MemberField final : public RecordField<T> {
  using Traits = typed_detail::MemberTraits<M>;

 public:
  MemberField(std::string path, M T::*member) : RecordField<T>(std::move(path)), member_(member) {}
  DataType type() const override { return Traits::type(); }
  bool nullable() const override { return Traits::kNullable; }
  bool accepts(const DataType& column) const override { return Traits::accepts(column); }

  void read(const typed_detail::ResolvedColumn& column, int64_t begin, int64_t count,
            T* rows) const override {
    const ArrayData& a = *column.leaf;
    using Value = typename typed_detail::Unwrapped<M>::type;
    constexpr bool kOptional = typed_detail::Unwrapped<M>::kOptional;
    // Fast paths: no struct above the column has nulls, and the column (or
    // its dictionary, for dictionary arrays) stores the member's own type, so
    // values are read straight from the buffers.
    if (column.ancestors.empty()) {
      const int64_t row0 = column.shift + begin;  // element of row `begin`
      const int64_t first = a.offset + row0;      // its physical index
      const uint8_t* validity = a.null_count > 0 ? a.buffers[0].data : nullptr;
      // Fills the members of rows [0, count) from `source`, whose element
      // index_of(i) belongs to row i (nulls are left to set_null).
      auto fill = [&](const ArrayData& source, auto index_of) -> bool {
        if constexpr (typed_detail::native_id<Value>() != TypeId::kNull && !std::is_same_v<Value, bool>) {
          if (typed_detail::stored_as<Value>(source.type->id)) {
            const Value* values = reinterpret_cast<const Value*>(source.buffers[1].data) + source.offset;
            for (int64_t i = 0; i < count; ++i) {
              if (null_at(validity, first + i) && set_null(rows[i], begin + i)) continue;
              rows[i].*member_ = values[index_of(i)];
            }
            return true;
          }
        }
        if constexpr (std::is_same_v<Value, std::string>) {
          if (source.type->id == TypeId::kString || source.type->id == TypeId::kBinary) {
            const int32_t* offsets = reinterpret_cast<const int32_t*>(source.buffers[1].data) + source.offset;
            const char* data = reinterpret_cast<const char*>(source.buffers[2].data);
            for (int64_t i = 0; i < count; ++i) {
              if (null_at(validity, first + i) && set_null(rows[i], begin + i)) continue;
              const int64_t k = index_of(i);
              const std::string_view text(data + offsets[k], size_t(offsets[k + 1] - offsets[k]));
              auto& member = rows[i].*member_;
              if constexpr (kOptional) {
                // A string left by an earlier batch keeps its capacity.
                member ? member->assign(text) : member.emplace(text);
              } else {
                member.assign(text);
              }
            }
            return true;
          }
        }
        return false;
      };
      // Dictionary arrays (the reader asks for them, so that the scan never
      // gathers): the member takes the entry its index names. The scan's
      // decoder has checked the index of every valid row against the
      // dictionary, so it is not checked again per value here.
      if (a.type->id == TypeId::kDictionary && a.dictionary && a.dictionary->null_count == 0) {
        const int32_t* indices = reinterpret_cast<const int32_t*>(a.buffers[1].data) + first;
        if (fill(*a.dictionary, [indices](int64_t i) { return int64_t(indices[i]); })) return;
      } else if (fill(a, [row0](int64_t i) { return row0 + i; })) {
        return;
      }
    }
    for (int64_t i = 0; i < count; ++i) {
      const int64_t row = begin + i;
      const bool null = column.ancestor_null(row) || !a.is_valid(row + column.shift);
      if constexpr (Traits::kNullable) {
        if (null) {
          (rows[i].*member_).reset();
          continue;
        }
      } else {
        if (null) null_into_required(row);
      }
      Traits::read(ValueRef(&a, row + column.shift), rows[i].*member_);
    }
  }

  void write(ArrayBuilder& builder, const T& row) const override { Traits::write(builder, row.*member_); }

 private:
  // A null at batch row `row`: an optional member is reset (true: nothing
  // more to read); any other member cannot hold it.
  bool set_null(T& record, int64_t row) const {
    if constexpr (typed_detail::Unwrapped<M>::kOptional) {
      (record.*member_).reset();
      return true;
    } else {
      null_into_required(row);
    }
  }
  static bool null_at(const uint8_t* validity, int64_t i) {
    return validity && !((validity[i >> 3] >> (i & 7)) & 1);
  }
  [[noreturn]] void null_into_required(int64_t row) const {
    throw_invalid("null in column '" + this->path() + "' (batch row " + std::to_string(row) +
                  ") read into a non-optional member");
  }
  M T::*member_;
};

/// The field list of T, declared once and shared by readers and writers.
template <typename T>
class RecordLayout {
 public:
  template <typename M>
  RecordLayout& field(std::string path, M T::*member) {
    fields_.push_back(std::make_shared<MemberField<T, M>>(std::move(path), member));
    return *this;
  }
  const std::vector<std::shared_ptr<const RecordField<T>>>& fields() const { return fields_; }

  /// The Arrow schema the typed writer writes (dotted paths become required structs).
  BatchSchema schema() const {
    BatchSchema schema;
    for (const auto& f : fields_) typed_detail::add_path(schema.fields, f->path(), f->type(), f->nullable());
    return schema;
  }

 private:
  std::vector<std::shared_ptr<const RecordField<T>>> fields_;
};

struct TypedReaderOptions {
  Predicate filter;  ///< rows for which it is false are skipped (pruning as in FilteredScan)
  int threads = 1;
  /// Most records next_batch() returns. Members are filled column by column,
  /// so a slice of records should stay in cache: 1024 records of a few
  /// hundred bytes fill ~300 KiB.
  int64_t batch_rows = 1024;
};

/// Reads T values from a file: only the layout's columns are read.
template <typename T>
class TypedReader {
 public:
  static std::unique_ptr<TypedReader> open(const std::string& path, RecordLayout<T> layout,
                                           TypedReaderOptions options = {}) {
    FilteredScanOptions scan;
    for (const auto& f : layout.fields()) scan.columns.push_back(f->path());
    scan.filter = std::move(options.filter);
    scan.threads = options.threads;
    // Members take dictionary entries by index, which saves the scan a
    // gather into a values buffer that would be read once.
    scan.dictionary_arrays = true;
    if (options.batch_rows <= 0) throw_invalid("batch_rows must be positive");
    std::unique_ptr<TypedReader> reader(new TypedReader(std::move(layout), options.batch_rows));
    try {
      reader->scan_ = FilteredScan::open(path, std::move(scan));
    } catch (const Error& e) {
      if (e.code() != ErrorCode::kInvalidArgument) throw;
      throw_invalid("typed reader for " + path + ": " + e.message());
    }
    const BatchSchema& schema = *reader->scan_->schema();
    for (const auto& f : reader->layout_.fields()) {
      const DataType* type = typed_detail::find_path_type(schema.fields, f->path());
      if (type == nullptr) throw_invalid(path + ": no column '" + f->path() + "' for the typed reader");
      if (!f->accepts(*type)) {
        throw_invalid(path + ": column '" + f->path() + "' of type " + type->to_string() +
                      " cannot be read into a member of type " + f->type().to_string());
      }
    }
    return reader;
  }

  /// Replaces `out` with the next records (at most `TypedReaderOptions::batch_rows`); false at the end.
  bool next_batch(std::vector<T>& out) {
    while (position_ >= batch_.num_rows) {
      if (!scan_->next(batch_)) return false;
      position_ = 0;
      columns_.clear();
      for (const auto& f : layout_.fields())
        columns_.push_back(typed_detail::resolve_path(batch_, f->path()));
    }
    const int64_t count = std::min(batch_rows_, batch_.num_rows - position_);
    out.resize(size_t(count));
    const auto& fields = layout_.fields();
    // Members are filled column by column, one tile of records at a time:
    // a tile of a few hundred-byte records stays in L1 while every member
    // passes over it (a whole batch would go back to L2 for each member).
    constexpr int64_t kTile = 64;
    for (int64_t tile = 0; tile < count; tile += kTile) {
      const int64_t n = std::min(kTile, count - tile);
      for (size_t f = 0; f < fields.size(); ++f)
        fields[f]->read(columns_[f], position_ + tile, n, out.data() + tile);
    }
    position_ += count;
    return true;
  }

  /// The next record; false at the end.
  bool next(T& out) {
    while (buffered_position_ >= buffered_.size()) {
      if (!next_batch(buffered_)) return false;
      buffered_position_ = 0;
    }
    out = std::move(buffered_[buffered_position_++]);
    return true;
  }

 private:
  TypedReader(RecordLayout<T> layout, int64_t batch_rows)
      : layout_(std::move(layout)), batch_rows_(batch_rows) {}
  RecordLayout<T> layout_;
  int64_t batch_rows_;
  std::unique_ptr<FilteredScan> scan_;
  RecordBatch batch_;  // the scan's current batch, handed out in slices
  std::vector<typed_detail::ResolvedColumn> columns_;
  int64_t position_ = 0;
  std::vector<T> buffered_;  // for next()
  size_t buffered_position_ = 0;
};

/// Writes T values to a file through FileWriter (atomic, bounded memory).
template <typename T>
class TypedWriter {
 public:
  static std::unique_ptr<TypedWriter> open(const std::string& path, RecordLayout<T> layout,
                                           WriterOptions options = {}, int64_t batch_rows = 64 * 1024) {
    std::unique_ptr<TypedWriter> writer(new TypedWriter(std::move(layout), batch_rows));
    writer->writer_ = FileWriter::open(path, *writer->schema_, std::move(options));
    return writer;
  }

  /// Appends one record. A member that does not fit its column (a value out
  /// of range) throws kInvalidArgument; the record is then not written.
  void write(const T& row) {
    try {
      for (ArrayBuilder* s : structs_) s->append_struct_valid();
      const auto& fields = layout_.fields();
      for (size_t f = 0; f < fields.size(); ++f) fields[f]->write(*leaves_[f], row);
    } catch (const Error&) {
      for (auto& column : columns_) column->truncate(buffered_);
      throw;
    }
    if (++buffered_ >= batch_rows_) flush();
  }
  void write(std::span<const T> rows) {
    for (const T& row : rows) write(row);
  }
  /// Writes what is buffered and the footer, then commits the file.
  void close() {
    flush();
    writer_->close();
  }
  int64_t num_rows() const { return written_ + buffered_; }

 private:
  TypedWriter(RecordLayout<T> layout, int64_t batch_rows)
      : layout_(std::move(layout)),
        schema_(std::make_shared<BatchSchema>(layout_.schema())),
        batch_rows_(batch_rows) {
    if (batch_rows <= 0) throw_invalid("batch_rows must be positive");
    for (const Field& field : schema_->fields) columns_.push_back(std::make_unique<ArrayBuilder>(field));
    for (const auto& f : layout_.fields()) {
      const std::vector<int> at = typed_detail::locate_path(schema_->fields, f->path());
      ArrayBuilder* builder = columns_[size_t(at[0])].get();
      for (size_t depth = 1; depth < at.size(); ++depth) {
        bool known = false;
        for (ArrayBuilder* s : structs_) known = known || s == builder;
        if (!known) structs_.push_back(builder);
        builder = &builder->child(size_t(at[depth]));
      }
      leaves_.push_back(builder);
    }
  }

  void flush() {
    if (buffered_ == 0) return;
    RecordBatch batch;
    batch.schema = schema_;
    batch.num_rows = buffered_;
    for (auto& column : columns_) batch.columns.push_back(column->finish());
    writer_->write(batch);
    written_ += buffered_;
    buffered_ = 0;
  }

  RecordLayout<T> layout_;
  std::shared_ptr<const BatchSchema> schema_;
  int64_t batch_rows_;
  std::unique_ptr<FileWriter> writer_;
  std::vector<std::unique_ptr<ArrayBuilder>> columns_;
  std::vector<ArrayBuilder*> structs_;  // struct builders above dotted leaves, each once
  std::vector<ArrayBuilder*> leaves_;   // per layout field
  int64_t buffered_ = 0;
  int64_t written_ = 0;
};

}  // namespace parquetry
