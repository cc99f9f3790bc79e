// The schema of a Parquet file as a tree, and the leaf columns it defines.
//
// A file stores its schema as a flat, depth-first list of SchemaElements in
// which each group says how many children follow it. Schema rebuilds the tree,
// checking everything a hostile file could lie about (child counts, depth,
// names, types, repetitions, annotations), and then answers what readers and
// tools need:
//
// - per leaf, a ColumnDescriptor: its position among the column chunks, its
//   path, physical and logical type, and max definition/repetition levels;
// - per node, what it *is* once the LIST/MAP backward-compatibility rules of
//   parquet-format's LogicalTypes.md are applied: a leaf, a struct, a list
//   (with its element node) or a map (with its key and value nodes), and
//   whether its own REPEATED repetition turns it into an unannotated list;
// - lookup by dotted path or field id, projection by path prefix, and the
//   usual text form ("message schema { required int32 id; ... }").
//
// Legacy ConvertedType annotations are mapped to LogicalTypes where the
// format defines a mapping (UTF8 -> STRING, TIMESTAMP_MILLIS ->
// TIMESTAMP(MILLIS, adjustedToUTC=true), INT_8 -> INTEGER(8, signed), ...);
// INTERVAL and MAP_KEY_VALUE have no LogicalType and stay converted types.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "parquetry/limits.h"
#include "parquetry/metadata.h"
#include "parquetry/types.h"

namespace parquetry {

/// What a schema node represents once annotations and the compatibility
/// rules are applied. It describes the node's type *without* its own
/// repetition; see SchemaNode::is_bare_repeated() for that.
enum class NodeKind : uint8_t {
  kLeaf,    ///< a primitive column
  kStruct,  ///< a group whose children are fields (also the root, VARIANT groups, list/map middle levels)
  kList,    ///< a LIST-annotated group: list_element() gives the element
  kMap,     ///< a MAP (or stray MAP_KEY_VALUE) group: map_key() and map_value()
};

std::string_view node_kind_name(NodeKind kind);

/// How min/max statistics of a column compare (parquet.thrift's sort orders).
enum class SortOrder : uint8_t { kSigned, kUnsigned, kUnknown };

class Schema;

/// One node of the schema tree. Owned by its Schema; pointers stay valid for
/// the Schema's lifetime (and across moves of the Schema).
class SchemaNode {
 public:
  const std::string& name() const { return name_; }
  /// REQUIRED for the root.
  FieldRepetitionType repetition() const { return repetition_; }
  bool is_root() const { return parent_ == nullptr; }
  bool is_leaf() const { return kind_ == NodeKind::kLeaf; }
  bool is_group() const { return kind_ != NodeKind::kLeaf; }
  NodeKind kind() const { return kind_; }

  /// Leaves only (BOOLEAN for groups).
  Type physical_type() const { return physical_type_; }
  /// FIXED_LEN_BYTE_ARRAY width; 0 otherwise.
  int32_t type_length() const { return type_length_; }
  /// The annotation in effect: the element's LogicalType when it is one
  /// parquetry knows, else the mapping of its ConvertedType, else none.
  const std::optional<LogicalType>& logical_type() const { return logical_type_; }
  /// The ConvertedType exactly as written (may be absent when only a
  /// LogicalType was written).
  std::optional<ConvertedType> converted_type() const { return converted_type_; }
  /// DECIMAL precision and scale (0 when the node is not a decimal).
  int32_t precision() const { return precision_; }
  int32_t scale() const { return scale_; }
  std::optional<int32_t> field_id() const { return field_id_; }
  /// Empty, or why an annotation of the element was ignored: a logical type
  /// or converted type newer than this code ("unknown converted type 24;
  /// read as INT32"). The node then reads as what the note says.
  const std::string& annotation_note() const { return annotation_note_; }

  /// Levels of a value at this node: the number of non-required (resp.
  /// repeated) nodes from the root down to and including this one.
  int16_t max_definition_level() const { return max_definition_level_; }
  int16_t max_repetition_level() const { return max_repetition_level_; }
  /// Number of ancestors (0 for the root, 1 for a top-level field).
  int32_t depth() const { return depth_; }

