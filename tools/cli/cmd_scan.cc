// `parquetry scan FILE`: the full-scan workload (every selected value decoded
// and folded into count/min/max per column; lists: element count and sum),
// with the time it took.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "command.h"
#include "key_options.h"
#include "parquetry/filtered_scan.h"
#include "parquetry/scan.h"
#include "parquetry/table/json_values.h"
#include "parquetry/util/json_writer.h"

namespace parquetry::cli {
namespace {

struct ScanOptions {
  std::string path;
  std::string columns;
  int threads = 1;
  bool json = false;
  std::string where;  // a predicate (parse_predicate syntax); empty = every row
  bool explain = false;
  bool dictionary = false;  // dictionary-encoded columns as dictionary arrays
  bool pread = false;       // read with pread (the default)
  bool mmap = false;        // map the file instead
  int64_t coalesce_gap = ReaderOptions{}.coalesce_gap;
  int64_t coalesce_max = ReaderOptions{}.coalesce_max_size;
  int64_t read_ahead = ReaderOptions{}.read_ahead_budget;
  KeyOptions keys;
};

void write_scalar(JsonWriter& json, const ScanScalar& value) {
  if (std::holds_alternative<int64_t>(value)) {
    json.int64(std::get<int64_t>(value));
  } else if (std::holds_alternative<uint64_t>(value)) {
    json.uint64(std::get<uint64_t>(value));
  } else if (std::holds_alternative<double>(value)) {
    json.number(std::get<double>(value));
  } else if (std::holds_alternative<std::string>(value)) {
    json.string(std::get<std::string>(value));
  } else {
    json.null();
  }
}

std::string scalar_text(const ScanScalar& value) {
  JsonWriter json;
  write_scalar(json, value);
  return json.take();
}

void run_scan(const ScanOptions& options) {
  ReaderOptions reader_options;
  reader_options.columns = parse_column_list(options.columns);
  reader_options.threads = options.threads;
  reader_options.dictionary_arrays = options.dictionary;
  reader_options.use_mmap = options.mmap;
  reader_options.coalesce_gap = options.coalesce_gap;
  reader_options.coalesce_max_size = options.coalesce_max;
  reader_options.read_ahead_budget = options.read_ahead;
  reader_options.decryption = options.keys.decryption();
  auto start = std::chrono::steady_clock::now();
  ScanSummary summary;
  std::string explanation;
  if (!options.where.empty() || options.explain) {
    // Filtered scan: prune with the metadata, fold only the surviving rows.
    FilteredScanOptions scan_options;
    scan_options.columns = reader_options.columns;
    scan_options.threads = options.threads;
    scan_options.dictionary_arrays = options.dictionary;
    scan_options.use_mmap = options.mmap;
    scan_options.coalesce_gap = options.coalesce_gap;
    scan_options.coalesce_max_size = options.coalesce_max;
    scan_options.decryption = reader_options.decryption;
    if (!options.where.empty()) scan_options.filter = parse_predicate(options.where);
    if (options.explain) {
      // The batch path keeps the pruning statistics to explain.
      auto scan = FilteredScan::open(options.path, scan_options);
      ScanAccumulator accumulator(*scan->schema());
      RecordBatch batch;
      while (scan->next(batch)) accumulator.add(batch, options.threads);
      summary = accumulator.summary();
      explanation = scan->explain();
    } else {
      summary = FilteredScan::fold(options.path, scan_options);  // survivors folded in place
    }
  } else {
    summary = scan_file(options.path, reader_options);
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (options.json) {
    JsonWriter json;
    json.begin_object().field("rows", summary.rows).key("columns").begin_object();
    for (const ColumnScanSummary& column : summary.columns) {
      json.key(column.name).begin_object();
      json.field("type", column.type.to_string()).field("count", column.count).field("nulls", column.nulls);
      if (column.type.is_nested() && column.type.id != TypeId::kStruct && column.type.id != TypeId::kMap) {
        if (column.sum_double != 0 || column.type.children[0].type.id == TypeId::kFloat64 ||
            column.type.children[0].type.id == TypeId::kFloat32) {
          json.field("sum", column.sum_double);
        } else {
          json.field("sum", column.sum_int);
        }
      } else {
        json.key("min");
        write_scalar(json, column.min);
        json.key("max");
        write_scalar(json, column.max);
      }
      json.end_object();
    }
    json.end_object().field("ms", ms).end_object();
    std::printf("%s\n", json.str().c_str());
    if (!explanation.empty()) std::fprintf(stderr, "%s", explanation.c_str());
    return;
  }
  std::printf("%lld rows, %zu columns, %.1f ms\n", static_cast<long long>(summary.rows),
              summary.columns.size(), ms);
  for (const ColumnScanSummary& column : summary.columns) {
    std::printf("  %-28s %-22s count=%lld nulls=%lld", column.name.c_str(), column.type.to_string().c_str(),
                static_cast<long long>(column.count), static_cast<long long>(column.nulls));
    if (column.type.is_nested() && column.type.id != TypeId::kStruct && column.type.id != TypeId::kMap) {
      std::printf(" sum=%s\n", column.sum_double != 0 ? std::to_string(column.sum_double).c_str()
                                                      : std::to_string(column.sum_int).c_str());
    } else {
      std::printf(" min=%s max=%s\n", scalar_text(column.min).c_str(), scalar_text(column.max).c_str());
    }
  }
  if (!explanation.empty()) std::printf("%s", explanation.c_str());
}

CommandRegistration scan_command(40, [](CLI::App& app) {
  auto options = std::make_shared<ScanOptions>();
  CLI::App* command =
      app.add_subcommand("scan", "decode every value and fold count/min/max per column, timed");
  command->add_option("file", options->path, "Parquet file")->required();
  command->add_option("--columns", options->columns,
                      "comma-separated column paths; quote odd names: \"a.b\", \"\" (empty), \"x\"\"y\"");
  command->add_option("--threads", options->threads, "decode threads")->check(CLI::Range(1, 256));
  command->add_option("--where", options->where,
                      "only rows matching a predicate, e.g. \"PULocationID = 132 AND fare_amount > 10\"");
  command->add_flag("--explain", options->explain,
                    "print what was pruned: row groups by statistics/Bloom filter, pages, bytes not read");
  command->add_flag("--json", options->json, R"(print {"rows": N, "columns": {...}, "ms": T})");
  command->add_flag("--dictionary", options->dictionary,
                    "read dictionary-encoded columns as dictionary arrays and fold min/max per dictionary "
                    "entry instead of per value");
  CLI::Option* pread =
      command->add_flag("--pread", options->pread,
                        "read column chunks with pread (the default: the resident set holds only what is "
                        "being decoded, and no page faults on the file)");
  command->add_flag("--mmap", options->mmap, "map the file instead of reading it with pread")
      ->excludes(pread);
  command
      ->add_option("--coalesce-gap", options->coalesce_gap,
                   "merge byte ranges of a row-group read whose gap is at most this many bytes into one read "
                   "(0 = one read per column chunk or page; default 65536)")
      ->check(CLI::NonNegativeNumber);
  command
      ->add_option("--coalesce-max", options->coalesce_max, "largest merged read in bytes (default 67108864)")
      ->check(CLI::PositiveNumber);
  command
      ->add_option("--read-ahead", options->read_ahead,
                   "with pread (the default) and --threads > 1: bytes of the next row groups fetched ahead "
                   "while one decodes "
                   "(0 = off; default 268435456)")
      ->check(CLI::NonNegativeNumber);
  add_key_options(command, options->keys);
  command->callback([options]() { run_scan(*options); });
});

}  // namespace
}  // namespace parquetry::cli
