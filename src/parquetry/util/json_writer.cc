#include "parquetry/util/json_writer.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <utility>

#include "parquetry/error.h"

namespace parquetry {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Bytes that may be copied as they are: printable ASCII except '"' and '\'.
// DEL is escaped as well; it is legal JSON but invisible and often unwanted.
constexpr bool plain_ascii(unsigned char c) { return c >= 0x20 && c < 0x7F && c != '"' && c != '\\'; }

void append_control_escape(std::string& out, unsigned char c) {
  switch (c) {
    case '"': out += "\\\""; return;
    case '\\': out += "\\\\"; return;
    case '\b': out += "\\b"; return;
    case '\f': out += "\\f"; return;
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default: break;
  }
  char buf[6] = {'\\', 'u', '0', '0', kHexDigits[c >> 4], kHexDigits[c & 0xF]};
  out.append(buf, sizeof(buf));
}

// Length of the well-formed UTF-8 sequence starting at text[i], or the
// negated length of the maximal invalid subpart to replace by one U+FFFD
// (Unicode's "substitution of maximal subparts" practice).
int utf8_sequence(const unsigned char* text, size_t size, size_t i) {
  unsigned char lead = text[i];
  int length;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // no overlong 3-byte forms
    if (lead == 0xED) high = 0x9F;  // no UTF-16 surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // no overlong 4-byte forms
    if (lead == 0xF4) high = 0x8F;  // nothing above U+10FFFF
  } else {
    return -1;
  }
  if (i + 1 >= size || text[i + 1] < low || text[i + 1] > high) return -1;
  for (int k = 2; k < length; ++k) {
    if (i + k >= size || text[i + k] < 0x80 || text[i + k] > 0xBF) return -k;
  }
  return length;
}

}  // namespace

JsonWriter::JsonWriter(int indent) : indent_(indent < 0 ? 0 : indent) {}

std::string JsonWriter::take() {
  std::string result = std::move(out_);
  clear();
  return result;
}

void JsonWriter::clear() {
  out_.clear();
  stack_.clear();
  container_empty_.clear();
  wrote_top_level_ = false;
}

void JsonWriter::newline_indent(size_t depth) {
  if (indent_ == 0) return;
  out_ += '\n';
  out_.append(depth * static_cast<size_t>(indent_), ' ');
}

void JsonWriter::before_value() {
  if (stack_.empty()) {
    if (wrote_top_level_) throw_invalid("JsonWriter: a second top-level value");
    wrote_top_level_ = true;
    return;
  }
  Frame& top = stack_.back();
  if (top == Frame::kObjectExpectKey) throw_invalid("JsonWriter: a value inside an object needs a key first");
  if (top == Frame::kObjectExpectValue) {
    top = Frame::kObjectExpectKey;  // key() already wrote the separator
    return;
  }
  if (!container_empty_.back()) out_ += ',';
  container_empty_.back() = false;
  newline_indent(stack_.size());
}

JsonWriter& JsonWriter::key(std::string_view name) {
  if (stack_.empty() || stack_.back() != Frame::kObjectExpectKey) {
    throw_invalid("JsonWriter: key \"" + std::string(name) + "\" outside an object or where a value is due");
  }
  if (!container_empty_.back()) out_ += ',';
  container_empty_.back() = false;
  newline_indent(stack_.size());
  escape_string(out_, name);
  out_ += indent_ > 0 ? ": " : ":";
  stack_.back() = Frame::kObjectExpectValue;
  return *this;
}

JsonWriter& JsonWriter::begin_object() {
  before_value();
  out_ += '{';
  stack_.push_back(Frame::kObjectExpectKey);
  container_empty_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  before_value();
  out_ += '[';
  stack_.push_back(Frame::kArray);
  container_empty_.push_back(true);
  return *this;
}

void JsonWriter::end_container(Frame expected, char close) {
  if (stack_.empty() || stack_.back() != expected) {
    throw_invalid(expected == Frame::kArray ? "JsonWriter: end_array without a matching begin_array"
                                            : "JsonWriter: end_object without a matching begin_object "
                                              "(or after a key with no value)");
  }
  bool empty = container_empty_.back();
  stack_.pop_back();
  container_empty_.pop_back();
  if (!empty) newline_indent(stack_.size());
  out_ += close;
}

JsonWriter& JsonWriter::end_object() {
  end_container(Frame::kObjectExpectKey, '}');
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  end_container(Frame::kArray, ']');
  return *this;
}

JsonWriter& JsonWriter::string(std::string_view text) {
  before_value();
  escape_string(out_, text);
  return *this;
}

JsonWriter& JsonWriter::int64(int64_t value) {
  before_value();
  char buf[24];
  auto result = std::to_chars(buf, buf + sizeof(buf), value);
  out_.append(buf, result.ptr);
  return *this;
}

JsonWriter& JsonWriter::uint64(uint64_t value) {
  before_value();
  char buf[24];
  auto result = std::to_chars(buf, buf + sizeof(buf), value);
  out_.append(buf, result.ptr);
  return *this;
}

JsonWriter& JsonWriter::number(double value) {
  before_value();
  append_double(out_, value);
  return *this;
}

JsonWriter& JsonWriter::boolean(bool value) {
  before_value();
  out_ += value ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  before_value();
  out_.append(json);
  return *this;
}

void JsonWriter::append_double(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  char buf[32];
  // Without a format argument to_chars gives the shortest round-trip text.
  auto result = std::to_chars(buf, buf + sizeof(buf), value);
  out.append(buf, result.ptr);
}

void JsonWriter::escape_string(std::string& out, std::string_view text) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const size_t size = text.size();
  out.reserve(out.size() + size + 2);
  out += '"';
  size_t i = 0;
  while (i < size) {
    // Copy the longest run of bytes that need no attention in one append.
    size_t run = i;
    while (run < size && plain_ascii(bytes[run])) ++run;
    if (run > i) {
      out.append(text.data() + i, run - i);
      i = run;
      if (i == size) break;
    }
    unsigned char c = bytes[i];
    if (c < 0x80) {
      append_control_escape(out, c);
      ++i;
      continue;
    }
    int length = utf8_sequence(bytes, size, i);
    if (length < 0) {
      out += kReplacement;
      i += static_cast<size_t>(-length);
      continue;
    }
    // U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR.
    if (length == 3 && c == 0xE2 && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9)) {
      out += bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029";
    } else {
      out.append(text.data() + i, static_cast<size_t>(length));
    }
    i += static_cast<size_t>(length);
  }
  out += '"';
}

bool JsonWriter::is_valid_utf8(std::string_view text) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  size_t i = 0;
  while (i < text.size()) {
    if (bytes[i] < 0x80) {
      ++i;
      continue;
    }
    int length = utf8_sequence(bytes, text.size(), i);
    if (length < 0) return false;
    i += static_cast<size_t>(length);
  }
  return true;
}

}  // namespace parquetry
