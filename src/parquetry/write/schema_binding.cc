// A given Parquet schema bound to an Arrow schema: the writer writes the
// elements as they are (WriterOptions::parquet_schema) and only decides how
// each Arrow leaf becomes the physical values of its column.
//
// The Arrow schema must be the shape FileReader maps the Parquet schema to
// (nested/arrow_mapping): a LIST node is a list whose item is the node's
// element (the repeated child itself in a 2-level list, its only field in the
// 3-level form), a MAP node a map of its key and value, a bare repeated node
// a non-nullable list of non-nullable items, any other group a struct. The
// shredder derives levels from Arrow nullability, so the bound fields take
// their nullability from the Parquet repetitions; the levels each leaf would
// get are then checked against the schema's, so a shape that differs in a way
// these rules miss fails here rather than writing wrong levels.
#include <string>

#include "parquetry/error.h"
#include "parquetry/write/write_internal.h"

namespace parquetry::write {
namespace {

int64_t nanos_per(ArrowTimeUnit unit) {
  switch (unit) {
    case ArrowTimeUnit::kSecond: return 1'000'000'000;
    case ArrowTimeUnit::kMilli: return 1'000'000;
    case ArrowTimeUnit::kMicro: return 1'000;
    case ArrowTimeUnit::kNano: return 1;
  }
  return 1;
}

int64_t nanos_per(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::MILLIS: return 1'000'000;
    case TimeUnit::MICROS: return 1'000;
    case TimeUnit::NANOS: return 1;
  }
  return 1;
}

// The unit of a TIME or TIMESTAMP annotation (logical, or mapped from a converted type).
std::optional<TimeUnit> annotated_unit(const SchemaNode& node) {
  if (!node.logical_type()) return std::nullopt;
  if (const auto* time = node.logical_type()->get_if<TimeType>()) return time->unit;
  if (const auto* ts = node.logical_type()->get_if<TimestampType>()) return ts->unit;
  return std::nullopt;
}

const DataType& value_type(const DataType& type) {
  return type.id == TypeId::kDictionary && type.dictionary_value ? *type.dictionary_value : type;
}

bool is_list(const DataType& type) { return type.id == TypeId::kList || type.id == TypeId::kLargeList; }

class Binder {
 public:
  explicit Binder(const Schema& schema) : schema_(schema) {}

  std::vector<LeafPlan> leaves;

  // A field at the position of `node` (top level or struct child).
  Field bind_field(const Field& arrow, const SchemaNode& node, int16_t def, int16_t rep) {
    if (arrow.name != node.name()) {
      fail(node, "the batch schema names it '" + arrow.name + "'");
    }
    Field out = arrow;
    if (node.is_bare_repeated()) {
      // A repeated node outside LIST/MAP: a non-nullable list of non-nullable items.
      if (!is_list(arrow.type) || arrow.type.children.size() != 1) {
        fail(node, "a bare repeated node needs a list field, the batch has " + arrow.type.to_string());
      }
      out.nullable = false;
      Field& item = out.type.children[0];
      item.nullable = false;
      bind_value(arrow.type.children[0], node, item, int16_t(def + 1), int16_t(rep + 1));
      return out;
    }
    out.nullable = node.repetition() == FieldRepetitionType::OPTIONAL;
    bind_value(arrow, node, out, int16_t(def + (out.nullable ? 1 : 0)), rep);
    return out;
  }

 private:
  [[noreturn]] static void fail(const SchemaNode& node, const std::string& why) {
    throw_invalid("Parquet schema node " + node.dotted_path() + " does not match the batches: " + why);
  }

