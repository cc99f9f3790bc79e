// The Parquet file metadata structures (parquet-format's parquet.thrift,
// 2.11 and later) as plain C++ structs, plus the codec that reads and writes
// them in the Thrift compact protocol.
//
// Conventions:
// - Field names follow parquet.thrift in snake_case; every struct carries a
//   comment naming its Thrift counterpart when the names differ.
// - A Thrift `required` field is a plain member. A Thrift `optional` scalar or
//   struct is a std::optional. An optional *list* is a plain std::vector where
//   "empty" means "absent" (an empty optional list carries no information and
//   the encoder omits it), which saves a flag per list.
// - Enumerations use include/parquetry/types.h. Values are stored exactly as
//   read: an enum may hold a number newer than this code knows (a future
//   encoding, say). The layer that interprets a value rejects unknown ones;
//   the codec keeps them so that metadata round-trips unchanged.
// - Thrift unions of empty structs (TimeUnit, ColumnOrder, the Bloom filter
//   unions) are enums whose values are the union field ids; unions with data
//   (LogicalType, EncryptionAlgorithm, ColumnCryptoMetaData) are std::variant.
// - Every struct compares with a defaulted operator==.
//
// Decoding enforces parquetry::Limits (string, container, nesting and footer
// sizes); every failure is a parquetry::Error naming the byte offset within
// the decoded buffer.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "parquetry/export.h"
#include "parquetry/large_block.h"
#include "parquetry/limits.h"
#include "parquetry/types.h"
#include "parquetry/util/buffer.h"

namespace parquetry {

class RandomAccessSource;
class Sink;

// ---------------------------------------------------------------------------
// InlineVector: the short lists of every column chunk (encodings, page
// encoding stats) without a heap allocation each. A wide footer holds
// millions of them; std::vector would cost a malloc/free pair per list.

/// A vector of trivially copyable T that keeps up to N elements inline and
/// moves to the heap beyond that. The subset of std::vector's interface the
/// metadata code needs; compares element-wise.
template <typename T, size_t N>
class InlineVector {
  static_assert(std::is_trivially_copyable_v<T>, "InlineVector holds trivially copyable types only");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  InlineVector() = default;
  InlineVector(std::initializer_list<T> values) { assign(values.begin(), values.size()); }
  /// Implicit from std::vector so writers can build lists with the standard container.
  InlineVector(const std::vector<T>& values) { assign(values.data(), values.size()); }
  InlineVector& operator=(const std::vector<T>& values) {
    clear();
    assign(values.data(), values.size());
    return *this;
  }
  InlineVector& operator=(std::initializer_list<T> values) {
    clear();
    assign(values.begin(), values.size());
    return *this;
  }
  std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }
  InlineVector(const InlineVector& other) { assign(other.data(), other.size_); }
  InlineVector(InlineVector&& other) noexcept { steal(other); }
  InlineVector& operator=(const InlineVector& other) {
    if (this != &other) {
      clear();
      assign(other.data(), other.size_);
    }
    return *this;
  }
  InlineVector& operator=(InlineVector&& other) noexcept {
    if (this != &other) {
      release();
      steal(other);
    }
    return *this;
  }
  ~InlineVector() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  T* data() { return on_heap() ? heap_ : reinterpret_cast<T*>(inline_); }
  const T* data() const { return on_heap() ? heap_ : reinterpret_cast<const T*>(inline_); }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  void clear() { size_ = 0; }
  void reserve(size_t n) {
    if (n > capacity_) grow(n);
  }
  void push_back(const T& value) {
    if (size_ == capacity_) grow(capacity_ * 2);
    std::memcpy(static_cast<void*>(data() + size_), &value, sizeof(T));
    ++size_;
  }
  T& emplace_back() {
    push_back(T{});
    return back();
  }

  friend bool operator==(const InlineVector& a, const InlineVector& b) {
    if (a.size_ != b.size_) return false;
    for (size_t i = 0; i < a.size_; ++i) {
      if (!(a[i] == b[i])) return false;
    }
    return true;
  }

 private:
  bool on_heap() const { return capacity_ > N; }
  void assign(const T* values, size_t n) {
    reserve(n);
    if (n != 0) std::memcpy(static_cast<void*>(data()), values, n * sizeof(T));
    size_ = static_cast<uint32_t>(n);
  }
  void grow(size_t wanted) {
    T* fresh = static_cast<T*>(::operator new(wanted * sizeof(T)));
    if (size_ != 0) std::memcpy(static_cast<void*>(fresh), data(), size_ * sizeof(T));
    release();
    heap_ = fresh;
    capacity_ = static_cast<uint32_t>(wanted);
  }
  void release() {
    if (on_heap()) ::operator delete(heap_);
    capacity_ = N;
  }
  void steal(InlineVector& other) {
    size_ = other.size_;
    capacity_ = other.capacity_;
    if (other.on_heap()) {
      heap_ = other.heap_;
    } else {
      std::memcpy(inline_, other.inline_, sizeof inline_);
    }
    other.size_ = 0;
    other.capacity_ = N;
  }

  uint32_t size_ = 0;
  uint32_t capacity_ = N;
  union {
    alignas(T) unsigned char inline_[N * sizeof(T)];
    T* heap_;
  };
};

