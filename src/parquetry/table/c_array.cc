// ArrowArray export and import. Export publishes pointers into parquetry's
// buffers and keeps the ArrayData alive until the consumer releases; import
// wraps a producer's buffers, sizing each from the layout rules because the
// C interface does not carry buffer lengths.
#include <cstring>
#include <string>
#include <vector>

#include "parquetry/arrow_export.h"
#include "parquetry/error.h"

namespace parquetry {
namespace {

// Mandatory buffers may be empty; consumers still expect a non-null pointer.
alignas(64) const uint8_t kEmptyBytes[64] = {};

struct ArrayPrivate {
  std::shared_ptr<ArrayData> data;
  std::vector<const void*> buffers;
  std::vector<int64_t> variadic_sizes;
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_pointers;
  ArrowArray dictionary{};
};

void release_array(ArrowArray* array) {
  if (array == nullptr || array->release == nullptr) return;
  auto* priv = static_cast<ArrayPrivate*>(array->private_data);
  for (ArrowArray& child : priv->children) {
    if (child.release != nullptr) child.release(&child);
  }
  if (priv->dictionary.release != nullptr) priv->dictionary.release(&priv->dictionary);
  delete priv;
  array->release = nullptr;
}

bool is_view(TypeId id) { return id == TypeId::kBinaryView || id == TypeId::kStringView; }

// Number of buffers the C interface expects for a type (views: the fixed part).
int64_t expected_buffers(TypeId id) {
  switch (id) {
    case TypeId::kNull: return 0;
    case TypeId::kStruct: return 1;
    case TypeId::kBinary:
    case TypeId::kString:
    case TypeId::kLargeBinary:
    case TypeId::kLargeString: return 3;
    default: return 2;
  }
}

// Holds a producer's ArrowArray and releases it once nothing points into it.
struct ImportedArray {
  ArrowArray array{};
  ~ImportedArray() {
    if (array.release != nullptr) array.release(&array);
  }
};

BufferRef wrap(const void* pointer, int64_t size, const std::shared_ptr<const void>& owner) {
  BufferRef ref;
  ref.data = static_cast<const uint8_t*>(pointer);
  ref.size = pointer == nullptr ? 0 : size;
  ref.owner = owner;
  return ref;
}

std::shared_ptr<ArrayData> import_node(const ArrowArray& array, std::shared_ptr<const DataType> type,
                                       const std::shared_ptr<const void>& owner) {
  if (array.length < 0 || array.offset < 0 || array.n_buffers < 0 || array.n_children < 0) {
    throw_invalid("imported ArrowArray has negative length, offset or counts");
  }
  auto out = std::make_shared<ArrayData>();
  out->type = type;
  out->length = array.length;
  out->offset = array.offset;
  out->null_count = array.null_count;
  const int64_t end = array.offset + array.length;
  const TypeId id = type->id;
  int64_t want = expected_buffers(id);
  bool buffers_ok = is_view(id) ? array.n_buffers >= 3 : array.n_buffers == want;
  if (!buffers_ok) {
    throw_invalid("imported " + type->to_string() + " array has " + std::to_string(array.n_buffers) +
                  " buffers");
  }
  if (array.n_buffers > 0 && array.buffers == nullptr)
    throw_invalid("imported ArrowArray has no buffer list");
  if (array.null_count < 0) {
    // -1 means "not computed"; count from the bitmap so downstream code can trust it.
    int64_t nulls = 0;
    const auto* validity = array.n_buffers > 0 ? static_cast<const uint8_t*>(array.buffers[0]) : nullptr;
    for (int64_t i = array.offset; validity != nullptr && i < end; ++i)
      nulls += !((validity[i >> 3] >> (i & 7)) & 1);
    out->null_count = nulls;
  }
  if (id != TypeId::kNull) out->buffers.push_back(wrap(array.buffers[0], (end + 7) / 8, owner));
  switch (id) {
    case TypeId::kNull:
    case TypeId::kStruct: break;
    case TypeId::kBool: out->buffers.push_back(wrap(array.buffers[1], (end + 7) / 8, owner)); break;
    case TypeId::kBinary:
    case TypeId::kString:
    case TypeId::kLargeBinary:
    case TypeId::kLargeString: {
      bool large = id == TypeId::kLargeBinary || id == TypeId::kLargeString;
      int64_t width = large ? 8 : 4;
      const void* offsets = array.buffers[1];
      out->buffers.push_back(wrap(offsets, (end + 1) * width, owner));
      int64_t data_size = 0;
      if (offsets != nullptr) {
        if (large) {
          data_size = static_cast<const int64_t*>(offsets)[end];
        } else {
          data_size = static_cast<const int32_t*>(offsets)[end];
        }
      }
      if (data_size < 0) throw_invalid("imported binary array has a negative final offset");
      out->buffers.push_back(wrap(array.buffers[2], data_size, owner));
      break;
    }
    case TypeId::kBinaryView:
    case TypeId::kStringView: {
      out->buffers.push_back(wrap(array.buffers[1], end * 16, owner));
      int64_t variadic = array.n_buffers - 3;
      const auto* sizes = static_cast<const int64_t*>(array.buffers[array.n_buffers - 1]);
      if (variadic > 0 && sizes == nullptr) throw_invalid("imported view array lacks its buffer sizes");
      for (int64_t i = 0; i < variadic; ++i)
        out->buffers.push_back(wrap(array.buffers[2 + i], sizes[i], owner));
      break;
    }
    case TypeId::kList:
    case TypeId::kMap: out->buffers.push_back(wrap(array.buffers[1], (end + 1) * 4, owner)); break;
    case TypeId::kLargeList: out->buffers.push_back(wrap(array.buffers[1], (end + 1) * 8, owner)); break;
    default: out->buffers.push_back(wrap(array.buffers[1], end * type->fixed_width(), owner)); break;
  }
  if (array.n_children != int64_t(type->children.size())) {
    throw_invalid("imported " + type->to_string() + " array has " + std::to_string(array.n_children) +
                  " children");
  }
  if (array.n_children > 0 && array.children == nullptr)
    throw_invalid("imported ArrowArray has no child list");
  for (int64_t i = 0; i < array.n_children; ++i) {
    if (array.children[i] == nullptr) throw_invalid("imported ArrowArray has a null child");
    std::shared_ptr<const DataType> child_type(type, &type->children[size_t(i)].type);
    out->children.push_back(import_node(*array.children[i], child_type, owner));
  }
  if (id == TypeId::kDictionary) {
    if (array.dictionary == nullptr) throw_invalid("imported dictionary array lacks its dictionary");
    out->dictionary = import_node(*array.dictionary, type->dictionary_value, owner);
  }
  return out;
}

}  // namespace

void export_array(std::shared_ptr<ArrayData> data, ArrowArray* out) {
  auto* priv = new ArrayPrivate();
  const ArrayData& array = *data;
  const TypeId id = array.type->id;
  if (id != TypeId::kNull) {
    for (size_t i = 0; i < array.buffers.size(); ++i) {
      const uint8_t* pointer = array.buffers[i].data;
      if (pointer == nullptr && i != 0) pointer = kEmptyBytes;
      priv->buffers.push_back(pointer);
    }
    if (priv->buffers.empty()) priv->buffers.push_back(nullptr);
    if (is_view(id)) {
      for (size_t i = 2; i < array.buffers.size(); ++i) priv->variadic_sizes.push_back(array.buffers[i].size);
      priv->buffers.push_back(priv->variadic_sizes.empty() ? static_cast<const void*>(kEmptyBytes)
                                                           : priv->variadic_sizes.data());
    }
  }
  priv->children.resize(array.children.size());
  priv->child_pointers.resize(array.children.size());
  for (size_t i = 0; i < array.children.size(); ++i) {
    export_array(array.children[i], &priv->children[i]);
    priv->child_pointers[i] = &priv->children[i];
  }
  ArrowArray* dictionary = nullptr;
  if (array.dictionary) {
    export_array(array.dictionary, &priv->dictionary);
    dictionary = &priv->dictionary;
  }
  priv->data = std::move(data);
  *out = ArrowArray{priv->data->length,
                    priv->data->null_count,
                    priv->data->offset,
                    int64_t(priv->buffers.size()),
                    int64_t(priv->children.size()),
                    priv->buffers.empty() ? nullptr : priv->buffers.data(),
                    priv->child_pointers.empty() ? nullptr : priv->child_pointers.data(),
                    dictionary,
                    &release_array,
                    priv};
}

void export_batch(const RecordBatch& batch, ArrowArray* out) {
  auto root = std::make_shared<ArrayData>();
  root->type = std::make_shared<const DataType>(
      DataType::struct_(batch.schema ? batch.schema->fields : std::vector<Field>{}));
  root->length = batch.num_rows;
  root->buffers.push_back(BufferRef{});
  root->children = batch.columns;
  export_array(std::move(root), out);
}

std::shared_ptr<ArrayData> import_array(ArrowArray* array, const DataType& type) {
  if (array == nullptr || array->release == nullptr) throw_invalid("imported ArrowArray is released");
  auto holder = std::make_shared<ImportedArray>();
  holder->array = *array;
  array->release = nullptr;  // ownership moved into holder
  auto type_ptr = std::make_shared<const DataType>(type);
  std::shared_ptr<ArrayData> out = import_node(holder->array, type_ptr, holder);
  out->validate();
  return out;
}

RecordBatch import_batch(ArrowArray* array, std::shared_ptr<const BatchSchema> schema) {
  std::shared_ptr<ArrayData> root = import_array(array, DataType::struct_(schema->fields));
  RecordBatch batch;
  batch.schema = std::move(schema);
  batch.num_rows = root->length;
  for (auto& child : root->children) {
    if (root->offset != 0) {
      // A sliced struct shifts its children: fold the parent offset into each child.
      auto shifted = std::make_shared<ArrayData>(*child);
      shifted->offset += root->offset;
      shifted->length = root->length;
      child = shifted;
    }
    batch.columns.push_back(child);
  }
  return batch;
}

}  // namespace parquetry