  // Binds the type of `arrow` to the type of `node`, ignoring the node's own
  // repetition (already accounted for in `def`/`rep`); `out` is the field as
  // the shredder will walk it.
  void bind_value(const Field& arrow, const SchemaNode& node, Field& out, int16_t def, int16_t rep) {
    const DataType& type = value_type(arrow.type);
    switch (node.kind()) {
      case NodeKind::kLeaf: return bind_leaf(type, node, def, rep);
      case NodeKind::kList: {
        if (!is_list(type) || type.children.size() != 1 || arrow.type.id == TypeId::kDictionary) {
          fail(node, "a LIST node needs a list field, the batch has " + arrow.type.to_string());
        }
        Field& item = out.type.children[0];
        item.nullable = node.list_element_nullable();
        bind_value(type.children[0], *node.list_element(), item, int16_t(def + 1 + (item.nullable ? 1 : 0)),
                   int16_t(rep + 1));
        return;
      }
      case NodeKind::kMap: {
        if (type.id != TypeId::kMap || type.children.size() != 1 ||
            type.children[0].type.id != TypeId::kStruct || type.children[0].type.children.size() != 2) {
          fail(node, "a MAP node needs a map field, the batch has " + arrow.type.to_string());
        }
        if (node.map_value() == nullptr) {
          throw_unsupported("Parquet schema node " + node.dotted_path() +
                            " is a MAP without a value field, which the writer cannot write");
        }
        const auto& entries = type.children[0].type.children;
        auto& out_entries = out.type.children[0].type.children;
        const int16_t entry_def = int16_t(def + 1);
        const int16_t entry_rep = int16_t(rep + 1);
        out_entries[0].nullable = node.map_key()->repetition() == FieldRepetitionType::OPTIONAL;
        bind_value(entries[0], *node.map_key(), out_entries[0],
                   int16_t(entry_def + (out_entries[0].nullable ? 1 : 0)), entry_rep);
        out_entries[1].nullable = node.map_value()->repetition() != FieldRepetitionType::REQUIRED;
        bind_value(entries[1], *node.map_value(), out_entries[1],
                   int16_t(entry_def + (out_entries[1].nullable ? 1 : 0)), entry_rep);
        return;
      }
      case NodeKind::kStruct: {
        const auto& children = node.children();
        if (type.id != TypeId::kStruct || type.children.size() != children.size()) {
          fail(node, "a group of " + std::to_string(children.size()) +
                         " fields needs a struct of as many, the batch has " + arrow.type.to_string());
        }
        for (size_t c = 0; c < children.size(); ++c) {
          out.type.children[c] = bind_field(type.children[c], *children[c], def, rep);
        }
        return;
      }
    }
  }

  void bind_leaf(const DataType& type, const SchemaNode& node, int16_t def, int16_t rep) {
    const ColumnDescriptor& column = schema_.column(size_t(node.first_column()));
    if (column.max_definition_level != def || column.max_repetition_level != rep) {
      fail(node, "the batch field gives definition/repetition levels " + std::to_string(def) + "/" +
                     std::to_string(rep) + ", the Parquet schema " +
                     std::to_string(column.max_definition_level) + "/" +
                     std::to_string(column.max_repetition_level));
    }
    if (size_t(node.first_column()) != leaves.size()) {
      fail(node, "its leaves are not in the order of the batch fields");
    }
    LeafPlan leaf;
    leaf.column = column;
    leaf.column.node = nullptr;  // the Schema is not kept
    leaf.source_width = type.fixed_width();
    leaf.conversion = conversion(type, node, leaf.factor);
    leaves.push_back(std::move(leaf));
  }

