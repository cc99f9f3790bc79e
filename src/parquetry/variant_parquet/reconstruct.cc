// Rebuilding variants from the Arrow arrays of a (possibly shredded) VARIANT
// group, and extracting paths from variant bytes.
#include <cstring>

#include "parquetry/error.h"
#include "parquetry/variant.h"
#include "parquetry/variant_builder.h"
#include "parquetry/variant_json.h"
#include "parquetry/variant_parquet.h"
#include "parquetry/variant_parquet/arrow_access.h"

namespace parquetry {
namespace variant_parquet {

const ArrayData* struct_child(const ArrayData& group, std::string_view name) {
  if (group.type->id != TypeId::kStruct) return nullptr;
  const auto& fields = group.type->children;
  for (size_t i = 0; i < fields.size() && i < group.children.size(); ++i) {
    if (fields[i].name == name) return group.children[i].get();
  }
  return nullptr;
}

std::span<const uint8_t> binary_at(const ArrayData& array, int64_t row) {
  const int64_t k = array.offset + row;
  switch (array.type->id) {
    case TypeId::kBinary:
    case TypeId::kString: {
      const int32_t* offsets = array.buffers[1].as<int32_t>();
      return {array.buffers[2].data + offsets[k], size_t(offsets[k + 1] - offsets[k])};
    }
    case TypeId::kLargeBinary:
    case TypeId::kLargeString: {
      const int64_t* offsets = array.buffers[1].as<int64_t>();
      return {array.buffers[2].data + offsets[k], size_t(offsets[k + 1] - offsets[k])};
    }
    default: throw_unsupported("variant column of Arrow type " + array.type->to_string() + " is not binary");
  }
}

bool has_type(const OwnedVariant& variant, std::string_view type) {
  return type.empty() || variant_type_name(variant.view().type()) == type;
}

bool extract_path(std::span<const uint8_t> metadata, std::span<const uint8_t> value,
                  const std::vector<std::string>& path, size_t first, std::string_view type,
                  OwnedVariant& out) {
  if (value.empty()) throw_corrupt("empty variant value");
  const VariantMetadata dictionary(metadata);
  const std::optional<Variant> found = variant_find_path(Variant(dictionary, value), path, first);
  if (!found) return false;
  if (!type.empty() && variant_type_name(found->type()) != type) return false;
  out.metadata.assign(metadata.begin(), metadata.end());
  const auto bytes = found->encoded_bytes();
  out.value.assign(bytes.begin(), bytes.end());
  return true;
}

}  // namespace variant_parquet

using variant_parquet::binary_at;
using variant_parquet::struct_child;

Variant OwnedVariant::view() const { return Variant(VariantMetadata(metadata), value); }

std::string OwnedVariant::to_json() const { return variant_to_json(view()); }

std::optional<Variant> variant_find_path(const Variant& value, const std::vector<std::string>& path,
                                         size_t first) {
  std::optional<Variant> at = value;
  for (size_t i = first; i < path.size() && at; ++i) at = at->get_field(path[i]);
  return at;
}

namespace {

bool bit_at(const BufferRef& bits, int64_t i) { return (bits.data[i >> 3] >> (i & 7)) & 1; }

template <typename T>
T fixed_at(const ArrayData& array, int64_t row) {
  T v;
  std::memcpy(&v, array.buffers[1].data + (array.offset + row) * int64_t(sizeof(T)), sizeof(T));
  return v;
}

}  // namespace

// Hidden: a nested class takes the visibility of the exported class around it.
struct PARQUETRY_LOCAL VariantColumnReader::Impl {
  const VariantColumn* column;
  VariantBuilder builder;
  std::vector<uint8_t> loaded;  // metadata bytes the builder's dictionary was loaded from
  uint32_t loaded_keys = 0;
  VariantMetadata metadata;  // view of the current row's metadata

  // Starts a new rebuilt value against `bytes` as dictionary.
  void begin(std::span<const uint8_t> bytes) {
    metadata = bytes.empty() ? VariantMetadata() : VariantMetadata(bytes);
    const auto encoded = metadata.bytes();
    if (builder.num_keys() == loaded_keys && encoded.size() == loaded.size() &&
        std::equal(encoded.begin(), encoded.end(), loaded.begin())) {
      builder.clear_value();
      return;
    }
    builder.load_dictionary(metadata);
    loaded.assign(encoded.begin(), encoded.end());
    loaded_keys = builder.num_keys();
  }

  void finish(OwnedVariant& out) {
    const auto meta = builder.metadata();
    out.metadata.assign(meta.begin(), meta.end());
    const auto value = builder.value();
    out.value.assign(value.begin(), value.end());
  }

