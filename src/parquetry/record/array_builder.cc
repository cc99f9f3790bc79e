#include "parquetry/array_builder.h"

#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry {
using namespace bits;  // NOLINT: bit helpers used throughout

namespace {

bool is_list_like(TypeId id) { return id == TypeId::kList || id == TypeId::kLargeList || id == TypeId::kMap; }
bool is_binary(TypeId id) {
  return id == TypeId::kBinary || id == TypeId::kString || id == TypeId::kLargeBinary ||
         id == TypeId::kLargeString;
}
bool large_offsets(TypeId id) {
  return id == TypeId::kLargeBinary || id == TypeId::kLargeString || id == TypeId::kLargeList;
}

template <typename T>
void push(Buffer& buffer, T value) {
  buffer.append(&value, sizeof(T));
}

const char* datum_kind(const Datum& d) {
  switch (d.value.index()) {
    case 0: return "null";
    case 1: return "bool";
    case 2: return "int64";
    case 3: return "uint64";
    case 4: return "double";
    case 5: return "string";
    default: return "list";
  }
}

}  // namespace

ArrayBuilder::ArrayBuilder(const Field& field)
    : field_(field), type_(std::make_shared<DataType>(field.type)), id_(field.type.id) {
  switch (id_) {
    case TypeId::kBinaryView:
    case TypeId::kStringView:
    case TypeId::kDictionary:
    case TypeId::kFloat16:
      throw Error(ErrorCode::kUnsupported,
                  "column '" + field.name + "': rows cannot be built as " + field.type.to_string());
    default: break;
  }
  for (const Field& child : field.type.children) children_.push_back(std::make_unique<ArrayBuilder>(child));
  if (is_binary(id_) || is_list_like(id_)) {
    if (large_offsets(id_)) {
      push<int64_t>(values_, 0);
    } else {
      push<int32_t>(values_, 0);
    }
  }
}

int64_t ArrayBuilder::value_width() const {
  switch (id_) {
    case TypeId::kDecimal128: return 16;
    case TypeId::kDecimal256: return 32;
    case TypeId::kFixedSizeBinary: return type_->byte_width;
    default: return type_->fixed_width();
  }
}

void ArrayBuilder::set_valid(bool valid) {
  if (size_t(bytes_for_bits(length_ + 1)) > validity_.size()) push<uint8_t>(validity_, 0);
  set_bit_to(validity_.data(), length_, valid);
  if (!valid) ++null_count_;
  ++length_;
}

void ArrayBuilder::append_null() {
  if (!field_.nullable && id_ != TypeId::kNull) throw_invalid("column '" + field_.name + "' is not nullable");
  append_null_unchecked();
}

void ArrayBuilder::append_null_unchecked() {
  switch (id_) {
    case TypeId::kNull:
      ++length_;
      ++null_count_;
      return;
    case TypeId::kBool:
      if (size_t(bytes_for_bits(length_ + 1)) > values_.size()) push<uint8_t>(values_, 0);
      break;
    case TypeId::kStruct:
      // Children stay aligned with the parent: a null struct has null
      // fields underneath, required ones included (never read: the parent's
      // definition level stops above them).
      for (auto& child : children_) child->append_null_unchecked();
      break;
    default:
      if (is_binary(id_)) {
        if (large_offsets(id_)) {
          push<int64_t>(values_, int64_t(data_.size()));
        } else {
          push<int32_t>(values_, int32_t(data_.size()));
        }
      } else if (is_list_like(id_)) {
        const int64_t end = children_[0]->length();
        if (large_offsets(id_)) {
          push<int64_t>(values_, end);
        } else {
          push<int32_t>(values_, int32_t(end));
        }
      } else {
        const size_t width = size_t(value_width());
        values_.resize(values_.size() + width);
      }
  }
  set_valid(false);
}

