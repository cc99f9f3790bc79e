// Shredding Arrow arrays into definition/repetition levels and dense leaf
// values: the mirror of nested/assemble.
//
// Each top-level row starts as one "slot" (an index into the field's array,
// definition 0, repetition 0). Walking down the type:
//   - a nullable node turns a null slot into a terminated entry at the
//     definition level of its parent, and raises the others by one;
//   - a list expands each live slot into its elements (repetition of the
//     first element = the slot's, of the others = the list's level; the
//     repeated node adds one definition level), and an empty list becomes a
//     terminated entry at the list's own definition level;
//   - a struct hands a copy of its slots to every child;
//   - a leaf writes one level pair per slot and keeps the indexes of the live
//     ones: exactly the slots whose definition level is the leaf's maximum.
// Each level of nesting is one linear pass over its slots: no recursion per
// value and no per-value allocation.
#include <array>
#include <cstdint>
#include <cstring>
#include <string>

#include "parquetry/encoding/bit_unpack.h"
#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"
#include "parquetry/write/write_internal.h"

namespace parquetry::write {
namespace {

constexpr int64_t kTerminated = -1;

struct Slot {
  int64_t index;  // logical index in the current array, or kTerminated
  int16_t def;
  int16_t rep;
};

bool all_null_type(const ArrayData& array) { return array.type->id == TypeId::kNull; }

// The values of a dictionary array, gathered into a plain array of the value type.
std::shared_ptr<ArrayData> materialize_dictionary(const ArrayData& array) {
  if (!array.dictionary) throw_invalid("dictionary array without its dictionary");
  const ArrayData& dict = *array.dictionary;
  const int32_t* indices = array.buffers[1].as<int32_t>() + array.offset;
  auto out = std::make_shared<ArrayData>();
  out->type = dict.type;
  out->length = array.length;
  out->null_count = array.null_count;
  const int64_t n = array.length;
  auto check = [&](int32_t index) {
    if (index < 0 || index >= dict.length) {
      throw_invalid("dictionary index " + std::to_string(index) + " outside a dictionary of " +
                    std::to_string(dict.length));
    }
  };
  // Validity: the array's own (nulls in the dictionary are honoured too).
  Buffer validity(size_t((n + 7) / 8));
  std::memset(validity.data(), 0xFF, validity.size());
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; ++i) {
    bool valid = array.is_valid(i);
    if (valid) {
      check(indices[i]);
      valid = dict.is_valid(indices[i]);
    }
    if (!valid) {
      bits::clear_bit(validity.data(), i);
      ++nulls;
    }
  }
  out->null_count = nulls;
  out->buffers.push_back(nulls ? BufferRef::adopt(std::move(validity)) : BufferRef{});
  const DataType& type = *dict.type;
  const int width = type.fixed_width();
  if (type.id == TypeId::kBool) {
    Buffer bitmap(size_t((n + 7) / 8));
    std::memset(bitmap.data(), 0, bitmap.size());
    const uint8_t* src = dict.buffers[1].data;
    for (int64_t i = 0; i < n; ++i) {
      if (out->is_valid(i) && bits::get_bit(src, dict.offset + indices[i])) bits::set_bit(bitmap.data(), i);
    }
    out->buffers.push_back(BufferRef::adopt(std::move(bitmap)));
  } else if (width > 0) {
    Buffer values(size_t(n) * size_t(width));
    std::memset(values.data(), 0, values.size());
    const uint8_t* src = dict.buffers[1].data + dict.offset * width;
    for (int64_t i = 0; i < n; ++i) {
      if (out->is_valid(i))
        std::memcpy(values.data() + i * width, src + int64_t(indices[i]) * width, size_t(width));
    }
    out->buffers.push_back(BufferRef::adopt(std::move(values)));
  } else if (type.id == TypeId::kNull) {
    out->buffers.clear();
    out->null_count = n;
  } else if (type.is_binary_like()) {
    // Re-encode as int64-offset binary of the same logical family.
    Buffer offsets(size_t(n + 1) * 8);
    Buffer data;
    int64_t* o = offsets.as<int64_t>();
    o[0] = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (out->is_valid(i)) {
        const int64_t k = dict.offset + indices[i];
        const uint8_t* bytes = nullptr;
        int64_t len = 0;
        if (type.id == TypeId::kBinary || type.id == TypeId::kString) {
          const int32_t* off = dict.buffers[1].as<int32_t>();
          bytes = dict.buffers[2].data + off[k];
          len = off[k + 1] - off[k];
        } else if (type.id == TypeId::kLargeBinary || type.id == TypeId::kLargeString) {
          const int64_t* off = dict.buffers[1].as<int64_t>();
          bytes = dict.buffers[2].data + off[k];
          len = off[k + 1] - off[k];
        } else {
          const uint8_t* view = dict.buffers[1].data + k * 16;
          int32_t length = bits::load<int32_t>(view);
          len = length;
          if (length <= 12) {
            bytes = view + 4;
          } else {
            int32_t buffer = bits::load<int32_t>(view + 8);
            int32_t offset = bits::load<int32_t>(view + 12);
            bytes = dict.buffers[size_t(2 + buffer)].data + offset;
          }
        }
        data.append(bytes, size_t(len));
      }
      o[i + 1] = int64_t(data.size());
    }
    auto large = std::make_shared<DataType>(type);
    large->id =
        (type.id == TypeId::kString || type.id == TypeId::kLargeString || type.id == TypeId::kStringView)
            ? TypeId::kLargeString
            : TypeId::kLargeBinary;
    out->type = large;
    out->buffers.push_back(BufferRef::adopt(std::move(offsets)));
    out->buffers.push_back(BufferRef::adopt(std::move(data)));
  } else {
    throw_unsupported("dictionary of " + type.to_string() + " cannot be written");
  }
  return out;
}

