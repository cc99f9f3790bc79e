// Keys of encrypted files for every reading command: --footer-key,
// --column-key PATH=KEY (hex or base64), --key-file JSON, --aad-prefix.
// Key text is never printed back, not even in errors.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "parquetry/encryption.h"

namespace parquetry::cli {

struct KeyOptions {
  std::string footer_key;
  std::vector<std::string> column_keys;  // PATH=KEY
  std::string key_file;
  std::string aad_prefix;
  bool aad_prefix_given = false;

  /// The DecryptionOptions the flags describe (key file first, flags override).
  DecryptionOptions decryption() const;
};

/// Adds the key flags to a command.
void add_key_options(CLI::App* command, KeyOptions& options);

}  // namespace parquetry::cli
