// The out-of-line half of proto::Column: nulls, growth and cutting a batch.
#include <algorithm>

#include "parquetry/error.h"
#include "parquetry/proto_columns.h"

namespace parquetry::proto {
namespace {

// Bytes per value of a fixed-width kind (0 for bool, binary and groups).
size_t width_of(ValueKind kind) {
  switch (kind) {
    case ValueKind::kInt32:
    case ValueKind::kUInt32:
    case ValueKind::kFloat:
    case ValueKind::kEnumNumber:
    case ValueKind::kDate: return 4;
    case ValueKind::kInt64:
    case ValueKind::kUInt64:
    case ValueKind::kDouble:
    case ValueKind::kTimestamp:
    case ValueKind::kTimeOfDay: return 8;
    default: return 0;
  }
}

bool is_binary(ValueKind kind) {
  return kind == ValueKind::kString || kind == ValueKind::kBytes || kind == ValueKind::kEnumName ||
         kind == ValueKind::kSerialized;
}

}  // namespace

void Column::grow(Buffer& buffer, size_t used, size_t extra) {
  // Buffer::reserve keeps size() bytes: expose what is in use before growing.
  buffer.resize(used);
  buffer.reserve(std::max({buffer.capacity() * 2, used + extra, size_t(4096)}));
}

void Column::first_offset() {
  if (offsets_.capacity() < 4) grow(offsets_, 0, 4);
  const int32_t zero = 0;
  std::memcpy(offsets_.data(), &zero, 4);
  offsets_used_ = 4;
}

void Column::ensure_bits(int64_t bits) {
  const size_t bytes = size_t((bits + 7) >> 3);
  if (bytes <= used_) return;
  if (bytes > data_.capacity()) grow(data_, used_, bytes - used_);
  std::memset(data_.data() + used_, 0, bytes - used_);
  used_ = bytes;
}

void Column::set_validity(bool bit) {
  const size_t bytes = size_t((length_ >> 3) + 1);
  if (bytes > validity_.capacity()) {
    const size_t old = validity_.capacity();
    validity_.resize(old);
    validity_.reserve(std::max(old * 2, bytes + 64));
    std::memset(validity_.data() + old, 0, validity_.capacity() - old);
  }
  uint8_t& byte = validity_.data()[length_ >> 3];
  const uint8_t mask = uint8_t(1u << (length_ & 7));
  byte = bit ? uint8_t(byte | mask) : uint8_t(byte & ~mask);
}

void Column::null() {
  if (validity_.capacity() == 0) {
    // First null of the batch: every earlier row was valid.
    validity_.reserve(size_t(length_ >> 3) + 64);
    std::memset(validity_.data(), 0, validity_.capacity());
    std::memset(validity_.data(), 0xFF, size_t(length_ >> 3));
    for (int64_t i = length_ & ~int64_t(7); i < length_; ++i) {
      validity_.data()[i >> 3] |= uint8_t(1u << (i & 7));
    }
  }
  set_validity(false);
  ++null_count_;
  ++length_;
}

void Column::append_placeholder() {
  if (shape != Shape::kSingle) {
    push_offset(int32_t(children[0].length()));
    valid();
    return;
  }
  if (kind == ValueKind::kMessage) {
    for (Column& child : children) child.append_placeholder();
    valid();
  } else if (kind == ValueKind::kBool) {
    append_bool(false);
  } else if (is_binary(kind)) {
    append_bytes({});
  } else {
    const uint64_t zero = 0;
    if (used_ + 8 > data_.capacity()) grow(data_, used_, 8);
    std::memcpy(data_.data() + used_, &zero, 8);
    used_ += width_of(kind);
    valid();
  }
}

void Column::append_null() {
  if (shape != Shape::kSingle) {
    push_offset(int32_t(children[0].length()));
  } else if (kind == ValueKind::kMessage) {
    for (Column& child : children) child.append_placeholder();
  } else if (kind == ValueKind::kBool) {
    ensure_bits(length_ + 1);
  } else if (is_binary(kind)) {
    push_offset(int32_t(used_));
  } else {
    const uint64_t zero = 0;
    if (used_ + 8 > data_.capacity()) grow(data_, used_, 8);
    std::memcpy(data_.data() + used_, &zero, 8);
    used_ += width_of(kind);
  }
  null();
}

BufferRef Column::hand_out(Buffer& filled, std::shared_ptr<Buffer>& shared, size_t hint) {
  // The previous batch's buffer comes back once the writer has let go of it
  // (FileWriter keeps nothing of a batch): its pages are already mapped, so
  // the next batch fills it without page faults or a fresh allocation.
  std::shared_ptr<Buffer> out = shared.use_count() == 1 ? std::move(shared) : std::make_shared<Buffer>();
  std::swap(*out, filled);  // `filled` now holds the recycled capacity, if any
  filled.clear();
  if (filled.capacity() < hint) filled.reserve(hint);
  shared = out;
  return BufferRef::share(std::move(out));
}

std::shared_ptr<ArrayData> Column::take(const DataType& type) {
  auto out = std::make_shared<ArrayData>();
  out->type = std::make_shared<const DataType>(type);
  out->length = length_;
  out->null_count = null_count_;
  if (validity_.capacity() != 0) {
    validity_.resize(size_t((length_ + 7) >> 3));
    out->buffers.push_back(BufferRef::adopt(std::move(validity_)));
    validity_ = Buffer();
  } else {
    out->buffers.emplace_back();
  }
  auto take_offsets = [&] {
    if (offsets_used_ == 0) first_offset();
    offsets_.resize(offsets_used_);
    const size_t hint = offsets_used_;
    out->buffers.push_back(hand_out(offsets_, spare_offsets_, hint));
    offsets_used_ = 0;
  };
  auto take_data = [&] {
    // Never hand out a null data buffer, even for a batch of empty strings:
    // consumers may pass its pointer to memcmp/memcpy.
    if (data_.capacity() == 0) data_.reserve(64);
    data_.resize(used_);
    const size_t hint = used_;
    out->buffers.push_back(hand_out(data_, spare_data_, hint));
    used_ = 0;
  };
  if (shape == Shape::kList) {
    take_offsets();
    if (type.children.size() != 1) throw Error(ErrorCode::kInternal, "list column without an item type");
    out->children.push_back(children[0].take(type.children[0].type));
  } else if (shape == Shape::kMap) {
    take_offsets();
    // kMap (3-level) and list<struct> (legacy) both hold one struct of key and value.
    if (type.children.size() != 1 || type.children[0].type.children.size() != 2) {
      throw Error(ErrorCode::kInternal, "map column without an entries type");
    }
    const DataType& entries_type = type.children[0].type;
    auto entries = std::make_shared<ArrayData>();
    entries->type = std::make_shared<const DataType>(entries_type);
    entries->length = children[0].length();
    entries->buffers.emplace_back();
    entries->children.push_back(children[0].take(entries_type.children[0].type));
    entries->children.push_back(children[1].take(entries_type.children[1].type));
    out->children.push_back(std::move(entries));
  } else if (kind == ValueKind::kMessage) {
    if (type.children.size() != children.size()) {
      throw Error(ErrorCode::kInternal, "message column and struct type disagree");
    }
    for (size_t i = 0; i < children.size(); ++i)
      out->children.push_back(children[i].take(type.children[i].type));
  } else if (is_binary(kind)) {
    take_offsets();
    take_data();
  } else {
    if (kind == ValueKind::kBool) ensure_bits(length_);
    take_data();
  }
  length_ = 0;
  null_count_ = 0;
  last_offset_ = 0;
  return out;
}

}  // namespace parquetry::proto
