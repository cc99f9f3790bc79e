// Building the schema tree from the flat SchemaElement list, classifying its
// nodes, and the lookups on top. Everything here is iterative: the depth is
// bounded by Limits::max_nesting_depth, but a caller may raise that limit and
// the stack should not be what breaks then.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "parquetry/error.h"
#include "parquetry/schema.h"

namespace parquetry {

class SchemaBuilder {
 public:
  explicit SchemaBuilder(Schema& schema) : schema_(schema), elements_(schema.elements_) {}

  void build() {
    if (elements_.empty()) throw_corrupt("schema: the file has no schema elements (not even a root)");
    if (elements_.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
      throw_limit("schema: too many schema elements (" + std::to_string(elements_.size()) + ")");
    }
    schema_.nodes_.clear();
    schema_.nodes_.resize(elements_.size());
    build_tree();
    for (SchemaNode& node : schema_.nodes_) resolve_annotation(node);
    classify();
    number_columns();
  }

 private:
  struct OpenGroup {
    int32_t node;
    int64_t remaining;  // children still to come
  };

  SchemaNode& node(size_t index) { return schema_.nodes_[index]; }

  // Where an error is: the dotted path of a node whose parent links are set.
  static std::string describe(const SchemaNode& node) {
    if (node.is_root()) return "the schema root '" + node.name_ + "'";
    return "'" + node.dotted_path() + "' (schema element " + std::to_string(node.element_index_) + ")";
  }

  void build_tree() {
    const int32_t count = static_cast<int32_t>(elements_.size());
    const SchemaElement& root_element = elements_[0];
    SchemaNode& root = node(0);
    root.element_ = root_element;
    root.name_ = root_element.name;
    root.element_index_ = 0;
    root.repetition_ = FieldRepetitionType::REQUIRED;
    if (!root_element.num_children) {
      throw_corrupt("schema: the root element '" + root_element.name +
                    "' is not a group (it has no num_children)");
    }
    int64_t root_children = check_child_count(root_element, 0, count);
    std::vector<OpenGroup> open;
    if (root_children > 0) open.push_back({0, root_children});

    for (int32_t i = 1; i < count; ++i) {
      if (open.empty()) {
        throw_corrupt("schema: the tree is complete after " + std::to_string(i) + " of " +
                      std::to_string(count) + " schema elements (a num_children is too small)");
      }
      OpenGroup& parent_slot = open.back();
      SchemaNode& parent = node(static_cast<size_t>(parent_slot.node));
      --parent_slot.remaining;

      const SchemaElement& element = elements_[static_cast<size_t>(i)];
      SchemaNode& current = node(static_cast<size_t>(i));
      current.element_ = element;
      current.name_ = element.name;
      current.element_index_ = i;
      current.parent_ = &parent;
      current.depth_ = parent.depth_ + 1;
      parent.children_.push_back(&current);

      if (current.depth_ > schema_.limits_.max_nesting_depth) {
        throw_limit("schema: " + describe(current) + " is nested " + std::to_string(current.depth_) +
                    " levels deep; the limit is " + std::to_string(schema_.limits_.max_nesting_depth));
      }
      // Any byte string is a valid name, the empty one included: other
      // writers produce them and other readers open such files.
      if (!element.repetition_type) {
        throw_corrupt("schema: " + describe(current) + " has no repetition type");
      }
      auto repetition = static_cast<int32_t>(*element.repetition_type);
      if (repetition == 3) {
        throw_unsupported("schema: " + describe(current) + " uses VECTOR repetition, which is not supported");
      }
      if (repetition < 0 || repetition > 2) {
        throw_corrupt("schema: " + describe(current) + " has an invalid repetition type " +
                      std::to_string(repetition));
      }
      current.repetition_ = *element.repetition_type;
      int32_t definition = parent.max_definition_level_ + (repetition != 0 ? 1 : 0);
      int32_t repetition_level = parent.max_repetition_level_ + (repetition == 2 ? 1 : 0);
      if (definition > std::numeric_limits<int16_t>::max() ||
          repetition_level > std::numeric_limits<int16_t>::max()) {
        throw_limit("schema: " + describe(current) + " needs levels beyond 32767");
      }
      current.max_definition_level_ = static_cast<int16_t>(definition);
      current.max_repetition_level_ = static_cast<int16_t>(repetition_level);

      bool is_group = element.num_children.has_value() && (*element.num_children != 0 || !element.type);
      if (is_group) {
        if (element.type) {
          throw_corrupt("schema: group " + describe(current) + " has a physical type (" +
                        std::string(type_name(*element.type)) + "); only leaves have one");
        }
        int64_t children = check_child_count(element, i, count);
        if (children == 0) throw_corrupt("schema: group " + describe(current) + " has no children");
        current.kind_ = NodeKind::kStruct;
        open.push_back({i, children});
      } else {
        init_leaf(current, element);
      }
      while (!open.empty() && open.back().remaining == 0) open.pop_back();
    }
    if (!open.empty()) {
      const SchemaNode& unfinished = node(static_cast<size_t>(open.back().node));
      throw_corrupt("schema: group " + describe(unfinished) + " declares " +
                    std::to_string(*unfinished.element_.num_children) + " children but the schema ends " +
                    std::to_string(open.back().remaining) + " short");
    }
  }

