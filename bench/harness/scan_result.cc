#include "scan_result.h"

#include <simdjson.h>

#include <cmath>
#include <stdexcept>

#include "json_writer.h"

namespace parquetry::bench {
namespace {

constexpr std::string_view kKindNames[] = {"int64",     "double",      "string",
                                           "timestamp", "list<int64>", "list<double>"};

std::string scalar_text(const ScalarValue& value) {
  if (std::holds_alternative<std::monostate>(value)) return "none";
  if (auto* i = std::get_if<int64_t>(&value)) return std::to_string(*i);
  if (auto* d = std::get_if<double>(&value)) return format_double(*d);
  return json_quote(std::get<std::string>(value));
}

void write_scalar(JsonWriter& out, const ScalarValue& value) {
  if (std::holds_alternative<std::monostate>(value)) {
    out.null();
  } else if (auto* i = std::get_if<int64_t>(&value)) {
    out.value(std::to_string(*i));
  } else if (auto* d = std::get_if<double>(&value)) {
    out.value(*d);
  } else {
    out.value(std::get<std::string>(value));
  }
}

int64_t parse_int(std::string_view text, std::string_view what) {
  try {
    size_t used = 0;
    const std::string owned(text);
    const long long value = std::stoll(owned, &used);
    if (used != owned.size()) throw std::invalid_argument("trailing text");
    return value;
  } catch (const std::exception&) {
    throw std::runtime_error("scan result: " + std::string(what) +
                             " is not an integer: " + std::string(text));
  }
}

// Integers arrive as strings (exact) or, from lenient writers, as numbers.
int64_t read_int(simdjson::dom::element element, std::string_view what) {
  if (element.is_string()) return parse_int(std::string_view(element.get_string().value()), what);
  if (element.is_int64()) return element.get_int64().value();
  throw std::runtime_error("scan result: " + std::string(what) + " must be an integer");
}

double read_double(simdjson::dom::element element, std::string_view what) {
  if (element.is_number()) return element.get_double().value();
  if (element.is_string()) return std::stod(std::string(std::string_view(element.get_string().value())));
  throw std::runtime_error("scan result: " + std::string(what) + " must be a number");
}

ScalarValue read_scalar(simdjson::dom::element element, ValueKind kind, std::string_view what) {
  if (element.is_null()) return std::monostate{};
  switch (kind) {
    case ValueKind::kInt64:
    case ValueKind::kTimestamp: return read_int(element, what);
    case ValueKind::kDouble: return read_double(element, what);
    case ValueKind::kString: return std::string(std::string_view(element.get_string().value()));
    default: return std::monostate{};
  }
}

bool doubles_close(double a, double b) {
  if (a == b) return true;
  const double scale = std::max({std::fabs(a), std::fabs(b), 1.0});
  return std::fabs(a - b) <= 1e-9 * scale;
}

}  // namespace

std::string_view kind_name(ValueKind kind) { return kKindNames[static_cast<int>(kind)]; }

ValueKind kind_from_name(std::string_view name) {
  for (size_t i = 0; i < std::size(kKindNames); ++i) {
    if (kKindNames[i] == name) return static_cast<ValueKind>(i);
  }
  throw std::runtime_error("scan result: unknown column kind '" + std::string(name) + "'");
}

std::vector<std::string> compare_scan_results(const ScanResult& ours, const ScanResult& peer) {
  std::vector<std::string> diffs;
  if (ours.rows != peer.rows) {
    diffs.push_back("rows " + std::to_string(ours.rows) + " (ours) != " + std::to_string(peer.rows) +
                    " (peer)");
  }
  if (ours.columns.size() != peer.columns.size()) {
    diffs.push_back("column count " + std::to_string(ours.columns.size()) +
                    " (ours) != " + std::to_string(peer.columns.size()) + " (peer)");
  }
  const size_t n = std::min(ours.columns.size(), peer.columns.size());
  for (size_t i = 0; i < n; ++i) {
    const ColumnStats& a = ours.columns[i];
    const ColumnStats& b = peer.columns[i];
    const std::string where = "column " + a.name + ": ";
    auto differ = [&](std::string_view field, const std::string& x, const std::string& y) {
      diffs.push_back(where + std::string(field) + " " + x + " (ours) != " + y + " (peer)");
    };
    if (a.name != b.name) differ("name", a.name, b.name);
    if (a.kind != b.kind) differ("kind", std::string(kind_name(a.kind)), std::string(kind_name(b.kind)));
    if (a.count != b.count) differ("count", std::to_string(a.count), std::to_string(b.count));
    if (a.nulls != b.nulls) differ("nulls", std::to_string(a.nulls), std::to_string(b.nulls));
    if (is_list(a.kind)) {
      if (a.kind == ValueKind::kListInt64 && a.sum_int != b.sum_int) {
        differ("sum", std::to_string(a.sum_int), std::to_string(b.sum_int));
      }
      if (a.kind == ValueKind::kListDouble && !doubles_close(a.sum_double, b.sum_double)) {
        differ("sum", format_double(a.sum_double), format_double(b.sum_double));
      }
    } else {
      if (a.min != b.min) differ("min", scalar_text(a.min), scalar_text(b.min));
      if (a.max != b.max) differ("max", scalar_text(a.max), scalar_text(b.max));
    }
  }
  return diffs;
}

std::string scan_result_to_json(const ScanResult& result) {
  JsonWriter out;
  out.begin_object().key("rows").value(std::to_string(result.rows)).key("columns").begin_array();
  for (const ColumnStats& column : result.columns) {
    out.begin_object();
    out.key("name").value(column.name);
    out.key("kind").value(kind_name(column.kind));
    out.key("count").value(std::to_string(column.count));
    out.key("nulls").value(std::to_string(column.nulls));
    if (is_list(column.kind)) {
      out.key("sum");
      if (column.kind == ValueKind::kListInt64) {
        out.value(std::to_string(column.sum_int));
      } else {
        out.value(column.sum_double);
      }
    } else {
      out.key("min");
      write_scalar(out, column.min);
      out.key("max");
      write_scalar(out, column.max);
    }
    out.end_object();
  }
  out.end_array().end_object();
  return out.str();
}

ScanResult scan_result_from_json(std::string_view json) {
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(json);
  simdjson::dom::element doc;
  if (auto error = parser.parse(padded).get(doc)) {
    throw std::runtime_error(std::string("scan result: invalid JSON: ") + simdjson::error_message(error));
  }
  try {
    ScanResult result;
    result.rows = read_int(doc["rows"], "rows");
    for (simdjson::dom::element entry : doc["columns"].get_array()) {
      ColumnStats column;
      column.name = std::string(std::string_view(entry["name"].get_string().value()));
      column.kind = kind_from_name(std::string_view(entry["kind"].get_string().value()));
      column.count = read_int(entry["count"], "count");
      column.nulls = read_int(entry["nulls"], "nulls");
      if (is_list(column.kind)) {
        simdjson::dom::element sum = entry["sum"];
        if (column.kind == ValueKind::kListInt64) {
          column.sum_int = sum.is_null() ? 0 : read_int(sum, "sum");
        } else {
          column.sum_double = sum.is_null() ? 0 : read_double(sum, "sum");
        }
      } else {
        column.min = read_scalar(entry["min"], column.kind, "min");
        column.max = read_scalar(entry["max"], column.kind, "max");
      }
      result.columns.push_back(std::move(column));
    }
    return result;
  } catch (const simdjson::simdjson_error& e) {
    throw std::runtime_error(std::string("scan result: unexpected JSON shape: ") + e.what());
  }
}

}  // namespace parquetry::bench
