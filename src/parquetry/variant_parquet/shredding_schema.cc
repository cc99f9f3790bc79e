// VariantShredding: construction, validation, its Arrow type, and inference
// of a shredding from sample rows.
#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "parquetry/error.h"
#include "parquetry/variant_parquet/shredding_internal.h"
#include "parquetry/variant_writer.h"

namespace parquetry {
namespace {

bool is_decimal(VariantValueType type) {
  return type == VariantValueType::kDecimal4 || type == VariantValueType::kDecimal8 ||
         type == VariantValueType::kDecimal16;
}

}  // namespace

namespace variant_parquet {

int32_t decimal_precision(VariantValueType type) {
  return type == VariantValueType::kDecimal4 ? 9 : type == VariantValueType::kDecimal8 ? 18 : 38;
}

}  // namespace variant_parquet

VariantShredding VariantShredding::primitive(VariantValueType type, int32_t scale) {
  VariantShredding s;
  s.kind = Kind::kPrimitive;
  s.type = type;
  s.scale = scale;
  return s;
}

VariantShredding VariantShredding::object(std::vector<std::pair<std::string, VariantShredding>> fields) {
  VariantShredding s;
  s.kind = Kind::kObject;
  s.fields = std::move(fields);
  return s;
}

VariantShredding VariantShredding::array(VariantShredding element) {
  VariantShredding s;
  s.kind = Kind::kArray;
  s.elements.push_back(std::move(element));
  return s;
}

std::string VariantShredding::to_string() const {
  switch (kind) {
    case Kind::kNone: return "none";
    case Kind::kPrimitive: {
      std::string out = variant_type_name(type);
      if (is_decimal(type)) out += "(" + std::to_string(scale) + ")";
      return out;
    }
    case Kind::kObject: {
      std::string out = "object{";
      for (size_t i = 0; i < fields.size(); ++i) {
        if (i) out += ", ";
        out += fields[i].first + ": " + fields[i].second.to_string();
      }
      return out + "}";
    }
    case Kind::kArray:
      return "array<" + (elements.empty() ? std::string("?") : elements[0].to_string()) + ">";
  }
  return "?";
}

namespace {

DataType primitive_type(const VariantShredding& s) {
  switch (s.type) {
    case VariantValueType::kBoolean: return DataType::make(TypeId::kBool);
    case VariantValueType::kInt8: return DataType::make(TypeId::kInt8);
    case VariantValueType::kInt16: return DataType::make(TypeId::kInt16);
    case VariantValueType::kInt32: return DataType::make(TypeId::kInt32);
    case VariantValueType::kInt64: return DataType::make(TypeId::kInt64);
    case VariantValueType::kDouble: return DataType::make(TypeId::kFloat64);
    case VariantValueType::kFloat: return DataType::make(TypeId::kFloat32);
    case VariantValueType::kDecimal4:
    case VariantValueType::kDecimal8:
    case VariantValueType::kDecimal16: {
      const int32_t precision = variant_parquet::decimal_precision(s.type);
      if (s.scale < 0 || s.scale > precision) {
        throw_invalid("variant shredding " + s.to_string() + " has a scale outside 0.." +
                      std::to_string(precision));
      }
      return DataType::decimal(precision, s.scale);
    }
    case VariantValueType::kDate: return DataType::make(TypeId::kDate32);
    case VariantValueType::kTimestampMicros: return DataType::timestamp(ArrowTimeUnit::kMicro, "UTC");
    case VariantValueType::kTimestampNtzMicros: return DataType::timestamp(ArrowTimeUnit::kMicro, "");
    case VariantValueType::kTimestampNanos: return DataType::timestamp(ArrowTimeUnit::kNano, "UTC");
    case VariantValueType::kTimestampNtzNanos: return DataType::timestamp(ArrowTimeUnit::kNano, "");
    case VariantValueType::kTimeNtzMicros: return DataType::time(ArrowTimeUnit::kMicro);
    case VariantValueType::kBinary: return DataType::make(TypeId::kBinary);
    case VariantValueType::kString: return DataType::make(TypeId::kString);
    case VariantValueType::kUuid: {
      DataType type = DataType::fixed_size_binary(16);
      type.extension_name = "arrow.uuid";
      return type;
    }
    case VariantValueType::kNull:
    case VariantValueType::kObject:
    case VariantValueType::kArray: break;
  }
  throw_invalid(std::string("variant shredding: ") + variant_type_name(s.type) +
                " is not a primitive type (use kObject / kArray, or kNone)");
}

}  // namespace

namespace variant_parquet {

DataType level_type(const VariantShredding& s) {
  std::vector<Field> children;
  children.push_back(Field{"value", DataType::make(TypeId::kBinary), true, -1, {}});
  if (s.kind != VariantShredding::Kind::kNone) {
    children.push_back(Field{"typed_value", variant_parquet::typed_value_type(s), true, -1, {}});
  }
  return DataType::struct_(std::move(children));
}

DataType typed_value_type(const VariantShredding& s) {
  switch (s.kind) {
    case VariantShredding::Kind::kPrimitive: return primitive_type(s);
    case VariantShredding::Kind::kObject: {
      if (s.fields.empty()) throw_invalid("variant shredding: an object level needs at least one field");
      std::vector<Field> fields;
      for (const auto& [key, child] : s.fields) {
        for (const Field& f : fields) {
          if (f.name == key) throw_invalid("variant shredding: duplicate object field \"" + key + "\"");
        }
        // Field groups are required: a missing key is a group with both children null.
        fields.push_back(Field{key, level_type(child), false, -1, {}});
      }
      return DataType::struct_(std::move(fields));
    }
    case VariantShredding::Kind::kArray: {
      if (s.elements.size() != 1)
        throw_invalid("variant shredding: an array level needs exactly one element");
      return DataType::list(Field{"element", level_type(s.elements[0]), false, -1, {}});
    }
    case VariantShredding::Kind::kNone: break;
  }
  throw Error(ErrorCode::kInternal, "typed_value_type of an unshredded level");
}

}  // namespace variant_parquet

DataType variant_arrow_type(const VariantShredding& shredding) {
  std::vector<Field> children;
  children.push_back(Field{"metadata", DataType::make(TypeId::kBinary), false, -1, {}});
  // Unshredded, `value` is required (LogicalTypes.md, VARIANT); once
  // typed_value exists, rows whose value lives there leave it null.
  const bool unshredded = shredding.kind == VariantShredding::Kind::kNone;
  children.push_back(Field{"value", DataType::make(TypeId::kBinary), !unshredded, -1, {}});
  if (!unshredded) {
    children.push_back(Field{"typed_value", variant_parquet::typed_value_type(shredding), true, -1, {}});
  }
  DataType type = DataType::struct_(std::move(children));
  type.extension_name = kVariantExtensionName;
  return type;
}

namespace {

// Type counts of the values seen at one path.
struct PathStats {
  // (type, decimal scale) -> count; objects and arrays are counted here too.
  std::map<std::pair<VariantValueType, int32_t>, int64_t> types;
  std::map<std::string, PathStats, std::less<>> keys;  // under objects
  std::unique_ptr<PathStats> element;                  // under arrays
  int64_t seen = 0;                                    // non-null values

