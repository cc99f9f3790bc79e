#include "parquetry/nested/assemble.h"

#include <bit>
#include <cstring>
#include <functional>
#include <string>

#include "parquetry/encoding/buffer_append.h"
#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

#ifdef __AVX512F__
#include <immintrin.h>
#endif

namespace parquetry {
namespace {

// Levels of the leaf that stands for a subtree (all leaves under a node
// share the levels of the node's ancestors).
struct Levels {
  const int16_t* def = nullptr;  // null: all zero (max_def == 0)
  const int16_t* rep = nullptr;  // null: all zero
  int64_t count = 0;
  int16_t def_at(int64_t i) const { return def ? def[i] : 0; }
  int16_t rep_at(int64_t i) const { return rep ? rep[i] : 0; }
};

struct Context {
  const Schema& schema;
  std::span<ChunkValues* const> leaves;
};

Levels levels_of(const Context& ctx, const SchemaNode& node) {
  // Any decoded leaf under the node carries the node's levels; a projection
  // may have skipped the first ones.
  ChunkValues* values = nullptr;
  for (int32_t c = node.first_column(); c < node.first_column() + node.num_columns() && values == nullptr;
       ++c) {
    if (size_t(c) < ctx.leaves.size()) values = ctx.leaves[size_t(c)];
  }
  if (values == nullptr) throw_invalid("no column under " + node.dotted_path() + " was decoded");
  Levels levels;
  levels.count = values->num_levels;
  if (values->def_levels) levels.def = values->def_levels->as<int16_t>();
  if (values->rep_levels) levels.rep = values->rep_levels->as<int16_t>();
  return levels;
}

std::shared_ptr<const DataType> child_type(const std::shared_ptr<const DataType>& parent, size_t index) {
  return std::shared_ptr<const DataType>(parent, &parent->children[index].type);
}

// Validity of the slots of a node: bit k set when slot k's def reaches
// `valid_def`. Returns an empty ref when every slot is valid.
BufferRef slot_validity(const Levels& levels, int16_t floor_rep, int16_t floor_def, int16_t valid_def,
                        int64_t slots, int64_t* null_count) {
  if (levels.def == nullptr && valid_def <= 0) {
    // Every def is 0 and reaches valid_def: no slot is null (a required
    // top-level leaf; building and scanning its bitmap cost a tenth of a scan).
    *null_count = 0;
    return {};
  }
  Buffer bitmap(size_t(bits::bytes_for_bits(slots)));
  if (bitmap.size() > 0) std::memset(bitmap.data(), 0, bitmap.size());
  int64_t k = 0;
  int64_t nulls = 0;
  for (int64_t i = 0; i < levels.count; ++i) {
    int16_t def = levels.def_at(i);
    if (levels.rep_at(i) <= floor_rep && def >= floor_def) {
      if (def >= valid_def) {
        bits::set_bit(bitmap.data(), k);
      } else {
        ++nulls;
      }
      ++k;
    }
  }
  *null_count = nulls;
  if (nulls == 0) return {};
  return BufferRef::adopt(std::move(bitmap));
}

int64_t count_slots(const Levels& levels, int16_t floor_rep, int16_t floor_def) {
  if (levels.rep == nullptr && floor_def == 0) return levels.count;
  int64_t k = 0;
  for (int64_t i = 0; i < levels.count; ++i)
    k += levels.rep_at(i) <= floor_rep && levels.def_at(i) >= floor_def;
  return k;
}

// Spreads dense values over slots: slot k takes the next dense value when
// valid. `validity` null means all slots valid.
// Moves `dense` values (at the front of `d`) to their slots (bits of
// `valid`), from the back, 64 slots per validity word; null slots become 0.
// Between two nulls every value moves by the same distance, so each run of
// valid slots is one memmove (nulls are usually rare: a word is a few runs,
// not 64 dependent steps). Once every slot left is valid the values are
// already in place.
// Moves d[from, from + n) up to d[to, to + n) (to > from, n <= 64): every
// source vector is loaded before any is stored, so the overlap is safe.
// With AVX-512 the move is a fixed sequence of masked loads and stores
// (the mask covers n lanes), with no branch on n: nulls scattered one at a
// time make runs of every length, and memmove's branches on the length were
// mispredicted unless the same null pattern had just been spread (a
// 124,000-slot column with 3% nulls took 74 us through memmove with a fresh
// pattern each time, 38 us this way; about the same when the pattern repeats).
template <typename T>
inline void move_run_up(T* d, int64_t to, int64_t from, int64_t n) {
#ifdef __AVX512F__
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    constexpr int kLanes = 64 / int(sizeof(T));
    constexpr int kVectors = 64 / kLanes;
    const uint64_t lanes = n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
    __m512i v[kVectors];
    for (int k = 0; k < kVectors; ++k) {
      const uint64_t m = lanes >> (k * kLanes);
      if constexpr (sizeof(T) == 4) {
        v[k] = _mm512_maskz_loadu_epi32(__mmask16(m), d + from + k * kLanes);
      } else {
        v[k] = _mm512_maskz_loadu_epi64(__mmask8(m), d + from + k * kLanes);
      }
    }
    for (int k = 0; k < kVectors; ++k) {
      const uint64_t m = lanes >> (k * kLanes);
      if constexpr (sizeof(T) == 4) {
        _mm512_mask_storeu_epi32(d + to + k * kLanes, __mmask16(m), v[k]);
      } else {
        _mm512_mask_storeu_epi64(d + to + k * kLanes, __mmask8(m), v[k]);
      }
    }
    return;
  }
#endif
  std::memmove(d + to, d + from, size_t(n) * sizeof(T));
}

template <typename T>
void spread_backwards(T* d, const uint8_t* valid, int64_t slots, int64_t dense) {
  int64_t j = dense;  // values not yet placed: d[0, j)
  int64_t end = slots;
  while (end > 0 && j < end) {
    const int64_t begin = (end - 1) & ~int64_t(63);
    const int64_t n = end - begin;
    const uint64_t full = n == 64 ? ~uint64_t(0) : ((uint64_t(1) << n) - 1);
    uint64_t nulls = ~bits::word_at(valid, begin, n) & full;
    int64_t high = end;  // the run of valid slots ends here (exclusive)
    while (true) {
      // The run starts just above the highest null left, or at the word's start.
      const int64_t low = nulls == 0 ? begin : begin + (63 - std::countl_zero(nulls)) + 1;
      const int64_t run = high - low;
      if (run > 0) {
        // j <= low always: a slot's value never comes from above it, and the
        // values still to place (d[0, j)) sit below every slot done so far.
        j -= run;
        if (j != low) move_run_up(d, low, j, run);  // a run never leaves its 64-slot word
      }
      if (nulls == 0) break;
      d[low - 1] = T(0);
      nulls &= ~(uint64_t(1) << (low - 1 - begin));
      high = low - 1;
    }
    end = begin;
  }
}

std::shared_ptr<ArrayData> spread_leaf(std::shared_ptr<const DataType> type, ChunkValues& values,
                                       int64_t slots, BufferRef validity, int64_t null_count) {
  auto array = std::make_shared<ArrayData>();
  array->type = type;
  array->length = slots;
  array->null_count = null_count;
  if (type->id == TypeId::kNull) {
    array->null_count = slots;
    return array;
  }
  if (slots - null_count != values.num_values) {
    throw_corrupt("leaf holds " + std::to_string(values.num_values) + " values for " +
                  std::to_string(slots - null_count) + " defined slots");
  }
  const uint8_t* valid = validity ? validity.data : nullptr;
  array->buffers.push_back(validity);
  if (type->id == TypeId::kBool) {
    values.materialize();
    if (valid == nullptr) {
      array->buffers.push_back(BufferRef::share(values.values));
      return array;
    }
    Buffer out(size_t(bits::bytes_for_bits(slots)));
    if (out.size() > 0) std::memset(out.data(), 0, out.size());
    const uint8_t* dense = values.values->data();
    int64_t j = 0;
    for (int64_t k = 0; k < slots; ++k) {
      if (bits::get_bit(valid, k)) {
        if (bits::get_bit(dense, j)) bits::set_bit(out.data(), k);
        ++j;
      }
    }
    array->buffers.push_back(BufferRef::adopt(std::move(out)));
    return array;
  }
  if (type->is_binary_like()) {
    if (valid == nullptr) {
      array->buffers.push_back(BufferRef::share(values.offsets));
      array->buffers.push_back(BufferRef::share(values.values));
      return array;
    }
    Buffer offsets(size_t(slots + 1) * 4);
    int32_t* out = offsets.as<int32_t>();
    const int32_t* dense = values.offsets->as<int32_t>();
    int64_t j = 0;
    out[0] = 0;
    for (int64_t k = 0; k < slots; ++k) {
      bool is_valid = bits::get_bit(valid, k);
      out[k + 1] = dense[j + is_valid];
      j += is_valid;
    }
    array->buffers.push_back(BufferRef::adopt(std::move(offsets)));
    array->buffers.push_back(BufferRef::share(values.values));
    return array;
  }
  const size_t width = size_t(type->fixed_width());
  if (valid == nullptr) {
    array->buffers.push_back(values.values_ref());
    return array;
  }
  values.materialize();  // spreading writes in place
  // Spread in place from the back: the buffer grows to `slots` entries and
  // each dense value moves to its slot (slot k >= dense index j always).
  Buffer& buffer = *values.values;
  buffer.resize(size_t(slots) * width);
  uint8_t* data = buffer.data();
  if (width == 8) {
    spread_backwards(reinterpret_cast<uint64_t*>(data), valid, slots, values.num_values);
  } else if (width == 4) {
    spread_backwards(reinterpret_cast<uint32_t*>(data), valid, slots, values.num_values);
  } else {
    int64_t j = values.num_values - 1;
    for (int64_t k = slots - 1; k >= 0 && j >= 0; --k) {
      if (bits::get_bit(valid, k)) {
        std::memmove(data + size_t(k) * width, data + size_t(j) * width, width);
        --j;
      } else {
        std::memset(data + size_t(k) * width, 0, width);
      }
    }
  }
  array->buffers.push_back(BufferRef::share(values.values));
  return array;
}

std::shared_ptr<ArrayData> build(const Context& ctx, const SchemaNode& node,
                                 std::shared_ptr<const DataType> type, int16_t floor_rep, int16_t floor_def,
                                 bool as_element);

// A list whose entries are the slots of `repeated` (rep r, def d), with
// `element` built under floors (r, d).
std::shared_ptr<ArrayData> build_list(
    const Context& ctx, const SchemaNode& node, std::shared_ptr<const DataType> type, int16_t floor_rep,
    int16_t floor_def, bool nullable, const SchemaNode& repeated,
    const std::function<std::shared_ptr<ArrayData>(int16_t, int16_t)>& child) {
  const Levels levels = levels_of(ctx, node);
  const int16_t r = repeated.max_repetition_level();
  const int16_t d = repeated.max_definition_level();
  const int16_t valid_def = node.max_definition_level();
  Buffer offsets;
  Buffer validity;
  offsets.reserve(size_t(levels.count + 1) * 4);
  int64_t slots = 0;
  int64_t nulls = 0;
  int32_t children = 0;
  std::vector<int32_t> offs;
  offs.reserve(size_t(levels.count) + 1);
  std::vector<bool> valid_bits;
  for (int64_t i = 0; i < levels.count; ++i) {
    const int16_t def = levels.def_at(i);
    const int16_t rep = levels.rep_at(i);
    if (rep <= floor_rep && def >= floor_def) {
      offs.push_back(children);
      bool is_valid = !nullable || def >= valid_def;
      valid_bits.push_back(is_valid);
      nulls += !is_valid;
      ++slots;
    }
    if (rep <= r && def >= d) ++children;
  }
  offs.push_back(children);
  offsets.append(offs.data(), offs.size() * 4);
  auto array = std::make_shared<ArrayData>();
  array->type = type;
  array->length = slots;
  array->null_count = nulls;
  if (nulls > 0) {
    validity.resize(size_t(bits::bytes_for_bits(slots)));
    if (validity.size() > 0) std::memset(validity.data(), 0, validity.size());
    for (int64_t k = 0; k < slots; ++k) {
      if (valid_bits[size_t(k)]) bits::set_bit(validity.data(), k);
    }
    array->buffers.push_back(BufferRef::adopt(std::move(validity)));
  } else {
    array->buffers.push_back(BufferRef{});
  }
  array->buffers.push_back(BufferRef::adopt(std::move(offsets)));
  std::shared_ptr<ArrayData> element = child(r, d);
  if (element->length != children) {
    throw_corrupt("list " + node.dotted_path() + " has " + std::to_string(children) +
                  " elements but its child " + std::to_string(element->length));
  }
  array->children.push_back(std::move(element));
  return array;
}

std::shared_ptr<ArrayData> build(const Context& ctx, const SchemaNode& node,
                                 std::shared_ptr<const DataType> type, int16_t floor_rep, int16_t floor_def,
                                 bool as_element) {
  if (!as_element && node.is_bare_repeated()) {
    // A repeated field outside a LIST: a non-null list whose entries are the node's own slots.
    return build_list(ctx, node, type, floor_rep, floor_def, false, node, [&](int16_t r, int16_t d) {
      return build(ctx, node, child_type(type, 0), r, d, true);
    });
  }
  const bool nullable = !as_element ? node.repetition() == FieldRepetitionType::OPTIONAL
                                    : node.repetition() == FieldRepetitionType::OPTIONAL;
  switch (node.kind()) {
    case NodeKind::kLeaf: {
      ChunkValues& values = *ctx.leaves[size_t(node.first_column())];
      if (values.validity) {
        // Flat optional fast path: the validity bitmap was decoded directly.
        BufferRef validity = values.null_count > 0 ? BufferRef::share(values.validity) : BufferRef{};
        return spread_leaf(type, values, values.num_levels, validity, values.null_count);
      }
      const Levels levels = levels_of(ctx, node);
      const int64_t slots = count_slots(levels, floor_rep, floor_def);
      int64_t nulls = 0;
      // Even a required leaf has slots without a value: those under a null
      // ancestor struct (def below the leaf's level). They must be null slots,
      // or the dense values would be spread over them.
      BufferRef validity =
          slot_validity(levels, floor_rep, floor_def, node.max_definition_level(), slots, &nulls);
      return spread_leaf(type, values, slots, validity, nulls);
    }
    case NodeKind::kStruct: {
      const Levels levels = levels_of(ctx, node);
      const int64_t slots = count_slots(levels, floor_rep, floor_def);
      auto array = std::make_shared<ArrayData>();
      array->type = type;
      array->length = slots;
      BufferRef validity;
      if (nullable)
        validity = slot_validity(levels, floor_rep, floor_def, node.max_definition_level(), slots,
                                 &array->null_count);
      array->buffers.push_back(validity);
      // The type may hold a projected subset of the node's children.
      for (size_t c = 0; c < type->children.size(); ++c) {
        const SchemaNode* child_node = node.child(type->children[c].name);
        if (child_node == nullptr)
          throw_invalid("struct " + node.dotted_path() + " has no field " + type->children[c].name);
        auto child = build(ctx, *child_node, child_type(type, c), floor_rep, floor_def, false);
        if (child->length != slots)
          throw_corrupt("struct " + node.dotted_path() + " children disagree on length");
        array->children.push_back(std::move(child));
      }
      return array;
    }
    case NodeKind::kList: {
      const SchemaNode& repeated = *node.list_repeated();
      const SchemaNode& element = *node.list_element();
      auto list_type = type;
      return build_list(ctx, node, type, floor_rep, floor_def, nullable, repeated, [&](int16_t r, int16_t d) {
        return build(ctx, element, child_type(list_type, 0), r, d, &element == &repeated);
      });
    }
    case NodeKind::kMap: {
      const SchemaNode& key_value = *node.map_key_value();
      auto map_type = type;
      return build_list(ctx, node, type, floor_rep, floor_def, nullable, key_value,
                        [&](int16_t r, int16_t d) {
                          auto entries_type = child_type(map_type, 0);
                          const Levels levels = levels_of(ctx, key_value);
                          auto entries = std::make_shared<ArrayData>();
                          entries->type = entries_type;
                          entries->length = count_slots(levels, r, d);
                          entries->buffers.push_back(BufferRef{});
                          entries->children.push_back(
                              build(ctx, *node.map_key(), child_type(entries_type, 0), r, d, false));
                          if (node.map_value() != nullptr) {
                            entries->children.push_back(
                                build(ctx, *node.map_value(), child_type(entries_type, 1), r, d, false));
                          } else {
                            auto nulls = std::make_shared<ArrayData>();
                            nulls->type = child_type(entries_type, 1);
                            nulls->length = entries->length;
                            nulls->null_count = entries->length;
                            entries->children.push_back(nulls);
                          }
                          return entries;
                        });
    }
  }
  throw_invalid("unknown schema node kind");
}

}  // namespace

std::shared_ptr<ArrayData> assemble_field(const SchemaNode& node, std::shared_ptr<const DataType> type,
                                          const Schema& schema, std::span<ChunkValues* const> leaves) {
  Context ctx{schema, leaves};
  return build(ctx, node, std::move(type), 0, 0, false);
}

}  // namespace parquetry
