// Avro schemas, binding and object container files (see avro.h).
#include "parquetry/iceberg_table/avro.h"

#include <libdeflate.h>
#include <simdjson.h>
#include <zlib.h>
#include <zstd.h>

#include <charconv>
#include <memory>

#include "parquetry/compression/codec.h"

namespace parquetry::iceberg::avro {
namespace {

constexpr uint8_t kMagic[4] = {'O', 'b', 'j', 1};
// Schema nodes a header may declare: far above any manifest schema, small
// enough that a hostile header cannot make us build a huge tree.
constexpr size_t kMaxSchemaNodes = 100000;

struct SchemaParser {
  Schema schema;
  std::map<std::string, uint32_t, std::less<>> named;
  int depth = 0;

  uint32_t add(Node node) {
    if (schema.nodes.size() >= kMaxSchemaNodes) throw_corrupt("avro schema: too many nodes");
    schema.nodes.push_back(std::move(node));
    return uint32_t(schema.nodes.size() - 1);
  }

  static bool primitive(std::string_view name, Type& type) {
    static constexpr std::pair<std::string_view, Type> kNames[] = {
        {"null", Type::kNull},     {"boolean", Type::kBoolean}, {"int", Type::kInt},
        {"long", Type::kLong},     {"float", Type::kFloat},     {"double", Type::kDouble},
        {"bytes", Type::kBytes},   {"string", Type::kString}};
    for (const auto& [n, t] : kNames) {
      if (n == name) {
        type = t;
        return true;
      }
    }
    return false;
  }

  uint32_t by_name(std::string_view name) {
    Type type;
    if (primitive(name, type)) {
      Node node;
      node.type = type;
      return add(std::move(node));
    }
    auto it = named.find(name);
    if (it == named.end()) {
      // References may be written with or without the namespace.
      for (const auto& [full, index] : named) {
        const size_t dot = full.rfind('.');
        if (dot != std::string::npos && std::string_view(full).substr(dot + 1) == name) return index;
      }
      throw_corrupt("avro schema: unknown type '" + std::string(name) + "'");
    }
    return it->second;
  }

  static int32_t optional_int(simdjson::dom::object object, std::string_view key) {
    simdjson::dom::element e;
    if (object[key].get(e) != simdjson::SUCCESS) return -1;
    int64_t v;
    if (e.get_int64().get(v) != simdjson::SUCCESS || v < INT32_MIN || v > INT32_MAX) {
      // Some writers store ids as strings.
      std::string_view s;
      if (e.get_string().get(s) == simdjson::SUCCESS) {
        int32_t parsed = 0;
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), parsed);
        if (ec == std::errc() && p == s.data() + s.size()) return parsed;
      }
      throw_corrupt("avro schema: '" + std::string(key) + "' is not an int");
    }
    return int32_t(v);
  }

  static std::string_view get_string(simdjson::dom::object object, std::string_view key) {
    std::string_view s;
    if (object[key].get_string().get(s) != simdjson::SUCCESS)
      throw_corrupt("avro schema: missing or non-string '" + std::string(key) + "'");
    return s;
  }

  void register_name(std::string_view name, std::string_view ns, uint32_t index) {
    std::string full = name.find('.') == std::string_view::npos && !ns.empty() ? std::string(ns) + "." + std::string(name)
                                                                               : std::string(name);
    if (!named.emplace(std::move(full), index).second)
      throw_corrupt("avro schema: type '" + std::string(name) + "' defined twice");
  }

