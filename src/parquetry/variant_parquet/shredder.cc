// VariantShredder: variants -> the Arrow arrays of a (shredded) VARIANT
// group. One ShredLevel per (value, typed_value) pair of the shredding; each keeps
// growable buffers and emits its struct array on finish().
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "parquetry/error.h"
#include "parquetry/util/buffer.h"
#include "parquetry/variant_parquet/shredding_internal.h"
#include "parquetry/variant_writer.h"
#include "parquetry/writer.h"

namespace parquetry {

namespace {

// A validity (or boolean) bitmap built one bit at a time.
class Bits {
 public:
  void push(bool bit) {
    if ((length_ & 7) == 0) bytes_.push_back(0);
    if (bit) {
      bytes_.back() |= uint8_t(1u << (length_ & 7));
    } else {
      ++zeros_;
    }
    ++length_;
  }
  int64_t length() const { return length_; }
  int64_t zeros() const { return zeros_; }
  BufferRef finish_values() {
    Buffer buffer(bytes_.size());
    if (!bytes_.empty()) std::memcpy(buffer.data(), bytes_.data(), bytes_.size());
    reset();
    return BufferRef::adopt(std::move(buffer));
  }
  // A validity buffer (null when every bit is set) and its null count.
  BufferRef finish_validity(int64_t& null_count) {
    null_count = zeros_;
    if (zeros_ == 0) {
      reset();
      return {};
    }
    return finish_values();
  }

 private:
  void reset() {
    bytes_.clear();
    length_ = 0;
    zeros_ = 0;
  }
  std::vector<uint8_t> bytes_;
  int64_t length_ = 0;
  int64_t zeros_ = 0;
};

// int32 offsets + bytes of a binary/string array (validity kept by the caller).
class Binaries {
 public:
  Binaries() { offsets_.push_back(0); }
  void push(const void* data, size_t n) {
    if (data_.size() + n > size_t(std::numeric_limits<int32_t>::max())) {
      throw_invalid(
          "variant shredder: more than 2 GiB of binary data in one batch; call finish() more often");
    }
    data_.append(data, n);
    offsets_.push_back(int32_t(data_.size()));
  }
  void push_empty() { offsets_.push_back(int32_t(data_.size())); }
  void finish(ArrayData& out) {
    Buffer offsets(offsets_.size() * sizeof(int32_t));
    std::memcpy(offsets.data(), offsets_.data(), offsets.size());
    out.buffers.push_back(BufferRef::adopt(std::move(offsets)));
    out.buffers.push_back(BufferRef::adopt(std::move(data_)));
    data_ = Buffer();
    offsets_.assign(1, 0);
  }

 private:
  std::vector<int32_t> offsets_;
  Buffer data_;
};

std::shared_ptr<ArrayData> new_array(const DataType& type, int64_t length) {
  auto out = std::make_shared<ArrayData>();
  out->type = std::make_shared<DataType>(type);
  out->length = length;
  return out;
}

int byte_width_for(uint64_t max_value) {
  return max_value <= 0xFF ? 1 : max_value <= 0xFFFF ? 2 : max_value <= 0xFFFFFF ? 3 : 4;
}

void put_le(std::string& out, uint64_t value, int width) {
  for (int i = 0; i < width; ++i) out.push_back(char((value >> (8 * i)) & 0xFF));
}

bool fits_precision(__int128 unscaled, int32_t precision) {
  __int128 limit = 1;
  for (int32_t i = 0; i < precision; ++i) limit *= 10;
  return unscaled < limit && unscaled > -limit;
}

}  // namespace

namespace variant_parquet {

struct ShredLevel {
  const VariantShredding& s;
  Bits value_valid;
  Binaries value;
  Bits typed_valid;
  Bits typed_bits;                                          // boolean typed_value
  Buffer typed_fixed;                                       // fixed-width typed_value
  Binaries typed_binary;                                    // string / binary typed_value
  std::vector<std::unique_ptr<ShredLevel>> fields;          // object: in s.fields order
  std::vector<std::pair<std::string_view, size_t>> by_key;  // object: sorted keys -> field index
  std::vector<int32_t> list_offsets{0};                     // array
  std::unique_ptr<ShredLevel> element;                      // array
  int64_t length = 0;
  std::string residual;                   // scratch
  std::vector<uint32_t> residual_fields;  // scratch
  std::vector<uint8_t> field_seen;        // scratch

