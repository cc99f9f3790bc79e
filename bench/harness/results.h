// The harness's view of a finished run: one row per case (ours or the
// peer's), the tables they form, and their JSON file (docs/benchmarks.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "machine.h"
#include "stats.h"

namespace parquetry::bench {

struct Row {
  std::string benchmark;  ///< full name, unique in a run (the compare key)
  std::string suite;
  std::string table;
  std::string case_name;
  std::string params_text;
  std::vector<std::pair<std::string, std::string>> params;
  std::string engine = "parquetry";  ///< "parquetry" or the peer's name
  bool is_peer = false;
  std::string mode = "avgt";       ///< "avgt" or "ss"
  std::vector<double> samples_ns;  ///< time per operation, one per measured repetition
  Summary summary;                 ///< over samples_ns
  double bytes_per_op = -1;        ///< -1 when not measured (peers)
  double allocs_per_op = -1;
  long peak_rss_kb = 0;
  /// Cold rows (mode "cold"): median minor page faults and kernel seconds of
  /// one operation (ours: the op alone; a peer's: its whole fresh process,
  /// runtime start included); -1 when not measured.
  double minor_faults = -1;
  double kernel_seconds = -1;
  std::string baseline;  ///< benchmark name of the row the ratio divides by
  double ratio = 0;      ///< baseline score / this score (>1: faster than baseline); 0 when none
  bool ok = true;
  std::string message;      ///< why the row failed
  bool verified = false;    ///< result compared equal with the peer's
  std::string result_json;  ///< the case's ScanResult (first fork), empty when it reported none
};

struct DatasetFact {
  std::string name, path, params_key, content_checksum, file_checksum;
  int64_t rows = 0, bytes = 0;
};

struct RunSettings {
  std::string profile;
  int warmup = 0, measure = 0, forks = 0;
  double iteration_seconds = 0;
  std::string mode_override;
  int cold = 0;  ///< cold samples per cold() case (0: none measured)
};

struct RunResults {
  std::string created;  ///< UTC, ISO 8601
  RunSettings settings;
  MachineFacts machine;
  std::string peer_versions;  ///< e.g. "duckdb v1.5.6"
  std::vector<DatasetFact> datasets;
  std::vector<Row> rows;
};

/// Fills baseline and ratio of every row: the peer row of the same table and
/// params, else the table's baseline() case, else its first harness case.
/// Before the call `baseline` marks harness rows: "self" (declared baseline) or "api".
void assign_baselines(std::vector<Row>& rows);
/// JMH-shaped text table of the rows of one table.
std::string format_table(const std::vector<const Row*>& rows);
std::string results_to_json(const RunResults& results);
/// Reads the rows back (for `compare`); throws std::runtime_error when malformed.
std::vector<Row> rows_from_json_file(const std::string& path);
/// "Benchmark (params) A B ratio" text comparing two runs.
std::string format_comparison(const std::vector<Row>& a, const std::vector<Row>& b, const std::string& name_a,
                              const std::string& name_b);

}  // namespace parquetry::bench