namespace detail {
/// Copies up to 24 bytes with a few fixed-size (overlapping) moves
/// instead of a memcpy call; all loads happen before the stores, so the
/// ranges may overlap.
inline void copy_small(char* to, const char* from, size_t size) {
  if (size >= 8) {
    if (size > 16) {
      char head[16], tail[8];
      std::memcpy(head, from, 16);
      std::memcpy(tail, from + size - 8, 8);
      std::memcpy(to, head, 16);
      std::memcpy(to + size - 8, tail, 8);
    } else {
      uint64_t head, tail;
      std::memcpy(&head, from, 8);
      std::memcpy(&tail, from + size - 8, 8);
      std::memcpy(to, &head, 8);
      std::memcpy(to + size - 8, &tail, 8);
    }
  } else if (size >= 4) {
    uint32_t head, tail;
    std::memcpy(&head, from, 4);
    std::memcpy(&tail, from + size - 4, 4);
    std::memcpy(to, &head, 4);
    std::memcpy(to + size - 4, &tail, 4);
  } else if (size != 0) {
    char first = from[0], middle = from[size / 2], last = from[size - 1];
    to[0] = first;
    to[size / 2] = middle;
    to[size - 1] = last;
  }
}
}  // namespace detail

// ---------------------------------------------------------------------------
// OptionalBytes: an optional byte string (Statistics min/max) that keeps up to
// 20 bytes inline. Statistics sit in every column chunk of a footer; with
// std::optional<std::string> (40 bytes each) four of them made a chunk 64
// bytes larger, and a wide footer is mostly page faults on fresh memory.

/// std::optional<std::string>'s interface for reading, except that the value
/// is a std::string_view (valid while the object lives and is unchanged).
/// Values of up to kInlineBytes live inline; longer ones on the heap.
class PARQUETRY_API OptionalBytes {
 public:
  static constexpr size_t kInlineBytes = 20;

  OptionalBytes() = default;
  OptionalBytes(std::nullopt_t) {}
  OptionalBytes(std::string_view value) { assign(value.data(), value.size()); }
  OptionalBytes(const std::string& value) { assign(value.data(), value.size()); }
  OptionalBytes(const char* value) { assign(value, std::strlen(value)); }
  OptionalBytes(const std::optional<std::string>& value) {
    if (value) assign(value->data(), value->size());
  }
  OptionalBytes(const OptionalBytes& other) {
    if (other.has_value()) assign(other.data(), other.size());
  }
  OptionalBytes(OptionalBytes&& other) noexcept { steal(other); }
  OptionalBytes& operator=(const OptionalBytes& other) {
    if (this != &other) {
      if (other.has_value()) {
        assign(other.data(), other.size());
      } else {
        reset();
      }
    }
    return *this;
  }
  OptionalBytes& operator=(OptionalBytes&& other) noexcept {
    if (this != &other) {
      reset();
      steal(other);
    }
    return *this;
  }
  OptionalBytes& operator=(std::nullopt_t) {
    reset();
    return *this;
  }
  OptionalBytes& operator=(std::string_view value) {
    assign(value.data(), value.size());
    return *this;
  }
  OptionalBytes& operator=(const std::string& value) { return *this = std::string_view(value); }
  OptionalBytes& operator=(const char* value) { return *this = std::string_view(value); }
  ~OptionalBytes() { release(); }

  bool has_value() const { return (meta_ & kPresent) != 0; }
  explicit operator bool() const { return has_value(); }
  std::string_view operator*() const { return std::string_view(data(), size()); }
  std::string_view value() const {
    if (!has_value()) throw std::bad_optional_access();
    return **this;
  }
  /// The value as an owning string (nullopt when absent).
  std::optional<std::string> to_optional() const {
    if (!has_value()) return std::nullopt;
    return std::string(data(), size());
  }
  /// For `bytes->size()` and the like: a pointer-like holder of the view.
  struct Arrow {
    std::string_view view;
    const std::string_view* operator->() const { return &view; }
  };
  Arrow operator->() const { return Arrow{**this}; }

  /// Sets the value to a copy of `size` bytes at `bytes` (which may point
  /// into this value).
  [[gnu::always_inline]] void assign(const char* bytes, size_t size) {
    if (size <= kInlineBytes && !on_heap()) [[likely]] {
      detail::copy_small(storage_, bytes, size);
      meta_ = kPresent | static_cast<uint32_t>(size);
      return;
    }
    assign_slow(bytes, size);
  }
  [[gnu::always_inline]] void emplace(const char* bytes, size_t size) { assign(bytes, size); }
  void reset() {
    release();
    meta_ = 0;
  }

  friend bool operator==(const OptionalBytes& a, const OptionalBytes& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a.has_value() || *a == *b;
  }

 private:
  static constexpr uint32_t kPresent = 0x80000000u;
  static constexpr size_t kMaxSize = 0x7fffffffu;

  [[gnu::noinline]] void assign_slow(const char* bytes, size_t size) {
    if (size > kMaxSize) throw std::length_error("OptionalBytes value too large");
    if (size <= kInlineBytes) {
      char* old = on_heap() ? heap() : nullptr;  // `bytes` may point into it
      detail::copy_small(storage_, bytes, size);
      ::operator delete(old);
    } else if (on_heap() && size <= this->size()) {
      std::memmove(heap(), bytes, size);  // the block is large enough
    } else {
      char* fresh = static_cast<char*>(::operator new(size));
      std::memcpy(fresh, bytes, size);
      release();
      set_heap(fresh);
    }
    meta_ = kPresent | static_cast<uint32_t>(size);
  }

