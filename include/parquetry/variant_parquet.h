// VARIANT columns in Parquet files (VariantShredding.md): finding them in a
// schema, rebuilding variants from shredded or unshredded column data, and
// extracting one path with the cheapest column projection.
//
// (The Variant value-type enum is VariantValueType; VariantType is the
// Parquet logical-type struct of metadata.h, so both headers now mix freely.)
//
//   auto reader = parquetry::FileReader::open("events.parquet");
//   auto columns = parquetry::find_variant_columns(reader->schema());
//   parquetry::VariantColumnReader rebuild(columns[0]);
//   for (auto& batch : reader->read_all()) {
//     const ArrayData& var = *batch.columns[batch.schema->field_index(columns[0].path)];
//     for (int64_t row = 0; row < batch.num_rows; ++row) {
//       parquetry::OwnedVariant v;
//       if (rebuild.read(var, row, v)) use(v.view());   // false = SQL NULL
//     }
//   }
//
//   auto got = parquetry::variant_get("events.parquet", "payload", "user.name");
//
// Reconstruction rules (per row, per level, with `value` and `typed_value`
// children of a shredded group):
//   - both null: at the top level a Variant null (00), as an array element a
//     Variant null, as an object field "key absent";
//   - only value: the encoded bytes, copied as they are;
//   - only typed_value: the value of the shredded type (object: its fields,
//     array: its elements, recursively);
//   - both: allowed only when typed_value is an object and value is an object
//     (a partially shredded object); the result is the union of the shredded
//     fields and the residual fields. Any other combination throws kCorrupt
//     "conflicting value and typed_value" / "non-object value with shredded
//     fields".
// Key present both as a shredded field and in the residual object (spec:
// undefined; parquet-testing case 43): the shredded field wins and the
// residual copy is dropped, also when the shredded field is missing in that
// row. This matches the Iceberg-generated expectations; arrow-rs errors
// instead.
//
// Accepted typed_value types: BOOLEAN, INT(8|16|32|64, signed), INT32/INT64,
// FLOAT, DOUBLE, DECIMAL (any physical type; width by precision: <=9
// decimal4, <=18 decimal8, else decimal16), DATE, TIME(MICROS, no UTC),
// TIMESTAMP(MICROS|NANOS, UTC or not), BYTE_ARRAY (binary), STRING,
// FIXED_LEN_BYTE_ARRAY(16) UUID, LIST (array) and groups (object). Anything
// else (unsigned integers, bare FIXED_LEN_BYTE_ARRAY, MILLIS units...) throws
// kUnsupported "unsupported shredded value type" naming the column.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parquetry/export.h"
#include "parquetry/table.h"

namespace parquetry {

class Schema;
class SchemaNode;
struct FileMetaData;
class Variant;

/// What a `typed_value` holds.
enum class VariantShredKind : uint8_t {
  kNone,       ///< no typed_value (value only)
  kPrimitive,  ///< a primitive column; `primitive_id` says which variant type it produces
  kObject,     ///< a group with one field group per shredded key
  kArray,      ///< a LIST of element groups
};

/// The shredding schema of one (value, typed_value) level.
struct PARQUETRY_API VariantShredNode {
  std::string path;  ///< dotted Parquet path of the group holding value/typed_value
  bool has_value = false;
  VariantShredKind kind = VariantShredKind::kNone;
  /// kPrimitive: the wire primitive id produced (VariantPrimitive; 1 stands
  /// for boolean, 16 for string).
  uint8_t primitive_id = 0;
  int32_t scale = 0;  ///< kPrimitive decimals
  /// kObject: the shredded keys, in schema order, with their field groups.
  std::vector<std::pair<std::string, VariantShredNode>> fields;
  /// kArray: the element group.
  std::unique_ptr<VariantShredNode> element;