  void add(const Variant& v, int32_t depth, const VariantInferenceOptions& options) {
    const VariantValueType type = v.type();
    if (type == VariantValueType::kNull) return;
    ++seen;
    const int32_t scale = is_decimal(type) ? int32_t(v.get_decimal().scale) : 0;
    ++types[{type, scale}];
    if (depth >= options.max_depth) return;
    if (type == VariantValueType::kObject) {
      for (const auto field : v.get_object()) {
        auto it = keys.find(field.key);
        if (it == keys.end()) it = keys.emplace(std::string(field.key), PathStats{}).first;
        it->second.add(field.value, depth + 1, options);
      }
    } else if (type == VariantValueType::kArray) {
      if (!element) element = std::make_unique<PathStats>();
      for (const Variant item : v.get_array()) element->add(item, depth + 1, options);
    }
  }

  VariantShredding decide(int32_t depth, const VariantInferenceOptions& options) const {
    if (types.empty()) return {};
    // Most frequent; std::map order breaks ties by the type's enum order, then scale.
    auto best = types.begin();
    for (auto it = types.begin(); it != types.end(); ++it) {
      if (it->second > best->second) best = it;
    }
    const VariantValueType type = best->first.first;
    if (type == VariantValueType::kObject) {
      if (depth >= options.max_depth) return {};
      // The most frequent keys first, then back to key order for the schema.
      std::vector<std::pair<int64_t, const std::string*>> ranked;
      for (const auto& [key, stats] : keys) ranked.emplace_back(stats.seen, &key);
      std::stable_sort(ranked.begin(), ranked.end(),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      if (ranked.size() > size_t(std::max(options.max_fields, 0))) ranked.resize(size_t(options.max_fields));
      std::sort(ranked.begin(), ranked.end(),
                [](const auto& a, const auto& b) { return *a.second < *b.second; });
      std::vector<std::pair<std::string, VariantShredding>> fields;
      for (const auto& [count, key] : ranked) {
        VariantShredding child = keys.find(*key)->second.decide(depth + 1, options);
        if (child.kind != VariantShredding::Kind::kNone) fields.emplace_back(*key, std::move(child));
      }
      if (fields.empty()) return {};
      return VariantShredding::object(std::move(fields));
    }
    if (type == VariantValueType::kArray) {
      if (depth >= options.max_depth || !element) return {};
      VariantShredding item = element->decide(depth + 1, options);
      if (item.kind == VariantShredding::Kind::kNone) return {};
      return VariantShredding::array(std::move(item));
    }
    return VariantShredding::primitive(type, best->first.second);
  }
};

}  // namespace

VariantShredding infer_variant_shredding(std::span<const std::optional<Variant>> rows,
                                         const VariantInferenceOptions& options) {
  PathStats root;
  const size_t n = std::min(rows.size(), size_t(std::max<int64_t>(options.max_rows, 0)));
  for (size_t i = 0; i < n; ++i) {
    if (rows[i]) root.add(*rows[i], 0, options);
  }
  return root.decide(0, options);
}

}  // namespace parquetry