  size_t size() const { return meta_ & ~kPresent; }
  bool on_heap() const { return size() > kInlineBytes; }
  const char* data() const { return on_heap() ? heap() : storage_; }
  void release() {
    if (on_heap()) ::operator delete(heap());
    meta_ &= kPresent;  // size 0: inline
  }
  void steal(OptionalBytes& other) {
    std::memcpy(static_cast<void*>(this), static_cast<const void*>(&other), sizeof(OptionalBytes));
    other.meta_ = 0;
  }

  // The heap pointer, when the value is longer than kInlineBytes, is kept in
  // the first bytes of storage_ (a union with a pointer would pad the class
  // to 32 bytes).
  char* heap() const {
    char* p;
    std::memcpy(&p, storage_, sizeof p);
    return p;
  }
  void set_heap(char* p) { std::memcpy(storage_, &p, sizeof p); }

  alignas(8) char storage_[kInlineBytes];
  uint32_t meta_ = 0;  ///< kPresent | size
};

// ---------------------------------------------------------------------------
// StringList: a short list of short strings (ColumnMetaData.path_in_schema)
// packed into one block, inline when small. A wide footer has one per chunk;
// std::vector<std::string> cost a malloc/free pair (and 24 + 32 bytes) each.

/// A read-mostly list of strings stored back to back, each behind a 1-byte
/// length (or 0xFF and a 4-byte length when 255 or longer). Elements read as
/// std::string_view; indexing walks the list, which is meant to be short.
/// Converts from and compares with std::vector<std::string>.
class PARQUETRY_API StringList {
 public:
  static constexpr size_t kInlineBytes = 20;

  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    using pointer = const std::string_view*;
    using reference = std::string_view;

    const_iterator() = default;
    explicit const_iterator(const char* at) : at_(at) {}
    std::string_view operator*() const {
      size_t header;
      size_t n = StringList::read_length(at_, header);
      return std::string_view(at_ + header, n);
    }
    const_iterator& operator++() {
      size_t header;
      size_t n = StringList::read_length(at_, header);
      at_ += header + n;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const const_iterator& other) const { return at_ == other.at_; }

   private:
    const char* at_ = nullptr;
  };
  using iterator = const_iterator;
  using value_type = std::string_view;

  StringList() = default;
  StringList(std::initializer_list<std::string_view> values) {
    for (std::string_view v : values) push_back(v);
  }
  StringList(const std::vector<std::string>& values) {
    for (const std::string& v : values) push_back(v);
  }
  StringList& operator=(const std::vector<std::string>& values) {
    clear();
    for (const std::string& v : values) push_back(v);
    return *this;
  }
  StringList& operator=(std::initializer_list<std::string_view> values) {
    clear();
    for (std::string_view v : values) push_back(v);
    return *this;
  }
  StringList(const StringList& other) { append_bytes(other.bytes(), other.used_, other.size_); }
  StringList(StringList&& other) noexcept { steal(other); }
  StringList& operator=(const StringList& other) {
    if (this != &other) {
      clear();
      append_bytes(other.bytes(), other.used_, other.size_);
    }
    return *this;
  }
  StringList& operator=(StringList&& other) noexcept {
    if (this != &other) {
      release();
      steal(other);
    }
    return *this;
  }
  ~StringList() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const_iterator begin() const { return const_iterator(bytes()); }
  const_iterator end() const { return const_iterator(bytes() + used_); }
  std::string_view operator[](size_t i) const {
    const_iterator it = begin();
    while (i-- != 0) ++it;
    return *it;
  }
  std::string_view front() const { return *begin(); }
  std::string_view back() const { return (*this)[size_ - 1]; }
  std::vector<std::string> to_vector() const { return std::vector<std::string>(begin(), end()); }

  void clear() {
    used_ = 0;
    size_ = 0;
  }
  /// Makes room for `bytes` more bytes of elements (each element takes its
  /// length plus one header byte, or five from 255 bytes on).
  void reserve_bytes(size_t bytes) {
    if (used_ + bytes > capacity_) grow(used_ + bytes);
  }
  /// Appends a copy of `value`, which must not point into this list.
  void push_back(std::string_view value) {
    char header[5];
    size_t header_size = 1;
    if (value.size() < 255) {
      header[0] = static_cast<char>(value.size());
    } else {
      if (value.size() > 0xffffffffu) throw std::length_error("StringList element too large");
      header[0] = static_cast<char>(0xff);
      uint32_t n = static_cast<uint32_t>(value.size());
      std::memcpy(header + 1, &n, 4);
      header_size = 5;
    }
    reserve_bytes(header_size + value.size());
    char* at = mutable_bytes() + used_;
    std::memcpy(at, header, header_size);
    if (value.size() <= 24) {
      detail::copy_small(at + header_size, value.data(), value.size());
    } else {
      std::memcpy(at + header_size, value.data(), value.size());
    }
    used_ += static_cast<uint32_t>(header_size + value.size());
    ++size_;
  }

  friend bool operator==(const StringList& a, const StringList& b) {
    return a.size_ == b.size_ && a.used_ == b.used_ && std::memcmp(a.bytes(), b.bytes(), a.used_) == 0;
  }
  friend bool operator==(const StringList& a, const std::vector<std::string>& b) {
    if (a.size_ != b.size()) return false;
    size_t i = 0;
    for (std::string_view v : a) {
      if (v != b[i++]) return false;
    }
    return true;
  }

 private:
  static size_t read_length(const char* at, size_t& header) {
    uint8_t first = static_cast<uint8_t>(at[0]);
    if (first != 0xff) {
      header = 1;
      return first;
    }
    uint32_t n;
    std::memcpy(&n, at + 1, 4);
    header = 5;
    return n;
  }
  bool on_heap() const { return capacity_ > kInlineBytes; }
  const char* bytes() const { return on_heap() ? heap() : storage_; }
  char* mutable_bytes() { return on_heap() ? heap() : storage_; }
  void append_bytes(const char* bytes, size_t n, size_t count) {
    reserve_bytes(n);
    if (n != 0) std::memcpy(mutable_bytes() + used_, bytes, n);
    used_ += static_cast<uint32_t>(n);
    size_ += static_cast<uint32_t>(count);
  }
  void grow(size_t wanted) {
    if (wanted > 0xffffffffu) throw std::length_error("StringList too large");
    size_t fresh_capacity = std::max<size_t>(wanted, 2 * static_cast<size_t>(capacity_));
    if (fresh_capacity > 0xffffffffu) fresh_capacity = wanted;
    char* fresh = static_cast<char*>(::operator new(fresh_capacity));
    if (used_ != 0) std::memcpy(fresh, bytes(), used_);
    release();
    set_heap(fresh);
    capacity_ = static_cast<uint32_t>(fresh_capacity);
  }
  void release() {
    if (on_heap()) ::operator delete(heap());
    capacity_ = kInlineBytes;
  }
  void steal(StringList& other) {
    std::memcpy(static_cast<void*>(this), static_cast<const void*>(&other), sizeof(StringList));
    other.used_ = 0;
    other.size_ = 0;
    other.capacity_ = kInlineBytes;
  }

  // The heap pointer lives in the first bytes of storage_ (see OptionalBytes).
  char* heap() const {
    char* p;
    std::memcpy(&p, storage_, sizeof p);
    return p;
  }
  void set_heap(char* p) { std::memcpy(storage_, &p, sizeof p); }

  alignas(8) char storage_[kInlineBytes];
  uint32_t used_ = 0;
  uint32_t size_ = 0;
  uint32_t capacity_ = kInlineBytes;
};