void ArrayBuilder::append_int(int64_t value) {
  switch (id_) {
    case TypeId::kInt8:
      if (value < INT8_MIN || value > INT8_MAX) break;
      push<int8_t>(values_, int8_t(value)), set_valid(true);
      return;
    case TypeId::kInt16:
      if (value < INT16_MIN || value > INT16_MAX) break;
      push<int16_t>(values_, int16_t(value)), set_valid(true);
      return;
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32:
      if (value < INT32_MIN || value > INT32_MAX) break;
      push<int32_t>(values_, int32_t(value)), set_valid(true);
      return;
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp: push<int64_t>(values_, value), set_valid(true); return;
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64:
      if (value < 0) break;
      append_uint(uint64_t(value));
      return;
    case TypeId::kFloat32:
    case TypeId::kFloat64: append_double(double(value)); return;
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: append_decimal(value); return;
    default:
      throw_invalid("column '" + field_.name + "' (" + type_->to_string() + ") does not take an integer");
  }
  throw_invalid("value " + std::to_string(value) + " out of range for column '" + field_.name + "' (" +
                type_->to_string() + ")");
}

void ArrayBuilder::append_uint(uint64_t value) {
  switch (id_) {
    case TypeId::kUInt8:
      if (value > UINT8_MAX) break;
      push<uint8_t>(values_, uint8_t(value)), set_valid(true);
      return;
    case TypeId::kUInt16:
      if (value > UINT16_MAX) break;
      push<uint16_t>(values_, uint16_t(value)), set_valid(true);
      return;
    case TypeId::kUInt32:
      if (value > UINT32_MAX) break;
      push<uint32_t>(values_, uint32_t(value)), set_valid(true);
      return;
    case TypeId::kUInt64: push<uint64_t>(values_, value), set_valid(true); return;
    case TypeId::kFloat32:
    case TypeId::kFloat64: append_double(double(value)); return;
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: append_decimal(__int128(value)); return;
    default:
      if (value <= uint64_t(std::numeric_limits<int64_t>::max())) {
        append_int(int64_t(value));
        return;
      }
  }
  throw_invalid("value " + std::to_string(value) + " out of range for column '" + field_.name + "' (" +
                type_->to_string() + ")");
}

void ArrayBuilder::append_double(double value) {
  switch (id_) {
    case TypeId::kFloat32: push<float>(values_, float(value)), set_valid(true); return;
    case TypeId::kFloat64: push<double>(values_, value), set_valid(true); return;
    default:
      throw_invalid("column '" + field_.name + "' (" + type_->to_string() +
                    ") does not take a floating-point value");
  }
}

void ArrayBuilder::append_bool(bool value) {
  if (id_ != TypeId::kBool)
    throw_invalid("column '" + field_.name + "' (" + type_->to_string() + ") does not take a bool");
  if (size_t(bytes_for_bits(length_ + 1)) > values_.size()) push<uint8_t>(values_, 0);
  set_bit_to(values_.data(), length_, value);
  set_valid(true);
}

void ArrayBuilder::append_bytes(std::string_view bytes) {
  if (is_binary(id_)) {
    data_.append(bytes.data(), bytes.size());
    if (large_offsets(id_)) {
      push<int64_t>(values_, int64_t(data_.size()));
    } else {
      if (data_.size() > size_t(std::numeric_limits<int32_t>::max())) {
        data_.resize(data_.size() - bytes.size());
        throw_invalid("column '" + field_.name + "': more than 2 GiB of bytes in one batch");
      }
      push<int32_t>(values_, int32_t(data_.size()));
    }
    set_valid(true);
    return;
  }
  if (id_ == TypeId::kFixedSizeBinary) {
    if (int64_t(bytes.size()) != type_->byte_width) {
      throw_invalid("column '" + field_.name + "' takes " + std::to_string(type_->byte_width) +
                    " bytes, got " + std::to_string(bytes.size()));
    }
    values_.append(bytes.data(), bytes.size());
    set_valid(true);
    return;
  }
  if (id_ == TypeId::kDecimal128 || id_ == TypeId::kDecimal256) {
    append_decimal_text(bytes);
    return;
  }
  throw_invalid("column '" + field_.name + "' (" + type_->to_string() + ") does not take a string");
}