  const SchemaNode* parent() const { return parent_; }
  const std::vector<const SchemaNode*>& children() const { return children_; }
  /// The child named `name`, or nullptr (the first one if names repeat).
  const SchemaNode* child(std::string_view name) const;
  /// Position in the flat SchemaElement list (0 for the root).
  int32_t element_index() const { return element_index_; }
  /// The leaves under this node are columns [first_column, first_column + num_columns).
  int32_t first_column() const { return first_column_; }
  int32_t num_columns() const { return num_columns_; }
  /// Names from the top-level field down to this node (empty for the root).
  std::vector<std::string> path() const;
  /// The same, joined with '.'.
  std::string dotted_path() const;

  /// True when this node is REPEATED and no enclosing LIST or MAP uses that
  /// repetition: LogicalTypes.md reads it as a required list of required
  /// elements whose type is this node (of kind()).
  bool is_bare_repeated() const { return bare_repeated_; }

  /// kList only: the repeated child that carries the list's repetition.
  const SchemaNode* list_repeated() const { return list_repeated_; }
  /// kList only: the node whose type is the element type. Either the
  /// repeated child itself (legacy 2-level lists; elements are then
  /// required) or that child's single field (the standard 3-level list).
  const SchemaNode* list_element() const { return list_element_; }
  /// kList only: whether elements may be null (element is optional in a
  /// 3-level list; never for 2-level lists).
  bool list_element_nullable() const {
    return list_element_ != list_repeated_ && list_element_->repetition() == FieldRepetitionType::OPTIONAL;
  }
  /// kMap only: the repeated key/value group, its key, and its value
  /// (nullptr when the map has no value field: a set of keys).
  const SchemaNode* map_key_value() const { return map_key_value_; }
  const SchemaNode* map_key() const { return map_key_; }
  const SchemaNode* map_value() const { return map_value_; }

  /// The SchemaElement this node was built from.
  const SchemaElement& element() const { return element_; }

 private:
  friend class Schema;
  friend class SchemaBuilder;

  std::string name_;
  FieldRepetitionType repetition_ = FieldRepetitionType::REQUIRED;
  NodeKind kind_ = NodeKind::kStruct;
  Type physical_type_ = Type::BOOLEAN;
  int32_t type_length_ = 0;
  std::optional<LogicalType> logical_type_;
  std::optional<ConvertedType> converted_type_;
  int32_t precision_ = 0;
  int32_t scale_ = 0;
  std::optional<int32_t> field_id_;
  std::string annotation_note_;
  int16_t max_definition_level_ = 0;
  int16_t max_repetition_level_ = 0;
  int32_t depth_ = 0;
  const SchemaNode* parent_ = nullptr;
  std::vector<const SchemaNode*> children_;
  int32_t element_index_ = 0;
  int32_t first_column_ = 0;
  int32_t num_columns_ = 0;
  bool bare_repeated_ = false;
  const SchemaNode* list_repeated_ = nullptr;
  const SchemaNode* list_element_ = nullptr;
  const SchemaNode* map_key_value_ = nullptr;
  const SchemaNode* map_key_ = nullptr;
  const SchemaNode* map_value_ = nullptr;
  SchemaElement element_;
};

/// A leaf column: everything needed to read or write its column chunks.
struct ColumnDescriptor {
  /// Ordinal among the leaves = index of its ColumnChunk in each RowGroup.
  int32_t index = 0;
  /// Names from the top-level field to the leaf, and the same joined by '.'.
  std::vector<std::string> path_parts;
  std::string path;
  Type physical_type = Type::BOOLEAN;
  int32_t type_length = 0;
  std::optional<LogicalType> logical_type;  ///< as SchemaNode::logical_type()
  std::optional<ConvertedType> converted_type;
  int32_t precision = 0;
  int32_t scale = 0;
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;
  std::optional<int32_t> field_id;
  /// Repetition of each node on the path (top-level field first, leaf last).
  std::vector<FieldRepetitionType> path_repetitions;
  /// How min/max statistics of this column are ordered.
  SortOrder sort_order = SortOrder::kUnknown;
  const SchemaNode* node = nullptr;
};

/// The whole schema. Move-only cheap to move; copies rebuild the tree.
class Schema {
 public:
  /// Builds and validates the tree. Throws parquetry::Error: kCorrupt for a
  /// malformed schema, kLimitExceeded for nesting deeper than
  /// limits.max_nesting_depth, kUnsupported for features parquetry lacks.
  static Schema from_elements(std::span<const SchemaElement> elements, const Limits& limits = {});
  static Schema from_metadata(const FileMetaData& metadata, const Limits& limits = {}) {
    return from_elements(metadata.schema, limits);
  }