  void append_primitive(const VariantShredNode& node, const ArrayData& typed, int64_t row) {
    const int64_t k = typed.offset + row;
    switch (node.primitive_id) {
      case 1: builder.append_boolean(bit_at(typed.buffers[1], k)); break;
      case 3: builder.append_int8(fixed_at<int8_t>(typed, row)); break;
      case 4: builder.append_int16(fixed_at<int16_t>(typed, row)); break;
      case 5: builder.append_int32(fixed_at<int32_t>(typed, row)); break;
      case 6: builder.append_int64(fixed_at<int64_t>(typed, row)); break;
      case 7: builder.append_double(fixed_at<double>(typed, row)); break;
      case 14: builder.append_float(fixed_at<float>(typed, row)); break;
      case 8:
      case 9:
      case 10: {
        if (typed.type->id != TypeId::kDecimal128) {
          throw_unsupported("shredded decimal " + node.path + " arrived as " + typed.type->to_string());
        }
        const __int128 unscaled = fixed_at<__int128>(typed, row);
        const auto scale = uint8_t(node.scale);
        if (node.primitive_id == 8) {
          builder.append_decimal4(int32_t(unscaled), scale);
        } else if (node.primitive_id == 9) {
          builder.append_decimal8(int64_t(unscaled), scale);
        } else {
          builder.append_decimal16(unscaled, scale);
        }
        break;
      }
      case 11: builder.append_date(fixed_at<int32_t>(typed, row)); break;
      case 12: builder.append_timestamp_micros(fixed_at<int64_t>(typed, row)); break;
      case 13: builder.append_timestamp_ntz_micros(fixed_at<int64_t>(typed, row)); break;
      case 17: builder.append_time_ntz_micros(fixed_at<int64_t>(typed, row)); break;
      case 18: builder.append_timestamp_nanos(fixed_at<int64_t>(typed, row)); break;
      case 19: builder.append_timestamp_ntz_nanos(fixed_at<int64_t>(typed, row)); break;
      case 15: builder.append_binary(binary_at(typed, row)); break;
      case 16: {
        const auto bytes = binary_at(typed, row);
        builder.append_string({reinterpret_cast<const char*>(bytes.data()), bytes.size()});
        break;
      }
      case 20: {
        if (typed.type->id != TypeId::kFixedSizeBinary || typed.type->byte_width != 16) {
          throw_unsupported("shredded UUID " + node.path + " arrived as " + typed.type->to_string());
        }
        builder.append_uuid(std::span<const uint8_t, 16>(typed.buffers[1].data + k * 16, 16));
        break;
      }
      default: throw_unsupported("shredded primitive id " + std::to_string(node.primitive_id));
    }
  }

  // Appends the value of level `node` at `row` of `group`; false when both
  // value and typed_value are null (the caller decides what that means).
  bool append_level(const VariantShredNode& node, const ArrayData& group, int64_t row, int depth) {
    if (depth > kVariantMaxDepth) throw_limit("shredded variant " + node.path + " nests too deeply");
    const int64_t child_row = group.offset + row;
    const ArrayData* value = node.has_value ? struct_child(group, "value") : nullptr;
    const ArrayData* typed =
        node.kind != VariantShredKind::kNone ? struct_child(group, "typed_value") : nullptr;
    const bool value_set = value != nullptr && value->is_valid(child_row);
    const bool typed_set = typed != nullptr && typed->is_valid(child_row);
    if (!typed_set) {
      if (!value_set) return false;
      builder.append_variant(Variant(metadata, binary_at(*value, child_row)));
      return true;
    }
    switch (node.kind) {
      case VariantShredKind::kPrimitive:
        if (value_set) throw_corrupt("Invalid variant, conflicting value and typed_value at " + node.path);
        append_primitive(node, *typed, child_row);
        return true;
      case VariantShredKind::kArray: append_array(node, *typed, child_row, value_set, depth); return true;
      case VariantShredKind::kObject:
        append_object(node, *typed, child_row, value_set ? value : nullptr, child_row, depth);
        return true;
      case VariantShredKind::kNone: break;
    }
    return false;
  }

