#include "datasets.h"

#include <simdjson.h>
#include <sys/statvfs.h>
#include <xxhash.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <stdexcept>

#include "json_writer.h"
#include "process.h"

namespace parquetry::bench::datasets {
namespace {

namespace fs = std::filesystem;

std::string hex64(uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

ValueKind kind_of(ColumnType type) {
  switch (type) {
    case ColumnType::kInt64: return ValueKind::kInt64;
    case ColumnType::kDouble: return ValueKind::kDouble;
    case ColumnType::kTimestampMicros: return ValueKind::kTimestamp;
    case ColumnType::kString: return ValueKind::kString;
    case ColumnType::kListInt64: return ValueKind::kListInt64;
    case ColumnType::kListDouble: return ValueKind::kListDouble;
  }
  return ValueKind::kInt64;
}

// Days since 1970-01-01 -> civil date (Howard Hinnant's algorithm).
void civil_from_days(int64_t days, int& year, int& month, int& day) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  year = static_cast<int>(yoe + era * 400 + (month <= 2 ? 1 : 0));
}

void append_timestamp(std::string& out, int64_t micros) {
  int64_t seconds = micros / 1'000'000;
  int64_t fraction = micros % 1'000'000;
  if (fraction < 0) {
    fraction += 1'000'000;
    --seconds;
  }
  int64_t days = seconds / 86'400;
  int64_t second_of_day = seconds % 86'400;
  if (second_of_day < 0) {
    second_of_day += 86'400;
    --days;
  }
  int year, month, day;
  civil_from_days(days, year, month, day);
  char buffer[40];
  int n = std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02d %02d:%02d:%02d", year, month, day,
                        static_cast<int>(second_of_day / 3600), static_cast<int>(second_of_day / 60 % 60),
                        static_cast<int>(second_of_day % 60));
  if (fraction != 0)
    n += std::snprintf(buffer + n, sizeof buffer - static_cast<size_t>(n), ".%06lld",
                       static_cast<long long>(fraction));
  out.append(buffer, static_cast<size_t>(n));
}

void append_int(std::string& out, int64_t value) {
  char buffer[24];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

void append_double(std::string& out, double value) {
  char buffer[32];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

std::string params_key(const std::string& name) {
  const int64_t rows = name == "taxi" ? kTaxiRows : kMetricsRows;
  return "generator=" + std::to_string(kGeneratorVersion) + " rows=" + std::to_string(rows) +
         " seed=" + std::to_string(kDefaultSeed) + " codec=snappy";
}

std::string stamp_path(const std::string& data_dir, const std::string& name) {
  return (fs::path(data_dir) / (name + ".stamp.json")).string();
}

}  // namespace

std::vector<std::string> dataset_names() { return {"taxi", "metrics"}; }

Table generate(const std::string& name) {
  if (name == "taxi") return generate_taxi();
  if (name == "metrics") return generate_metrics();
  throw std::invalid_argument("unknown dataset '" + name + "' (taxi, metrics)");
}

namespace {

// Min/max/count of a fixed-width column. Written as selects over plain
// arrays so the compiler vectorises the required-column loop: this fold is
// the floor the readers are compared with, so it should not be slow itself.
template <class T>
void fold_fixed(const std::vector<T>& values, const std::vector<uint8_t>& valid, int64_t rows,
                ColumnStats& stats) {
  T lo = std::numeric_limits<T>::max();
  T hi = std::numeric_limits<T>::lowest();
  int64_t count = 0;
  const T* v = values.data();
  if (valid.empty()) {
    for (int64_t r = 0; r < rows; ++r) {
      lo = v[r] < lo ? v[r] : lo;
      hi = v[r] > hi ? v[r] : hi;
    }
    count = rows;
  } else {
    const uint8_t* present = valid.data();
    for (int64_t r = 0; r < rows; ++r) {
      const bool take = present[r] != 0;
      lo = take && v[r] < lo ? v[r] : lo;
      hi = take && v[r] > hi ? v[r] : hi;
      count += take;
    }
  }
  stats.count = count;
  stats.nulls = rows - count;
  if (count > 0) {
    stats.min = lo;
    stats.max = hi;
  }
}

template <class T>
void fold_list(const std::vector<T>& elements, const Column& column, int64_t rows, ColumnStats& stats,
               T& sum) {
  for (int64_t r = 0; r < rows; ++r) {
    if (!column.is_valid(r)) {
      ++stats.nulls;
      continue;
    }
    const int64_t begin = column.offsets[static_cast<size_t>(r)];
    const int64_t end = column.offsets[static_cast<size_t>(r) + 1];
    stats.count += end - begin;
    for (int64_t i = begin; i < end; ++i) sum += elements[static_cast<size_t>(i)];
  }
}

}  // namespace

ColumnStats fold_column(const Column& column, int64_t rows) {
  ColumnStats stats;
  stats.name = column.name;
  stats.kind = kind_of(column.type);
  switch (column.type) {
    case ColumnType::kInt64:
    case ColumnType::kTimestampMicros: fold_fixed(column.ints, column.valid, rows, stats); break;
    case ColumnType::kDouble: fold_fixed(column.doubles, column.valid, rows, stats); break;
    case ColumnType::kString: {
      std::string_view lo, hi;
      for (int64_t r = 0; r < rows; ++r) {
        if (!column.is_valid(r)) continue;
        const size_t begin = static_cast<size_t>(column.offsets[static_cast<size_t>(r)]);
        const size_t end = static_cast<size_t>(column.offsets[static_cast<size_t>(r) + 1]);
        const std::string_view v(column.chars.data() + begin, end - begin);
        if (stats.count == 0 || v < lo) lo = v;
        if (stats.count == 0 || v > hi) hi = v;
        ++stats.count;
      }
      stats.nulls = rows - stats.count;
      if (stats.count > 0) stats.min = std::string(lo), stats.max = std::string(hi);
      break;
    }
    case ColumnType::kListInt64: fold_list(column.ints, column, rows, stats, stats.sum_int); break;
    case ColumnType::kListDouble: fold_list(column.doubles, column, rows, stats, stats.sum_double); break;
  }
  return stats;
}

ScanResult fold_table(const Table& table) {
  ScanResult result;
  result.rows = table.rows;
  for (const Column& column : table.columns) result.columns.push_back(fold_column(column, table.rows));
  return result;
}

std::string content_checksum(const Table& table) {
  XXH64_state_t* state = XXH64_createState();
  XXH64_reset(state, kGeneratorVersion);
  auto feed = [&](const void* data, size_t bytes) {
    if (bytes > 0) XXH64_update(state, data, bytes);
  };
  feed(&table.rows, sizeof table.rows);
  for (const Column& c : table.columns) {
    feed(c.name.data(), c.name.size());
    const int type = static_cast<int>(c.type);
    feed(&type, sizeof type);
    feed(c.valid.data(), c.valid.size());
    feed(c.ints.data(), c.ints.size() * sizeof(int64_t));
    feed(c.doubles.data(), c.doubles.size() * sizeof(double));
    feed(c.offsets.data(), c.offsets.size() * sizeof(int64_t));
    feed(c.chars.data(), c.chars.size());
  }
  const uint64_t digest = XXH64_digest(state);
  XXH64_freeState(state);
  return hex64(digest);
}

std::string file_checksum(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  XXH64_state_t* state = XXH64_createState();
  XXH64_reset(state, 0);
  std::vector<char> buffer(1 << 20);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    if (in.gcount() > 0) XXH64_update(state, buffer.data(), static_cast<size_t>(in.gcount()));
  }
  const uint64_t digest = XXH64_digest(state);
  XXH64_freeState(state);
  return hex64(digest);
}

std::string duckdb_type(ColumnType type) {
  switch (type) {
    case ColumnType::kInt64: return "BIGINT";
    case ColumnType::kDouble: return "DOUBLE";
    case ColumnType::kTimestampMicros: return "TIMESTAMP";
    case ColumnType::kString: return "VARCHAR";
    case ColumnType::kListInt64: return "BIGINT[]";
    case ColumnType::kListDouble: return "DOUBLE[]";
  }
  return "VARCHAR";
}

void write_csv(const Table& table, const std::string& path) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw std::runtime_error("cannot write " + path);
  std::string out;
  for (size_t c = 0; c < table.columns.size(); ++c) out += (c ? "," : "") + table.columns[c].name;
  out += '\n';
  for (int64_t r = 0; r < table.rows; ++r) {
    const size_t row = static_cast<size_t>(r);
    for (size_t c = 0; c < table.columns.size(); ++c) {
      const Column& column = table.columns[c];
      if (c) out += ',';
      if (!column.is_valid(r)) continue;  // empty field = NULL
      switch (column.type) {
        case ColumnType::kInt64: append_int(out, column.ints[row]); break;
        case ColumnType::kTimestampMicros: append_timestamp(out, column.ints[row]); break;
        case ColumnType::kDouble: append_double(out, column.doubles[row]); break;
        case ColumnType::kString:
          out += '"';
          out.append(column.chars, static_cast<size_t>(column.offsets[row]),
                     static_cast<size_t>(column.offsets[row + 1] - column.offsets[row]));
          out += '"';
          break;
        case ColumnType::kListInt64:
        case ColumnType::kListDouble: {
          out += "\"[";
          for (int64_t i = column.offsets[row]; i < column.offsets[row + 1]; ++i) {
            if (i != column.offsets[row]) out += ',';
            if (column.type == ColumnType::kListInt64) {
              append_int(out, column.ints[static_cast<size_t>(i)]);
            } else {
              append_double(out, column.doubles[static_cast<size_t>(i)]);
            }
          }
          out += "]\"";
          break;
        }
      }
    }
    out += '\n';
    if (out.size() > (1 << 22)) {
      file.write(out.data(), static_cast<std::streamsize>(out.size()));
      out.clear();
    }
  }
  file.write(out.data(), static_cast<std::streamsize>(out.size()));
  if (!file) throw std::runtime_error("short write to " + path);
}

