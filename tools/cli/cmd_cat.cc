// `parquetry cat FILE` and `parquetry head FILE`: rows as JSON lines (one
// object per row) or CSV, with column projection and a row limit.
// `--deletes FILE` applies Iceberg deletes (a Puffin file with a deletion
// vector, or a position-delete Parquet file) as a merge-on-read scan.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "key_options.h"
#include "parquetry/error.h"
#include "parquetry/filtered_scan.h"
#include "parquetry/iceberg_scan.h"
#include "parquetry/reader.h"
#include "parquetry/table/json_values.h"
#include "parquetry/variant_parquet.h"

namespace parquetry::cli {
namespace {

struct CatOptions {
  std::string path;
  std::string columns;
  int64_t limit = -1;
  bool csv = false;
  int threads = 1;
  std::string deletes;
  std::string where;        // a predicate; empty = every row
  std::string variant_get;  // COLUMN.PATH of a VARIANT column; empty = normal rows
  KeyOptions keys;
};

// The surviving rows of a filtered scan as a batch stream.
class FilteredBatches final : public BatchReader {
 public:
  explicit FilteredBatches(std::unique_ptr<FilteredScan> scan) : scan_(std::move(scan)) {}
  std::shared_ptr<const BatchSchema> schema() const override { return scan_->schema(); }
  bool next(RecordBatch& out) override { return scan_->next(out); }

