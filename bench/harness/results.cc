#include "results.h"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "json_writer.h"

namespace parquetry::bench {
namespace {

struct Unit {
  const char* name;
  double ns;
};

// One unit per table (like JMH's per-benchmark unit): the largest whose
// smallest score stays >= 1.
Unit unit_for(const std::vector<const Row*>& rows) {
  double smallest = INFINITY;
  for (const Row* row : rows) {
    if (row->ok && row->summary.count > 0) smallest = std::min(smallest, row->summary.median);
  }
  if (!std::isfinite(smallest)) return {"ns/op", 1};
  if (smallest >= 1e9) return {"s/op", 1e9};
  if (smallest >= 1e6) return {"ms/op", 1e6};
  if (smallest >= 1e3) return {"us/op", 1e3};
  return {"ns/op", 1};
}

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

// Three decimals like JMH's score column, one for large scores; an error is
// printed with the decimals of its score.
std::string score_text(double value, double decimals_of) {
  if (!std::isfinite(value)) return "";
  return fixed(value, std::fabs(decimals_of) >= 1000 ? 1 : 3);
}
std::string score_text(double value) { return score_text(value, value); }

std::string bytes_text(double bytes) {
  if (bytes < 0) return "-";
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  return u == 0 ? fixed(bytes, bytes == std::floor(bytes) ? 0 : 1) + " B" : fixed(bytes, 2) + " " + units[u];
}

std::string count_text(double count) {
  if (count < 0) return "-";
  return count == std::floor(count) ? fixed(count, 0) : fixed(count, 2);
}

std::string pad(const std::string& text, size_t width, bool right) {
  if (text.size() >= width) return text;
  return right ? std::string(width - text.size(), ' ') + text : text + std::string(width - text.size(), ' ');
}

std::string str(simdjson::dom::element e) { return std::string(std::string_view(e.get_string().value())); }

double num_or(simdjson::dom::element parent, const char* key, double fallback) {
  simdjson::dom::element e;
  if (parent[key].get(e) != simdjson::SUCCESS || !e.is_number()) return fallback;
  return e.get_double().value();
}

}  // namespace

void assign_baselines(std::vector<Row>& rows) {
  // Key: table + params. Preference: the peer row, then a baseline() case,
  // then the first harness case; plain BENCHMARK rows alone get no ratio.
  std::map<std::string, std::pair<int, size_t>> chosen;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    const std::string key = row.table + "\n" + row.params_text;
    // Plain BENCHMARK rows (no "api" mark) are not compared with an arbitrary first row.
    const int rank = row.is_peer ? 0 : row.baseline == "self" ? 1 : row.baseline == "api" ? 2 : 3;
    if (rank == 3) continue;
    auto it = chosen.find(key);
    if (it == chosen.end() || rank < it->second.first) chosen[key] = {rank, i};
  }
  for (Row& row : rows) {
    auto it = chosen.find(row.table + "\n" + row.params_text);
    if (it == chosen.end()) {
      row.baseline.clear();
      row.ratio = 0;
      continue;
    }
    const Row& base = rows[it->second.second];
    row.baseline = base.benchmark;
    row.ratio = (row.ok && base.ok && row.summary.median > 0) ? base.summary.median / row.summary.median : 0;
  }
}