  Schema(Schema&&) noexcept = default;
  Schema& operator=(Schema&&) noexcept = default;
  Schema(const Schema& other);
  Schema& operator=(const Schema& other);

  const SchemaNode& root() const { return nodes_.front(); }
  /// Every node in depth-first order (the order of the SchemaElements).
  std::span<const SchemaNode> nodes() const { return nodes_; }

  size_t num_columns() const { return columns_.size(); }
  const ColumnDescriptor& column(size_t index) const { return columns_.at(index); }
  std::span<const ColumnDescriptor> columns() const { return columns_; }

  /// The leaf whose dotted path is `path` ("a.b.c"), or nullptr. Sibling
  /// names may repeat in a file; lookups then find the first match.
  const ColumnDescriptor* find_column(std::string_view path) const;
  /// The leaf with exactly these path parts (names may contain '.'), or nullptr.
  const ColumnDescriptor* find_column(std::span<const std::string> parts) const;
  /// The leaf carrying `field_id`, or nullptr.
  const ColumnDescriptor* find_column_by_field_id(int32_t field_id) const;
  /// Any node (group or leaf) by dotted path or field id, or nullptr. The
  /// empty path is the root.
  const SchemaNode* find_node(std::string_view path) const;
  const SchemaNode* find_node_by_field_id(int32_t field_id) const;

  /// Indexes of the leaves at or below the node named by `path_prefix`
  /// ("a.b" selects "a.b" and "a.b.c", not "a.bc"); empty when none match.
  /// The empty prefix selects a top-level field named "" when the schema
  /// has one, else every leaf (the root).
  std::vector<int32_t> columns_under(std::string_view path_prefix) const;
  /// Union of columns_under() for each prefix, in column order without
  /// duplicates. Throws kInvalidArgument naming a prefix that matches nothing.
  std::vector<int32_t> select_columns(std::span<const std::string> path_prefixes) const;

  /// The schema in the text form of parquet-java and parquet-cli:
  ///   message schema {
  ///     required int32 id (INTEGER(32,true)) = 1;
  ///     optional group tags (LIST) {
  ///       repeated group list {
  ///         optional binary element (STRING);
  ///       }
  ///     }
  ///   }
  std::string to_string() const;

 private:
  friend class SchemaBuilder;
  Schema() = default;
  void index();

  std::vector<SchemaElement> elements_;
  Limits limits_;
  std::vector<SchemaNode> nodes_;
  std::vector<ColumnDescriptor> columns_;
  std::unordered_map<std::string, int32_t> column_by_path_;
  std::unordered_map<std::string, int32_t> node_by_path_;
  std::unordered_map<int32_t, int32_t> node_by_field_id_;
};

/// The LogicalType a legacy ConvertedType stands for (LogicalTypes.md's
/// backward-compatibility tables); nullopt for MAP_KEY_VALUE and INTERVAL,
/// which have none. DECIMAL takes `precision` and `scale` from the element.
std::optional<LogicalType> logical_type_from_converted(ConvertedType type, int32_t precision, int32_t scale);

/// The annotation in the schema text form: "STRING", "INTEGER(32,true)",
/// "DECIMAL(9,2)", "TIMESTAMP(MICROS,true)", "TIME(MILLIS,false)", "LIST",
/// "UNKNOWN", "VARIANT(1)", "GEOMETRY(OGC:CRS84)", ...
std::string logical_type_to_string(const LogicalType& type);

/// The sort order of a leaf with this physical and logical/converted type.
SortOrder column_sort_order(Type physical_type, const std::optional<LogicalType>& logical_type,
                            std::optional<ConvertedType> converted_type);

}  // namespace parquetry
