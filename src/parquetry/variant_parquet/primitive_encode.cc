// Encoding one shredded primitive straight from its Arrow typed_value column
// into variant value bytes, for variant_get's lean plan: no builder, no
// metadata (a primitive references no keys).
#include <cstring>

#include "parquetry/error.h"
#include "parquetry/variant_parquet/arrow_access.h"

namespace parquetry::variant_parquet {
namespace {

template <typename T>
void put_fixed(const ArrayData& typed, int64_t k, std::vector<uint8_t>& out) {
  const size_t at = out.size();
  out.resize(at + sizeof(T));
  std::memcpy(out.data() + at, typed.buffers[1].data + k * int64_t(sizeof(T)), sizeof(T));
}

void put_bytes(const void* data, size_t n, std::vector<uint8_t>& out) {
  const size_t at = out.size();
  out.resize(at + n);
  if (n != 0) std::memcpy(out.data() + at, data, n);
}

void put_length(std::span<const uint8_t> bytes, std::vector<uint8_t>& out) {
  const uint32_t n = uint32_t(bytes.size());
  put_bytes(&n, 4, out);
  put_bytes(bytes.data(), bytes.size(), out);
}

}  // namespace

void encode_shredded_primitive(const VariantShredNode& node, const ArrayData& typed, int64_t row,
                               std::vector<uint8_t>& out) {
  out.clear();
  const int64_t k = typed.offset + row;
  const uint8_t id = node.primitive_id;
  switch (id) {
    case 1: {
      const bool value = (typed.buffers[1].data[k >> 3] >> (k & 7)) & 1;
      out.push_back(uint8_t((value ? 1 : 2) << 2));
      return;
    }
    case 16: {
      const auto bytes = binary_at(typed, row);
      if (bytes.size() < 64) {
        out.push_back(uint8_t(bytes.size() << 2 | 1));  // short string
        put_bytes(bytes.data(), bytes.size(), out);
      } else {
        out.push_back(uint8_t(16 << 2));
        put_length(bytes, out);
      }
      return;
    }
    default: break;
  }
  out.push_back(uint8_t(id << 2));
  switch (id) {
    case 3: put_fixed<int8_t>(typed, k, out); return;
    case 4: put_fixed<int16_t>(typed, k, out); return;
    case 5:
    case 11: put_fixed<int32_t>(typed, k, out); return;
    case 6:
    case 12:
    case 13:
    case 17:
    case 18:
    case 19: put_fixed<int64_t>(typed, k, out); return;
    case 7: put_fixed<double>(typed, k, out); return;
    case 14: put_fixed<float>(typed, k, out); return;
    case 8:
    case 9:
    case 10: {
      if (typed.type->id != TypeId::kDecimal128) {
        throw_unsupported("shredded decimal " + node.path + " arrived as " + typed.type->to_string());
      }
      out.push_back(uint8_t(node.scale));
      const size_t width = id == 8 ? 4 : id == 9 ? 8 : 16;
      put_bytes(typed.buffers[1].data + k * 16, width, out);  // low bytes of the little-endian int128
      return;
    }
    case 15: put_length(binary_at(typed, row), out); return;
    case 20:
      if (typed.type->id != TypeId::kFixedSizeBinary || typed.type->byte_width != 16) {
        throw_unsupported("shredded UUID " + node.path + " arrived as " + typed.type->to_string());
      }
      put_bytes(typed.buffers[1].data + k * 16, 16, out);
      return;
    default: throw_unsupported("shredded primitive id " + std::to_string(id));
  }
}

}  // namespace parquetry::variant_parquet