std::string default_data_dir(const std::string& fallback) {
  struct statvfs fs_info {};
  // The taxi hand-off CSV (~400 MB) and the Parquet files must fit with room to spare.
  constexpr unsigned long long kNeeded = 2ULL << 30;
  if (statvfs("/dev/shm", &fs_info) == 0 &&
      static_cast<unsigned long long>(fs_info.f_bavail) * fs_info.f_frsize >= kNeeded) {
    return "/dev/shm/parquetry-bench";
  }
  return fallback;
}

std::string duckdb_parquet_path(const std::string& data_dir, const std::string& name) {
  return (fs::path(data_dir) / (name + ".duckdb.parquet")).string();
}

DatasetFile read_stamp(const std::string& data_dir, const std::string& name) {
  DatasetFile file;
  const std::string path = stamp_path(data_dir, name);
  if (!fs::exists(path)) return file;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.load(path).get(doc) != simdjson::SUCCESS) return file;
  try {
    auto text = [&](const char* key) { return std::string(std::string_view(doc[key].get_string().value())); };
    file.name = text("name");
    file.path = text("path");
    file.params_key = text("params");
    file.content_checksum = text("content_checksum");
    file.file_checksum = text("file_checksum");
    file.rows = doc["rows"].get_int64().value();
    file.bytes = doc["bytes"].get_int64().value();
  } catch (const simdjson::simdjson_error&) {
    return DatasetFile{};
  }
  return file;
}

