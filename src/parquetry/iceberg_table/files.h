// Whole-file reads of table metadata, manifest lists, manifests and small
// delete files, bounded in size; gzip metadata inflated within a bound.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace parquetry::iceberg {

/// Largest metadata, manifest list or manifest file read whole.
inline constexpr int64_t kMaxMetadataFileSize = int64_t(1) << 30;

/// The bytes of `path`. Throws kIo naming `what` (table, snapshot, file)
/// when the file is missing or unreadable, kLimitExceeded beyond `max_size`.
std::vector<uint8_t> read_whole_file(const std::string& path, const std::string& what,
                                     int64_t max_size = kMaxMetadataFileSize);

/// `bytes` inflated when they start with the gzip magic, else unchanged.
std::string maybe_gunzip(std::vector<uint8_t> bytes, const std::string& what);

bool file_exists(const std::string& path);
bool is_directory(const std::string& path);

}  // namespace parquetry::iceberg