  explicit ShredLevel(const VariantShredding& shredding) : s(shredding) {
    if (s.kind == VariantShredding::Kind::kObject) {
      for (const auto& [key, child] : s.fields) {
        by_key.emplace_back(key, fields.size());
        fields.push_back(std::make_unique<ShredLevel>(child));
      }
      std::sort(by_key.begin(), by_key.end());
      field_seen.resize(fields.size());
    } else if (s.kind == VariantShredding::Kind::kArray) {
      element = std::make_unique<ShredLevel>(s.element());
    }
  }

  void push_value(std::span<const uint8_t> bytes) {
    value_valid.push(true);
    value.push(bytes.data(), bytes.size());
  }
  void push_no_value() {
    value_valid.push(false);
    value.push_empty();
  }

  // typed_value null at this row (children of a struct/list keep their lengths).
  void push_no_typed() {
    if (s.kind == VariantShredding::Kind::kNone) return;
    typed_valid.push(false);
    switch (s.kind) {
      case VariantShredding::Kind::kPrimitive: push_typed_placeholder(); break;
      case VariantShredding::Kind::kObject:
        for (auto& f : fields) f->append_missing();
        break;
      case VariantShredding::Kind::kArray: list_offsets.push_back(list_offsets.back()); break;
      case VariantShredding::Kind::kNone: break;
    }
  }

  void push_typed_placeholder() {
    switch (s.type) {
      case VariantValueType::kBoolean: typed_bits.push(false); break;
      case VariantValueType::kString:
      case VariantValueType::kBinary: typed_binary.push_empty(); break;
      default: {
        const size_t width = fixed_width();
        const size_t old = typed_fixed.size();
        typed_fixed.resize(old + width);
        std::memset(typed_fixed.data() + old, 0, width);
      }
    }
  }

  size_t fixed_width() const {
    switch (s.type) {
      case VariantValueType::kInt8: return 1;
      case VariantValueType::kInt16: return 2;
      case VariantValueType::kInt32:
      case VariantValueType::kDate:
      case VariantValueType::kFloat: return 4;
      case VariantValueType::kDecimal4:
      case VariantValueType::kDecimal8:
      case VariantValueType::kDecimal16:
      case VariantValueType::kUuid: return 16;
      default: return 8;
    }
  }

  /// Both null: a missing object field, or (top level) the row of a SQL NULL group.
  void append_missing() {
    push_no_value();
    push_no_typed();
    ++length;
  }

  void append(const Variant& v) {
    ++length;
    switch (s.kind) {
      case VariantShredding::Kind::kNone: break;
      case VariantShredding::Kind::kPrimitive:
        if (append_primitive(v)) {
          push_no_value();
          return;
        }
        break;
      case VariantShredding::Kind::kObject:
        if (v.is_object()) {
          append_object(v);
          return;
        }
        break;
      case VariantShredding::Kind::kArray:
        if (v.is_array()) {
          typed_valid.push(true);
          const VariantArray items = v.get_array();
          for (const Variant item : items) element->append(item);
          list_offsets.push_back(int32_t(element->length));
          push_no_value();
          return;
        }
        break;
    }
    push_value(v.encoded_bytes());
    push_no_typed();
  }

