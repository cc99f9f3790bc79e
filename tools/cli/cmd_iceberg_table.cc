// `parquetry iceberg scan|info|files TABLE`: Iceberg tables.
//
//   scan  TABLE [--snapshot ID | --as-of TS | --ref NAME] [--metadata FILE]
//         [--version V] [--columns a,b] [--where PRED] [--threads N]
//         [--csv | --count] [--limit N]
//         rows of a snapshot as JSON lines (as `parquetry cat`), CSV, or
//         only their number
//   info  TABLE [--json]   format version, schemas, specs, snapshots, refs
//   files TABLE [--where PRED] [--json]   the planned data files, their
//         deletes and what pruning removed
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "parquetry/error.h"
#include "parquetry/iceberg_table.h"
#include "parquetry/table/json_values.h"
#include "parquetry/util/json_writer.h"

namespace parquetry::cli {
namespace {

using namespace parquetry::iceberg;

struct TableOptions {
  std::string table;
  std::string metadata;
  std::string version;
  int64_t snapshot = 0;
  bool has_snapshot = false;
  std::string as_of;
  std::string ref;
  std::string columns;
  std::string where;
  int threads = 1;
  bool csv = false;
  bool count = false;
  bool json = false;
  int64_t limit = -1;
};

std::vector<std::string> split_columns(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    if (comma > start) out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

Table open_table(const TableOptions& o) {
  TableOpenOptions open;
  open.metadata_file = o.metadata;
  open.version = o.version;
  return Table::open(o.table, open);
}

SnapshotSelection selection(const TableOptions& o) {
  SnapshotSelection s;
  if (o.has_snapshot) s.snapshot_id = o.snapshot;
  if (!o.as_of.empty()) {
    // Milliseconds since the epoch, or a UTC timestamp text.
    const std::string& t = o.as_of;
    if (t.find_first_not_of("0123456789-") == std::string::npos && t.find('-', 1) == std::string::npos) {
      s.as_of_ms = std::stoll(t);
    } else {
      auto ms = parse_timestamp(t, TimeUnit::MILLIS);
      if (!ms) throw_invalid("--as-of: cannot read '" + t + "' as a timestamp");
      s.as_of_ms = *ms;
    }
  }
  s.ref = o.ref;
  return s;
}

void flush(std::string& out) {
  std::fwrite(out.data(), 1, out.size(), stdout);
  out.clear();
}

void write_csv_field(std::string& line, const ArrayData& array, int64_t row) {
  if (array.type->id == TypeId::kNull || !array.is_valid(row)) return;
  JsonWriter writer;
  write_json_value(writer, array, row);
  std::string text = writer.take();
  if (!array.type->is_nested() && text.size() >= 2 && text.front() == '"') text = text.substr(1, text.size() - 2);
  if (text.find_first_of(",\"\n\r") == std::string::npos) {
    line += text;
    return;
  }
  line += '"';
  for (char c : text) {
    if (c == '"') line += '"';
    line += c;
  }
  line += '"';
}

void run_scan(const TableOptions& o) {
  if (o.csv && o.count) throw_invalid("iceberg scan: --csv and --count cannot be combined");
  const Table table = open_table(o);
  TableScanOptions options;
  options.snapshot = selection(o);
  options.columns = split_columns(o.columns);
  if (!o.where.empty()) options.filter = parse_predicate(o.where);
  options.threads = o.threads;
  auto scan = TableScan::open(table, options);
  std::string out;
  if (o.count) {
    out = std::to_string(scan->count()) + "\n";
    flush(out);
    std::fflush(stdout);
    return;
  }
  if (o.csv) {
    const auto& fields = scan->schema()->fields;
    for (size_t c = 0; c < fields.size(); ++c) {
      if (c != 0) out += ',';
      out += fields[c].name;
    }
    out += '\n';
  }
  RecordBatch batch;
  int64_t printed = 0;
  while ((o.limit < 0 || printed < o.limit) && scan->next(batch)) {
    for (int64_t row = 0; row < batch.num_rows && (o.limit < 0 || printed < o.limit); ++row, ++printed) {
      if (o.csv) {
        for (size_t c = 0; c < batch.columns.size(); ++c) {
          if (c != 0) out += ',';
          write_csv_field(out, *batch.columns[c], row);
        }
      } else {
        JsonWriter writer;
        write_json_row(writer, batch, row);
        out += writer.str();
      }
      out += '\n';
      if (out.size() > (1 << 16)) flush(out);
    }
  }
  flush(out);
  std::fflush(stdout);
}

void write_schema(JsonWriter& w, const IcebergSchema& s) {
  w.begin_object().field("schema-id", s.schema_id).key("fields").begin_array();
  for (const SchemaField& f : s.fields) {
    w.begin_object().field("id", f.id).field("name", f.name).field("type", f.type.to_string()).field("required", f.required);
    if (!f.initial_default_json.empty()) w.key("initial-default").raw(f.initial_default_json);
    w.end_object();
  }
  w.end_array().end_object();
}

void run_info(const TableOptions& o) {
  const Table table = open_table(o);
  const TableMetadata& m = table.metadata();
  std::string out;
  if (o.json) {
    JsonWriter w;
    w.begin_object()
        .field("table", table.root())
        .field("metadata", table.metadata_path())
        .field("format-version", m.format_version)
        .field("location", m.location)
        .field("table-uuid", m.table_uuid)
        .field("current-schema-id", m.current_schema_id);
    w.key("current-snapshot-id");
    if (m.current_snapshot_id) {
      w.string(std::to_string(*m.current_snapshot_id));
    } else {
      w.null();
    }
    w.key("schemas").begin_array();
    for (const IcebergSchema& s : m.schemas) write_schema(w, s);
    w.end_array().key("partition-specs").begin_array();
    for (const PartitionSpec& spec : m.specs) {
      w.begin_object().field("spec-id", spec.spec_id).key("fields").begin_array();
      for (const PartitionField& f : spec.fields)
        w.begin_object().field("name", f.name).field("source-id", f.source_id).field("field-id", f.field_id).field("transform", f.transform.text).end_object();
      w.end_array().end_object();
    }
    w.end_array().key("snapshots").begin_array();
    for (const Snapshot& s : m.snapshots) {
      // Ids as strings: they exceed 2^53.
      w.begin_object().field("snapshot-id", std::to_string(s.snapshot_id)).field("sequence-number", s.sequence_number).field("timestamp-ms", s.timestamp_ms);
      w.key("summary").begin_object();
      for (const auto& [k, v] : s.summary) w.field(k, v);
      w.end_object().end_object();
    }
    w.end_array().key("refs").begin_object();
    for (const SnapshotRef& r : m.refs) w.key(r.name).begin_object().field("snapshot-id", std::to_string(r.snapshot_id)).field("type", r.type).end_object();
    w.end_object().key("properties").begin_object();
    for (const auto& [k, v] : m.properties) w.field(k, v);
    w.end_object().end_object();
    out = w.str() + "\n";
  } else {
    out += "table: " + table.root() + "\nmetadata: " + table.metadata_path() + "\nformat version: " + std::to_string(m.format_version) +
           "\nlocation: " + m.location + "\ncurrent snapshot: " +
           (m.current_snapshot_id ? std::to_string(*m.current_snapshot_id) : std::string("(none)")) + "\n";
    for (const IcebergSchema& s : m.schemas) {
      out += "schema " + std::to_string(s.schema_id) + (s.schema_id == m.current_schema_id ? " (current)" : "") + ":\n";
      for (const SchemaField& f : s.fields)
        out += "  " + std::to_string(f.id) + " " + f.name + ": " + f.type.to_string() + (f.required ? " required" : "") + "\n";
    }
    for (const PartitionSpec& spec : m.specs) {
      out += "partition spec " + std::to_string(spec.spec_id) + ":";
      for (const PartitionField& f : spec.fields) out += " " + f.name + "=" + f.transform.text + "(" + std::to_string(f.source_id) + ")";
      out += "\n";
    }
    for (const Snapshot& s : m.snapshots) {
      const std::string* op = nullptr;
      for (const auto& [k, v] : s.summary) {
        if (k == "operation") op = &v;
      }
      out += "snapshot " + std::to_string(s.snapshot_id) + " seq " + std::to_string(s.sequence_number) + " at " +
             std::to_string(s.timestamp_ms) + " ms" + (op ? " " + *op : "") + "\n";
    }
    for (const SnapshotRef& r : m.refs) out += "ref " + r.name + " (" + r.type + ") -> " + std::to_string(r.snapshot_id) + "\n";
  }
  flush(out);
  std::fflush(stdout);
}

const char* content_name(FileContent c) {
  switch (c) {
    case FileContent::kData: return "data";
    case FileContent::kPositionDeletes: return "position-deletes";
    case FileContent::kEqualityDeletes: return "equality-deletes";
  }
  return "?";
}

void run_files(const TableOptions& o) {
  const Table table = open_table(o);
  Predicate filter;
  if (!o.where.empty()) filter = parse_predicate(o.where);
  const ScanPlan plan = plan_scan(table, selection(o), filter);
  std::string out;
  if (o.json) {
    JsonWriter w;
    w.begin_object().key("snapshot-id");
    if (plan.snapshot) {
      w.string(std::to_string(plan.snapshot->snapshot_id));
    } else {
      w.null();
    }
    w.key("stats")
        .begin_object()
        .field("manifests", plan.stats.manifests)
        .field("manifests-pruned", plan.stats.manifests_pruned)
        .field("data-files", plan.stats.data_files)
        .field("files-pruned-partition", plan.stats.files_pruned_partition)
        .field("files-pruned-bounds", plan.stats.files_pruned_bounds)
        .field("delete-files", plan.stats.delete_files)
        .end_object();
    w.key("files").begin_array();
    for (const FileTask& t : plan.tasks) {
      w.begin_object().field("path", t.file.file_path).field("local-path", t.local_path).field("records", t.file.record_count).field("sequence-number", t.sequence_number);
      w.key("deletes").begin_array();
      for (uint32_t d : t.deletes) {
        const DeleteFile& del = plan.delete_files[d];
        w.begin_object().field("path", del.file.file_path).field("content", content_name(del.file.content)).field("records", del.file.record_count).field("sequence-number", del.sequence_number).end_object();
      }
      w.end_array().end_object();
    }
    w.end_array().end_object();
    out = w.str() + "\n";
  } else {
    for (const FileTask& t : plan.tasks) {
      out += t.local_path + " records=" + std::to_string(t.file.record_count) + " seq=" + std::to_string(t.sequence_number) + "\n";
      for (uint32_t d : t.deletes) {
        const DeleteFile& del = plan.delete_files[d];
        out += "  " + std::string(content_name(del.file.content)) + " " + del.local_path + " records=" + std::to_string(del.file.record_count) + "\n";
      }
    }
    out += "manifests: " + std::to_string(plan.stats.manifests) + " (pruned " + std::to_string(plan.stats.manifests_pruned) +
           "), data files: " + std::to_string(plan.stats.data_files) + " (pruned by partition " +
           std::to_string(plan.stats.files_pruned_partition) + ", by bounds " + std::to_string(plan.stats.files_pruned_bounds) +
           "), delete files: " + std::to_string(plan.stats.delete_files) + "\n";
  }
  flush(out);
  std::fflush(stdout);
}

void add_table_options(CLI::App* cmd, TableOptions& o, bool snapshots) {
  cmd->add_option("table", o.table, "table folder or metadata JSON file")->required();
  cmd->add_option("--metadata", o.metadata, "metadata file to use (path, or name in the table's metadata folder)");
  cmd->add_option("--version", o.version, "metadata version: N for vN.metadata.json, or a file stem");
  if (snapshots) {
    cmd->add_option_function<std::string>("--snapshot", [&o](const std::string& text) {
      // Ids are 64-bit; some writers use values above 2^63 (stored as the
      // same bits in a signed long), so both forms are read.
      errno = 0;
      char* end = nullptr;
      const bool negative = !text.empty() && text[0] == '-';
      const unsigned long long v = negative ? 0 : std::strtoull(text.c_str(), &end, 10);
      const long long s = negative ? std::strtoll(text.c_str(), &end, 10) : 0;
      if (text.empty() || errno != 0 || end != text.c_str() + text.size()) throw_invalid("--snapshot: '" + text + "' is not a snapshot id");
      o.snapshot = negative ? int64_t(s) : int64_t(v);
      o.has_snapshot = true;
    }, "snapshot id");
    cmd->add_option("--as-of", o.as_of, "the last snapshot at or before this time (ms since the epoch, or 'YYYY-MM-DD HH:MM:SS[.fff]' UTC)");
    cmd->add_option("--ref", o.ref, "branch or tag name");
  }
}

const CommandRegistration kIcebergTableCommands(61, [](CLI::App& app) {
  CLI::App* iceberg = app.get_subcommand("iceberg");
  auto scan_options = std::make_shared<TableOptions>();
  CLI::App* scan = iceberg->add_subcommand("scan", "Rows of an Iceberg table snapshot as JSON lines (or CSV, or a count)");
  add_table_options(scan, *scan_options, true);
  scan->add_option("--columns", scan_options->columns, "comma-separated top-level columns");
  scan->add_option("--where", scan_options->where, "only rows matching a predicate");
  scan->add_option("--threads", scan_options->threads,
                   "threads: data files read side by side (rows still in plan order); spare ones "
                   "decode columns within a file")
      ->check(CLI::Range(1, 256));
  scan->add_flag("--csv", scan_options->csv, "CSV instead of JSON lines");
  scan->add_flag("--count", scan_options->count, "print only the number of rows");
  scan->add_option("--limit", scan_options->limit, "print at most N rows");
  scan->callback([scan_options] { run_scan(*scan_options); });

  auto info_options = std::make_shared<TableOptions>();
  CLI::App* info = iceberg->add_subcommand("info", "Format version, schemas, partition specs, snapshots and refs of a table");
  add_table_options(info, *info_options, false);
  info->add_flag("--json", info_options->json, "print JSON");
  info->callback([info_options] { run_info(*info_options); });

  auto files_options = std::make_shared<TableOptions>();
  CLI::App* files = iceberg->add_subcommand("files", "The data files a scan plans, their deletes, and what pruning removed");
  add_table_options(files, *files_options, true);
  files->add_option("--where", files_options->where, "prune with a predicate");
  files->add_flag("--json", files_options->json, "print JSON");
  files->callback([files_options] { run_files(*files_options); });
});

}  // namespace
}  // namespace parquetry::cli