// ---------------------------------------------------------------------------
// Boxed: an optional that keeps its value on the heap. Used for members that
// are almost always absent (geospatial statistics, encryption data, external
// file paths), so that each of the millions of ColumnChunks of a wide footer
// costs 8 bytes for them instead of ~300. The interface is std::optional's.

template <typename T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(std::nullopt_t) {}
  Boxed(const T& value) : value_(std::make_unique<T>(value)) {}
  Boxed(T&& value) : value_(std::make_unique<T>(std::move(value))) {}
  Boxed(const Boxed& other) : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& other) {
    if (this != &other) value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;
  Boxed& operator=(std::nullopt_t) {
    value_.reset();
    return *this;
  }
  Boxed& operator=(const T& value) {
    emplace(value);
    return *this;
  }
  Boxed& operator=(T&& value) {
    emplace(std::move(value));
    return *this;
  }

  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return value_ != nullptr; }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return value_.get(); }
  const T* operator->() const { return value_.get(); }
  T& value() {
    if (!value_) throw std::bad_optional_access();
    return *value_;
  }
  const T& value() const {
    if (!value_) throw std::bad_optional_access();
    return *value_;
  }
  template <typename U>
  T value_or(U&& fallback) const {
    return value_ ? *value_ : static_cast<T>(std::forward<U>(fallback));
  }
  template <typename... Args>
  T& emplace(Args&&... args) {
    value_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *value_;
  }
  void reset() { value_.reset(); }

  friend bool operator==(const Boxed& a, const Boxed& b) {
    if (!a.value_ || !b.value_) return !a.value_ && !b.value_;
    return *a.value_ == *b.value_;
  }

 private:
  std::unique_ptr<T> value_;
};

// ---------------------------------------------------------------------------
// Logical types (parquet.thrift `union LogicalType`)

/// Thrift union TimeUnit {MILLIS, MICROS, NANOS}; the value is the union field id.
enum class TimeUnit : int16_t { MILLIS = 1, MICROS = 2, NANOS = 3 };