std::string format_table(const std::vector<const Row*>& rows) {
  if (rows.empty()) return "";
  const Unit unit = unit_for(rows);
  std::vector<std::string> header = {"Benchmark", "(params)",  "Mode",     "Cnt",
                                     "Score",     "",          "Error",    "Units",
                                     "alloc/op",  "allocs/op", "peak RSS", "x vs baseline"};
  std::vector<std::vector<std::string>> cells;
  for (const Row* row : rows) {
    std::string name = row->table + ":" + row->case_name;
    if (!row->ok) {
      cells.push_back({name, row->params_text, row->mode, "", "FAILED", "", "", "", "", "", "", ""});
      continue;
    }
    const Summary& s = row->summary;
    const bool has_error = s.count > 1 && std::isfinite(s.error);
    std::string ratio = row->ratio > 0 ? fixed(row->ratio, 2) + "x" : "";
    if (row->benchmark == row->baseline) ratio = "(base)";
    cells.push_back(
        {name, row->params_text, row->mode, std::to_string(s.count), score_text(s.median / unit.ns),
         has_error ? "±" : "", has_error ? score_text(s.error / unit.ns, s.median / unit.ns) : "", unit.name,
         row->is_peer ? "-" : bytes_text(row->bytes_per_op),
         row->is_peer ? "-" : count_text(row->allocs_per_op),
         row->peak_rss_kb > 0 ? bytes_text(static_cast<double>(row->peak_rss_kb) * 1024) : "-", ratio});
  }
  // Cold tables add the op's minor faults and kernel time.
  bool usage = false;
  for (const Row* row : rows) usage = usage || row->minor_faults >= 0;
  std::vector<bool> right = {false, false, false, true, true, false, true, false, true, true, true, true};
  if (usage) {
    header.insert(header.end(), {"faults/op", "sys s/op"});
    right.insert(right.end(), {true, true});
    for (size_t i = 0; i < rows.size(); ++i) {
      const Row* row = rows[i];
      const bool have = row->ok && row->minor_faults >= 0;
      cells[i].push_back(have ? fixed(row->minor_faults, 0) : "-");
      cells[i].push_back(have && row->kernel_seconds >= 0 ? fixed(row->kernel_seconds, 3) : "-");
    }
  }
  std::vector<size_t> widths(header.size(), 0);
  for (size_t c = 0; c < header.size(); ++c) {
    widths[c] = header[c].size();
    for (const auto& line : cells) widths[c] = std::max(widths[c], line[c].size());
  }
  // "±" is 2 bytes but one column wide.
  if (widths[5] > 0) widths[5] = 1;
  std::ostringstream out;
  auto emit = [&](const std::vector<std::string>& line) {
    std::string text;
    for (size_t c = 0; c < line.size(); ++c) {
      if (c == 5) {
        text += line[c].empty() ? "  " : " " + line[c];
        continue;
      }
      text += (c == 0 ? "" : "  ") + pad(line[c], widths[c], right[c]);
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << "\n";
  };
  emit(header);
  for (const auto& line : cells) emit(line);
  for (const Row* row : rows) {
    if (!row->ok) out << "  FAILED " << row->benchmark << ": " << row->message << "\n";
  }
  return out.str();
}

std::string results_to_json(const RunResults& results) {
  JsonWriter out;
  out.begin_object();
  out.key("schema").value("parquetry-bench/1");
  out.key("created").value(results.created);
  out.key("settings").begin_object();
  out.key("profile").value(results.settings.profile);
  out.key("warmup").value(results.settings.warmup);
  out.key("measure").value(results.settings.measure);
  out.key("forks").value(results.settings.forks);
  out.key("iteration_seconds").value(results.settings.iteration_seconds);
  out.key("mode_override").value(results.settings.mode_override);
  out.key("cold").value(results.settings.cold);
  out.end_object();
  const MachineFacts& m = results.machine;
  out.key("machine").begin_object();
  out.key("cpu_model").value(m.cpu_model);
  out.key("cores").value(m.cores);
  out.key("memory_kb").value(static_cast<int64_t>(m.memory_kb));
  out.key("kernel").value(m.kernel);
  out.key("compiler").value(m.compiler);
  out.key("cxx_flags").value(m.cxx_flags);
  out.key("build_type").value(m.build_type);
  out.key("git_commit").value(m.git_commit);
  out.key("git_dirty").value(m.git_dirty);
  out.key("node").value(m.node_version);
  out.key("load_average").value(m.load_average);
  out.key("benchmark_library").value(m.benchmark_library);
  out.key("peers").value(results.peer_versions);
  out.end_object();
  out.key("datasets").begin_array();
  for (const DatasetFact& d : results.datasets) {
    out.begin_object();
    out.key("name").value(d.name);
    out.key("path").value(d.path);
    out.key("rows").value(d.rows);
    out.key("bytes").value(d.bytes);
    out.key("params").value(d.params_key);
    out.key("content_checksum").value(d.content_checksum);
    out.key("file_checksum").value(d.file_checksum);
    out.end_object();
  }
  out.end_array();
  out.key("cases").begin_array();
  for (const Row& r : results.rows) {
    out.begin_object();
    out.key("benchmark").value(r.benchmark);
    out.key("suite").value(r.suite);
    out.key("table").value(r.table);
    out.key("case").value(r.case_name);
    out.key("params").begin_object();
    for (const auto& [k, v] : r.params) out.key(k).value(v);
    out.end_object();
    out.key("params_text").value(r.params_text);
    out.key("engine").value(r.engine);
    out.key("peer").value(r.is_peer);
    out.key("mode").value(r.mode);
    out.key("status").value(r.ok ? "ok" : "failed");
    out.key("message").value(r.message);
    out.key("verified").value(r.verified);
    out.key("cnt").value(r.summary.count);
    out.key("score_ns").value(r.summary.median);
    out.key("error_ns").value(r.summary.error);
    out.key("mean_ns").value(r.summary.mean);
    out.key("stddev_ns").value(r.summary.stddev);
    out.key("min_ns").value(r.summary.min);
    out.key("max_ns").value(r.summary.max);
    out.key("samples_ns").begin_array();
    for (double s : r.samples_ns) out.value(s);
    out.end_array();
    out.key("bytes_per_op");
    r.bytes_per_op < 0 ? out.null() : out.value(r.bytes_per_op);
    out.key("allocs_per_op");
    r.allocs_per_op < 0 ? out.null() : out.value(r.allocs_per_op);
    out.key("peak_rss_kb").value(static_cast<int64_t>(r.peak_rss_kb));
    out.key("minor_faults");
    r.minor_faults < 0 ? out.null() : out.value(r.minor_faults);
    out.key("kernel_seconds");
    r.kernel_seconds < 0 ? out.null() : out.value(r.kernel_seconds);
    out.key("baseline").value(r.baseline);
    out.key("ratio_vs_baseline");
    r.ratio > 0 ? out.value(r.ratio) : out.null();
    out.end_object();
  }
  out.end_array();
  out.end_object();
  return out.str() + "\n";
}

std::vector<Row> rows_from_json_file(const std::string& path) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (auto error = parser.load(path).get(doc)) {
    throw std::runtime_error(path + ": " + simdjson::error_message(error));
  }
  std::vector<Row> rows;
  try {
    for (simdjson::dom::element c : doc["cases"].get_array()) {
      Row r;
      r.benchmark = str(c["benchmark"]);
      r.suite = str(c["suite"]);
      r.table = str(c["table"]);
      r.case_name = str(c["case"]);
      r.params_text = str(c["params_text"]);
      r.engine = str(c["engine"]);
      r.is_peer = c["peer"].get_bool().value();
      r.mode = str(c["mode"]);
      r.ok = str(c["status"]) == "ok";
      r.summary.count = static_cast<int>(num_or(c, "cnt", 0));
      r.summary.median = num_or(c, "score_ns", NAN);
      r.summary.error = num_or(c, "error_ns", NAN);
      r.bytes_per_op = num_or(c, "bytes_per_op", -1);
      r.allocs_per_op = num_or(c, "allocs_per_op", -1);
      r.minor_faults = num_or(c, "minor_faults", -1);
      r.kernel_seconds = num_or(c, "kernel_seconds", -1);
      rows.push_back(std::move(r));
    }
  } catch (const simdjson::simdjson_error& e) {
    throw std::runtime_error(path + ": not a parquetry-bench results file (" + e.what() + ")");
  }
  return rows;
}

