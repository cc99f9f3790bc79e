// Opening a table: finding its metadata file (version hint, explicit
// version, highest version) and mapping the paths its metadata wrote to the
// folder it was opened from.
#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "parquetry/error.h"
#include "parquetry/iceberg_table.h"
#include "parquetry/iceberg_table/files.h"

namespace parquetry::iceberg {

bool file_exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool is_directory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<uint8_t> read_whole_file(const std::string& path, const std::string& what, int64_t max_size) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw_io(what + ": cannot open " + path, errno);
  if (std::fseek(file.get(), 0, SEEK_END) != 0) throw_io(what + ": cannot seek " + path, errno);
  const long size = std::ftell(file.get());
  if (size < 0) throw_io(what + ": cannot size " + path, errno);
  if (size > max_size)
    throw_limit(what + ": " + path + " has " + std::to_string(size) + " bytes, more than the limit");
  std::rewind(file.get());
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  if (size > 0 && std::fread(bytes.data(), 1, bytes.size(), file.get()) != bytes.size())
    throw_io(what + ": cannot read " + path, errno);
  return bytes;
}

std::string maybe_gunzip(std::vector<uint8_t> bytes, const std::string& what) {
  if (bytes.size() < 2 || bytes[0] != 0x1f || bytes[1] != 0x8b)
    return std::string(bytes.begin(), bytes.end());
  z_stream stream{};
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) throw_limit(what + ": cannot start gzip inflation");
  struct End {
    z_stream* s;
    ~End() { inflateEnd(s); }
  } end{&stream};
  std::string out;
  out.resize(std::max<size_t>(4096, bytes.size() * 4));
  stream.next_in = bytes.data();
  stream.avail_in = uInt(bytes.size());
  size_t produced = 0;
  for (;;) {
    if (produced == out.size()) {
      if (out.size() >= size_t(kMaxMetadataFileSize))
        throw_limit(what + ": gzip metadata inflates beyond the limit");
      out.resize(std::min<size_t>(out.size() * 2, size_t(kMaxMetadataFileSize)));
    }
    stream.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    stream.avail_out = uInt(out.size() - produced);
    const int r = inflate(&stream, Z_NO_FLUSH);
    produced = out.size() - stream.avail_out;
    if (r == Z_STREAM_END) break;
    if (r == Z_BUF_ERROR && stream.avail_in == 0) throw_corrupt(what + ": truncated gzip metadata");
    if (r != Z_OK && r != Z_BUF_ERROR) throw_corrupt(what + ": bad gzip metadata");
  }
  out.resize(produced);
  return out;
}

namespace {

// A view into `path`: planning calls this for every file, so no copy.
std::string_view strip_scheme(std::string_view path) {
  if (path.starts_with("file://")) {
    path.remove_prefix(7);
  } else if (path.starts_with("file:")) {
    path.remove_prefix(5);
  }
  while (path.starts_with("./")) path.remove_prefix(2);
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  return path;
}

std::string parent_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The number a metadata file name starts with: v12.metadata.json -> 12,
// 00003-uuid.metadata.json -> 3, v3.1.metadata.json -> 3 (then .1).
bool metadata_version(const std::string& name, std::pair<int64_t, std::string>& key) {
  if (!name.ends_with(".metadata.json")) return false;
  std::string_view s(name);
  if (s.starts_with("v")) s.remove_prefix(1);
  int64_t v = 0;
  size_t i = 0;
  while (i < s.size() && i < 18 && s[i] >= '0' && s[i] <= '9') v = v * 10 + (s[i++] - '0');
  if (i == 0) return false;
  key = {v, name};
  return true;
}

std::string find_in_metadata(const std::string& metadata_dir, const std::string& stem) {
  for (const std::string& candidate : {"v" + stem + ".metadata.json", "v" + stem + ".gz.metadata.json",
                                       stem + ".metadata.json", stem + ".gz.metadata.json", stem}) {
    const std::string path = metadata_dir + "/" + candidate;
    if (file_exists(std::string(path))) return std::string(path);
  }
  return "";
}

}  // namespace