struct StringType {
  bool operator==(const StringType&) const = default;
};
struct MapType {
  bool operator==(const MapType&) const = default;
};
struct ListType {
  bool operator==(const ListType&) const = default;
};
struct EnumType {
  bool operator==(const EnumType&) const = default;
};
struct DecimalType {
  int32_t scale = 0;
  int32_t precision = 0;
  bool operator==(const DecimalType&) const = default;
};
struct DateType {
  bool operator==(const DateType&) const = default;
};
/// TimeType: isAdjustedToUTC + unit.
struct TimeType {
  bool is_adjusted_to_utc = false;
  TimeUnit unit = TimeUnit::MILLIS;
  bool operator==(const TimeType&) const = default;
};
/// TimestampType: isAdjustedToUTC + unit.
struct TimestampType {
  bool is_adjusted_to_utc = false;
  TimeUnit unit = TimeUnit::MILLIS;
  bool operator==(const TimestampType&) const = default;
};
/// IntType: bitWidth (8, 16, 32, 64) + isSigned.
struct IntType {
  int8_t bit_width = 0;
  bool is_signed = true;
  bool operator==(const IntType&) const = default;
};
/// NullType, the union member named UNKNOWN: a column whose values are all null.
struct NullType {
  bool operator==(const NullType&) const = default;
};
struct JsonType {
  bool operator==(const JsonType&) const = default;
};
struct BsonType {
  bool operator==(const BsonType&) const = default;
};
struct UuidType {
  bool operator==(const UuidType&) const = default;
};
struct Float16Type {
  bool operator==(const Float16Type&) const = default;
};
struct VariantType {
  std::optional<int8_t> specification_version;
  bool operator==(const VariantType&) const = default;
};
struct GeometryType {
  std::optional<std::string> crs;
  bool operator==(const GeometryType&) const = default;
};
/// parquet.thrift `enum EdgeInterpolationAlgorithm`.
enum class EdgeInterpolationAlgorithm : int32_t {
  SPHERICAL = 0,
  VINCENTY = 1,
  THOMAS = 2,
  ANDOYER = 3,
  KARNEY = 4
};
struct GeographyType {
  std::optional<std::string> crs;
  std::optional<EdgeInterpolationAlgorithm> algorithm;
  bool operator==(const GeographyType&) const = default;
};
/// VectorType (union field 19, a fixed-size vector group).
struct VectorType {
  bool operator==(const VectorType&) const = default;
};
/// A LogicalType union member this version of parquetry does not know (a
/// newer format revision). Readers must treat the column as if it had no
/// logical type; the field id is kept so the metadata round-trips.
struct UnrecognizedLogicalType {
  int16_t field_id = 0;
  bool operator==(const UnrecognizedLogicalType&) const = default;
};

/// parquet.thrift `union LogicalType`. Exactly one member is set; the
/// comment gives the union field id.
struct PARQUETRY_API LogicalType {
  using Value = std::variant<StringType,                // 1 STRING
                             MapType,                   // 2 MAP
                             ListType,                  // 3 LIST
                             EnumType,                  // 4 ENUM
                             DecimalType,               // 5 DECIMAL
                             DateType,                  // 6 DATE
                             TimeType,                  // 7 TIME
                             TimestampType,             // 8 TIMESTAMP
                             IntType,                   // 10 INTEGER
                             NullType,                  // 11 UNKNOWN
                             JsonType,                  // 12 JSON
                             BsonType,                  // 13 BSON
                             UuidType,                  // 14 UUID
                             Float16Type,               // 15 FLOAT16
                             VariantType,               // 16 VARIANT
                             GeometryType,              // 17 GEOMETRY
                             GeographyType,             // 18 GEOGRAPHY
                             VectorType,                // 19 VECTOR
                             UnrecognizedLogicalType>;  // any other id
  Value value;

  template <typename T>
  bool is() const {
    return std::holds_alternative<T>(value);
  }
  template <typename T>
  const T* get_if() const {
    return std::get_if<T>(&value);
  }
  /// The Thrift union field id of the member that is set.
  int16_t field_id() const;
  bool operator==(const LogicalType&) const = default;
};

// ---------------------------------------------------------------------------
// Schema

/// One node of the depth-first flattened schema tree.
struct SchemaElement {
  std::optional<Type> type;                            ///< set for leaves only
  std::optional<int32_t> type_length;                  ///< FIXED_LEN_BYTE_ARRAY width
  std::optional<FieldRepetitionType> repetition_type;  ///< unset for the root; 3 = VECTOR (newer format)
  std::string name;
  std::optional<int32_t> num_children;  ///< set for groups only
  std::optional<ConvertedType> converted_type;
  std::optional<int32_t> scale;
  std::optional<int32_t> precision;
  std::optional<int32_t> field_id;
  std::optional<LogicalType> logical_type;  ///< Thrift `logicalType`
  std::optional<int32_t> vector_length;     ///< for VECTOR repetition
  bool operator==(const SchemaElement&) const = default;
};

// ---------------------------------------------------------------------------
// Statistics

/// Min/max and counts of a column chunk or page. Values are PLAIN-encoded
/// (byte arrays without their length prefix).
struct Statistics {
  OptionalBytes max;  ///< deprecated, signed order
  OptionalBytes min;  ///< deprecated, signed order
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  OptionalBytes max_value;
  OptionalBytes min_value;
  std::optional<bool> is_max_value_exact;
  std::optional<bool> is_min_value_exact;
  std::optional<int64_t> nan_count;  ///< field 9 (newer format)
  bool operator==(const Statistics&) const = default;
};

/// Unencoded sizes and level histograms (empty list = absent).
struct SizeStatistics {
  std::optional<int64_t> unencoded_byte_array_data_bytes;
  std::vector<int64_t> repetition_level_histogram;
  std::vector<int64_t> definition_level_histogram;
  bool operator==(const SizeStatistics&) const = default;
};

