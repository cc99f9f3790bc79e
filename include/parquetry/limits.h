// Resource limits applied while parsing untrusted files.
//
// Every size, count and length read from a file is checked against these
// before memory is allocated for it. The defaults accept every real-world
// file we know of while bounding what a hostile file can make us allocate.
// docs/limits.md lists each limit with its default and the error it raises.
#pragma once

#include <cstdint>

#include "parquetry/export.h"

namespace parquetry {

struct Limits {
  /// Largest footer (FileMetaData) accepted, in bytes.
  int64_t max_footer_size = 256LL << 20;
  /// Largest single Thrift string or binary field, in bytes.
  int64_t max_thrift_string_size = 100LL << 20;
  /// Largest Thrift list/set/map, in elements.
  int64_t max_thrift_container_size = 10'000'000;
  /// Deepest nesting of Thrift structs, and of the Parquet schema tree.
  int32_t max_nesting_depth = 64;
  /// Largest page header, in bytes.
  int64_t max_page_header_size = 16LL << 20;
  /// Largest page body, compressed or uncompressed, in bytes: by default the
  /// most a page header's 32-bit sizes can declare, as real writers fill
  /// that range (a 1 GiB string is a 1 GiB page). A page that inflates past
  /// its declared size, or past this, is rejected; services reading
  /// untrusted files lower it to bound what one page may allocate.
  int64_t max_page_size = (1LL << 31) - 1;
  /// Largest dictionary page, uncompressed, in bytes (default as above).
  int64_t max_dictionary_size = (1LL << 31) - 1;
  /// Most values (levels included) one page may declare.
  int64_t max_values_per_page = 1LL << 28;
  /// Most rows one output batch may hold.
  int64_t max_rows_per_batch = 1LL << 24;
  /// Memory the reader may hold for buffered column chunks and read-ahead.
  int64_t reader_memory_budget = 4LL << 30;
};

}  // namespace parquetry