struct Shredder {
  std::span<const LeafPlan> plans;
  std::span<LeafData> leaves;
  size_t next_leaf = 0;

  void walk(const Field& field, const ArrayData& array, std::vector<Slot>& slots, int16_t def_base,
            int16_t rep_level) {
    const bool nullable = field.nullable;
    const int16_t def_here = int16_t(def_base + (nullable ? 1 : 0));
    const bool null_type = all_null_type(array);
    if (null_type || array.null_count != 0 || (!array.buffers.empty() && array.buffers[0])) {
      for (Slot& slot : slots) {
        if (slot.index == kTerminated) continue;
        if (null_type || !array.is_valid(slot.index)) {
          if (!nullable) throw_invalid("non-nullable field " + field.name + " holds a null");
          slot.index = kTerminated;
          slot.def = def_base;
        } else {
          slot.def = def_here;
        }
      }
    } else {
      for (Slot& slot : slots) {
        if (slot.index != kTerminated) slot.def = def_here;
      }
    }
    // Structure from the array, child fields (their nullability, i.e. the
    // levels) from the schema's field, which must have the same shape (lists
    // may differ in offset width).
    const DataType& type = *array.type;
    const DataType& declared = field.type;
    auto family = [](TypeId id) { return id == TypeId::kLargeList ? TypeId::kList : id; };
    if ((type.is_nested() || declared.is_nested()) &&
        (family(type.id) != family(declared.id) || type.children.size() != declared.children.size())) {
      throw_invalid("field " + field.name + " is " + type.to_string() + ", the schema says " +
                    declared.to_string());
    }
    switch (type.id) {
      case TypeId::kList:
      case TypeId::kLargeList:
      case TypeId::kMap: {
        std::vector<Slot> children;
        children.reserve(slots.size());
        const int16_t child_def = int16_t(def_here + 1);
        const int16_t child_rep = int16_t(rep_level + 1);
        auto expand = [&](auto* offsets) {
          for (const Slot& slot : slots) {
            if (slot.index == kTerminated) {
              children.push_back(slot);
              continue;
            }
            const int64_t begin = int64_t(offsets[array.offset + slot.index]);
            const int64_t end = int64_t(offsets[array.offset + slot.index + 1]);
            if (begin == end) {
              children.push_back(Slot{kTerminated, def_here, slot.rep});
              continue;
            }
            children.push_back(Slot{begin, child_def, slot.rep});
            for (int64_t k = begin + 1; k < end; ++k) children.push_back(Slot{k, child_def, child_rep});
          }
        };
        if (type.id == TypeId::kLargeList) {
          expand(array.buffers[1].as<int64_t>());
        } else {
          expand(array.buffers[1].as<int32_t>());
        }
        const ArrayData& child = *array.children.at(0);
        if (type.id == TypeId::kMap) {
          // The key_value group is required: its children see the slots as they are.
          const auto& fields = declared.children.at(0).type.children;
          if (fields.size() != 2 || child.children.size() != 2) {
            throw_invalid("map field " + field.name + " needs entries of a key and a value");
          }
          std::vector<Slot> copy = children;
          walk(fields.at(0), *child.children.at(0), copy, child_def, child_rep);
          walk(fields.at(1), *child.children.at(1), children, child_def, child_rep);
        } else {
          walk(declared.children.at(0), child, children, child_def, child_rep);
        }
        return;
      }
      case TypeId::kStruct: {
        for (size_t c = 0; c < type.children.size(); ++c) {
          std::vector<Slot> copy = slots;
          // Struct children are indexed by the struct's offset plus the slot.
          if (array.offset != 0) {
            for (Slot& slot : copy) {
              if (slot.index != kTerminated) slot.index += array.offset;
            }
          }
          walk(declared.children[c], *array.children.at(c), copy, def_here, rep_level);
        }
        return;
      }
      default: emit_leaf(array, slots);
    }
  }

