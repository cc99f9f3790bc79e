// Avro object container files (Avro 1.11 specification: "Object Container
// Files", "Binary Encoding", "Schema Resolution"), decoded straight into the
// caller's structs.
//
// The writer schema from the file header is parsed once into a node tree.
// A caller binds it to its own targets with a slot function: for each record
// field (by Iceberg field id when the schema carries one, else by name) it
// returns a slot number, or -1 to skip the field. Decoding then walks the
// bound tree once per record and hands every value of a bound field to a sink
// (set_int / set_double / set_bytes / set_null, begin_item for array items):
// no per-field allocation, no virtual call, values as views into the block.
// Writer fields the reader does not know are skipped, reader fields the
// writer lacks keep the target's default, and ints widen to longs and floats
// to doubles (the resolution rules the Avro spec gives for promotions).
//
// Hostile input: every length, count, union branch and block size is checked
// against the bytes that remain; block decompression is bounded; schema
// nesting is bounded; errors are kCorrupt (kUnsupported for unknown codecs).
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "parquetry/error.h"

namespace parquetry::iceberg::avro {

enum class Type : uint8_t {
  kNull,
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kBytes,
  kString,
  kRecord,
  kEnum,
  kArray,
  kMap,
  kUnion,
  kFixed,
};

const char* type_name(Type type);

/// One node of a writer schema. Named types referenced again point at the
/// same node (so the tree may be a DAG; recursion is cut by the depth limit).
struct Node {
  Type type = Type::kNull;
  std::string name;                   ///< records, enums, fixed
  int32_t size = 0;                   ///< fixed: bytes; enum: symbol count
  std::vector<uint32_t> children;     ///< record fields, union branches, array items, map values
  std::vector<std::string> field_names;  ///< record: per field
  std::vector<int32_t> field_ids;        ///< record: Iceberg "field-id" per field, -1 when absent
  int32_t item_id = -1;               ///< array: Iceberg "element-id"
  std::string logical_type;
};

/// A parsed writer schema: nodes[root] is the top.
struct Schema {
  std::vector<Node> nodes;
  uint32_t root = 0;
  const Node& node(uint32_t i) const { return nodes[i]; }
};

/// Parses an Avro schema in its JSON form. Throws kCorrupt on malformed JSON
/// or schemas (unknown types or references, duplicate names, bad sizes).
Schema parse_schema(std::string_view json);

/// Slot binding: slot_for(parent_slot, field_name, field_id) for every record
/// field (parent_slot = -1 at the root record, else the slot of the field,
/// array or map holding the record), and for array items / map values
/// (field_name "element" / "value", field_id the element id or -1).
/// Returns -1 to skip.
using SlotFunction = std::function<int(int parent_slot, std::string_view field_name, int32_t field_id)>;

/// A schema bound to slots, ready to decode.
struct Op {
  Type type = Type::kNull;
  int32_t slot = -1;
  int32_t size = 0;            ///< fixed bytes; enum symbols
  bool has_bound = false;      ///< this op or a descendant has a slot (else it is only skipped)
  std::vector<Op> children;
};

/// Binds `schema` with `slots`. Nesting deeper than `max_depth` is kCorrupt.
Op bind(const Schema& schema, const SlotFunction& slots, int max_depth = 32);

/// Byte cursor over one decoded block.
class Cursor {
 public:
  Cursor(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  size_t remaining() const { return size_t(end_ - p_); }
  bool at_end() const { return p_ == end_; }

  int64_t read_long() {
    uint64_t value = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (p_ == end_) throw_corrupt("avro: truncated varint");
      const uint8_t byte = *p_++;
      if (shift == 63 && byte > 1) throw_corrupt("avro: varint longer than 64 bits");
      value |= uint64_t(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return int64_t(value >> 1) ^ -int64_t(value & 1);
    }
    throw_corrupt("avro: varint longer than 10 bytes");
  }
  int32_t read_int() {
    const int64_t v = read_long();
    if (v < INT32_MIN || v > INT32_MAX) throw_corrupt("avro: int out of range");
    return int32_t(v);
  }
  std::string_view take(int64_t n) {
    if (n < 0 || uint64_t(n) > remaining()) throw_corrupt("avro: length " + std::to_string(n) + " beyond the block");
    std::string_view out(reinterpret_cast<const char*>(p_), size_t(n));
    p_ += n;
    return out;
  }
  std::string_view read_bytes() { return take(read_long()); }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

/// Most items one array or map block may declare when its items take no
/// bytes (null items): a bound so a hostile count cannot spin for long.
inline constexpr int64_t kMaxEmptyItems = 1 << 20;

/// Decodes one value of `op` from `cursor` into `sink`.
template <typename Sink>
void decode(const Op& op, Cursor& cursor, Sink& sink) {
  switch (op.type) {
    case Type::kNull:
      if (op.slot >= 0) sink.set_null(op.slot);
      return;
    case Type::kBoolean: {
      const std::string_view b = cursor.take(1);
      if (uint8_t(b[0]) > 1) throw_corrupt("avro: boolean byte is not 0 or 1");
      if (op.slot >= 0) sink.set_int(op.slot, b[0]);
      return;
    }
    case Type::kInt:
    case Type::kLong:
    case Type::kEnum: {
      const int64_t v = op.type == Type::kInt ? cursor.read_int() : cursor.read_long();
      if (op.type == Type::kEnum && (v < 0 || v >= op.size)) throw_corrupt("avro: enum index out of range");
      if (op.slot >= 0) sink.set_int(op.slot, v);
      return;
    }
    case Type::kFloat: {
      const std::string_view b = cursor.take(4);
      float f;
      std::memcpy(&f, b.data(), 4);
      if (op.slot >= 0) sink.set_double(op.slot, double(f));
      return;
    }
    case Type::kDouble: {
      const std::string_view b = cursor.take(8);
      double d;
      std::memcpy(&d, b.data(), 8);
      if (op.slot >= 0) sink.set_double(op.slot, d);
      return;
    }
    case Type::kBytes:
    case Type::kString: {
      const std::string_view b = cursor.read_bytes();
      if (op.slot >= 0) sink.set_bytes(op.slot, b);
      return;
    }
    case Type::kFixed: {
      const std::string_view b = cursor.take(op.size);
      if (op.slot >= 0) sink.set_bytes(op.slot, b);
      return;
    }
    case Type::kRecord:
      if (op.slot >= 0) sink.begin_record(op.slot);
      for (const Op& child : op.children) decode(child, cursor, sink);
      return;
    case Type::kUnion: {
      const int64_t branch = cursor.read_long();
      if (branch < 0 || uint64_t(branch) >= op.children.size()) throw_corrupt("avro: union branch out of range");
      decode(op.children[size_t(branch)], cursor, sink);
      return;
    }
    case Type::kArray:
    case Type::kMap: {
      const bool is_map = op.type == Type::kMap;
      for (;;) {
        int64_t count = cursor.read_long();
        if (count == 0) return;
        if (count < 0) {
          if (count == INT64_MIN) throw_corrupt("avro: bad block count");
          count = -count;
          const int64_t bytes = cursor.read_long();
          if (bytes < 0 || uint64_t(bytes) > cursor.remaining()) throw_corrupt("avro: block size beyond the data");
        }
        // Every item takes at least one byte unless its type is null-only;
        // either way the count is bounded before the loop.
        if (uint64_t(count) > cursor.remaining() && count > kMaxEmptyItems)
          throw_corrupt("avro: item count " + std::to_string(count) + " beyond the data");
        for (int64_t i = 0; i < count; ++i) {
          if (is_map) cursor.read_bytes();  // keys: not bound
          if (op.slot >= 0) sink.begin_item(op.slot);
          decode(op.children[0], cursor, sink);
        }
      }
    }
  }
}

/// An object container file held in memory (the bytes must outlive it).
class ContainerReader {
 public:
  /// Parses the header: magic, metadata map, schema, codec, sync marker.
  /// `what` names the file in errors.
  ContainerReader(std::span<const uint8_t> file, std::string what);

  const Schema& schema() const { return schema_; }
  const std::string& codec() const { return codec_; }
  /// Header metadata value for `key` ("avro.schema", "partition-spec-id"...), or nullptr.
  const std::string* metadata(std::string_view key) const;

  /// Decodes the next block into `block` (decompressed) and returns its
  /// object count; 0 at the end. Checks the sync marker after each block.
  int64_t next_block(std::vector<uint8_t>& block);

  /// Decodes every object of the file with `op` into `sink`, calling
  /// sink.begin_object() before and sink.end_object() after each.
  template <typename Sink>
  void decode_all(const Op& op, Sink& sink) {
    std::vector<uint8_t> block;
    for (int64_t count; (count = next_block(block)) != 0;) {
      Cursor cursor(block.data(), block.size());
      for (int64_t i = 0; i < count; ++i) {
        sink.begin_object();
        decode(op, cursor, sink);
        sink.end_object();
      }
      if (!cursor.at_end()) throw_corrupt(what_ + ": avro block has " + std::to_string(cursor.remaining()) + " bytes after its " + std::to_string(count) + " objects");
    }
  }

  const std::string& what() const { return what_; }

 private:
  std::span<const uint8_t> file_;
  std::string what_;
  size_t pos_ = 0;
  std::map<std::string, std::string, std::less<>> metadata_;
  Schema schema_;
  std::string codec_;
  uint8_t sync_[16] = {};
};

/// Largest decompressed Avro block accepted.
inline constexpr int64_t kMaxBlockSize = int64_t(1) << 30;

}  // namespace parquetry::iceberg::avro