DatasetFile ensure_dataset(const std::string& name, const std::string& data_dir, const std::string& peers_dir,
                           const std::string& node) {
  const std::string key = params_key(name);
  const std::string parquet = duckdb_parquet_path(data_dir, name);
  DatasetFile stamp = read_stamp(data_dir, name);
  if (!stamp.path.empty() && stamp.params_key == key && stamp.path == parquet && fs::exists(parquet) &&
      file_checksum(parquet) == stamp.file_checksum) {
    stamp.reused = true;
    return stamp;
  }
  fs::create_directories(data_dir);
  const Table table = generate(name);
  DatasetFile file;
  file.name = name;
  file.path = parquet;
  file.rows = table.rows;
  file.params_key = key;
  file.content_checksum = content_checksum(table);

  const std::string csv = (fs::path(data_dir) / (name + ".handoff.csv")).string();
  write_csv(table, csv);
  JsonWriter columns;
  columns.begin_array();
  for (const Column& c : table.columns) {
    columns.begin_object().key("name").value(c.name).key("type").value(duckdb_type(c.type)).end_object();
  }
  columns.end_array();
  const std::string columns_path = (fs::path(data_dir) / (name + ".columns.json")).string();
  {
    std::ofstream out(columns_path, std::ios::trunc);
    out << columns.str();
  }
  const std::string tmp_parquet = parquet + ".tmp";
  const std::string peers(peers_dir);
  ProcessResult written = run_process({node, (fs::path(peers) / "write_dataset.js").string(), "--csv", csv,
                                       "--columns", columns_path, "--out", tmp_parquet},
                                      true);
  fs::remove(csv);
  fs::remove(columns_path);
  if (written.exit_code != 0) {
    throw std::runtime_error("DuckDB could not write dataset " + name + " (write_dataset.js exited with " +
                             std::to_string(written.exit_code) + ")");
  }
  // The file must hold exactly what was generated: DuckDB's full scan of it
  // has to equal the fold over the in-memory table.
  ProcessResult scanned = run_process({node, (fs::path(peers) / "full_scan.js").string(), "--file",
                                       tmp_parquet, "--threads", "2", "--warmup", "0", "--reps", "1"},
                                      true);
  if (scanned.exit_code != 0) throw std::runtime_error("full_scan.js failed on the new " + name + " file");
  std::vector<std::string> diffs;
  {
    simdjson::dom::parser parser;
    simdjson::padded_string padded(scanned.out);
    simdjson::dom::element doc = parser.parse(padded);
    diffs =
        compare_scan_results(fold_table(table), scan_result_from_json(simdjson::to_string(doc["result"])));
  }
  if (!diffs.empty()) {
    std::string message = "dataset " + name + ": DuckDB's file differs from the generated data:";
    for (const std::string& d : diffs) message += "\n  " + d;
    throw std::runtime_error(message);
  }
  fs::rename(tmp_parquet, parquet);
  file.bytes = static_cast<int64_t>(fs::file_size(parquet));
  file.file_checksum = file_checksum(parquet);

  JsonWriter out;
  out.begin_object();
  out.key("name").value(file.name);
  out.key("path").value(file.path);
  out.key("generator_version").value(kGeneratorVersion);
  out.key("params").value(file.params_key);
  out.key("rows").value(file.rows);
  out.key("bytes").value(file.bytes);
  out.key("content_checksum").value(file.content_checksum);
  out.key("file_checksum").value(file.file_checksum);
  const std::string digest_input = file.params_key + "|" + file.content_checksum + "|" + file.file_checksum;
  out.key("stamp").value(hex64(XXH64(digest_input.data(), digest_input.size(), 0)));
  out.end_object();
  std::ofstream stamp_file(stamp_path(data_dir, name), std::ios::trunc);
  stamp_file << out.str() << "\n";
  return file;
}

}  // namespace parquetry::bench::datasets
