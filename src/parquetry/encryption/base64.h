// Internal: standard base64 (with padding) through OpenSSL, for key text,
// key-tools key material and wrapped keys.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace parquetry::crypto {

std::string base64_encode(std::string_view bytes);
/// nullopt unless `text` is well-formed padded base64.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace parquetry::crypto