  uint32_t parse(simdjson::dom::element e) {
    if (++depth > 64) throw_corrupt("avro schema: nested too deeply");
    struct Leave {
      int& d;
      ~Leave() { --d; }
    } leave{depth};
    std::string_view text;
    if (e.get_string().get(text) == simdjson::SUCCESS) return by_name(text);
    simdjson::dom::array array;
    if (e.get_array().get(array) == simdjson::SUCCESS) {
      Node node;
      node.type = Type::kUnion;
      std::vector<uint32_t> branches;
      for (simdjson::dom::element b : array) branches.push_back(parse(b));
      if (branches.empty()) throw_corrupt("avro schema: empty union");
      node.children = std::move(branches);
      return add(std::move(node));
    }
    simdjson::dom::object object;
    if (e.get_object().get(object) != simdjson::SUCCESS) throw_corrupt("avro schema: a type is not a string, array or object");
    simdjson::dom::element type_element;
    if (object["type"].get(type_element) != simdjson::SUCCESS) throw_corrupt("avro schema: object without 'type'");
    std::string_view type_name;
    if (type_element.get_string().get(type_name) != simdjson::SUCCESS) {
      // {"type": {...}} or {"type": [...]}: the nested type, annotations ignored.
      return parse(type_element);
    }
    std::string_view logical;
    if (object["logicalType"].get_string().get(logical) != simdjson::SUCCESS) logical = {};
    std::string_view ns;
    if (object["namespace"].get_string().get(ns) != simdjson::SUCCESS) ns = {};
    Node node;
    node.logical_type = std::string(logical);
    if (type_name == "record" || type_name == "error") {
      node.type = Type::kRecord;
      node.name = std::string(get_string(object, "name"));
      const uint32_t index = add(node);
      register_name(node.name, ns, index);
      simdjson::dom::array fields;
      if (object["fields"].get_array().get(fields) != simdjson::SUCCESS) throw_corrupt("avro schema: record without 'fields'");
      std::vector<uint32_t> children;
      std::vector<std::string> names;
      std::vector<int32_t> ids;
      for (simdjson::dom::element f : fields) {
        simdjson::dom::object field;
        if (f.get_object().get(field) != simdjson::SUCCESS) throw_corrupt("avro schema: record field is not an object");
        names.emplace_back(get_string(field, "name"));
        ids.push_back(optional_int(field, "field-id"));
        simdjson::dom::element field_type;
        if (field["type"].get(field_type) != simdjson::SUCCESS) throw_corrupt("avro schema: field without 'type'");
        children.push_back(parse(field_type));
      }
      Node& stored = schema.nodes[index];
      stored.children = std::move(children);
      stored.field_names = std::move(names);
      stored.field_ids = std::move(ids);
      return index;
    }
    if (type_name == "enum") {
      node.type = Type::kEnum;
      node.name = std::string(get_string(object, "name"));
      simdjson::dom::array symbols;
      if (object["symbols"].get_array().get(symbols) != simdjson::SUCCESS) throw_corrupt("avro schema: enum without symbols");
      node.size = int32_t(symbols.size());
      const uint32_t index = add(node);
      register_name(schema.nodes[index].name, ns, index);
      return index;
    }
    if (type_name == "fixed") {
      node.type = Type::kFixed;
      node.name = std::string(get_string(object, "name"));
      int64_t size;
      if (object["size"].get_int64().get(size) != simdjson::SUCCESS || size < 0 || size > (1 << 20))
        throw_corrupt("avro schema: bad fixed size");
      node.size = int32_t(size);
      const uint32_t index = add(node);
      register_name(schema.nodes[index].name, ns, index);
      return index;
    }
    if (type_name == "array") {
      node.type = Type::kArray;
      node.item_id = optional_int(object, "element-id");
      simdjson::dom::element items;
      if (object["items"].get(items) != simdjson::SUCCESS) throw_corrupt("avro schema: array without 'items'");
      const uint32_t child = parse(items);
      node.children = {child};
      return add(std::move(node));
    }
    if (type_name == "map") {
      node.type = Type::kMap;
      simdjson::dom::element values;
      if (object["values"].get(values) != simdjson::SUCCESS) throw_corrupt("avro schema: map without 'values'");
      const uint32_t child = parse(values);
      node.children = {child};
      return add(std::move(node));
    }
    Type primitive_type;
    if (primitive(type_name, primitive_type)) {
      node.type = primitive_type;
      return add(std::move(node));
    }
    return by_name(type_name);
  }
};

Op bind_node(const Schema& schema, uint32_t index, int slot, const SlotFunction& slots, int depth, int max_depth) {
  if (depth > max_depth) throw_corrupt("avro schema: nested deeper than " + std::to_string(max_depth));
  const Node& node = schema.node(index);
  Op op;
  op.type = node.type;
  op.slot = slot;
  op.size = node.size;
  switch (node.type) {
    case Type::kRecord:
      for (size_t f = 0; f < node.children.size(); ++f) {
        // Fields of an unbound record (other than the top one) stay unbound.
        const int child_slot = slot < 0 && depth > 0 ? -1 : slots(slot, node.field_names[f], node.field_ids[f]);
        op.children.push_back(bind_node(schema, node.children[f], child_slot, slots, depth + 1, max_depth));
      }
      break;
    case Type::kUnion:
      // Branches share the union's slot: a null branch sets the slot null.
      for (uint32_t branch : node.children) {
        const Node& b = schema.node(branch);
        if (b.type == Type::kUnion) throw_corrupt("avro schema: union directly inside a union");
        // A record branch is entered as the union itself (its fields bind
        // against the union's parent context through the union's slot).
        op.children.push_back(bind_node(schema, branch, slot, slots, depth + 1, max_depth));
        if (b.type == Type::kRecord) op.children.back().slot = slot;
      }
      break;
    case Type::kArray: {
      const int item_slot = slot < 0 ? -1 : slots(slot, "element", node.item_id);
      op.children.push_back(bind_node(schema, node.children[0], item_slot, slots, depth + 1, max_depth));
      break;
    }
    case Type::kMap: {
      const int value_slot = slot < 0 ? -1 : slots(slot, "value", -1);
      op.children.push_back(bind_node(schema, node.children[0], value_slot, slots, depth + 1, max_depth));
      break;
    }
    default:
      break;
  }
  op.has_bound = op.slot >= 0;
  for (const Op& child : op.children) op.has_bound = op.has_bound || child.has_bound;
  return op;
}

}  // namespace

