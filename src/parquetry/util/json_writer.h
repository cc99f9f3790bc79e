// A small streaming JSON writer for every `--json` output of the CLI and for
// reports. It appends straight into one std::string, tracks the nesting so
// that commas and colons are placed automatically, and never produces
// invalid JSON: strings are escaped (control characters as \uXXXX, invalid
// UTF-8 replaced by U+FFFD), doubles use the shortest text that round-trips,
// and non-finite doubles (which JSON cannot express) become null.
//
//   JsonWriter w;
//   w.begin_object().key("rows").int64(8).key("columns").begin_array();
//   for (auto& name : names) w.string(name);
//   w.end_array().end_object();
//   std::puts(w.str().c_str());
//
// Misuse (a value where a key is expected, closing the wrong container, a
// second top-level value) throws parquetry::Error(kInvalidArgument): the
// writer's output is always either well-formed or incomplete, never wrong.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace parquetry {

class JsonWriter {
 public:
  /// `indent` > 0 pretty-prints with that many spaces per level; 0 is compact.
  explicit JsonWriter(int indent = 0);

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  /// The next member's name; only valid directly inside an object.
  JsonWriter& key(std::string_view name);

  /// A string value; `text` may hold any bytes (see escape_string).
  JsonWriter& string(std::string_view text);
  JsonWriter& int64(int64_t value);
  JsonWriter& uint64(uint64_t value);
  /// Shortest round-trip form; NaN and infinities are written as null.
  JsonWriter& number(double value);
  JsonWriter& boolean(bool value);
  JsonWriter& null();
  /// Inserts `json` verbatim as one value; the caller vouches it is valid JSON.
  JsonWriter& raw(std::string_view json);

  /// Shorthands for key(name).<value>.
  JsonWriter& field(std::string_view name, std::string_view text) { return key(name).string(text); }
  JsonWriter& field(std::string_view name, const char* text) { return key(name).string(text); }
  /// Any integer type (int, size_t, int64_t...), signed or not.
  template <std::integral T>
  requires(!std::same_as<T, bool>) JsonWriter& field(std::string_view name, T value) {
    key(name);
    if constexpr (std::is_signed_v<T>) {
      return int64(static_cast<int64_t>(value));
    } else {
      return uint64(static_cast<uint64_t>(value));
    }
  }
  JsonWriter& field(std::string_view name, double value) { return key(name).number(value); }
  JsonWriter& field(std::string_view name, bool value) { return key(name).boolean(value); }

  /// True once exactly one top-level value has been written and every
  /// container is closed.
  bool complete() const { return stack_.empty() && wrote_top_level_; }
  /// The text so far.
  const std::string& str() const { return out_; }
  /// Moves the text out and resets the writer for reuse.
  std::string take();
  void clear();

  /// Appends `text` as a quoted JSON string. `"`, `\` and control characters
  /// (U+0000..U+001F, U+007F) are escaped, U+2028/U+2029 too (so the output is
  /// also safe inside JavaScript); each maximal invalid UTF-8 subsequence is
  /// replaced by U+FFFD.
  static void escape_string(std::string& out, std::string_view text);
  /// Appends the shortest decimal text that parses back to exactly `value`
  /// ("null" if not finite).
  static void append_double(std::string& out, double value);
  /// True if `text` is well-formed UTF-8 (no overlongs, surrogates or values
  /// above U+10FFFF).
  static bool is_valid_utf8(std::string_view text);

 private:
  enum class Frame : uint8_t { kObjectExpectKey, kObjectExpectValue, kArray };

  // Places the separator before a value and checks a value is allowed here.
  void before_value();
  void newline_indent(size_t depth);
  void end_container(Frame expected, char close);

  std::string out_;
  std::vector<Frame> stack_;
  std::vector<bool> container_empty_;
  int indent_;
  bool wrote_top_level_ = false;
};

}  // namespace parquetry