void ArrayBuilder::append_decimal(__int128 unscaled) {
  const int32_t precision = type_->precision;
  // Reject values with more digits than the column's precision.
  if (precision > 0 && precision < 39) {
    __int128 limit = 1;
    for (int32_t d = 0; d < precision; ++d) limit *= 10;
    if (unscaled >= limit || unscaled <= -limit) {
      throw_invalid("decimal value out of range for column '" + field_.name + "' (" + type_->to_string() +
                    ")");
    }
  }
  push<__int128>(values_, unscaled);
  if (id_ == TypeId::kDecimal256) {
    const __int128 sign = unscaled < 0 ? -1 : 0;
    push<__int128>(values_, sign);
  }
  set_valid(true);
}

void ArrayBuilder::append_decimal_text(std::string_view text) {
  const std::string original(text);
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  __int128 unscaled = 0;
  int32_t fraction_digits = -1;  // -1 until the decimal point
  bool any_digit = false;
  for (char c : text) {
    if (c == '.' && fraction_digits < 0) {
      fraction_digits = 0;
      continue;
    }
    if (c < '0' || c > '9') throw_invalid("'" + original + "' is not a decimal number");
    any_digit = true;
    if (fraction_digits >= 0) {
      if (fraction_digits == type_->scale) {
        if (c != '0')
          throw_invalid("'" + original + "' has more fractional digits than scale " +
                        std::to_string(type_->scale));
        continue;
      }
      ++fraction_digits;
    }
    if (unscaled > (std::numeric_limits<__int128>::max() - 9) / 10)
      throw_invalid("'" + original + "' is too large");
    unscaled = unscaled * 10 + (c - '0');
  }
  if (!any_digit) throw_invalid("'" + original + "' is not a decimal number");
  for (int32_t d = std::max(fraction_digits, 0); d < type_->scale; ++d) {
    if (unscaled > std::numeric_limits<__int128>::max() / 10)
      throw_invalid("'" + original + "' is too large");
    unscaled *= 10;
  }
  append_decimal(negative ? -unscaled : unscaled);
}

void ArrayBuilder::begin_list() {
  if (!is_list_like(id_))
    throw_invalid("column '" + field_.name + "' (" + type_->to_string() + ") is not a list");
  open_list_child_length_ = children_[0]->length();
}

void ArrayBuilder::end_list() {
  const int64_t end = children_[0]->length();
  if (large_offsets(id_)) {
    push<int64_t>(values_, end);
  } else {
    if (end > std::numeric_limits<int32_t>::max()) {
      children_[0]->truncate(open_list_child_length_);
      throw_invalid("column '" + field_.name + "': more than 2^31 list elements in one batch");
    }
    push<int32_t>(values_, int32_t(end));
  }
  set_valid(true);
}

void ArrayBuilder::append_struct_valid() {
  if (id_ != TypeId::kStruct) throw_invalid("column '" + field_.name + "' is not a struct");
  set_valid(true);
}

void ArrayBuilder::append(const Datum& value) {
  const int64_t before = length_;
  try {
    append_value(value);
  } catch (...) {
    truncate(before);
    throw;
  }
}