  // Validates num_children of the group at `index` against what can follow.
  int64_t check_child_count(const SchemaElement& element, int32_t index, int32_t count) {
    int64_t children = *element.num_children;
    if (children < 0) {
      throw_corrupt("schema: element " + std::to_string(index) + " '" + element.name +
                    "' has a negative num_children (" + std::to_string(children) + ")");
    }
    int64_t following = int64_t{count} - index - 1;
    if (children > following) {
      throw_corrupt("schema: element " + std::to_string(index) + " '" + element.name + "' declares " +
                    std::to_string(children) + " children but only " + std::to_string(following) +
                    " schema elements follow it");
    }
    return children;
  }

  void init_leaf(SchemaNode& leaf, const SchemaElement& element) {
    leaf.kind_ = NodeKind::kLeaf;
    if (!element.type) throw_corrupt("schema: leaf " + describe(leaf) + " has no physical type");
    auto type = static_cast<int32_t>(*element.type);
    if (type < 0 || type > static_cast<int32_t>(Type::FIXED_LEN_BYTE_ARRAY)) {
      throw_corrupt("schema: leaf " + describe(leaf) + " has an unknown physical type " +
                    std::to_string(type));
    }
    leaf.physical_type_ = *element.type;
    if (leaf.physical_type_ == Type::FIXED_LEN_BYTE_ARRAY) {
      if (!element.type_length || *element.type_length <= 0) {
        throw_corrupt("schema: FIXED_LEN_BYTE_ARRAY leaf " + describe(leaf) + " has " +
                      (element.type_length ? "an invalid type_length " + std::to_string(*element.type_length)
                                           : std::string("no type_length")));
      }
      leaf.type_length_ = *element.type_length;
    }
  }

  // Sets logical_type_/converted_type_/precision_/scale_ and checks that the
  // annotation fits the node.
  void resolve_annotation(SchemaNode& node) {
    const SchemaElement& element = node.element_;
    // A converted type newer than this code is ignored like an unknown
    // logical type: the column reads as its physical type, with a note.
    std::optional<int32_t> unknown_converted;
    if (element.converted_type) {
      auto converted = static_cast<int32_t>(*element.converted_type);
      if (converted < 0 || converted > static_cast<int32_t>(ConvertedType::INTERVAL)) {
        unknown_converted = converted;
      } else {
        node.converted_type_ = element.converted_type;
      }
    }
    node.field_id_ = element.field_id;
    if (node.is_root()) return;  // the root's annotations, if any, mean nothing
    const UnrecognizedLogicalType* unknown_logical =
        element.logical_type ? element.logical_type->get_if<UnrecognizedLogicalType>() : nullptr;
    if (unknown_logical != nullptr) {
      node.annotation_note_ =
          "unknown logical type (union field " + std::to_string(unknown_logical->field_id) + ")";
    }
    if (unknown_converted) {
      if (!node.annotation_note_.empty()) node.annotation_note_ += ", ";
      node.annotation_note_ += "unknown converted type " + std::to_string(*unknown_converted);
    }

    if (element.logical_type && !element.logical_type->is<UnrecognizedLogicalType>()) {
      node.logical_type_ = element.logical_type;
    } else if (node.converted_type_) {
      if (*node.converted_type_ == ConvertedType::DECIMAL && !element.precision) {
        throw_corrupt("schema: DECIMAL " + describe(node) + " has no precision");
      }
      node.logical_type_ = logical_type_from_converted(*node.converted_type_, element.precision.value_or(0),
                                                       element.scale.value_or(0));
    }

    if (!node.annotation_note_.empty()) {
      // What the column is read as instead: the annotation that was
      // understood, else the physical type.
      node.annotation_note_ += node.logical_type_ ? "; read as " + logical_type_to_string(*node.logical_type_)
                               : node.converted_type_
                                   ? "; read as " + std::string(converted_type_name(*node.converted_type_))
                               : node.is_leaf() ? "; read as " + std::string(type_name(node.physical_type_))
                                                : "; read as a plain group";
    }

    if (const DecimalType* decimal =
            node.logical_type_ ? node.logical_type_->get_if<DecimalType>() : nullptr) {
      node.precision_ = decimal->precision;
      node.scale_ = decimal->scale;
    }

    if (node.is_group()) {
      check_group_annotation(node);
    } else {
      check_leaf_annotation(node);
    }
  }