struct BoundingBox {
  double xmin = 0;
  double xmax = 0;
  double ymin = 0;
  double ymax = 0;
  std::optional<double> zmin;
  std::optional<double> zmax;
  std::optional<double> mmin;
  std::optional<double> mmax;
  bool operator==(const BoundingBox&) const = default;
};

struct GeospatialStatistics {
  std::optional<BoundingBox> bbox;
  /// Geospatial type codes. Unlike other lists, "present and empty" means
  /// "not known" here, so presence is kept.
  std::optional<std::vector<int32_t>> geospatial_types;
  bool operator==(const GeospatialStatistics&) const = default;
};

/// Count of pages of one type and encoding in a column chunk.
struct PageEncodingStats {
  PageType page_type = PageType::DATA_PAGE;
  Encoding encoding = Encoding::PLAIN;
  int32_t count = 0;
  bool operator==(const PageEncodingStats&) const = default;
};
using PageEncodingStatsList = InlineVector<PageEncodingStats, 3>;

// ---------------------------------------------------------------------------
// Pages

struct DataPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::PLAIN;
  Encoding definition_level_encoding = Encoding::RLE;
  Encoding repetition_level_encoding = Encoding::RLE;
  std::optional<Statistics> statistics;
  bool operator==(const DataPageHeader&) const = default;
};

/// Empty in the format ("TODO" there); kept for completeness.
struct IndexPageHeader {
  bool operator==(const IndexPageHeader&) const = default;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::PLAIN;
  std::optional<bool> is_sorted;
  bool operator==(const DictionaryPageHeader&) const = default;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  Encoding encoding = Encoding::PLAIN;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  std::optional<bool> is_compressed;  ///< absent means true
  std::optional<Statistics> statistics;
  bool compressed() const { return is_compressed.value_or(true); }
  bool operator==(const DataPageHeaderV2&) const = default;
};

struct PageHeader {
  PageType type = PageType::DATA_PAGE;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  std::optional<IndexPageHeader> index_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
  bool operator==(const PageHeader&) const = default;
};

// ---------------------------------------------------------------------------
// Bloom filter header (unions of one empty member are enums of the field id)

enum class BloomFilterAlgorithm : int16_t { BLOCK = 1 };
enum class BloomFilterHash : int16_t { XXHASH = 1 };
enum class BloomFilterCompression : int16_t { UNCOMPRESSED = 1 };

struct BloomFilterHeader {
  int32_t num_bytes = 0;  ///< Thrift `numBytes`: size of the bitset
  BloomFilterAlgorithm algorithm = BloomFilterAlgorithm::BLOCK;
  BloomFilterHash hash = BloomFilterHash::XXHASH;
  BloomFilterCompression compression = BloomFilterCompression::UNCOMPRESSED;
  bool operator==(const BloomFilterHeader&) const = default;
};

// ---------------------------------------------------------------------------
// Encryption

struct AesGcmV1 {
  std::optional<std::string> aad_prefix;
  std::optional<std::string> aad_file_unique;
  std::optional<bool> supply_aad_prefix;
  bool operator==(const AesGcmV1&) const = default;
};
struct AesGcmCtrV1 {
  std::optional<std::string> aad_prefix;
  std::optional<std::string> aad_file_unique;
  std::optional<bool> supply_aad_prefix;
  bool operator==(const AesGcmCtrV1&) const = default;
};
/// union EncryptionAlgorithm {1: AES_GCM_V1, 2: AES_GCM_CTR_V1}.
struct EncryptionAlgorithm {
  std::variant<AesGcmV1, AesGcmCtrV1> value;
  bool operator==(const EncryptionAlgorithm&) const = default;
};

struct EncryptionWithFooterKey {
  bool operator==(const EncryptionWithFooterKey&) const = default;
};
struct EncryptionWithColumnKey {
  std::vector<std::string> path_in_schema;
  std::optional<std::string> key_metadata;
  bool operator==(const EncryptionWithColumnKey&) const = default;
};
/// union ColumnCryptoMetaData {1: ENCRYPTION_WITH_FOOTER_KEY, 2: ENCRYPTION_WITH_COLUMN_KEY}.
struct ColumnCryptoMetaData {
  std::variant<EncryptionWithFooterKey, EncryptionWithColumnKey> value;
  bool operator==(const ColumnCryptoMetaData&) const = default;
};

/// The footer of a file whose footer is encrypted (tail magic "PARE").
struct FileCryptoMetaData {
  EncryptionAlgorithm encryption_algorithm;
  std::optional<std::string> key_metadata;
  bool operator==(const FileCryptoMetaData&) const = default;
};

// ---------------------------------------------------------------------------
// Row groups and column chunks

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
  bool operator==(const KeyValue&) const = default;
};

struct SortingColumn {
  int32_t column_idx = 0;
  bool descending = false;
  bool nulls_first = false;
  bool operator==(const SortingColumn&) const = default;
};

/// Where the encoded bytes of a field that decoding skipped (see
/// MetadataOptions) lie within the buffer that was decoded. length == 0 means
/// nothing was skipped. Decode them later with decode_statistics() etc. on
/// `buffer.subspan(offset, length)`.
struct SkippedBytes {
  uint32_t offset = 0;
  uint32_t length = 0;
  bool operator==(const SkippedBytes&) const = default;
};