std::string format_comparison(const std::vector<Row>& a, const std::vector<Row>& b, const std::string& name_a,
                              const std::string& name_b) {
  std::map<std::string, const Row*> by_name;
  for (const Row& row : a) by_name[row.benchmark] = &row;
  std::vector<std::vector<std::string>> cells;
  cells.push_back(
      {"Benchmark", "(params)", "A score", "B score", "Units", "B vs A", "alloc/op A", "alloc/op B"});
  std::vector<std::string> only_b;
  for (const Row& rb : b) {
    auto it = by_name.find(rb.benchmark);
    if (it == by_name.end()) {
      only_b.push_back(rb.benchmark);
      continue;
    }
    const Row& ra = *it->second;
    by_name.erase(it);
    std::vector<const Row*> pair = {&ra, &rb};
    const Unit unit = unit_for(pair);
    std::string ratio = "n/a";
    if (ra.ok && rb.ok && rb.summary.median > 0) {
      const double speedup = ra.summary.median / rb.summary.median;
      ratio = fixed(speedup, 2) + "x " + (speedup >= 1 ? "faster" : "slower");
    }
    cells.push_back({rb.table + ":" + rb.case_name, rb.params_text,
                     ra.ok ? score_text(ra.summary.median / unit.ns) : "FAILED",
                     rb.ok ? score_text(rb.summary.median / unit.ns) : "FAILED", unit.name, ratio,
                     bytes_text(ra.bytes_per_op), bytes_text(rb.bytes_per_op)});
  }
  std::vector<size_t> widths(cells[0].size(), 0);
  for (const auto& line : cells) {
    for (size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], line[c].size());
  }
  std::ostringstream out;
  out << "A = " << name_a << "\nB = " << name_b << "\n";
  for (const auto& line : cells) {
    std::string text;
    for (size_t c = 0; c < line.size(); ++c)
      text += (c == 0 ? "" : "  ") + pad(line[c], widths[c], c >= 2 && c != 4);
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << "\n";
  }
  // Cases present in one run only (another selection, a new suite): counted, a few named.
  auto list_some = [&](const char* which, const std::vector<std::string>& names) {
    if (names.empty()) return;
    out << names.size() << " case(s) only in " << which << ":";
    for (size_t i = 0; i < names.size() && i < 5; ++i) out << " " << names[i];
    out << (names.size() > 5 ? " ...\n" : "\n");
  };
  std::vector<std::string> only_a;
  for (const auto& [name, row] : by_name) only_a.push_back(name);
  list_some("A", only_a);
  list_some("B", only_b);
  return out.str();
}

}  // namespace parquetry::bench
