// Helpers of the remote tests: every row of a read as JSON text (to compare a
// remote read with the local one value by value), and a small taxi-like file
// with several row groups for request counting and fault replay.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "parquetry/reader.h"

namespace parquetry::testing {

/// Every row of every batch of `reader`, one JSON text each.
std::vector<std::string> all_rows(FileReader& reader);

/// Writes `path`: kTaxiRowGroups row groups of kTaxiGroupRows rows, columns
/// id (int64), fare (double), passengers (int64, dictionary), vendor
/// (string), distance (double), tip (double).
void write_taxi_like(const std::filesystem::path& path);
inline constexpr int kTaxiRowGroups = 6;
inline constexpr int64_t kTaxiGroupRows = 20000;

}  // namespace parquetry::testing
