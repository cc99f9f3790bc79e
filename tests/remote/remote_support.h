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

/// Every value of a file of flat, non-null fixed-width and string columns
/// (the taxi-like file), one byte string per projected column across all
/// batches: strings as 4-byte length + bytes. Compares a remote scan with
/// the local one exactly, at a fraction of all_rows' cost (which the tests
/// of 120,000 rows would spend most of their time in). Other column types
/// throw.
std::vector<std::string> flat_values(FileReader& reader);

/// Writes `path`: kTaxiRowGroups row groups of kTaxiGroupRows rows, columns
/// id (int64), fare (double), passengers (int64, dictionary), vendor
/// (string), distance (double), tip (double).
void write_taxi_like(const std::filesystem::path& path);
inline constexpr int kTaxiRowGroups = 6;
inline constexpr int64_t kTaxiGroupRows = 20000;

}  // namespace parquetry::testing
