// A deliberately small Thrift compact-protocol reader for the tests in this
// folder: it decodes any struct into a generic tree, so the tests can find
// column chunks and page headers in real files without depending on the
// format layer (and so check the codecs against an independent parse).
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace parquetry::testing {

struct ThriftValue {
  int64_t integer = 0;  // bool, byte, i16, i32, i64
  double real = 0;
  std::string binary;
  std::vector<ThriftValue> elements;  // list, set
  std::map<int, ThriftValue> fields;  // struct
  bool has(int id) const { return fields.count(id) != 0; }
  const ThriftValue& at(int id) const {
    auto it = fields.find(id);
    if (it == fields.end()) throw std::runtime_error("thrift field " + std::to_string(id) + " missing");
    return it->second;
  }
  int64_t int_at(int id) const { return at(id).integer; }
};

class ThriftReader {
 public:
  ThriftReader(const uint8_t* data, size_t size) : p_(data), end_(data + size), begin_(data) {}

  ThriftValue read_struct() {
    if (++depth_ > 32) fail("too deep");
    ThriftValue out;
    int last_id = 0;
    for (;;) {
      uint8_t header = byte();
      int type = header & 0x0f;
      if (type == 0) break;
      int delta = header >> 4;
      int id = delta != 0 ? last_id + delta : int(unzigzag(varint()));
      last_id = id;
      out.fields[id] = read_value(type);
    }
    --depth_;
    return out;
  }

  size_t consumed() const { return size_t(p_ - begin_); }

 private:
  ThriftValue read_value(int type) {
    ThriftValue v;
    switch (type) {
      case 1: v.integer = 1; break;  // BOOLEAN_TRUE
      case 2: v.integer = 0; break;  // BOOLEAN_FALSE
      case 3: v.integer = int8_t(byte()); break;
      case 4:
      case 5:
      case 6: v.integer = unzigzag(varint()); break;
      case 7: {
        need(8);
        std::memcpy(&v.real, p_, 8);
        p_ += 8;
        break;
      }
      case 8: {
        uint64_t n = varint();
        need(n);
        v.binary.assign(reinterpret_cast<const char*>(p_), n);
        p_ += n;
        break;
      }
      case 9:
      case 10: {
        uint8_t header = byte();
        uint64_t n = header >> 4;
        if (n == 15) n = varint();
        int elem = header & 0x0f;
        if (n > size_t(end_ - p_)) fail("list longer than the input");
        for (uint64_t i = 0; i < n; ++i) {
          // Booleans inside lists are one byte each.
          if (elem == 1 || elem == 2) {
            ThriftValue b;
            b.integer = byte() == 1;
            v.elements.push_back(b);
          } else {
            v.elements.push_back(read_value(elem));
          }
        }
        break;
      }
      case 11: {
        uint64_t n = varint();
        if (n == 0) break;
        uint8_t kinds = byte();
        if (n > size_t(end_ - p_)) fail("map longer than the input");
        for (uint64_t i = 0; i < n; ++i) {
          v.elements.push_back(read_value(kinds >> 4));
          v.elements.push_back(read_value(kinds & 0x0f));
        }
        break;
      }
      case 12: v = read_struct(); break;
      default: fail("unknown type " + std::to_string(type));
    }
    return v;
  }

  void need(uint64_t n) {
    if (n > uint64_t(end_ - p_)) fail("truncated");
  }
  uint8_t byte() {
    need(1);
    return *p_++;
  }
  uint64_t varint() {
    uint64_t out = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      uint8_t b = byte();
      out |= uint64_t(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return out;
    }
    fail("varint too long");
  }
  static int64_t unzigzag(uint64_t v) { return int64_t(v >> 1) ^ -int64_t(v & 1); }
  [[noreturn]] void fail(const std::string& why) {
    throw std::runtime_error("mini thrift: " + why + " at byte " + std::to_string(p_ - begin_));
  }

  const uint8_t* p_;
  const uint8_t* end_;
  const uint8_t* begin_;
  int depth_ = 0;
};

}  // namespace parquetry::testing
