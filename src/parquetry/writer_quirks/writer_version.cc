// created_by -> application, version, build. Writers agree on the shape
// "<application> version <version> (build <build>)" but not on the details:
// DuckDB prefixes a 'v', Impala and CDH builds append "-cdh5", snapshots
// "-SNAPSHOT", and some writers (Polars, older Spark builds) write a bare name.
#include <cctype>
#include <string>
#include <string_view>

#include "parquetry/writer_quirks.h"

namespace parquetry {
namespace {

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return text;
}

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// Position of the word "version" (any case) with a space on each side, or npos.
size_t find_version_word(std::string_view text) {
  constexpr std::string_view kWord = "version";
  for (size_t i = 0; i + kWord.size() <= text.size(); ++i) {
    if (!equal_ignoring_case(text.substr(i, kWord.size()), kWord)) continue;
    const bool before = i > 0 && space(text[i - 1]);
    const bool after = i + kWord.size() < text.size() && space(text[i + kWord.size()]);
    if (before && after) return i;
  }
  return std::string_view::npos;
}

// Reads up to 9 digits (so the value fits an int32); false when none.
bool read_number(std::string_view& text, int32_t& out) {
  size_t n = 0;
  int32_t value = 0;
  while (n < text.size() && n < 9 && std::isdigit(static_cast<unsigned char>(text[n]))) {
    value = value * 10 + (text[n] - '0');
    ++n;
  }
  if (n == 0) return false;
  out = value;
  text.remove_prefix(n);
  return true;
}

void parse_version(std::string_view token, WriterVersion& out) {
  if (!token.empty() && (token[0] == 'v' || token[0] == 'V')) token.remove_prefix(1);
  if (!read_number(token, out.major)) return;
  out.has_version = true;
  if (!token.empty() && token[0] == '.') {
    token.remove_prefix(1);
    if (read_number(token, out.minor) && !token.empty() && token[0] == '.') {
      token.remove_prefix(1);
      read_number(token, out.patch);
    }
  }
  // Whatever follows the numbers is a pre-release ("-SNAPSHOT", "-cdh5",
  // "rc1"); "+metadata" is build metadata and does not order.
  size_t plus = token.find('+');
  std::string_view rest = token.substr(0, plus);
  if (!rest.empty() && (rest[0] == '-' || rest[0] == '.' || rest[0] == '_')) rest.remove_prefix(1);
  out.pre_release = std::string(rest);
}

}  // namespace

bool WriterVersion::is(std::string_view name) const { return equal_ignoring_case(application, name); }

bool WriterVersion::before(int32_t want_major, int32_t want_minor, int32_t want_patch) const {
  if (!has_version) return true;
  if (major != want_major) return major < want_major;
  if (minor != want_minor) return minor < want_minor;
  if (patch != want_patch) return patch < want_patch;
  return !pre_release.empty();
}

std::string WriterVersion::to_string() const {
  if (!present) return "unknown writer";
  std::string out = application.empty() ? std::string("unknown writer") : application;
  if (has_version) {
    out += ' ' + std::to_string(major) + '.' + std::to_string(minor) + '.' + std::to_string(patch);
    if (!pre_release.empty()) out += '-' + pre_release;
  }
  if (!build.empty()) out += " (build " + build + ")";
  return out;
}

WriterVersion parse_created_by(std::string_view created_by) {
  WriterVersion out;
  std::string_view text = trim(created_by);
  out.present = !text.empty();
  if (text.empty()) return out;
  // The build note, when present, closes the string: "... (build abcd)".
  size_t open = text.rfind('(');
  if (open != std::string_view::npos && text.back() == ')') {
    std::string_view note = trim(text.substr(open + 1, text.size() - open - 2));
    constexpr std::string_view kBuild = "build";
    if (note.size() >= kBuild.size() && equal_ignoring_case(note.substr(0, kBuild.size()), kBuild)) {
      out.build = std::string(trim(note.substr(kBuild.size())));
    }
    text = trim(text.substr(0, open));
  }
  size_t word = find_version_word(text);
  if (word == std::string_view::npos) {
    out.application = std::string(text);
    return out;
  }
  out.application = std::string(trim(text.substr(0, word)));
  std::string_view rest = trim(text.substr(word + 7));
  size_t end = 0;
  while (end < rest.size() && !space(rest[end])) ++end;
  parse_version(rest.substr(0, end), out);
  return out;
}

}  // namespace parquetry
