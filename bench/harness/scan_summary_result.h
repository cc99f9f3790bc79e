// The harness's ScanResult form of parquetry's full-scan fold (scan.h), shared
// by every suite whose cases fold a scan and are checked against a DuckDB peer.
#pragma once

#include <string>
#include <utility>
#include <variant>

#include "parquetry/scan.h"
#include "scan_result.h"

namespace parquetry::bench {

/// The scan-result kind of a column type (lists by their element type).
inline ValueKind scan_kind_of(const DataType& type) {
  switch (type.id) {
    case TypeId::kFloat32:
    case TypeId::kFloat64: return ValueKind::kDouble;
    case TypeId::kString:
    case TypeId::kLargeString: return ValueKind::kString;
    case TypeId::kTimestamp: return ValueKind::kTimestamp;
    case TypeId::kList:
    case TypeId::kLargeList: {
      const TypeId item = type.children[0].type.id;
      return item == TypeId::kFloat32 || item == TypeId::kFloat64 ? ValueKind::kListDouble
                                                                  : ValueKind::kListInt64;
    }
    default: return ValueKind::kInt64;
  }
}

/// A fold's min or max; timestamps become microseconds, the peers' unit.
inline ScalarValue scan_scalar_of(const ScanScalar& value, const DataType& type) {
  if (const auto* v = std::get_if<int64_t>(&value)) {
    if (type.id != TypeId::kTimestamp) return *v;
    switch (type.unit) {
      case ArrowTimeUnit::kSecond: return *v * 1000000;
      case ArrowTimeUnit::kMilli: return *v * 1000;
      case ArrowTimeUnit::kMicro: return *v;
      case ArrowTimeUnit::kNano: return *v / 1000;
    }
  }
  if (const auto* v = std::get_if<uint64_t>(&value)) return int64_t(*v);
  if (const auto* v = std::get_if<double>(&value)) return *v;
  if (const auto* v = std::get_if<std::string>(&value)) return *v;
  return std::monostate{};
}

/// The whole fold in the harness's form.
inline ScanResult to_scan_result(const ScanSummary& summary) {
  ScanResult result;
  result.rows = summary.rows;
  for (const ColumnScanSummary& column : summary.columns) {
    ColumnStats stats;
    stats.name = column.name;
    stats.kind = scan_kind_of(column.type);
    stats.count = column.count;
    stats.nulls = column.nulls;
    if (is_list(stats.kind)) {
      stats.sum_int = column.sum_int;
      stats.sum_double = column.sum_double;
    } else {
      stats.min = scan_scalar_of(column.min, column.type);
      stats.max = scan_scalar_of(column.max, column.type);
    }
    result.columns.push_back(std::move(stats));
  }
  return result;
}

}  // namespace parquetry::bench