  static Conversion conversion(const DataType& type, const SchemaNode& node, int64_t& factor) {
    const Type physical = node.physical_type();
    auto refuse = [&](const std::string& why = {}) -> Conversion {
      fail(node, "Arrow " + type.to_string() + " cannot be written as " + std::string(type_name(physical)) +
                     (node.logical_type() ? " " + logical_type_to_string(*node.logical_type()) : "") +
                     (why.empty() ? "" : ": " + why));
    };
    auto expect = [&](Type p, Conversion c) { return physical == p ? c : refuse(); };
    // Scale from an Arrow unit to the node's (when annotated): only to a finer unit.
    auto scaled = [&](ArrowTimeUnit unit, Conversion same) {
      const std::optional<TimeUnit> target = annotated_unit(node);
      if (!target) return same;
      const int64_t from = nanos_per(unit);
      const int64_t to = nanos_per(*target);
      if (from < to) return refuse("the unit is coarser than the batch's (values would lose precision)");
      factor = from / to;
      return factor == 1 ? same : Conversion::kScale64;
    };
    switch (type.id) {
      case TypeId::kNull: return Conversion::kNull;
      case TypeId::kBool: return expect(Type::BOOLEAN, Conversion::kBool);
      case TypeId::kInt8: return expect(Type::INT32, Conversion::kInt8);
      case TypeId::kInt16: return expect(Type::INT32, Conversion::kInt16);
      case TypeId::kUInt8: return expect(Type::INT32, Conversion::kUInt8);
      case TypeId::kUInt16: return expect(Type::INT32, Conversion::kUInt16);
      case TypeId::kInt32:
      case TypeId::kUInt32:
      case TypeId::kDate32: return expect(Type::INT32, Conversion::kCopy);
      case TypeId::kInt64:
      case TypeId::kUInt64: return expect(Type::INT64, Conversion::kCopy);
      case TypeId::kFloat32: return expect(Type::FLOAT, Conversion::kCopy);
      case TypeId::kFloat64: return expect(Type::DOUBLE, Conversion::kCopy);
      case TypeId::kFloat16:
        if (physical != Type::FIXED_LEN_BYTE_ARRAY || node.type_length() != 2) return refuse();
        return Conversion::kCopy;
      case TypeId::kTime32: {
        if (physical != Type::INT32) return refuse();
        const std::optional<TimeUnit> target = annotated_unit(node);
        if (!target || type.unit == ArrowTimeUnit::kMilli) {
          return target && *target != TimeUnit::MILLIS ? refuse() : Conversion::kCopy;
        }
        // time32[s]: INT32 TIME is milliseconds.
        return *target == TimeUnit::MILLIS ? Conversion::kMillisFrom32 : refuse();
      }
      case TypeId::kTime64:
        if (physical != Type::INT64) return refuse();
        return scaled(type.unit, Conversion::kCopy);
      case TypeId::kTimestamp:
        if (physical == Type::INT96) {
          factor = nanos_per(type.unit);
          return Conversion::kInt96FromTimestamp;
        }
        if (physical != Type::INT64) return refuse();
        return scaled(type.unit, Conversion::kCopy);
      case TypeId::kDecimal128:
      case TypeId::kDecimal256: {
        if (node.logical_type() && node.logical_type()->is<DecimalType>() && node.scale() != type.scale) {
          return refuse("the scales differ");
        }
        switch (physical) {
          case Type::INT32: return Conversion::kDecimalInt32;
          case Type::INT64: return Conversion::kDecimalInt64;
          case Type::FIXED_LEN_BYTE_ARRAY: return Conversion::kDecimalFlba;
          case Type::BYTE_ARRAY: return Conversion::kDecimalBinary;
          default: return refuse();
        }
      }
      case TypeId::kString:
      case TypeId::kBinary: return expect(Type::BYTE_ARRAY, Conversion::kBinary);
      case TypeId::kLargeString:
      case TypeId::kLargeBinary: return expect(Type::BYTE_ARRAY, Conversion::kLargeBinary);
      case TypeId::kStringView:
      case TypeId::kBinaryView: return expect(Type::BYTE_ARRAY, Conversion::kView);
      case TypeId::kFixedSizeBinary:
        if (physical == Type::FIXED_LEN_BYTE_ARRAY && node.type_length() == type.byte_width) {
          return Conversion::kCopy;
        }
        if (type.byte_width == 12 && type.extension_name == kInt96Extension) {
          if (physical == Type::INT96) return Conversion::kCopy;
          const std::optional<TimeUnit> target = annotated_unit(node);
          if (physical == Type::INT64 && target && node.logical_type()->is<TimestampType>()) {
            factor = nanos_per(*target);
            return Conversion::kTimestampFromInt96;
          }
        }
        return refuse();
      default: return refuse();
    }
  }

  const Schema& schema_;
};

}  // namespace

SchemaPlan bind_schema(const BatchSchema& batch_schema, std::span<const SchemaElement> elements) {
  Schema schema = [&] {
    try {
      return Schema::from_elements(elements);
    } catch (const Error& e) {
      throw_invalid("the Parquet schema to write is not valid: " + e.message());
    }
  }();
  const auto& top = schema.root().children();
  if (top.size() != batch_schema.fields.size()) {
    throw_invalid("the Parquet schema has " + std::to_string(top.size()) + " top-level fields, the batches " +
                  std::to_string(batch_schema.fields.size()));
  }
  Binder binder(schema);
  SchemaPlan plan;
  plan.elements.assign(elements.begin(), elements.end());
  for (size_t f = 0; f < top.size(); ++f) {
    plan.shred_fields.push_back(binder.bind_field(batch_schema.fields[f], *top[f], 0, 0));
  }
  if (binder.leaves.size() != schema.num_columns()) {
    throw Error(ErrorCode::kInternal, "schema binding produced a different number of leaves");
  }
  plan.leaves = std::move(binder.leaves);
  return plan;
}

}  // namespace parquetry::write
