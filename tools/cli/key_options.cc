#include "key_options.h"

#include "parquetry/error.h"

namespace parquetry::cli {

DecryptionOptions KeyOptions::decryption() const {
  DecryptionOptions out;
  if (!key_file.empty()) load_key_file(key_file, out);
  if (!footer_key.empty()) {
    try {
      out.footer_key = parse_key(footer_key);
    } catch (const Error& e) {
      throw_invalid("--footer-key: " + e.message());
    }
  }
  for (const std::string& entry : column_keys) {
    const size_t equals = entry.find('=');
    if (equals == std::string::npos || equals == 0) throw_invalid("--column-key expects PATH=KEY");
    const std::string path = entry.substr(0, equals);
    try {
      out.column_keys[path] = parse_key(std::string_view(entry).substr(equals + 1));
    } catch (const Error& e) {
      throw_invalid("--column-key " + path + ": " + e.message());
    }
  }
  if (aad_prefix_given) out.aad_prefix = aad_prefix;
  return out;
}

void add_key_options(CLI::App* command, KeyOptions& options) {
  command->add_option("--footer-key", options.footer_key,
                      "footer key of an encrypted file (hex or base64 of 16, 24 or 32 bytes)");
  command->add_option("--column-key", options.column_keys, "PATH=KEY: the key of an encrypted column (repeatable)");
  command->add_option("--key-file", options.key_file,
                      "JSON file {\"footer_key\": ..., \"column_keys\": {PATH: KEY}, \"aad_prefix\": ...}");
  command->add_option("--aad-prefix", options.aad_prefix, "AAD prefix of a file that does not store it")
      ->each([&options](const std::string&) { options.aad_prefix_given = true; });
}

}  // namespace parquetry::cli