struct ColumnMetaData {
  Type type = Type::BOOLEAN;
  CompressionCodec codec = CompressionCodec::UNCOMPRESSED;  ///< field 4 (placed here to save padding)
  InlineVector<Encoding, 4> encodings;
  StringList path_in_schema;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  std::vector<KeyValue> key_value_metadata;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  PageEncodingStatsList encoding_stats;
  std::optional<int64_t> bloom_filter_offset;
  std::optional<int32_t> bloom_filter_length;
  Boxed<SizeStatistics> size_statistics;              ///< heap-held: mostly absent for flat columns
  Boxed<GeospatialStatistics> geospatial_statistics;  ///< heap-held: rare

  /// Spans of fields skipped by MetadataOptions (zero when decoded).
  SkippedBytes skipped_statistics;       ///< a Statistics struct
  SkippedBytes skipped_encoding_stats;   ///< a list<PageEncodingStats>
  SkippedBytes skipped_size_statistics;  ///< a SizeStatistics struct
  bool operator==(const ColumnMetaData&) const = default;
};

struct ColumnChunk {
  Boxed<std::string> file_path;  ///< heap-held (like the two encryption members): rare
  int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;
  std::optional<int64_t> offset_index_offset;
  std::optional<int32_t> offset_index_length;
  std::optional<int64_t> column_index_offset;
  std::optional<int32_t> column_index_length;
  Boxed<ColumnCryptoMetaData> crypto_metadata;
  Boxed<std::string> encrypted_column_metadata;
  bool operator==(const ColumnChunk&) const = default;
};

/// The column chunks of a row group. A wide footer holds millions of
/// chunks; their arrays come from LargeBlockAllocator so that decoding one
/// footer after another reuses memory instead of faulting in fresh pages.
using ColumnChunkList = std::vector<ColumnChunk, LargeBlockAllocator<ColumnChunk>>;

struct RowGroup {
  ColumnChunkList columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::vector<SortingColumn> sorting_columns;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
  bool operator==(const RowGroup&) const = default;
};

/// union ColumnOrder: TYPE_ORDER (TypeDefinedOrder), IEEE_754_TOTAL_ORDER
/// (IEEE754TotalOrder), INT96_TIMESTAMP_ORDER (Int96TimestampOrder); the
/// value is the union field id (others are kept as read: readers must then
/// ignore min/max statistics of that column).
enum class ColumnOrder : int16_t { TYPE_ORDER = 1, IEEE_754_TOTAL_ORDER = 2, INT96_TIMESTAMP_ORDER = 3 };

struct FileMetaData {
  int32_t version = 1;
  std::vector<SchemaElement> schema;  ///< depth-first; [0] is the root
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<KeyValue> key_value_metadata;
  std::optional<std::string> created_by;
  std::vector<ColumnOrder> column_orders;  ///< one per leaf, when present
  std::optional<EncryptionAlgorithm> encryption_algorithm;
  std::optional<std::string> footer_signing_key_metadata;
  bool operator==(const FileMetaData&) const = default;
};

// ---------------------------------------------------------------------------
// Page index

struct PageLocation {
  int64_t offset = 0;
  int32_t compressed_page_size = 0;  ///< including the page header
  int64_t first_row_index = 0;
  bool operator==(const PageLocation&) const = default;
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;
  std::vector<int64_t> unencoded_byte_array_data_bytes;  ///< one per page when present
  bool operator==(const OffsetIndex&) const = default;
};

struct ColumnIndex {
  std::vector<bool> null_pages;
  std::vector<std::string> min_values;
  std::vector<std::string> max_values;
  BoundaryOrder boundary_order = BoundaryOrder::UNORDERED;
  std::vector<int64_t> null_counts;                  ///< empty = absent
  std::vector<int64_t> repetition_level_histograms;  ///< pages x (max_rep + 1)
  std::vector<int64_t> definition_level_histograms;  ///< pages x (max_def + 1)
  std::vector<int64_t> nan_counts;                   ///< field 8 (newer format)
  bool operator==(const ColumnIndex&) const = default;
};

// ---------------------------------------------------------------------------
// Codec

/// What decode_file_metadata() may leave undecoded to save time. Skipped
/// fields stay unset; their byte spans are recorded in ColumnMetaData's
/// skipped_* members so they can be decoded later.
struct MetadataOptions {
  bool skip_statistics = false;           ///< ColumnMetaData.statistics
  bool skip_page_encoding_stats = false;  ///< ColumnMetaData.encoding_stats
  bool skip_size_statistics = false;      ///< ColumnMetaData.size_statistics
};

/// Decodes a FileMetaData (the footer bytes, without length and magic).
/// Rejects inputs larger than limits.max_footer_size.
PARQUETRY_API FileMetaData decode_file_metadata(std::span<const uint8_t> bytes, const Limits& limits = {},
                                                const MetadataOptions& options = {});
/// Decodes a PageHeader from the start of `bytes` (which may extend past the
/// header); stores the header's encoded size in *consumed when non-null.
PARQUETRY_API PageHeader decode_page_header(std::span<const uint8_t> bytes, const Limits& limits = {},
                                            size_t* consumed = nullptr);