  // Writes v to typed_value when its type is exactly the level's; false otherwise.
  bool append_primitive(const Variant& v) {
    const VariantValueType type = v.type();
    if (type != s.type) return false;
    auto put = [&](const void* bytes, size_t n) { typed_fixed.append(bytes, n); };
    switch (type) {
      case VariantValueType::kBoolean: typed_bits.push(v.get_boolean()); break;
      case VariantValueType::kInt8: {
        const int8_t x = v.get_int8();
        put(&x, 1);
        break;
      }
      case VariantValueType::kInt16: {
        const int16_t x = v.get_int16();
        put(&x, 2);
        break;
      }
      case VariantValueType::kInt32: {
        const int32_t x = v.get_int32();
        put(&x, 4);
        break;
      }
      case VariantValueType::kInt64: {
        const int64_t x = v.get_int64();
        put(&x, 8);
        break;
      }
      case VariantValueType::kDouble: {
        const double x = v.get_double();
        put(&x, 8);
        break;
      }
      case VariantValueType::kFloat: {
        const float x = v.get_float();
        put(&x, 4);
        break;
      }
      case VariantValueType::kDecimal4:
      case VariantValueType::kDecimal8:
      case VariantValueType::kDecimal16: {
        const VariantDecimal d = v.get_decimal();
        if (int32_t(d.scale) != s.scale ||
            !fits_precision(d.unscaled, variant_parquet::decimal_precision(type))) {
          return false;
        }
        put(&d.unscaled, 16);  // decimal128: 16 bytes little-endian two's complement
        break;
      }
      case VariantValueType::kDate: {
        const int32_t x = v.get_date();
        put(&x, 4);
        break;
      }
      case VariantValueType::kTimestampMicros: {
        const int64_t x = v.get_timestamp_micros();
        put(&x, 8);
        break;
      }
      case VariantValueType::kTimestampNtzMicros: {
        const int64_t x = v.get_timestamp_ntz_micros();
        put(&x, 8);
        break;
      }
      case VariantValueType::kTimestampNanos: {
        const int64_t x = v.get_timestamp_nanos();
        put(&x, 8);
        break;
      }
      case VariantValueType::kTimestampNtzNanos: {
        const int64_t x = v.get_timestamp_ntz_nanos();
        put(&x, 8);
        break;
      }
      case VariantValueType::kTimeNtzMicros: {
        const int64_t x = v.get_time_ntz_micros();
        put(&x, 8);
        break;
      }
      case VariantValueType::kString: {
        const std::string_view x = v.get_string();
        typed_binary.push(x.data(), x.size());
        break;
      }
      case VariantValueType::kBinary: {
        const auto x = v.get_binary();
        typed_binary.push(x.data(), x.size());
        break;
      }
      case VariantValueType::kUuid: put(v.get_uuid().data(), 16); break;
      default: return false;
    }
    typed_valid.push(true);
    return true;
  }

  void append_object(const Variant& v) {
    typed_valid.push(true);
    const VariantObject object = v.get_object();
    std::fill(field_seen.begin(), field_seen.end(), 0);
    residual_fields.clear();
    for (uint32_t i = 0; i < object.size(); ++i) {
      const std::string_view key = object.key(i);
      auto it = std::lower_bound(by_key.begin(), by_key.end(), key,
                                 [](const auto& entry, std::string_view k) { return entry.first < k; });
      if (it != by_key.end() && it->first == key) {
        fields[it->second]->append(object.value(i));
        field_seen[it->second] = 1;
      } else {
        residual_fields.push_back(i);
      }
    }
    for (size_t f = 0; f < fields.size(); ++f) {
      if (!field_seen[f]) fields[f]->append_missing();
    }
    if (residual_fields.empty()) {
      push_no_value();
      return;
    }
    encode_residual(object);
    push_value({reinterpret_cast<const uint8_t*>(residual.data()), residual.size()});
  }