  VariantShredNode() = default;
  VariantShredNode(VariantShredNode&&) noexcept = default;
  VariantShredNode& operator=(VariantShredNode&&) noexcept = default;
  /// The field group of `key`, or nullptr.
  const VariantShredNode* field(std::string_view key) const;
};

/// One VARIANT column of a file schema.
struct VariantColumn {
  std::string path;                  ///< dotted path of the VARIANT group ("var", "a.payload")
  const SchemaNode* node = nullptr;  ///< valid while the Schema lives
  bool annotated = false;            ///< VARIANT logical type (else recognised by shape)
  VariantShredNode root;             ///< the top level (metadata is separate)
  /// True when the group has a typed_value child.
  bool shredded() const { return root.kind != VariantShredKind::kNone; }
};

/// Describes the variant group `node`: checks the shape (required binary
/// metadata, binary value, typed_value of an accepted type; children matched
/// by name) and throws kCorrupt / kUnsupported naming the column otherwise.
PARQUETRY_API VariantColumn describe_variant_column(const SchemaNode& node);

/// Every VARIANT column of `schema`: groups annotated VARIANT, and
/// unannotated groups whose children are exactly a binary `metadata`, a
/// binary `value` and optionally a `typed_value` (the legacy shape).
PARQUETRY_API std::vector<VariantColumn> find_variant_columns(const Schema& schema);

/// A variant that owns its bytes.
struct PARQUETRY_API OwnedVariant {
  std::vector<uint8_t> metadata;
  std::vector<uint8_t> value;
  /// A view over the owned bytes (valid while this object lives unchanged).
  Variant view() const;
  /// variant_to_json() of the value.
  std::string to_json() const;
};

/// Rebuilds variants from the Arrow struct array the FileReader produces for
/// a VARIANT group (struct<metadata, value?, typed_value?>). Children are
/// found by name at every level. Rows whose typed_value is null pass their
/// `value` bytes through without re-encoding; other rows are rebuilt with a
/// VariantBuilder seeded with the row's metadata dictionary.
class PARQUETRY_API VariantColumnReader {
 public:
  /// `column` must outlive the reader.
  explicit VariantColumnReader(const VariantColumn& column);
  ~VariantColumnReader();
  VariantColumnReader(const VariantColumnReader&) = delete;
  VariantColumnReader& operator=(const VariantColumnReader&) = delete;

  /// Rebuilds row `row` (relative to the array's offset) into `out`; false
  /// when the row is SQL NULL (the group itself is null). Throws kCorrupt
  /// for an invalid shredded layout.
  bool read(const ArrayData& group, int64_t row, OwnedVariant& out);
  /// Rebuilds one nested level `node` (a field group of the column's
  /// shredding, e.g. one read alone by a lean projection) at `row` of its
  /// struct array, against the dictionary `metadata` (empty = no keys).
  /// False when the group is null or both its value and typed_value are
  /// null (the key is absent).
  bool read_level(const VariantShredNode& node, const ArrayData& group, int64_t row,
                  std::span<const uint8_t> metadata, OwnedVariant& out);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

/// Every row of the VARIANT column `column` (dotted group path) of `file`,
/// rebuilt; nullopt for SQL NULL rows.
PARQUETRY_API std::vector<std::optional<OwnedVariant>> read_variant_column(const std::string& file,
                                                                           const std::string& column);

/// The VARIANT columns of a file's schema (paths and shredding only; `node` is null).
PARQUETRY_API std::vector<VariantColumn> find_variant_columns(const std::string& file);

/// JSON rendering of the top-level VARIANT columns of batches (the hook
/// `parquetry cat` uses): variants print as variant_to_json() text instead of
/// their metadata/value/typed_value struct.
class PARQUETRY_API VariantJsonColumns {
 public:
  /// Finds the top-level VARIANT columns of `schema` (throws for an invalid
  /// shredding schema, like the reader would).
  explicit VariantJsonColumns(const Schema& schema);
  ~VariantJsonColumns();
  /// True when the schema has at least one top-level VARIANT column.
  bool any() const { return !columns_.empty(); }
  /// Row `row` of `batch` as one JSON object keyed by column name; VARIANT
  /// columns as their JSON (SQL NULL as null), other columns as
  /// write_json_value() renders them.
  std::string row_json(const RecordBatch& batch, int64_t row);