  void check_group_annotation(const SchemaNode& node) {
    if (node.logical_type_) {
      const LogicalType& t = *node.logical_type_;
      if (!t.is<ListType>() && !t.is<MapType>() && !t.is<VariantType>()) {
        throw_corrupt("schema: group " + describe(node) + " is annotated " + logical_type_to_string(t) +
                      ", which only applies to primitive columns");
      }
    } else if (node.converted_type_ && *node.converted_type_ != ConvertedType::MAP_KEY_VALUE) {
      throw_corrupt("schema: group " + describe(node) + " has the converted type " +
                    std::string(converted_type_name(*node.converted_type_)) +
                    ", which only applies to primitive columns");
    }
  }

  [[noreturn]] void annotation_mismatch(const SchemaNode& node, const std::string& annotation) {
    std::string physical(type_name(node.physical_type_));
    if (node.physical_type_ == Type::FIXED_LEN_BYTE_ARRAY)
      physical += "(" + std::to_string(node.type_length_) + ")";
    throw_corrupt("schema: " + describe(node) + ": " + annotation + " cannot annotate " + physical);
  }

  void check_leaf_annotation(const SchemaNode& node) {
    const Type physical = node.physical_type_;
    if (!node.logical_type_) {
      if (node.converted_type_ == ConvertedType::INTERVAL &&
          (physical != Type::FIXED_LEN_BYTE_ARRAY || node.type_length_ != 12)) {
        annotation_mismatch(node, "INTERVAL");
      }
      if (node.converted_type_ == ConvertedType::MAP_KEY_VALUE) annotation_mismatch(node, "MAP_KEY_VALUE");
      return;
    }
    const LogicalType& t = *node.logical_type_;
    const std::string text = logical_type_to_string(t);
    auto require = [&](bool ok) {
      if (!ok) annotation_mismatch(node, text);
    };
    if (t.is<StringType>() || t.is<EnumType>() || t.is<JsonType>() || t.is<BsonType>() ||
        t.is<GeometryType>() || t.is<GeographyType>()) {
      require(physical == Type::BYTE_ARRAY);
    } else if (t.is<DateType>()) {
      require(physical == Type::INT32);
    } else if (const auto* time = t.get_if<TimeType>()) {
      require(time->unit == TimeUnit::MILLIS ? physical == Type::INT32 : physical == Type::INT64);
    } else if (t.is<TimestampType>()) {
      require(physical == Type::INT64);
    } else if (const auto* integer = t.get_if<IntType>()) {
      int width = integer->bit_width;
      if (width != 8 && width != 16 && width != 32 && width != 64) {
        throw_corrupt("schema: " + describe(node) + " has an INTEGER annotation of invalid bit width " +
                      std::to_string(width));
      }
      require(width == 64 ? physical == Type::INT64 : physical == Type::INT32);
    } else if (t.is<UuidType>()) {
      require(physical == Type::FIXED_LEN_BYTE_ARRAY && node.type_length_ == 16);
    } else if (t.is<Float16Type>()) {
      require(physical == Type::FIXED_LEN_BYTE_ARRAY && node.type_length_ == 2);
    } else if (const auto* decimal = t.get_if<DecimalType>()) {
      check_decimal(node, *decimal);
    } else if (t.is<ListType>() || t.is<MapType>() || t.is<VariantType>() || t.is<VectorType>()) {
      throw_corrupt("schema: leaf " + describe(node) + " is annotated " + text +
                    ", which only applies to groups");
    }
    // NullType (UNKNOWN) may annotate any primitive.
  }