PARQUETRY_API ColumnIndex decode_column_index(std::span<const uint8_t> bytes, const Limits& limits = {});
PARQUETRY_API OffsetIndex decode_offset_index(std::span<const uint8_t> bytes, const Limits& limits = {});
/// Decodes a BloomFilterHeader from the start of `bytes`; *consumed as above.
PARQUETRY_API BloomFilterHeader decode_bloom_filter_header(std::span<const uint8_t> bytes,
                                                           const Limits& limits = {},
                                                           size_t* consumed = nullptr);
PARQUETRY_API FileCryptoMetaData decode_file_crypto_metadata(std::span<const uint8_t> bytes,
                                                             const Limits& limits = {},
                                                             size_t* consumed = nullptr);
/// Decodes a ColumnMetaData (the plaintext of ColumnChunk::encrypted_column_metadata).
PARQUETRY_API ColumnMetaData decode_column_metadata(std::span<const uint8_t> bytes, const Limits& limits = {},
                                                    const MetadataOptions& options = {});
/// Decode fields skipped by MetadataOptions from their SkippedBytes span.
PARQUETRY_API Statistics decode_statistics(std::span<const uint8_t> bytes, const Limits& limits = {});
PARQUETRY_API SizeStatistics decode_size_statistics(std::span<const uint8_t> bytes,
                                                    const Limits& limits = {});
/// `bytes` holds a whole Thrift list<PageEncodingStats> (header included).
PARQUETRY_API PageEncodingStatsList decode_page_encoding_stats(std::span<const uint8_t> bytes,
                                                               const Limits& limits = {});

/// Encoders append the compact-protocol bytes to `out`.
PARQUETRY_API void encode_file_metadata(const FileMetaData& metadata, Buffer& out);
PARQUETRY_API void encode_page_header(const PageHeader& header, Buffer& out);
PARQUETRY_API void encode_column_index(const ColumnIndex& index, Buffer& out);
PARQUETRY_API void encode_offset_index(const OffsetIndex& index, Buffer& out);
PARQUETRY_API void encode_bloom_filter_header(const BloomFilterHeader& header, Buffer& out);
PARQUETRY_API void encode_file_crypto_metadata(const FileCryptoMetaData& metadata, Buffer& out);
PARQUETRY_API void encode_column_metadata(const ColumnMetaData& metadata, Buffer& out);
PARQUETRY_API void encode_statistics(const Statistics& statistics, Buffer& out);
PARQUETRY_API void encode_size_statistics(const SizeStatistics& statistics, Buffer& out);

// ---------------------------------------------------------------------------
// Footer I/O

/// Bytes read speculatively from the end of a file to get the footer in one read.
inline constexpr int64_t kFooterSpeculativeRead = 64 * 1024;

/// The raw footer of a file, as read_footer_bytes() found it.
struct FooterBytes {
  bool encrypted_footer = false;    ///< "PARE" magic: FileCryptoMetaData + encrypted footer
  std::span<const uint8_t> footer;  ///< the footer bytes (without length and magic)
  int64_t footer_start = 0;         ///< file offset of `footer`
  Buffer storage;                   ///< holds `footer` unless the source is zero-copy
};

/// Reads the footer bytes of a Parquet file: checks the magic at both ends
/// ("PAR1", or "PARE" for an encrypted footer) and the footer length,
/// reading the last kFooterSpeculativeRead bytes (or the source's
/// footer_read_hint()) first and the exact footer only when it is larger; a
/// remote source's leading magic is not read (one request opens the file,
/// see RandomAccessSource::remote()).
PARQUETRY_API FooterBytes read_footer_bytes(RandomAccessSource& source, const Limits& limits = {});

/// Reads and decodes the footer of a Parquet file (read_footer_bytes, then
/// decode_file_metadata). A "PARE" tail (encrypted footer) raises
/// kUnsupported: such files open through FileReader with
/// ReaderOptions::decryption.
PARQUETRY_API FileMetaData read_file_metadata(RandomAccessSource& source, const Limits& limits = {},
                                              const MetadataOptions& options = {});
/// Appends the encoded footer, its 4-byte little-endian length and "PAR1".
PARQUETRY_API void write_file_metadata(const FileMetaData& metadata, Sink& sink);

// ---------------------------------------------------------------------------
// Page walking

/// One page header of a column chunk and where it lies in the file.
struct PageHeaderAt {
  int64_t offset = 0;       ///< file offset of the page header
  int64_t header_size = 0;  ///< encoded size of the header
  PageHeader header;
};

/// Iterates the page headers of a column chunk in file order: starts at the
/// dictionary page when dictionary_page_offset is valid (> 0 and before the
/// first data page), else at data_page_offset, and stops after
/// total_compressed_size bytes. Every offset and size is bounds-checked
/// against the chunk and the source.
class PARQUETRY_API PageHeaderWalker {
 public:
  PageHeaderWalker(RandomAccessSource& source, const ColumnMetaData& column, const Limits& limits = {});
  /// Reads the next page header; false when the chunk is exhausted.
  bool next(PageHeaderAt& page);

 private:
  RandomAccessSource* source_;
  Limits limits_;
  int64_t position_ = 0;
  int64_t end_ = 0;
  Buffer scratch_;
};

}  // namespace parquetry