void ArrayBuilder::append_value(const Datum& value) {
  const auto& v = value.value;
  if (std::holds_alternative<std::monostate>(v)) return append_null();
  switch (id_) {
    case TypeId::kStruct: {
      const auto* fields = std::get_if<Datum::List>(&v);
      if (!fields || fields->size() != children_.size()) {
        throw_invalid("column '" + field_.name + "' is a struct of " + std::to_string(children_.size()) +
                      " fields; give a list of as many values");
      }
      for (size_t f = 0; f < children_.size(); ++f) children_[f]->append((*fields)[f]);
      set_valid(true);
      return;
    }
    case TypeId::kList:
    case TypeId::kLargeList: {
      const auto* items = std::get_if<Datum::List>(&v);
      if (!items) throw_invalid("column '" + field_.name + "' is a list; got a " + datum_kind(value));
      begin_list();
      for (const Datum& item : *items) children_[0]->append(item);
      end_list();
      return;
    }
    case TypeId::kMap: {
      const auto* entries = std::get_if<Datum::List>(&v);
      if (!entries) throw_invalid("column '" + field_.name + "' is a map; got a " + datum_kind(value));
      begin_list();
      ArrayBuilder& entry = *children_[0];
      for (const Datum& e : *entries) {
        const auto* pair = std::get_if<Datum::List>(&e.value);
        if (!pair || pair->size() != 2)
          throw_invalid("map column '" + field_.name + "' takes {key, value} pairs");
        if ((*pair)[0].is_null()) throw_invalid("map column '" + field_.name + "': null key");
        entry.child(0).append((*pair)[0]);
        entry.child(1).append((*pair)[1]);
        entry.append_struct_valid();
      }
      end_list();
      return;
    }
    default: break;
  }
  if (const auto* b = std::get_if<bool>(&v)) return append_bool(*b);
  if (const auto* i = std::get_if<int64_t>(&v)) return append_int(*i);
  if (const auto* u = std::get_if<uint64_t>(&v)) return append_uint(*u);
  if (const auto* d = std::get_if<double>(&v)) return append_double(*d);
  if (const auto* s = std::get_if<std::string>(&v)) return append_bytes(*s);
  throw_invalid("column '" + field_.name + "' (" + type_->to_string() + ") does not take a " +
                datum_kind(value));
}

void ArrayBuilder::truncate(int64_t length) {
  if (length >= length_) return;
  switch (id_) {
    case TypeId::kNull: break;
    case TypeId::kBool: values_.resize(size_t(bytes_for_bits(length))); break;
    case TypeId::kStruct:
      for (auto& child : children_) child->truncate(length);
      break;
    default:
      if (is_binary(id_) || is_list_like(id_)) {
        const int64_t end = large_offsets(id_) ? load<int64_t>(values_.data() + length * 8)
                                               : load<int32_t>(values_.data() + length * 4);
        if (is_binary(id_)) {
          data_.resize(size_t(end));
        } else {
          children_[0]->truncate(end);
        }
        values_.resize(size_t((length + 1) * (large_offsets(id_) ? 8 : 4)));
      } else {
        values_.resize(size_t(length * value_width()));
      }
  }
  if (id_ != TypeId::kNull) {
    validity_.resize(size_t(bytes_for_bits(length)));
    int64_t valid = 0;
    for (int64_t i = 0; i < length; ++i) valid += get_bit(validity_.data(), i);
    null_count_ = length - valid;
  } else {
    null_count_ = length;
  }
  length_ = length;
}

std::shared_ptr<ArrayData> ArrayBuilder::finish() {
  // Buffers of empty arrays still get an address: consumers index them at 0.
  validity_.reserve(8);
  values_.reserve(8);
  data_.reserve(8);
  auto array = std::make_shared<ArrayData>();
  array->type = type_;
  array->length = length_;
  array->null_count = null_count_;
  if (id_ != TypeId::kNull) {
    array->buffers.push_back(null_count_ > 0 ? BufferRef::adopt(std::move(validity_)) : BufferRef());
    if (id_ != TypeId::kStruct) array->buffers.push_back(BufferRef::adopt(std::move(values_)));
    if (is_binary(id_)) array->buffers.push_back(BufferRef::adopt(std::move(data_)));
  }
  for (auto& child : children_) array->children.push_back(child->finish());
  validity_ = Buffer();
  values_ = Buffer();
  data_ = Buffer();
  length_ = 0;
  null_count_ = 0;
  if (is_binary(id_) || is_list_like(id_)) {
    if (large_offsets(id_)) {
      push<int64_t>(values_, 0);
    } else {
      push<int32_t>(values_, 0);
    }
  }
  return array;
}

}  // namespace parquetry