 private:
  std::unique_ptr<FilteredScan> scan_;
};

// CSV field: strings as their bytes, scalars as their JSON text without
// quotes (dates, decimals, base64 need no escapes), nested values as JSON.
void write_csv_field(std::string& line, const ArrayData& array, int64_t row) {
  if (array.type->id == TypeId::kNull || !array.is_valid(row)) return;
  std::string text;
  const TypeId id = array.type->id;
  if (id == TypeId::kString || id == TypeId::kLargeString) {
    const int64_t k = array.offset + row;
    const bool large = id == TypeId::kLargeString;
    int64_t begin = large ? array.buffers[1].as<int64_t>()[k] : array.buffers[1].as<int32_t>()[k];
    int64_t end = large ? array.buffers[1].as<int64_t>()[k + 1] : array.buffers[1].as<int32_t>()[k + 1];
    text.assign(array.buffers[2].as<char>() + begin, size_t(end - begin));
  } else {
    JsonWriter writer;
    write_json_value(writer, array, row);
    text = writer.take();
    if (!array.type->is_nested() && text.size() >= 2 && text.front() == '"')
      text = text.substr(1, text.size() - 2);
  }
  bool quote = text.find_first_of(",\"\n\r") != std::string::npos;
  if (!quote) {
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

// `--variant-get COLUMN.PATH`: one JSON object per row holding the variant at
// PATH of the VARIANT column COLUMN (null when absent), read with the plan the
// file's shredding allows (named on stderr).
void run_variant_get(const CatOptions& options) {
  std::string column;
  for (const VariantColumn& candidate : find_variant_columns(options.path)) {
    const std::string& name = candidate.path;
    const bool prefix = options.variant_get == name || options.variant_get.starts_with(name + ".");
    if (prefix && name.size() > column.size()) column = name;
  }
  if (column.empty()) throw_invalid("--variant-get: no VARIANT column is a prefix of " + options.variant_get);
  const std::string path =
      options.variant_get.size() > column.size() ? options.variant_get.substr(column.size() + 1) : "";
  const VariantGetResult result = variant_get(options.path, column, path);
  std::fprintf(stderr, "variant_get plan: %s\n", variant_get_plan_name(result.plan.plan));
  std::string out;
  for (size_t row = 0; row < result.values.size() && (options.limit < 0 || int64_t(row) < options.limit);
       ++row) {
    JsonWriter writer;
    writer.begin_object().key(options.variant_get);
    if (result.values[row]) {
      writer.raw(result.values[row]->to_json());
    } else {
      writer.null();
    }
    writer.end_object();
    out += writer.str();
    out += '\n';
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
}

void run_cat(const CatOptions& options) {
  if (!options.variant_get.empty()) return run_variant_get(options);
  ReaderOptions reader_options;
  reader_options.columns = parse_column_list(options.columns);
  reader_options.threads = options.threads;
  reader_options.decryption = options.keys.decryption();
  auto reader = FileReader::open(options.path, reader_options);
  iceberg::PositionDeleteIndex deletes;  // outlives the merge-on-read reader below
  std::unique_ptr<BatchReader> batches;
  if (!options.where.empty()) {
    if (!options.deletes.empty()) throw_invalid("cat: --where and --deletes cannot be combined");
    FilteredScanOptions scan_options;
    scan_options.columns = reader_options.columns;
    scan_options.threads = options.threads;
    scan_options.filter = parse_predicate(options.where);
    scan_options.decryption = reader_options.decryption;
    batches = std::make_unique<FilteredBatches>(FilteredScan::open(options.path, scan_options));
  } else if (!options.deletes.empty()) {
    // Deletes name data files by the path given here, exactly as passed.
    deletes = iceberg::load_deletes_for(options.deletes, options.path, reader_options);
    batches = std::make_unique<iceberg::MergeOnReadReader>(*reader, deletes);
  } else {
    batches = reader->batches();
  }
  VariantJsonColumns variants(reader->schema());  // VARIANT columns print as JSON
  RecordBatch batch;
  int64_t printed = 0;
  std::string out;
  if (options.csv) {
    const auto& fields = batches->schema()->fields;
    for (size_t c = 0; c < fields.size(); ++c) {
      if (c != 0) out += ',';
      out += fields[c].name;
    }
    out += '\n';
  }
  while ((options.limit < 0 || printed < options.limit) && batches->next(batch)) {
    for (int64_t row = 0; row < batch.num_rows && (options.limit < 0 || printed < options.limit);
         ++row, ++printed) {
      if (options.csv) {
        for (size_t c = 0; c < batch.columns.size(); ++c) {
          if (c != 0) out += ',';
          write_csv_field(out, *batch.columns[c], row);
        }
      } else if (variants.any()) {
        out += variants.row_json(batch, row);
      } else {
        JsonWriter writer;
        write_json_row(writer, batch, row);
        out += writer.str();
      }
      out += '\n';
      if (out.size() > (1 << 16)) {
        std::fwrite(out.data(), 1, out.size(), stdout);
        out.clear();
      }
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
}

void add_common(CLI::App* command, CatOptions& options) {
  command->add_option("file", options.path, "Parquet file")->required();
  command->add_option(
      "--columns", options.columns,
      "comma-separated column paths (a group selects its subtree); quote odd names: \"a.b\", \"\"");
  command->add_flag("--csv", options.csv, "CSV instead of JSON lines");
  command->add_option("--threads", options.threads, "decode threads")->check(CLI::Range(1, 256));
  command->add_option("--where", options.where,
                      "only rows matching a predicate, e.g. \"id > 10 AND name IN ('a', 'b')\"");
  command->add_option("--deletes", options.deletes,
                      "Iceberg deletes to apply: a Puffin deletion vector or a position-delete Parquet file");
  command->add_option("--variant-get", options.variant_get,
                      "COLUMN.PATH: print the value at PATH of a VARIANT column (e.g. nested.varcategory)");
  add_key_options(command, options.keys);
}

CommandRegistration cat_command(30, [](CLI::App& app) {
  auto options = std::make_shared<CatOptions>();
  CLI::App* command = app.add_subcommand("cat", "print rows as JSON lines (or CSV)");
  add_common(command, *options);
  command->add_option("--limit", options->limit, "print at most N rows");
  command->callback([options]() { run_cat(*options); });
});

CommandRegistration head_command(31, [](CLI::App& app) {
  auto options = std::make_shared<CatOptions>();
  options->limit = 10;
  CLI::App* command = app.add_subcommand("head", "print the first rows (10 unless -n)");
  add_common(command, *options);
  command->add_option("-n,--limit", options->limit, "rows to print");
  command->callback([options]() { run_cat(*options); });
});

}  // namespace
}  // namespace parquetry::cli
