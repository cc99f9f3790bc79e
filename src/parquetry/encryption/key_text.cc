// Keys given as text (CLI flags, key files, Python): hex or base64.
#include <simdjson.h>

#include <fstream>
#include <sstream>

#include "parquetry/encryption.h"
#include "parquetry/encryption/base64.h"
#include "parquetry/error.h"

namespace parquetry {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool valid_size(size_t size) { return size == 16 || size == 24 || size == 32; }

}  // namespace

std::string parse_key(std::string_view text) {
  if (text.size() == 32 || text.size() == 48 || text.size() == 64) {
    std::string key;
    bool hex = true;
    for (size_t i = 0; i < text.size() && hex; i += 2) {
      const int high = hex_digit(text[i]);
      const int low = hex_digit(text[i + 1]);
      hex = high >= 0 && low >= 0;
      key.push_back(char(high * 16 + low));
    }
    if (hex) return key;
  }
  if (std::optional<std::string> decoded = crypto::base64_decode(text); decoded && valid_size(decoded->size())) {
    return *decoded;
  }
  // Never repeat the text: it may be a mistyped key.
  throw_invalid("key of " + std::to_string(text.size()) +
                " characters is neither hex (32, 48 or 64 digits) nor base64 of 16, 24 or 32 bytes");
}

void load_key_file(const std::string& path, DecryptionOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_invalid("cannot open key file " + path);
  std::stringstream text;
  text << in.rdbuf();
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  const std::string json = text.str();
  if (parser.parse(json).get(root) != simdjson::SUCCESS || !root.is_object()) {
    throw_invalid("key file " + path + " is not a JSON object");
  }
  for (auto [name, value] : root.get_object()) {
    std::string_view text_value;
    if (name == "footer_key") {
      if (value.get(text_value) != simdjson::SUCCESS) throw_invalid("key file " + path + ": footer_key is not a string");
      options.footer_key = parse_key(text_value);
    } else if (name == "aad_prefix") {
      if (value.get(text_value) != simdjson::SUCCESS) throw_invalid("key file " + path + ": aad_prefix is not a string");
      options.aad_prefix = std::string(text_value);
    } else if (name == "column_keys") {
      simdjson::dom::object columns;
      if (value.get(columns) != simdjson::SUCCESS) throw_invalid("key file " + path + ": column_keys is not an object");
      for (auto [column, key] : columns) {
        if (key.get(text_value) != simdjson::SUCCESS) {
          throw_invalid("key file " + path + ": the key of column " + std::string(column) + " is not a string");
        }
        try {
          options.column_keys[std::string(column)] = parse_key(text_value);
        } catch (const Error& e) {
          throw_invalid("key file " + path + ", column " + std::string(column) + ": " + e.message());
        }
      }
    } else {
      throw_invalid("key file " + path + ": unknown member \"" + std::string(name) + "\"");
    }
  }
}

}  // namespace parquetry
