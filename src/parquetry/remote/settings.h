// Where S3 settings come from: RemoteOptions first, then the AWS_*
// environment variables, then the profile in ~/.aws/credentials and
// ~/.aws/config. Credentials live only here and in the signer; nothing in
// this file is ever put in a message.
#pragma once

#include <map>
#include <string>

#include "parquetry/remote.h"
#include "parquetry/remote/url.h"

namespace parquetry::remote {

struct S3Settings {
  Origin endpoint;  ///< where requests go (path style) or the base host (virtual-hosted)
  bool custom_endpoint = false;
  bool path_style = true;
  std::string region;
  bool anonymous = true;  ///< no credentials found, or asked for
  std::string access_key;
  std::string secret_key;
  std::string session_token;
};

/// Resolves the settings for S3 requests (see the top of this file).
S3Settings resolve_s3_settings(const RemoteOptions& options);

/// The sections of an INI file ("[name]" -> key -> value); keys lowercase,
/// values trimmed. A missing file gives an empty map.
std::map<std::string, std::map<std::string, std::string>> read_ini(const std::string& path);

}  // namespace parquetry::remote