Table Table::open(const std::string& path_in, const TableOpenOptions& options) {
  std::string path(strip_scheme(path_in));
  std::string root;
  std::string metadata_path;
  if (is_directory(path)) {
    root = path;
    const std::string metadata_dir = root + "/metadata";
    if (!options.metadata_file.empty()) {
      metadata_path = file_exists(options.metadata_file) ? options.metadata_file
                                                         : metadata_dir + "/" + options.metadata_file;
      if (!file_exists(metadata_path))
        throw_invalid("table " + root + ": metadata file " + options.metadata_file + " not found");
    } else if (!options.version.empty()) {
      metadata_path = find_in_metadata(metadata_dir, options.version);
      if (metadata_path.empty())
        throw_invalid("table " + root + ": no metadata file for version '" + options.version + "'");
    } else {
      const std::string hint_path = metadata_dir + "/version-hint.text";
      if (file_exists(hint_path)) {
        std::string hint = maybe_gunzip(read_whole_file(hint_path, "table " + root, 4096), "table " + root);
        while (!hint.empty() && (hint.back() == '\n' || hint.back() == '\r' || hint.back() == ' '))
          hint.pop_back();
        while (!hint.empty() && hint.front() == ' ') hint.erase(hint.begin());
        if (hint.empty()) throw_corrupt("table " + root + ": empty version-hint.text");
        metadata_path = find_in_metadata(metadata_dir, hint);
        if (metadata_path.empty())
          throw_corrupt("table " + root + ": version-hint.text names '" + hint +
                        "' but no such metadata file exists");
      } else {
        // No hint: the highest version present.
        std::pair<int64_t, std::string> best{-1, ""};
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(metadata_dir, ec)) {
          std::pair<int64_t, std::string> key;
          if (entry.is_regular_file(ec) && metadata_version(entry.path().filename().string(), key) &&
              key > best)
            best = key;
        }
        if (ec) throw_io("table " + root + ": cannot list " + metadata_dir, ec.value());
        if (best.first < 0)
          throw_invalid("table " + root + ": no version-hint.text and no metadata file in " + metadata_dir);
        metadata_path = metadata_dir + "/" + best.second;
      }
    }
  } else if (file_exists(path)) {
    metadata_path = path;
    const std::string dir = parent_of(path);
    root = base_of(dir) == "metadata" ? parent_of(dir) : dir;
  } else {
    throw_invalid("table " + path + ": no such folder or metadata file");
  }
  const std::string what = "table " + root + ": metadata " + metadata_path;
  TableMetadata metadata =
      parse_table_metadata(maybe_gunzip(read_whole_file(metadata_path, what), what), what);
  return from_metadata(std::move(metadata), std::move(root), std::move(metadata_path));
}

Table Table::from_metadata(TableMetadata metadata, std::string root, std::string metadata_path) {
  Table table;
  table.metadata_ = std::move(metadata);
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  table.root_ = std::move(root);
  table.metadata_path_ = std::move(metadata_path);
  return table;
}

std::string Table::local_path(std::string_view written) const {
  const std::string_view path = strip_scheme(written);
  const std::string_view location = strip_scheme(metadata_.location);
  if (!location.empty() && path.size() > location.size() && path.starts_with(location) &&
      path[location.size()] == '/') {
    std::string local;
    local.reserve(root_.size() + path.size() - location.size());
    local.append(root_).append(path.substr(location.size()));
    return local;
  }
  // The part that names files relative to some root: after a known
  // repository prefix, after the bucket of an object-store URL, or the
  // whole relative path.
  std::string_view rel = path;
  if (const size_t p = rel.find("data/persistent/"); p != std::string_view::npos) {
    rel.remove_prefix(p + 16);
  } else if (const size_t scheme = rel.find("://"); scheme != std::string_view::npos) {
    rel.remove_prefix(scheme + 3);
    const size_t slash = rel.find('/');
    rel = slash == std::string_view::npos ? std::string_view() : rel.substr(slash + 1);
  } else if (rel.starts_with("/")) {
    return std::string(path);  // an absolute local path
  }
  // The longest leading run of rel's folders that the opened folder ends
  // with anchors the rest there: "t/metadata/x.avro" opened as ".../t".
  std::vector<size_t> slashes;
  for (size_t i = 0; i < rel.size(); ++i) {
    if (rel[i] == '/') slashes.push_back(i);
  }
  for (size_t k = slashes.size(); k-- > 0;) {
    const std::string_view prefix = rel.substr(0, slashes[k]);
    if (root_ == prefix || (root_.size() > prefix.size() && root_.ends_with(prefix) &&
                            root_[root_.size() - prefix.size() - 1] == '/'))
      return root_ + std::string(rel.substr(slashes[k]));
  }
  // Elsewhere under an ancestor of the opened folder (files another table
  // folder holds): the first ancestor where the file exists.
  std::string ancestor = root_;
  for (int up = 0; up < 8; ++up) {
    const std::string candidate = ancestor + "/" + std::string(rel);
    if (file_exists(candidate)) return candidate;
    const std::string parent = parent_of(ancestor);
    if (parent == ancestor) break;
    ancestor = parent;
  }
  if (file_exists(std::string(path))) return std::string(path);
  return root_ + "/" + std::string(rel);
}

}  // namespace parquetry::iceberg