const char* type_name(Type type) {
  switch (type) {
    case Type::kNull: return "null";
    case Type::kBoolean: return "boolean";
    case Type::kInt: return "int";
    case Type::kLong: return "long";
    case Type::kFloat: return "float";
    case Type::kDouble: return "double";
    case Type::kBytes: return "bytes";
    case Type::kString: return "string";
    case Type::kRecord: return "record";
    case Type::kEnum: return "enum";
    case Type::kArray: return "array";
    case Type::kMap: return "map";
    case Type::kUnion: return "union";
    case Type::kFixed: return "fixed";
  }
  return "?";
}

Schema parse_schema(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::padded_string padded(json);
  simdjson::dom::element root;
  if (auto error = parser.parse(padded).get(root); error != simdjson::SUCCESS)
    throw_corrupt(std::string("avro schema: invalid JSON: ") + simdjson::error_message(error));
  SchemaParser p;
  p.schema.root = p.parse(root);
  return std::move(p.schema);
}

Op bind(const Schema& schema, const SlotFunction& slots, int max_depth) {
  if (schema.nodes.empty()) throw_corrupt("avro schema: empty");
  // The root record's fields bind with parent slot -1.
  const Node& root = schema.node(schema.root);
  if (root.type != Type::kRecord) throw_corrupt(std::string("avro schema: top level is ") + type_name(root.type) + ", not a record");
  Op op = bind_node(schema, schema.root, -1, slots, 0, max_depth);
  return op;
}

ContainerReader::ContainerReader(std::span<const uint8_t> file, std::string what) : file_(file), what_(std::move(what)) {
  try {
    if (file.size() < 4 || std::memcmp(file.data(), kMagic, 4) != 0) throw_corrupt("not an Avro object container file (bad magic)");
    Cursor cursor(file.data() + 4, file.size() - 4);
    for (;;) {
      int64_t count = cursor.read_long();
      if (count == 0) break;
      if (count < 0) {
        if (count == INT64_MIN) throw_corrupt("bad header block count");
        count = -count;
        cursor.read_long();
      }
      if (uint64_t(count) > cursor.remaining()) throw_corrupt("header map count beyond the file");
      for (int64_t i = 0; i < count; ++i) {
        std::string key(cursor.read_bytes());
        std::string value(cursor.read_bytes());
        metadata_[std::move(key)] = std::move(value);
      }
    }
    const std::string_view sync = cursor.take(16);
    std::memcpy(sync_, sync.data(), 16);
    pos_ = file.size() - cursor.remaining();
    const std::string* schema_text = metadata("avro.schema");
    if (schema_text == nullptr) throw_corrupt("header without avro.schema");
    schema_ = parse_schema(*schema_text);
    const std::string* codec = metadata("avro.codec");
    codec_ = codec == nullptr || codec->empty() ? "null" : *codec;
    if (codec_ != "null" && codec_ != "deflate" && codec_ != "snappy" && codec_ != "zstandard")
      throw_unsupported("Avro codec '" + codec_ + "'");
  } catch (const Error& e) {
    throw Error(e.code(), what_ + ": " + e.message(), e.where());
  }
}

const std::string* ContainerReader::metadata(std::string_view key) const {
  auto it = metadata_.find(key);
  return it == metadata_.end() ? nullptr : &it->second;
}