  void check_decimal(const SchemaNode& node, const DecimalType& decimal) {
    if (decimal.precision < 1 || decimal.scale < 0 || decimal.scale > decimal.precision) {
      throw_corrupt("schema: " + describe(node) + " has an invalid DECIMAL precision " +
                    std::to_string(decimal.precision) + " / scale " + std::to_string(decimal.scale));
    }
    int32_t max_precision = 0;
    switch (node.physical_type_) {
      case Type::INT32: max_precision = 9; break;
      case Type::INT64: max_precision = 18; break;
      case Type::BYTE_ARRAY: max_precision = std::numeric_limits<int32_t>::max(); break;
      case Type::FIXED_LEN_BYTE_ARRAY: {
        // floor(log10(2^(8n-1) - 1)) digits fit in n bytes; 8n-1 bits carry
        // (8n-1)*log10(2) decimal digits.
        double digits = (8.0 * node.type_length_ - 1.0) * 0.30102999566398120;
        max_precision =
            digits >= 2147483647.0 ? std::numeric_limits<int32_t>::max() : static_cast<int32_t>(digits);
        break;
      }
      default: annotation_mismatch(node, logical_type_to_string(*node.logical_type_));
    }
    if (decimal.precision > max_precision) {
      throw_corrupt("schema: " + describe(node) + ": DECIMAL precision " + std::to_string(decimal.precision) +
                    " does not fit " + std::string(type_name(node.physical_type_)) +
                    (node.physical_type_ == Type::FIXED_LEN_BYTE_ARRAY
                         ? "(" + std::to_string(node.type_length_) + ")"
                         : std::string()) +
                    " (at most " + std::to_string(max_precision) + " digits)");
    }
  }

  static bool annotated(const SchemaNode& node, auto tag) {
    return node.logical_type_ && node.logical_type_->is<decltype(tag)>();
  }

  // Applies LogicalTypes.md's rules for LIST and MAP. Nodes are visited in
  // depth-first order, so a parent marks its children before they are seen.
  void classify() {
    const size_t count = schema_.nodes_.size();
    std::vector<uint8_t> repetition_used(count, 0);  // an enclosing LIST/MAP consumed it
    std::vector<uint8_t> structural(count, 0);       // a list/map middle level: a plain struct
    for (size_t i = 0; i < count; ++i) {
      SchemaNode& current = node(i);
      current.bare_repeated_ = current.repetition_ == FieldRepetitionType::REPEATED && !repetition_used[i];
      if (current.is_leaf() || structural[i] || current.is_root()) continue;

      bool is_list = annotated(current, ListType{});
      bool is_map = annotated(current, MapType{}) ||
                    (!current.logical_type_ && current.converted_type_ == ConvertedType::MAP_KEY_VALUE);
      if (is_list) {
        classify_list(current, repetition_used, structural);
      } else if (is_map) {
        classify_map(current, repetition_used, structural);
      }
    }
  }

  void classify_list(SchemaNode& list, std::vector<uint8_t>& repetition_used,
                     std::vector<uint8_t>& structural) {
    if (list.children_.size() != 1) {
      throw_corrupt("schema: LIST " + describe(list) + " must have exactly one (repeated) child, not " +
                    std::to_string(list.children_.size()));
    }
    const SchemaNode* repeated = list.children_[0];
    if (repeated->repetition_ != FieldRepetitionType::REPEATED) {
      throw_corrupt("schema: LIST " + describe(list) + " has a child '" + repeated->name_ + "' that is " +
                    std::string(repetition_name(repeated->repetition_)) + ", not repeated");
    }
    repetition_used[static_cast<size_t>(repeated->element_index_)] = 1;
    // The backward-compatibility rules, in the order LogicalTypes.md gives
    // them: in rules 1-4 the repeated field itself is the (required) element
    // (a 2-level list); otherwise its single field is (3-level).
    const SchemaNode* element;
    if (repeated->is_leaf()) {
      element = repeated;  // rule 1
    } else if (repeated->children_.size() != 1) {
      element = repeated;  // rule 2: a tuple of several fields
    } else if (repeated->children_[0]->repetition_ == FieldRepetitionType::REPEATED) {
      element = repeated;  // rule 3: the single field is itself repeated
    } else if (repeated->name_ == "array" || repeated->name_ == list.name_ + "_tuple") {
      element = repeated;  // rule 4: legacy names of one-field tuples
    } else {
      element = repeated->children_[0];  // rule 5: the standard 3-level list
      structural[static_cast<size_t>(repeated->element_index_)] = 1;
    }
    list.kind_ = NodeKind::kList;
    list.list_repeated_ = repeated;
    list.list_element_ = element;
  }