  // The object made of the unshredded fields only: ids and child bytes copied
  // (they index the row's metadata), tables rebuilt at minimal widths. The
  // object's own field order is key order, so the subset stays sorted.
  void encode_residual(const VariantObject& object) {
    uint32_t max_id = 0;
    uint64_t data_size = 0;
    for (uint32_t i : residual_fields) {
      max_id = std::max(max_id, object.field_id(i));
      data_size += object.value(i).encoded_size();
    }
    const size_t n = residual_fields.size();
    const int id_size = byte_width_for(max_id);
    const int offset_size = byte_width_for(data_size);
    const bool is_large = n > 255;
    residual.clear();
    residual.push_back(char(2 | ((offset_size - 1) << 2) | ((id_size - 1) << 4) | (is_large ? 1 << 6 : 0)));
    put_le(residual, n, is_large ? 4 : 1);
    for (uint32_t i : residual_fields) put_le(residual, object.field_id(i), id_size);
    uint64_t offset = 0;
    for (uint32_t i : residual_fields) {
      put_le(residual, offset, offset_size);
      offset += object.value(i).encoded_size();
    }
    put_le(residual, offset, offset_size);
    for (uint32_t i : residual_fields) {
      const auto bytes = object.value(i).encoded_bytes();
      residual.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
  }

  std::shared_ptr<ArrayData> finish_typed(const DataType& type) {
    auto out = new_array(type, length);
    out->buffers.push_back(typed_valid.finish_validity(out->null_count));
    switch (s.kind) {
      case VariantShredding::Kind::kPrimitive:
        if (s.type == VariantValueType::kBoolean) {
          out->buffers.push_back(typed_bits.finish_values());
        } else if (s.type == VariantValueType::kString || s.type == VariantValueType::kBinary) {
          typed_binary.finish(*out);
        } else {
          out->buffers.push_back(BufferRef::adopt(std::move(typed_fixed)));
          typed_fixed = Buffer();
        }
        break;
      case VariantShredding::Kind::kObject:
        for (size_t f = 0; f < fields.size(); ++f) {
          out->children.push_back(fields[f]->finish_level(type.children[f].type));
        }
        break;
      case VariantShredding::Kind::kArray: {
        Buffer offsets(list_offsets.size() * sizeof(int32_t));
        std::memcpy(offsets.data(), list_offsets.data(), offsets.size());
        out->buffers.push_back(BufferRef::adopt(std::move(offsets)));
        list_offsets.assign(1, 0);
        out->children.push_back(element->finish_level(type.children[0].type));
        break;
      }
      case VariantShredding::Kind::kNone: break;
    }
    return out;
  }

  std::shared_ptr<ArrayData> finish_value() {
    auto out = new_array(DataType::make(TypeId::kBinary), length);
    out->buffers.push_back(value_valid.finish_validity(out->null_count));
    value.finish(*out);
    return out;
  }

  // struct<value, typed_value?> of a nested level (never null itself).
  std::shared_ptr<ArrayData> finish_level(const DataType& type) {
    auto out = new_array(type, length);
    out->buffers.emplace_back();
    out->children.push_back(finish_value());
    if (s.kind != VariantShredding::Kind::kNone) out->children.push_back(finish_typed(type.children[1].type));
    length = 0;
    return out;
  }
};

}  // namespace variant_parquet

struct VariantShredder::State {
  explicit State(const VariantShredding& shredding) : root(shredding) {}
  variant_parquet::ShredLevel root;
  Bits valid;  // the group itself: SQL NULL rows are null
  Binaries metadata;
};

VariantShredder::VariantShredder(VariantShredding shredding)
    : shredding_(std::move(shredding)), type_(variant_arrow_type(shredding_)) {
  state_ = std::make_unique<State>(shredding_);
}

VariantShredder::~VariantShredder() = default;

void VariantShredder::append(const Variant& value) {
  value.validate();
  State& state = *state_;
  const auto metadata = value.metadata().bytes();
  state.metadata.push(metadata.data(), metadata.size());
  state.valid.push(true);
  state.root.append(value);
}

void VariantShredder::append_null() {
  State& state = *state_;
  state.metadata.push_empty();
  state.valid.push(false);
  if (shredding_.kind == VariantShredding::Kind::kNone) {
    // A required `value` has no nulls of its own: an empty slot under the null group.
    state.root.push_value({});
    ++state.root.length;
  } else {
    state.root.append_missing();
  }
}

int64_t VariantShredder::length() const { return state_->valid.length(); }

std::shared_ptr<ArrayData> VariantShredder::finish() {
  State& state = *state_;
  auto out = new_array(type_, state.valid.length());
  out->buffers.push_back(state.valid.finish_validity(out->null_count));
  auto metadata = new_array(DataType::make(TypeId::kBinary), out->length);
  metadata->buffers.emplace_back();
  state.metadata.finish(*metadata);
  out->children.push_back(std::move(metadata));
  out->children.push_back(state.root.finish_value());
  if (shredding_.kind != VariantShredding::Kind::kNone) {
    out->children.push_back(state.root.finish_typed(type_.children[2].type));
  }
  state.root.length = 0;
  return out;
}

void write_variant_file(const std::string& path, const std::string& column,
                        std::span<const std::optional<Variant>> rows, const VariantShredding& shredding,
                        const WriterOptions& options, int64_t batch_rows) {
  VariantShredder shredder(shredding);
  auto schema = std::make_shared<BatchSchema>();
  schema->fields.push_back(Field{column, shredder.type(), true, -1, {}});
  auto writer = FileWriter::open(path, *schema, options);
  const size_t step = size_t(std::max<int64_t>(batch_rows, 1));
  for (size_t begin = 0; begin < rows.size(); begin += step) {
    const size_t end = std::min(rows.size(), begin + step);
    for (size_t i = begin; i < end; ++i) {
      if (rows[i]) {
        shredder.append(*rows[i]);
      } else {
        shredder.append_null();
      }
    }
    RecordBatch batch;
    batch.schema = schema;
    batch.num_rows = int64_t(end - begin);
    batch.columns.push_back(shredder.finish());
    writer->write(batch);
  }
  writer->close();
}

}  // namespace parquetry