  void emit_leaf(const ArrayData& array, const std::vector<Slot>& slots) {
    if (next_leaf >= leaves.size()) throw Error(ErrorCode::kInternal, "more leaves than planned");
    const LeafPlan& plan = plans[next_leaf];
    LeafData& leaf = leaves[next_leaf++];
    bind_array(leaf, array);
    const int64_t n = int64_t(slots.size());
    leaf.num_levels = n;
    const bool has_def = plan.column.max_definition_level > 0;
    const bool has_rep = plan.column.max_repetition_level > 0;
    leaf.def.resize(has_def ? size_t(n) : 0);
    leaf.rep.resize(has_rep ? size_t(n) : 0);
    leaf.positions.clear();
    leaf.contiguous = false;
    leaf.all_defined = false;
    for (int64_t i = 0; i < n; ++i) {
      const Slot& slot = slots[size_t(i)];
      if (has_def) leaf.def[size_t(i)] = slot.def;
      if (has_rep) leaf.rep[size_t(i)] = slot.rep;
      if (slot.index != kTerminated) leaf.positions.push_back(slot.index);
    }
    leaf.num_values = int64_t(leaf.positions.size());
  }

  static void bind_array(LeafData& leaf, const ArrayData& array) {
    if (array.type->id == TypeId::kDictionary) {
      leaf.owned = materialize_dictionary(array);
      leaf.array = leaf.owned.get();
    } else {
      leaf.owned.reset();
      leaf.array = &array;
    }
  }