  void append_array(const VariantShredNode& node, const ArrayData& list, int64_t row, bool value_set,
                    int depth) {
    if (value_set) throw_corrupt("Invalid variant, conflicting value and typed_value at " + node.path);
    if (list.type->id != TypeId::kList) {
      throw_unsupported("shredded array " + node.path + " arrived as " + list.type->to_string());
    }
    const int32_t* offsets = list.buffers[1].as<int32_t>();
    const int64_t k = list.offset + row;
    const ArrayData& elements = *list.children.at(0);
    builder.start_array();
    for (int64_t e = offsets[k]; e < offsets[k + 1]; ++e) {
      // A null element group, or one with both children null, is a Variant
      // null (the spec forbids it; parquet-testing case 85 expects null).
      if (!elements.is_valid(e) || !append_level(*node.element, elements, e, depth + 1))
        builder.append_null();
    }
    builder.finish_array();
  }

  void append_object(const VariantShredNode& node, const ArrayData& typed, int64_t row,
                     const ArrayData* value, int64_t value_row, int depth) {
    std::optional<Variant> residual;
    if (value != nullptr) {
      residual.emplace(metadata, binary_at(*value, value_row));
      if (!residual->is_object()) {
        throw_corrupt("Invalid variant, non-object value with shredded fields at " + node.path);
      }
    }
    builder.start_object();
    const int64_t field_row = typed.offset + row;
    for (const auto& [key, field_node] : node.fields) {
      const ArrayData* field_group = struct_child(typed, key);
      if (field_group == nullptr)
        throw_corrupt("shredded field " + field_node.path + " is missing from the batch");
      if (!field_group->is_valid(field_row)) continue;  // optional field group: absent
      // The key is named before we know whether the field is present; a
      // missing field must not leave a dangling field(), so test first.
      if (!level_present(field_node, *field_group, field_row)) continue;
      builder.field(key);
      append_level(field_node, *field_group, field_row, depth + 1);
    }
    if (residual) {
      const VariantObject object = residual->get_object();
      for (const auto& field : object) {
        // Policy for a key both shredded and in the residual: the shredded
        // side wins and the residual copy is dropped (see variant_parquet.h).
        if (node.field(field.key) != nullptr) continue;
        builder.field(field.key);
        builder.append_variant(field.value);
      }
    }
    builder.finish_object();
  }

  static bool level_present(const VariantShredNode& node, const ArrayData& group, int64_t row) {
    const int64_t child_row = group.offset + row;
    const ArrayData* value = node.has_value ? struct_child(group, "value") : nullptr;
    const ArrayData* typed =
        node.kind != VariantShredKind::kNone ? struct_child(group, "typed_value") : nullptr;
    return (value != nullptr && value->is_valid(child_row)) ||
           (typed != nullptr && typed->is_valid(child_row));
  }
};

VariantColumnReader::VariantColumnReader(const VariantColumn& column) : impl_(std::make_unique<Impl>()) {
  impl_->column = &column;
}

VariantColumnReader::~VariantColumnReader() = default;

bool VariantColumnReader::read(const ArrayData& group, int64_t row, OwnedVariant& out) {
  if (!group.is_valid(row)) return false;
  const int64_t child_row = group.offset + row;
  const ArrayData* metadata = struct_child(group, "metadata");
  if (metadata == nullptr || !metadata->is_valid(child_row)) {
    throw_corrupt("variant column " + impl_->column->path + " has a null metadata");
  }
  const auto metadata_bytes = binary_at(*metadata, child_row);
  const VariantShredNode& root = impl_->column->root;
  // Value-only rows pass their bytes through as they are.
  const ArrayData* typed =
      root.kind != VariantShredKind::kNone ? struct_child(group, "typed_value") : nullptr;
  if (typed == nullptr || !typed->is_valid(child_row)) {
    const ArrayData* value = root.has_value ? struct_child(group, "value") : nullptr;
    out.metadata.assign(metadata_bytes.begin(), metadata_bytes.end());
    if (value == nullptr || !value->is_valid(child_row)) {
      out.value.assign(1, 0);  // both null at the top: Variant null
    } else {
      const auto bytes = binary_at(*value, child_row);
      if (bytes.empty()) throw_corrupt("variant column " + impl_->column->path + " has an empty value");
      out.value.assign(bytes.begin(), bytes.end());
    }
    return true;
  }
  impl_->begin(metadata_bytes);
  impl_->append_level(root, group, row, 0);
  impl_->finish(out);
  return true;
}

bool VariantColumnReader::read_level(const VariantShredNode& node, const ArrayData& group, int64_t row,
                                     std::span<const uint8_t> metadata, OwnedVariant& out) {
  if (!group.is_valid(row)) return false;
  impl_->begin(metadata);
  if (!impl_->append_level(node, group, row, 0)) return false;
  impl_->finish(out);
  return true;
}

}  // namespace parquetry