namespace {

void inflate_raw(std::string_view input, std::vector<uint8_t>& out) {
  struct Free {
    void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
  };
  thread_local std::unique_ptr<libdeflate_decompressor, Free> decompressor(libdeflate_alloc_decompressor());
  if (!decompressor) throw_limit("avro: cannot allocate a deflate decompressor");
  // The uncompressed size is not recorded; grow the buffer until it fits,
  // up to the block limit (deflate expands at most ~1032x).
  size_t capacity = std::max<size_t>(4096, input.size() * 4);
  for (;;) {
    capacity = std::min<size_t>(capacity, size_t(kMaxBlockSize));
    out.resize(capacity);
    size_t actual = 0;
    const auto result =
        libdeflate_deflate_decompress(decompressor.get(), input.data(), input.size(), out.data(), capacity, &actual);
    if (result == LIBDEFLATE_SUCCESS) {
      out.resize(actual);
      return;
    }
    if (result != LIBDEFLATE_INSUFFICIENT_SPACE) throw_corrupt("avro: bad deflate block");
    if (capacity >= size_t(kMaxBlockSize)) throw_limit("avro: deflate block larger than the block limit");
    capacity *= 4;
  }
}

void unsnappy(std::string_view input, std::vector<uint8_t>& out) {
  // Avro's snappy blocks end with the big-endian CRC-32 of the uncompressed data.
  if (input.size() < 4) throw_corrupt("avro: snappy block shorter than its checksum");
  const auto* p = reinterpret_cast<const uint8_t*>(input.data());
  const size_t compressed = input.size() - 4;
  uint64_t length = 0;
  size_t i = 0;
  for (int shift = 0;; shift += 7) {
    if (i >= compressed || shift > 28) throw_corrupt("avro: bad snappy length");
    length |= uint64_t(p[i] & 0x7f) << shift;
    if ((p[i++] & 0x80) == 0) break;
  }
  if (length > uint64_t(kMaxBlockSize)) throw_limit("avro: snappy block larger than the block limit");
  out.resize(size_t(length));
  thread_codec(CompressionCodec::SNAPPY).decompress({p, compressed}, {out.data(), out.size()});
  const uint32_t expected = uint32_t(p[compressed]) << 24 | uint32_t(p[compressed + 1]) << 16 |
                            uint32_t(p[compressed + 2]) << 8 | p[compressed + 3];
  const uint32_t actual = uint32_t(crc32(0, out.data(), uInt(out.size())));
  if (expected != actual) throw_corrupt("avro: snappy block checksum mismatch");
}

void unzstd(std::string_view input, std::vector<uint8_t>& out) {
  struct Free {
    void operator()(ZSTD_DStream* s) const { ZSTD_freeDStream(s); }
  };
  std::unique_ptr<ZSTD_DStream, Free> stream(ZSTD_createDStream());
  if (!stream) throw_limit("avro: cannot allocate a zstd stream");
  out.clear();
  ZSTD_inBuffer in{input.data(), input.size(), 0};
  size_t produced = 0;
  out.resize(std::max<size_t>(4096, input.size() * 4));
  for (;;) {
    if (produced == out.size()) {
      if (out.size() >= size_t(kMaxBlockSize)) throw_limit("avro: zstd block larger than the block limit");
      out.resize(std::min<size_t>(out.size() * 2, size_t(kMaxBlockSize)));
    }
    ZSTD_outBuffer o{out.data(), out.size(), produced};
    const size_t r = ZSTD_decompressStream(stream.get(), &o, &in);
    if (ZSTD_isError(r)) throw_corrupt(std::string("avro: zstd: ") + ZSTD_getErrorName(r));
    produced = o.pos;
    if (r == 0 && in.pos == in.size) break;
    if (in.pos == in.size && o.pos < o.size) {
      if (r != 0) throw_corrupt("avro: truncated zstd block");
      break;
    }
  }
  out.resize(produced);
}

}  // namespace

int64_t ContainerReader::next_block(std::vector<uint8_t>& block) {
  try {
   for (;;) {
    if (pos_ == file_.size()) return 0;
    Cursor cursor(file_.data() + pos_, file_.size() - pos_);
    const int64_t count = cursor.read_long();
    const int64_t size = cursor.read_long();
    if (count < 0) throw_corrupt("negative object count in a block");
    if (size < 0) throw_corrupt("negative block size");
    const std::string_view data = cursor.take(size);
    const std::string_view sync = cursor.take(16);
    if (std::memcmp(sync.data(), sync_, 16) != 0) throw_corrupt("sync marker mismatch after a block");
    pos_ = file_.size() - cursor.remaining();
    if (codec_ == "null") {
      block.assign(data.begin(), data.end());
    } else if (codec_ == "deflate") {
      inflate_raw(data, block);
    } else if (codec_ == "snappy") {
      unsnappy(data, block);
    } else {
      unzstd(data, block);
    }
    if (count == 0 && !block.empty()) throw_corrupt("block of 0 objects holds data");
    if (uint64_t(count) > block.size() && count > kMaxEmptyItems)
      throw_corrupt("block declares " + std::to_string(count) + " objects in " + std::to_string(block.size()) + " bytes");
    if (count != 0) return count;
   }
  } catch (const Error& e) {
    throw Error(e.code(), what_ + ": " + e.message(), e.where());
  }
}

}  // namespace parquetry::iceberg::avro