  // A top-level primitive: levels straight from the validity bitmap.
  void flat(const Field& field, const ArrayData& array) {
    const LeafPlan& plan = plans[next_leaf];
    LeafData& leaf = leaves[next_leaf++];
    const int64_t n = array.length;
    leaf.num_levels = n;
    leaf.rep.clear();
    leaf.positions.clear();
    leaf.all_defined = false;
    const bool null_type = all_null_type(array);
    if (array.type->id == TypeId::kDictionary) {
      bind_array(leaf, array);
    } else {
      leaf.owned.reset();
      leaf.array = &array;
    }
    const ArrayData& values = *leaf.array;
    const bool any_null = null_type || values.null_count != 0;
    if (!field.nullable && any_null) throw_invalid("non-nullable field " + field.name + " holds nulls");
    if (plan.column.max_definition_level == 0) {
      leaf.def.clear();
      leaf.contiguous = true;
      leaf.range_start = 0;
      leaf.num_values = n;
      return;
    }
    if (!null_type && (!any_null || values.buffers.empty() || !values.buffers[0])) {
      leaf.def.clear();
      leaf.all_defined = true;
      leaf.contiguous = true;
      leaf.range_start = 0;
      leaf.num_values = n;
      return;
    }
    leaf.def.resize(size_t(n));
    int16_t* def = leaf.def.data();
    if (null_type) {
      std::memset(def, 0, size_t(n) * sizeof(int16_t));
      leaf.contiguous = true;
      leaf.range_start = 0;
      leaf.num_values = 0;
      return;
    }
    const uint8_t* bitmap = values.buffers[0].data;
    const int64_t base = values.offset;
    leaf.positions.resize(size_t(n));
    int64_t* positions = leaf.positions.data();
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int16_t bit = int16_t((bitmap[(base + i) >> 3] >> ((base + i) & 7)) & 1);
      def[i] = bit;
      positions[count] = i;
      count += bit;
    }
    leaf.positions.resize(size_t(count));
    leaf.contiguous = false;
    leaf.num_values = count;
  }
};

}  // namespace

void shred_field(const Field& field, const ArrayData& array, std::span<const LeafPlan> plans,
                 std::span<LeafData> leaves) {
  Shredder shredder{plans, leaves};
  if (!array.type->is_nested()) {
    shredder.flat(field, array);
    return;
  }
  std::vector<Slot> slots(size_t(array.length));
  for (int64_t i = 0; i < array.length; ++i) slots[size_t(i)] = Slot{i, 0, 0};
  shredder.walk(field, array, slots, 0, 0);
  if (shredder.next_leaf != leaves.size()) throw Error(ErrorCode::kInternal, "fewer leaves than planned");
}

namespace {

constexpr int64_t kNanosPerDay = 86'400'000'000'000;
constexpr int64_t kJulianDayOfEpoch = 2'440'588;  // 1970-01-01

// A decimal of `source` little-endian bytes narrowed to `width` bytes must
// lose only sign extension; anything else would silently change the value.
void check_decimal_fits(const uint8_t* le, int source, int width, const LeafPlan& plan) {
  if (width >= source) return;
  const uint8_t extension = (le[width - 1] & 0x80) ? 0xFF : 0x00;
  for (int b = width; b < source; ++b) {
    if (le[b] != extension) {
      throw_invalid("a decimal of column " + plan.column.path + " does not fit its " + std::to_string(width) +
                    "-byte Parquet type");
    }
  }
}

const uint8_t* fixed_base(const ArrayData& array, int width) {
  return array.buffers.at(1).data + array.offset * width;
}

template <typename From, typename To, typename F>
void convert_fixed(const LeafData& leaf, const uint8_t* base, Buffer& scratch, F&& f) {
  scratch.resize(size_t(leaf.num_values) * sizeof(To));
  To* out = scratch.as<To>();
  const From* in = reinterpret_cast<const From*>(base);
  if (leaf.contiguous) {
    in += leaf.range_start;
    for (int64_t i = 0; i < leaf.num_values; ++i) out[i] = f(in[i]);
  } else {
    const int64_t* pos = leaf.positions.data();
    for (int64_t i = 0; i < leaf.num_values; ++i) out[i] = f(in[pos[i]]);
  }
}

}  // namespace