  void classify_map(SchemaNode& map, std::vector<uint8_t>& repetition_used,
                    std::vector<uint8_t>& structural) {
    const char* what = annotated(map, MapType{}) ? "MAP " : "MAP_KEY_VALUE ";
    if (map.children_.size() != 1) {
      throw_corrupt("schema: " + std::string(what) + describe(map) +
                    " must have exactly one (repeated key/value) child, not " +
                    std::to_string(map.children_.size()));
    }
    const SchemaNode* key_value = map.children_[0];
    if (key_value->repetition_ != FieldRepetitionType::REPEATED || key_value->is_leaf()) {
      throw_corrupt("schema: " + std::string(what) + describe(map) + " has a child '" + key_value->name_ +
                    "' that is not a repeated group");
    }
    if (key_value->children_.size() > 2) {
      throw_corrupt("schema: " + std::string(what) + describe(map) + " has a key/value group '" +
                    key_value->name_ + "' with " + std::to_string(key_value->children_.size()) +
                    " fields; it must hold a key and at most one value");
    }
    repetition_used[static_cast<size_t>(key_value->element_index_)] = 1;
    structural[static_cast<size_t>(key_value->element_index_)] = 1;
    map.kind_ = NodeKind::kMap;
    map.map_key_value_ = key_value;
    map.map_key_ = key_value->children_[0];
    map.map_value_ = key_value->children_.size() == 2 ? key_value->children_[1] : nullptr;
  }

  void number_columns() {
    int32_t leaves = 0;
    for (SchemaNode& current : schema_.nodes_) {
      current.first_column_ = leaves;
      if (current.is_leaf()) ++leaves;
    }
    // Children follow their parent, so a reverse pass sums leaf counts upwards.
    for (size_t i = schema_.nodes_.size(); i-- > 0;) {
      SchemaNode& current = node(i);
      if (current.is_leaf()) current.num_columns_ = 1;
      if (current.parent_ != nullptr)
        node(static_cast<size_t>(current.parent_->element_index_)).num_columns_ += current.num_columns_;
    }

    schema_.columns_.clear();
    schema_.columns_.reserve(static_cast<size_t>(leaves));
    for (const SchemaNode& current : schema_.nodes_) {
      if (!current.is_leaf()) continue;
      ColumnDescriptor column;
      column.index = static_cast<int32_t>(schema_.columns_.size());
      column.path_parts = current.path();
      column.path = current.dotted_path();
      column.physical_type = current.physical_type_;
      column.type_length = current.type_length_;
      column.logical_type = current.logical_type_;
      column.converted_type = current.converted_type_;
      column.precision = current.precision_;
      column.scale = current.scale_;
      column.max_definition_level = current.max_definition_level_;
      column.max_repetition_level = current.max_repetition_level_;
      column.field_id = current.field_id_;
      column.path_repetitions.resize(static_cast<size_t>(current.depth_));
      size_t slot = column.path_repetitions.size();
      for (const SchemaNode* up = &current; up != nullptr && !up->is_root(); up = up->parent_) {
        column.path_repetitions[--slot] = up->repetition_;
      }
      column.sort_order = column_sort_order(column.physical_type, column.logical_type, column.converted_type);
      // An annotation we could not read may define its own order (a future
      // unsigned type, say): statistics of such a column prove nothing.
      if (!current.annotation_note_.empty() && !column.logical_type && !column.converted_type) {
        column.sort_order = SortOrder::kUnknown;
      }
      column.node = &current;
      schema_.columns_.push_back(std::move(column));
    }
  }

