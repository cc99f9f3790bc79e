#include "parquetry/remote/settings.h"

#include <cctype>
#include <cstdlib>
#include <fstream>

namespace parquetry::remote {

namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

std::string trim(const std::string& text) {
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return text.substr(begin, end - begin);
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string home_file(const char* override_variable, const char* relative) {
  std::string path = env(override_variable);
  if (!path.empty()) return path;
  const std::string home = env("HOME");
  return home.empty() ? std::string() : home + "/" + relative;
}

std::string first_of(std::initializer_list<std::string> values) {
  for (const std::string& value : values) {
    if (!value.empty()) return value;
  }
  return {};
}

}  // namespace

std::map<std::string, std::map<std::string, std::string>> read_ini(const std::string& path) {
  std::map<std::string, std::map<std::string, std::string>> sections;
  if (path.empty()) return sections;
  std::ifstream in(path);
  std::string line;
  std::string section;
  // Bounded: a settings file has no business being large.
  size_t lines = 0;
  while (std::getline(in, line) && ++lines < 100000) {
    line = trim(line);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[' && line.back() == ']') {
      section = trim(line.substr(1, line.size() - 2));
      continue;
    }
    const size_t equals = line.find('=');
    if (equals == std::string::npos || section.empty()) continue;
    sections[section][lower(trim(line.substr(0, equals)))] = trim(line.substr(equals + 1));
  }
  return sections;
}

S3Settings resolve_s3_settings(const RemoteOptions& options) {
  const std::string profile = first_of({options.profile, env("AWS_PROFILE"), "default"});
  auto credentials = read_ini(home_file("AWS_SHARED_CREDENTIALS_FILE", ".aws/credentials"));
  auto config = read_ini(home_file("AWS_CONFIG_FILE", ".aws/config"));
  // ~/.aws/config names profiles "[profile x]" except the default one.
  const std::map<std::string, std::string>& profile_config =
      config.count("profile " + profile) ? config["profile " + profile] : config[profile];
  const std::map<std::string, std::string>& profile_credentials = credentials[profile];
  auto setting = [&](const std::string& key) {
    auto found = profile_credentials.find(key);
    if (found != profile_credentials.end()) return found->second;
    found = profile_config.find(key);
    return found == profile_config.end() ? std::string() : found->second;
  };

  S3Settings settings;
  settings.region = first_of(
      {options.region, env("AWS_REGION"), env("AWS_DEFAULT_REGION"), setting("region"), "us-east-1"});
  const std::string endpoint = first_of(
      {options.endpoint, env("AWS_ENDPOINT_URL_S3"), env("AWS_ENDPOINT_URL"), setting("endpoint_url")});
  if (endpoint.empty()) {
    settings.endpoint = parse_origin("https://s3." + settings.region + ".amazonaws.com");
  } else {
    settings.endpoint = parse_origin(endpoint);
    settings.custom_endpoint = true;
  }
  // Custom endpoints (MinIO, local servers) rarely have wildcard DNS for
  // bucket subdomains; AWS prefers virtual-hosted addressing.
  settings.path_style = options.path_style.value_or(settings.custom_endpoint);

  // Keys from the environment come as a pair; mixing an environment key with
  // a profile's secret would sign with the wrong secret.
  std::string key = env("AWS_ACCESS_KEY_ID");
  std::string secret = env("AWS_SECRET_ACCESS_KEY");
  std::string token = env("AWS_SESSION_TOKEN");
  if (key.empty() || secret.empty()) {
    key = setting("aws_access_key_id");
    secret = setting("aws_secret_access_key");
    token = setting("aws_session_token");
  }
  settings.anonymous = options.anonymous || key.empty() || secret.empty();
  if (!settings.anonymous) {
    settings.access_key = std::move(key);
    settings.secret_key = std::move(secret);
    settings.session_token = std::move(token);
  }
  return settings;
}

}  // namespace parquetry::remote