PhysicalValues stage_values(const LeafPlan& plan, const LeafData& leaf, Buffer& scratch,
                            std::vector<ByteArrayView>& views) {
  PhysicalValues out;
  out.count = leaf.num_values;
  if (leaf.num_values == 0 || plan.conversion == Conversion::kNull) {
    out.count = 0;
    return out;
  }
  const ArrayData& array = *leaf.array;
  switch (plan.conversion) {
    case Conversion::kNull: return out;
    case Conversion::kBool: {
      scratch.resize(size_t(leaf.num_values));
      uint8_t* bytes = scratch.data();
      const uint8_t* bitmap = array.buffers.at(1).data;
      const int64_t base = array.offset;
      if (leaf.contiguous) {
        for (int64_t i = 0; i < leaf.num_values; ++i)
          bytes[i] = bits::get_bit(bitmap, base + leaf.range_start + i);
      } else {
        for (int64_t i = 0; i < leaf.num_values; ++i)
          bytes[i] = bits::get_bit(bitmap, base + leaf.positions[size_t(i)]);
      }
      out.bools = bytes;
      return out;
    }
    case Conversion::kCopy: {
      const int width = plan.column.physical_type == Type::FIXED_LEN_BYTE_ARRAY
                            ? plan.column.type_length
                            : physical_width(plan.column.physical_type);
      const uint8_t* base = fixed_base(array, width);
      if (leaf.contiguous) {
        out.fixed = base + leaf.range_start * width;
        return out;
      }
      scratch.resize(size_t(leaf.num_values) * size_t(width));
      uint8_t* dst = scratch.data();
      const int64_t* pos = leaf.positions.data();
      if (width == 4) {
        const uint32_t* in = reinterpret_cast<const uint32_t*>(base);
        uint32_t* o = reinterpret_cast<uint32_t*>(dst);
        for (int64_t i = 0; i < leaf.num_values; ++i) o[i] = in[pos[i]];
      } else if (width == 8) {
        const uint64_t* in = reinterpret_cast<const uint64_t*>(base);
        uint64_t* o = reinterpret_cast<uint64_t*>(dst);
        for (int64_t i = 0; i < leaf.num_values; ++i) o[i] = in[pos[i]];
      } else {
        for (int64_t i = 0; i < leaf.num_values; ++i)
          std::memcpy(dst + i * width, base + pos[i] * width, size_t(width));
      }
      out.fixed = dst;
      return out;
    }
    case Conversion::kInt8:
      convert_fixed<int8_t, int32_t>(leaf, fixed_base(array, 1), scratch,
                                     [](int8_t v) { return int32_t(v); });
      break;
    case Conversion::kInt16:
      convert_fixed<int16_t, int32_t>(leaf, fixed_base(array, 2), scratch,
                                      [](int16_t v) { return int32_t(v); });
      break;
    case Conversion::kUInt8:
      convert_fixed<uint8_t, int32_t>(leaf, fixed_base(array, 1), scratch,
                                      [](uint8_t v) { return int32_t(v); });
      break;
    case Conversion::kUInt16:
      convert_fixed<uint16_t, int32_t>(leaf, fixed_base(array, 2), scratch,
                                       [](uint16_t v) { return int32_t(v); });
      break;
    case Conversion::kMillisFrom32:
      convert_fixed<int32_t, int32_t>(leaf, fixed_base(array, 4), scratch,
                                      [](int32_t v) { return int32_t(uint32_t(v) * 1000u); });
      break;
    case Conversion::kMillisFrom64:
      convert_fixed<int64_t, int64_t>(leaf, fixed_base(array, 8), scratch,
                                      [](int64_t v) { return int64_t(uint64_t(v) * 1000u); });
      break;
    case Conversion::kDecimalInt32:
    case Conversion::kDecimalInt64:
    case Conversion::kDecimalFlba: {
      const int source = plan.source_width;  // 16 or 32
      const uint8_t* base = fixed_base(array, source);
      const int width = plan.conversion == Conversion::kDecimalInt32   ? 4
                        : plan.conversion == Conversion::kDecimalInt64 ? 8
                                                                       : plan.column.type_length;
      scratch.resize(size_t(leaf.num_values) * size_t(width));
      uint8_t* dst = scratch.data();
      for (int64_t i = 0; i < leaf.num_values; ++i) {
        const int64_t p = leaf.contiguous ? leaf.range_start + i : leaf.positions[size_t(i)];
        const uint8_t* le = base + p * source;
        check_decimal_fits(le, source, width, plan);
        const uint8_t extension = (le[source - 1] & 0x80) ? 0xFF : 0x00;
        if (plan.conversion == Conversion::kDecimalFlba) {
          // Big-endian: the low `width` bytes, most significant first (sign-extended past the source).
          for (int b = 0; b < width; ++b) {
            const int from = width - 1 - b;
            dst[i * width + b] = from < source ? le[from] : extension;
          }
        } else {
          std::memcpy(dst + i * width, le, size_t(width));  // little-endian low bytes
        }
      }
      out.fixed = dst;
      return out;
    }
    case Conversion::kDecimalBinary: {
      // Minimal big-endian two's complement, as BigInteger.toByteArray gives:
      // the statistics order of BYTE_ARRAY decimals relies on it.
      const int source = plan.source_width;
      const uint8_t* base = fixed_base(array, source);
      scratch.resize(size_t(leaf.num_values) * size_t(source));
      views.resize(size_t(leaf.num_values));
      uint8_t* dst = scratch.data();
      for (int64_t i = 0; i < leaf.num_values; ++i) {
        const int64_t p = leaf.contiguous ? leaf.range_start + i : leaf.positions[size_t(i)];
        const uint8_t* le = base + p * source;
        const uint8_t extension = (le[source - 1] & 0x80) ? 0xFF : 0x00;
        int length = source;
        while (length > 1 && le[length - 1] == extension && ((le[length - 2] ^ extension) & 0x80) == 0)
          --length;
        uint8_t* value = dst + i * source;
        for (int b = 0; b < length; ++b) value[b] = le[length - 1 - b];
        views[size_t(i)] = ByteArrayView{value, uint32_t(length)};
      }
      out.binary = views.data();
      return out;
    }
    case Conversion::kScale64: {
      const int64_t factor = plan.factor;
      convert_fixed<int64_t, int64_t>(leaf, fixed_base(array, 8), scratch, [&](int64_t v) {
        int64_t scaled;
        if (__builtin_mul_overflow(v, factor, &scaled)) {
          throw_invalid("value " + std::to_string(v) + " of column " + plan.column.path +
                        " overflows int64 in " + "the unit of the Parquet schema");
        }
        return scaled;
      });
      break;
    }
    case Conversion::kInt96FromTimestamp: {
      const uint8_t* base = fixed_base(array, 8);
      scratch.resize(size_t(leaf.num_values) * 12);
      uint8_t* dst = scratch.data();
      for (int64_t i = 0; i < leaf.num_values; ++i) {
        const int64_t p = leaf.contiguous ? leaf.range_start + i : leaf.positions[size_t(i)];
        const __int128 nanos = __int128(bits::load<int64_t>(base + p * 8)) * plan.factor;
        // Floor division: instants before the epoch keep a nanos-of-day in [0, 1 day).
        __int128 day = nanos / kNanosPerDay;
        if (nanos % kNanosPerDay < 0) --day;
        const int64_t nanos_of_day = int64_t(nanos - day * kNanosPerDay);
        const __int128 julian = day + kJulianDayOfEpoch;
        if (julian < INT32_MIN || julian > INT32_MAX) {
          throw_invalid("a timestamp of column " + plan.column.path + " is outside the days INT96 can hold");
        }
        const int32_t julian_day = int32_t(julian);
        std::memcpy(dst + i * 12, &nanos_of_day, 8);
        std::memcpy(dst + i * 12 + 8, &julian_day, 4);
      }
      out.fixed = dst;
      return out;
    }
    case Conversion::kTimestampFromInt96: {
      const uint8_t* base = fixed_base(array, 12);
      const int64_t divisor = plan.factor;
      convert_fixed<std::array<uint8_t, 12>, int64_t>(
          leaf, base, scratch, [&](const std::array<uint8_t, 12>& v) {
            const __int128 nanos =
                __int128(int64_t(bits::load<int32_t>(v.data() + 8)) - kJulianDayOfEpoch) * kNanosPerDay +
                bits::load<int64_t>(v.data());
            __int128 units = nanos / divisor;
            if (nanos % divisor < 0) --units;
            if (units < INT64_MIN || units > INT64_MAX) {
              throw_invalid("an INT96 instant of column " + plan.column.path +
                            " is outside the int64 range of the Parquet schema's unit");
            }
            return int64_t(units);
          });
      break;
    }
    case Conversion::kBinary:
    case Conversion::kLargeBinary:
    case Conversion::kView: {
      views.resize(size_t(leaf.num_values));
      ByteArrayView* v = views.data();
      const int64_t base = array.offset;
      auto position = [&](int64_t i) {
        return base + (leaf.contiguous ? leaf.range_start + i : leaf.positions[size_t(i)]);
      };
      // A materialised dictionary carries int64 offsets whatever its value type was.
      const TypeId id = array.type->id;
      const Conversion layout =
          (id == TypeId::kLargeBinary || id == TypeId::kLargeString) ? Conversion::kLargeBinary
          : (id == TypeId::kBinaryView || id == TypeId::kStringView) ? Conversion::kView
                                                                     : Conversion::kBinary;
      if (layout == Conversion::kBinary) {
        const int32_t* offsets = array.buffers.at(1).as<int32_t>();
        const uint8_t* data = array.buffers.size() > 2 ? array.buffers[2].data : nullptr;
        for (int64_t i = 0; i < leaf.num_values; ++i) {
          const int64_t p = position(i);
          v[i] = ByteArrayView{data + offsets[p], uint32_t(offsets[p + 1] - offsets[p])};
        }
      } else if (layout == Conversion::kLargeBinary) {
        const int64_t* offsets = array.buffers.at(1).as<int64_t>();
        const uint8_t* data = array.buffers.size() > 2 ? array.buffers[2].data : nullptr;
        for (int64_t i = 0; i < leaf.num_values; ++i) {
          const int64_t p = position(i);
          const int64_t length = offsets[p + 1] - offsets[p];
          if (length > int64_t(UINT32_MAX)) throw_invalid("a byte array of 4 GiB or more cannot be written");
          v[i] = ByteArrayView{data + offsets[p], uint32_t(length)};
        }
      } else {
        const uint8_t* view_base = array.buffers.at(1).data;
        for (int64_t i = 0; i < leaf.num_values; ++i) {
          const uint8_t* view = view_base + position(i) * 16;
          const int32_t length = bits::load<int32_t>(view);
          if (length <= 12) {
            v[i] = ByteArrayView{view + 4, uint32_t(length)};
          } else {
            const int32_t buffer = bits::load<int32_t>(view + 8);
            const int32_t offset = bits::load<int32_t>(view + 12);
            if (buffer < 0 || size_t(2 + buffer) >= array.buffers.size()) {
              throw_invalid("string view refers to data buffer " + std::to_string(buffer) +
                            " that does not exist");
            }
            v[i] = ByteArrayView{array.buffers[size_t(2 + buffer)].data + offset, uint32_t(length)};
          }
        }
      }
      out.binary = v;
      return out;
    }
  }
  out.fixed = scratch.data();
  return out;
}

}  // namespace parquetry::write
