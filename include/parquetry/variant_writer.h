// Writing VARIANT columns: shredding variants into the Arrow layout of a
// shredded (or unshredded) VARIANT group, which FileWriter then writes as a
// group annotated VARIANT(1) (VariantShredding.md).
//
//   parquetry::VariantShredding shredding =
//       parquetry::infer_variant_shredding(rows);         // or built by hand
//   parquetry::VariantShredder shredder(shredding);
//   for (const auto& row : rows) shredder.append(row.view());
//   parquetry::Field field{"payload", shredder.type()};
//   auto column = shredder.finish();                       // struct array
//
// Shredding policy, level by level:
//   - a value whose type is exactly the level's primitive type (short and
//     long strings are both "string"; a decimal also needs the level's scale
//     and an unscaled value within its precision 9/18/38) goes to
//     typed_value, value stays null. Values are never converted: an int8
//     does not go into an int64 column, so every row reads back with the
//     type it was written with;
//   - an object at an object level: each shredded key goes to its field
//     group (absent key: both null), the other keys form a residual object
//     in `value` (null when every key is shredded). The residual copies the
//     unshredded children byte for byte and references the row's metadata;
//   - an array at an array level: every element is shredded by the element
//     level (a Variant null element is stored as value 00);
//   - anything else (including a Variant null) is stored in `value` as its
//     encoded bytes.
// Metadata is written per row as given; nested values keep referring to it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "parquetry/export.h"
#include "parquetry/table.h"
#include "parquetry/variant.h"

namespace parquetry {

struct WriterOptions;

/// What one level's typed_value holds.
struct PARQUETRY_API VariantShredding {
  enum class Kind : uint8_t {
    kNone,       ///< no typed_value: values stay encoded in `value`
    kPrimitive,  ///< a typed column of `type`
    kObject,     ///< one field group per key of `fields`
    kArray,      ///< a LIST of `element()` levels
  };
  Kind kind = Kind::kNone;
  /// kPrimitive: any VariantValueType except kNull, kObject and kArray.
  VariantValueType type = VariantValueType::kNull;
  int32_t scale = 0;  ///< kPrimitive decimals (0..precision)
  /// kObject: shredded keys, each with its own shredding; written in this order.
  std::vector<std::pair<std::string, VariantShredding>> fields;
  /// kArray: exactly one entry, the element level.
  std::vector<VariantShredding> elements;

  static VariantShredding primitive(VariantValueType type, int32_t scale = 0);
  static VariantShredding object(std::vector<std::pair<std::string, VariantShredding>> fields);
  static VariantShredding array(VariantShredding element);
  const VariantShredding& element() const { return elements.at(0); }
  /// "int64", "decimal8(2)", "object{a: string, b: none}", "array<uuid>", "none".
  std::string to_string() const;
  bool operator==(const VariantShredding&) const = default;
};

/// The Arrow type of a VARIANT column shredded as `shredding`:
/// struct<metadata: binary not null, value: binary, typed_value: T> with
/// extension_name kVariantExtensionName; for kNone (unshredded) just
/// struct<metadata: binary not null, value: binary not null>, as the VARIANT
/// logical type asks of unshredded groups.
/// Throws kInvalidArgument for an invalid shredding (an object without
/// fields, an array without one element, a primitive of a non-primitive
/// type, a decimal scale out of range).
PARQUETRY_API DataType variant_arrow_type(const VariantShredding& shredding);

struct VariantInferenceOptions {
  /// Rows looked at (the first ones); the rest are shredded by what they showed.
  int64_t max_rows = 4096;
  /// Deepest level shredded (the top level is depth 0); deeper values stay in `value`.
  int32_t max_depth = 8;
  /// Keys shredded per object level: the most frequent ones, ties by key order.
  int32_t max_fields = 256;
};

/// Infers a shredding from sample rows (nullopt = SQL NULL, skipped): at
/// every path the most frequent type among the non-null values wins (object
/// and array count as one type each; decimals count per width and scale;
/// ties go to the type listed first in VariantValueType). Object levels
/// shred every key seen under them (up to max_fields); a path that only
/// ever held Variant nulls, or nothing, is not shredded. All rows null ->
/// kind kNone (an unshredded column).
PARQUETRY_API VariantShredding infer_variant_shredding(std::span<const std::optional<Variant>> rows,
                                                       const VariantInferenceOptions& options = {});

/// Builds the Arrow struct array of a VARIANT column row by row.
class PARQUETRY_API VariantShredder {
 public:
  /// Throws like variant_arrow_type() for an invalid shredding.
  explicit VariantShredder(VariantShredding shredding);
  ~VariantShredder();
  VariantShredder(const VariantShredder&) = delete;
  VariantShredder& operator=(const VariantShredder&) = delete;

  /// variant_arrow_type() of the shredding.
  const DataType& type() const { return type_; }
  const VariantShredding& shredding() const { return shredding_; }

  /// Appends one variant (validated first: kCorrupt for malformed bytes).
  void append(const Variant& value);
  /// Appends SQL NULL (the whole group null).
  void append_null();
  /// Rows appended since the last finish().
  int64_t length() const;
  /// The struct array of the rows appended so far; the shredder starts over.
  std::shared_ptr<ArrayData> finish();

  struct State;

 private:
  VariantShredding shredding_;
  DataType type_;
  std::unique_ptr<State> state_;
};

/// Writes `rows` as one VARIANT column `column` of a new file at `path`
/// (nullopt = SQL NULL), shredded as `shredding` (kNone = unshredded), in
/// batches of `batch_rows`. A convenience over VariantShredder + FileWriter.
PARQUETRY_API void write_variant_file(const std::string& path, const std::string& column,
                                      std::span<const std::optional<Variant>> rows,
                                      const VariantShredding& shredding, const WriterOptions& options,
                                      int64_t batch_rows = 65536);

}  // namespace parquetry