  Schema& schema_;
  const std::vector<SchemaElement>& elements_;
};

// ---------------------------------------------------------------------------
// SchemaNode

const SchemaNode* SchemaNode::child(std::string_view name) const {
  for (const SchemaNode* c : children_) {
    if (c->name_ == name) return c;
  }
  return nullptr;
}

std::vector<std::string> SchemaNode::path() const {
  std::vector<std::string> parts(static_cast<size_t>(depth_));
  size_t slot = parts.size();
  for (const SchemaNode* up = this; up != nullptr && !up->is_root(); up = up->parent_)
    parts[--slot] = up->name_;
  return parts;
}

std::string SchemaNode::dotted_path() const {
  std::string text;
  for (const std::string& part : path()) {
    if (!text.empty()) text += '.';
    text += part;
  }
  return text;
}

// ---------------------------------------------------------------------------
// Schema

Schema Schema::from_elements(std::span<const SchemaElement> elements, const Limits& limits) {
  Schema schema;
  schema.elements_.assign(elements.begin(), elements.end());
  schema.limits_ = limits;
  SchemaBuilder(schema).build();
  schema.index();
  return schema;
}

Schema::Schema(const Schema& other) : elements_(other.elements_), limits_(other.limits_) {
  SchemaBuilder(*this).build();
  index();
}

Schema& Schema::operator=(const Schema& other) {
  if (this != &other) *this = Schema(other);
  return *this;
}

void Schema::index() {
  column_by_path_.clear();
  node_by_path_.clear();
  node_by_field_id_.clear();
  for (const ColumnDescriptor& column : columns_) column_by_path_.try_emplace(column.path, column.index);
  // Each node's dotted path extends its parent's, which comes earlier.
  std::vector<std::string> paths(nodes_.size());
  for (const SchemaNode& node : nodes_) {
    auto index = static_cast<size_t>(node.element_index());
    if (!node.is_root()) {
      const std::string& parent_path = paths[static_cast<size_t>(node.parent()->element_index())];
      paths[index] = parent_path.empty() ? node.name() : parent_path + '.' + node.name();
    }
    node_by_path_.try_emplace(paths[index], node.element_index());
    if (node.field_id() && !node.is_root())
      node_by_field_id_.try_emplace(*node.field_id(), node.element_index());
  }
}

const ColumnDescriptor* Schema::find_column(std::string_view path) const {
  auto found = column_by_path_.find(std::string(path));
  return found == column_by_path_.end() ? nullptr : &columns_[static_cast<size_t>(found->second)];
}

const ColumnDescriptor* Schema::find_column(std::span<const std::string> parts) const {
  const SchemaNode* current = &root();
  for (const std::string& part : parts) {
    current = current->child(part);
    if (current == nullptr) return nullptr;
  }
  if (!current->is_leaf()) return nullptr;
  return &columns_[static_cast<size_t>(current->first_column())];
}

const ColumnDescriptor* Schema::find_column_by_field_id(int32_t field_id) const {
  const SchemaNode* node = find_node_by_field_id(field_id);
  if (node == nullptr || !node->is_leaf()) return nullptr;
  return &columns_[static_cast<size_t>(node->first_column())];
}

const SchemaNode* Schema::find_node(std::string_view path) const {
  auto found = node_by_path_.find(std::string(path));
  return found == node_by_path_.end() ? nullptr : &nodes_[static_cast<size_t>(found->second)];
}

const SchemaNode* Schema::find_node_by_field_id(int32_t field_id) const {
  auto found = node_by_field_id_.find(field_id);
  return found == node_by_field_id_.end() ? nullptr : &nodes_[static_cast<size_t>(found->second)];
}

std::vector<int32_t> Schema::columns_under(std::string_view path_prefix) const {
  std::vector<int32_t> selected;
  for (const ColumnDescriptor& column : columns_) {
    const std::string& path = column.path;
    bool match = path.size() >= path_prefix.size() && path.compare(0, path_prefix.size(), path_prefix) == 0 &&
                 (path.size() == path_prefix.size() || path[path_prefix.size()] == '.');
    if (match) selected.push_back(column.index);
  }
  // The empty prefix names a top-level field called "" when there is one,
  // else the root.
  if (path_prefix.empty() && selected.empty()) {
    for (const ColumnDescriptor& column : columns_) selected.push_back(column.index);
  }
  return selected;
}

std::vector<int32_t> Schema::select_columns(std::span<const std::string> path_prefixes) const {
  std::vector<uint8_t> chosen(columns_.size(), 0);
  for (const std::string& prefix : path_prefixes) {
    std::vector<int32_t> under = columns_under(prefix);
    if (under.empty()) throw_invalid("no column matches '" + prefix + "'");
    for (int32_t index : under) chosen[static_cast<size_t>(index)] = 1;
  }
  std::vector<int32_t> selected;
  for (size_t i = 0; i < chosen.size(); ++i) {
    if (chosen[i]) selected.push_back(static_cast<int32_t>(i));
  }
  return selected;
}

}  // namespace parquetry