 private:
  std::vector<VariantColumn> columns_;
  std::vector<std::unique_ptr<VariantColumnReader>> readers_;
};

/// How variant_get reads a path (variant.md section 5).
enum class VariantGetPlan : uint8_t {
  kUnshredded,  ///< no typed_value: metadata + value, the path extracted from the bytes
  kLean,        ///< fully shredded path: only its field group (value and metadata only when needed)
  kResidual,    ///< the path leaves shredding: metadata + the deepest shredded object's value
  kFull,        ///< whole shredded variant (empty path): every column, rebuilt
};
PARQUETRY_API const char* variant_get_plan_name(VariantGetPlan plan);

/// The plan chosen for one file and path, with the columns it reads.
struct VariantGetPlanInfo {
  VariantGetPlan plan = VariantGetPlan::kFull;
  /// Dotted column or group paths for ReaderOptions::columns.
  std::vector<std::string> columns;
  /// kLean and kResidual: how many path keys the shredded columns resolve.
  size_t shredded_steps = 0;
  /// kLean: whether the field group's `value` is read (not provably all-null).
  bool reads_value = false;
};

/// Splits "a.b.c" into keys.
PARQUETRY_API std::vector<std::string> split_variant_path(std::string_view path);

/// Chooses the plan for `path` (object keys; empty = the whole variant) of
/// `column`. Rules: no typed_value -> kUnshredded; empty path on a shredded
/// column -> kFull; otherwise descend while the current typed_value is an
/// object shredding the next key. All keys resolved -> kLean: read the
/// field group's typed_value, plus its `value` and the metadata unless
/// `value` is absent or has null_count == num_values in every row group of
/// `metadata` (typed objects/arrays below always add metadata). Stopped
/// early -> kResidual from the value column of the last level reached.
PARQUETRY_API VariantGetPlanInfo plan_variant_get(const VariantColumn& column, const FileMetaData& metadata,
                                                  const std::vector<std::string>& path);

struct VariantGetResult {
  VariantGetPlanInfo plan;
  /// One entry per row: nullopt when the row is SQL NULL, the path is
  /// missing (or crosses a non-object), or the value is not of the requested type.
  std::vector<std::optional<OwnedVariant>> values;
};

/// Reads `path` of the VARIANT column `column` for every row of `file` with
/// the plan of plan_variant_get(). `type`, when not empty, is a
/// variant_type_name() ("string", "int32", "object"...): values of another
/// type become nullopt (a safe cast that does not convert).
PARQUETRY_API VariantGetResult variant_get(const std::string& file, const std::string& column,
                                           std::string_view path, std::string_view type = {});

/// Receives one row of variant_get_each(): `value` is null where
/// variant_get() gives nullopt. The view (and its metadata) is valid only
/// during the call.
using VariantGetVisitor = std::function<void(int64_t row, const Variant* value)>;

/// variant_get() without materialising the rows: every row of `file`, in
/// order, is passed to `visit`. Extractions from `value` bytes (unshredded
/// and residual plans) are views into the decompressed pages (the metadata
/// and value leaves are streamed page by page, no blob is copied, for
/// columns without a repeated ancestor); rebuilt values (lean
/// and full plans) go through one reused scratch variant, so no per-row
/// allocation happens once its buffers have grown. Returns the plan used.
PARQUETRY_API VariantGetPlanInfo variant_get_each(const std::string& file, const std::string& column,
                                                  std::string_view path, std::string_view type,
                                                  const VariantGetVisitor& visit);

/// The value at `path` (object keys) of `value`, or nullopt when a step is
/// missing or crosses a non-object.
PARQUETRY_API std::optional<Variant> variant_find_path(const Variant& value,
                                                       const std::vector<std::string>& path,
                                                       size_t first = 0);

}  // namespace parquetry
