// Structural validation of Arrow-layout arrays: used on import from foreign
// producers (whose buffers we must not trust) and by tests.
#include <cstring>
#include <string>

#include "parquetry/error.h"
#include "parquetry/table.h"

namespace parquetry {
namespace {

[[noreturn]] void fail(const ArrayData& array, const std::string& what) {
  throw_invalid("invalid " + array.type->to_string() + " array: " + what);
}

void need_buffers(const ArrayData& array, size_t count) {
  if (array.buffers.size() < count) {
    fail(array,
         "expected " + std::to_string(count) + " buffers, found " + std::to_string(array.buffers.size()));
  }
}

void need_bytes(const ArrayData& array, size_t index, int64_t bytes) {
  const BufferRef& buffer = array.buffers[index];
  if (bytes > 0 && (!buffer || buffer.size < bytes)) {
    fail(array, "buffer " + std::to_string(index) + " holds " + std::to_string(buffer.size) +
                    " bytes, needs " + std::to_string(bytes));
  }
}

template <typename Offset>
int64_t check_offsets(const ArrayData& array, size_t index) {
  int64_t end = array.offset + array.length;
  need_bytes(array, index, (end + 1) * int64_t(sizeof(Offset)));
  const Offset* offsets = array.buffers[index].as<Offset>();
  if (offsets == nullptr) return 0;
  for (int64_t i = array.offset; i < end; ++i) {
    if (offsets[i] < 0 || offsets[i + 1] < offsets[i])
      fail(array, "offsets not monotonic at " + std::to_string(i));
  }
  return int64_t(offsets[end]);
}

}  // namespace

void ArrayData::validate() const {
  if (!type) throw_invalid("array without a type");
  if (length < 0 || offset < 0 || null_count < 0 || null_count > length)
    fail(*this, "bad length/offset/null_count");
  int64_t end = offset + length;
  if (type->id == TypeId::kNull) return;
  need_buffers(*this, 1);
  if (null_count > 0) need_bytes(*this, 0, (end + 7) / 8);
  switch (type->id) {
    case TypeId::kBool:
      need_buffers(*this, 2);
      need_bytes(*this, 1, (end + 7) / 8);
      break;
    case TypeId::kBinary:
    case TypeId::kString: {
      need_buffers(*this, 3);
      int64_t data_end = check_offsets<int32_t>(*this, 1);
      need_bytes(*this, 2, data_end);
      break;
    }
    case TypeId::kLargeBinary:
    case TypeId::kLargeString: {
      need_buffers(*this, 3);
      int64_t data_end = check_offsets<int64_t>(*this, 1);
      need_bytes(*this, 2, data_end);
      break;
    }
    case TypeId::kBinaryView:
    case TypeId::kStringView: {
      need_buffers(*this, 2);
      need_bytes(*this, 1, end * 16);
      const uint8_t* views = buffers[1].data;
      for (int64_t i = offset; i < end && views != nullptr; ++i) {
        int32_t size;
        std::memcpy(&size, views + i * 16, 4);
        if (size < 0) fail(*this, "negative view length");
        if (size > 12) {
          int32_t buffer_index, buffer_offset;
          std::memcpy(&buffer_index, views + i * 16 + 8, 4);
          std::memcpy(&buffer_offset, views + i * 16 + 12, 4);
          bool inside = buffer_index >= 0 && size_t(buffer_index) + 2 < buffers.size() &&
                        buffer_offset >= 0 && int64_t(buffer_offset) + size <= buffers[2 + buffer_index].size;
          if (!inside) fail(*this, "view " + std::to_string(i) + " points outside its data buffer");
        }
      }
      break;
    }
    case TypeId::kList:
    case TypeId::kMap:
    case TypeId::kLargeList: {
      need_buffers(*this, 2);
      int64_t child_end = type->id == TypeId::kLargeList ? check_offsets<int64_t>(*this, 1)
                                                         : check_offsets<int32_t>(*this, 1);
      if (children.size() != 1 || !children[0]) fail(*this, "expected one child");
      if (children[0]->offset + children[0]->length < child_end)
        fail(*this, "child shorter than the offsets say");
      children[0]->validate();
      break;
    }
    case TypeId::kStruct:
      if (children.size() != type->children.size()) fail(*this, "child count differs from the type");
      for (const auto& child : children) {
        if (!child || child->length < end) fail(*this, "child shorter than the struct");
        child->validate();
      }
      break;
    case TypeId::kDictionary: {
      need_buffers(*this, 2);
      need_bytes(*this, 1, end * 4);
      if (!dictionary) fail(*this, "dictionary missing");
      dictionary->validate();
      const int32_t* indices = buffers[1].as<int32_t>();
      for (int64_t i = offset; i < end && indices != nullptr; ++i) {
        if (is_valid(i - offset) && (indices[i] < 0 || indices[i] >= dictionary->length)) {
          fail(*this, "dictionary index " + std::to_string(indices[i]) + " out of range");
        }
      }
      break;
    }
    default: {
      need_buffers(*this, 2);
      need_bytes(*this, 1, end * type->fixed_width());
      break;
    }
  }
}

}  // namespace parquetry
