// A small streaming JSON writer for the harness's result files. Doubles are
// written in shortest round-trip form; non-finite doubles become null.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parquetry::bench {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  /// The key of the next value inside an object.
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(double number);
  JsonWriter& value(int64_t number);
  JsonWriter& value(int number) { return value(static_cast<int64_t>(number)); }
  JsonWriter& value(bool flag);
  JsonWriter& null();
  /// Inserts already-serialized JSON as the next value.
  JsonWriter& raw(std::string_view json);

  const std::string& str() const { return out_; }

 private:
  void before_value();
  std::string out_;
  // One entry per open container: true once it holds a value.
  std::vector<bool> has_items_;
  bool after_key_ = false;
};

/// `text` as a quoted JSON string.
std::string json_quote(std::string_view text);
/// Shortest text that parses back to exactly `number`.
std::string format_double(double number);

}  // namespace parquetry::bench
