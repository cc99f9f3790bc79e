// ListObjectsV2: the objects under an s3:// prefix, page by page.
#include <string_view>

#include "parquetry/error.h"
#include "parquetry/remote.h"
#include "parquetry/remote/http_client.h"
#include "parquetry/remote/object_requests.h"

namespace parquetry {

namespace {

// A listing page holds at most 1000 keys of at most 1 KiB each plus markup.
constexpr int64_t kMaxPageBytes = 8 << 20;

std::string xml_unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '&') {
      out += text[i];
      continue;
    }
    const size_t end = text.find(';', i);
    if (end == std::string_view::npos || end - i > 10) throw_corrupt("malformed XML entity in a listing");
    const std::string_view entity = text.substr(i + 1, end - i - 1);
    if (entity == "amp")
      out += '&';
    else if (entity == "lt")
      out += '<';
    else if (entity == "gt")
      out += '>';
    else if (entity == "quot")
      out += '"';
    else if (entity == "apos")
      out += '\'';
    else if (entity.size() > 1 && entity[0] == '#') {
      const bool hex = entity[1] == 'x';
      const std::string digits(entity.substr(hex ? 2 : 1));
      if (digits.empty() ||
          digits.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") != std::string::npos) {
        throw_corrupt("malformed XML character reference in a listing");
      }
      const unsigned long code = std::stoul(digits, nullptr, hex ? 16 : 10);
      if (code > 0x10FFFF) throw_corrupt("XML character reference out of range in a listing");
      // UTF-8 encode.
      if (code < 0x80) {
        out += char(code);
      } else if (code < 0x800) {
        out += char(0xC0 | (code >> 6));
        out += char(0x80 | (code & 0x3F));
      } else if (code < 0x10000) {
        out += char(0xE0 | (code >> 12));
        out += char(0x80 | ((code >> 6) & 0x3F));
        out += char(0x80 | (code & 0x3F));
      } else {
        out += char(0xF0 | (code >> 18));
        out += char(0x80 | ((code >> 12) & 0x3F));
        out += char(0x80 | ((code >> 6) & 0x3F));
        out += char(0x80 | (code & 0x3F));
      }
    } else {
      throw_corrupt("unknown XML entity in a listing");
    }
    i = end;
  }
  return out;
}

/// The text of the first <tag>...</tag> in [from, to) of `xml`; npos-safe.
bool element(std::string_view xml, std::string_view tag, std::string& out) {
  const std::string open = "<" + std::string(tag) + ">";
  const std::string close = "</" + std::string(tag) + ">";
  const size_t a = xml.find(open);
  if (a == std::string_view::npos) return false;
  const size_t b = xml.find(close, a + open.size());
  if (b == std::string_view::npos) throw_corrupt("unterminated <" + std::string(tag) + "> in a listing");
  out = xml_unescape(xml.substr(a + open.size(), b - a - open.size()));
  return true;
}

}  // namespace

std::vector<ObjectInfo> list_objects(const std::string& prefix_url, const RemoteOptions& options,
                                     int64_t max_objects) {
  if (!prefix_url.starts_with("s3://")) {
    throw_invalid("list_objects needs an s3:// URL: " + remote::display_url(prefix_url));
  }
  const std::string rest = prefix_url.substr(5);
  const size_t slash = rest.find('/');
  const std::string bucket = rest.substr(0, slash);
  const std::string prefix = slash == std::string::npos ? std::string() : rest.substr(slash + 1);
  if (bucket.empty()) throw_invalid("list_objects: no bucket in " + remote::display_url(prefix_url));
  // The key only completes the URL: a listing addresses the bucket.
  const remote::Target target = remote::make_target("s3://" + bucket + "/.", options);
  std::vector<ObjectInfo> objects;
  std::string token;
  for (int page = 0;; ++page) {
    // Canonical query: names sorted, values encoded (the signature covers it).
    std::string query;
    if (!token.empty()) query += "continuation-token=" + remote::uri_encode(token, false) + "&";
    query += "list-type=2";
    if (!prefix.empty()) query += "&prefix=" + remote::uri_encode(prefix, false);
    std::string body;
    remote::HttpRequest request = remote::bucket_request(target, query);
    request.text = &body;
    request.text_limit = kMaxPageBytes;
    std::vector<remote::HttpResponse> responses;
    remote::HttpCounters counters;
    remote::perform(std::span<remote::HttpRequest>(&request, 1), responses, options, counters);
    std::string_view xml = body;
    size_t at = 0;
    while (true) {
      const size_t a = xml.find("<Contents>", at);
      if (a == std::string_view::npos) break;
      const size_t b = xml.find("</Contents>", a);
      if (b == std::string_view::npos) throw_corrupt("unterminated <Contents> in a listing");
      const std::string_view entry = xml.substr(a, b - a);
      ObjectInfo info;
      std::string size_text;
      if (!element(entry, "Key", info.key) || !element(entry, "Size", size_text)) {
        throw_corrupt("listing entry without Key or Size");
      }
      if (size_text.empty() || size_text.size() > 18 ||
          size_text.find_first_not_of("0123456789") != std::string::npos) {
        throw_corrupt("listing entry with a bad Size: " + size_text);
      }
      info.size = std::stoll(size_text);
      element(entry, "ETag", info.etag);
      if (int64_t(objects.size()) >= max_objects) {
        throw_limit("listing of " + remote::display_url(prefix_url) + " has more than " +
                    std::to_string(max_objects) + " objects");
      }
      objects.push_back(std::move(info));
      at = b;
    }
    std::string truncated;
    element(xml, "IsTruncated", truncated);
    if (truncated != "true") break;
    if (!element(xml, "NextContinuationToken", token) || token.empty()) {
      throw_corrupt("truncated listing without a continuation token");
    }
  }
  return objects;
}

}  // namespace parquetry
