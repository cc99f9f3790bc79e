// `parquetry convert IN OUT`: CSV or JSON lines -> Parquet, and Parquet ->
// CSV or JSON lines. Formats follow the file extensions (.csv; .jsonl,
// .ndjson, .json; .parquet).
//
// Text -> Parquet infers a type per column from the first --infer-rows rows:
// int64, double, bool, timestamp (ISO-8601 "YYYY-MM-DD[ T]hh:mm:ss[.f...]",
// microseconds; a trailing Z makes it UTC) or string; an empty CSV field and
// a JSON null are nulls. --schema "name:type,..." fixes the types instead.
// JSON objects and arrays nested in a line are kept as their JSON text.
// Rows are read and written in batches, so memory stays bounded.
#include <simdjson.h>

#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command.h"
#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "parquetry/table/json_values.h"
#include "parquetry/util/json_writer.h"
#include "parquetry/writer.h"

namespace parquetry::cli {

CompressionCodec parse_codec(const std::string& name);

namespace {

enum class Format { kCsv, kJsonLines, kParquet };

Format format_of(const std::string& path) {
  auto ends = [&](const char* suffix) {
    const size_t n = std::strlen(suffix);
    if (path.size() < n) return false;
    for (size_t i = 0; i < n; ++i) {
      if (std::tolower(static_cast<unsigned char>(path[path.size() - n + i])) != suffix[i]) return false;
    }
    return true;
  };
  if (ends(".csv")) return Format::kCsv;
  if (ends(".jsonl") || ends(".ndjson") || ends(".json")) return Format::kJsonLines;
  if (ends(".parquet") || ends(".pq")) return Format::kParquet;
  throw_invalid("cannot tell the format of '" + path + "' (use .csv, .jsonl or .parquet)");
}

enum class Kind { kNull, kBool, kInt64, kDouble, kTimestamp, kTimestampUtc, kString };

// ---------------------------------------------------------------------------
// Parsing text values

bool parse_int(std::string_view s, int64_t& out) {
  if (s.empty()) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

bool parse_double(std::string_view s, double& out) {
  if (s.empty()) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

bool parse_bool(std::string_view s, bool& out) {
  if (s == "true" || s == "TRUE" || s == "True") return out = true, true;
  if (s == "false" || s == "FALSE" || s == "False") return out = false, true;
  return false;
}

int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// "YYYY-MM-DD[ T]hh:mm:ss[.ffffff][Z]" -> microseconds; *utc when it ends in Z.
bool parse_timestamp(std::string_view s, int64_t& micros, bool& utc) {
  auto digits = [&](size_t at, size_t n, int64_t& v) {
    if (at + n > s.size()) return false;
    v = 0;
    for (size_t i = at; i < at + n; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
      v = v * 10 + (s[i] - '0');
    }
    return true;
  };
  int64_t y, mo, d, h, mi, se;
  if (s.size() < 19 || !digits(0, 4, y) || s[4] != '-' || !digits(5, 2, mo) || s[7] != '-' ||
      !digits(8, 2, d) || (s[10] != ' ' && s[10] != 'T') || !digits(11, 2, h) || s[13] != ':' ||
      !digits(14, 2, mi) || s[16] != ':' || !digits(17, 2, se)) {
    return false;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60) return false;
  size_t pos = 19;
  int64_t fraction = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    int count = 0;
    while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
      if (count < 6) fraction = fraction * 10 + (s[pos] - '0'), ++count;
      ++pos;
    }
    if (count == 0) return false;
    while (count < 6) fraction *= 10, ++count;
  }
  utc = false;
  if (pos < s.size() && s[pos] == 'Z') utc = true, ++pos;
  if (pos != s.size()) return false;
  micros = ((days_from_civil(y, mo, d) * 24 + h) * 60 + mi) * 60 * 1000000 + se * 1000000 + fraction;
  return true;
}

// Widens `current` to hold `text`.
Kind widen(Kind current, std::string_view text) {
  if (current == Kind::kString) return current;
  int64_t i;
  double d;
  bool b, utc;
  Kind k;
  if (parse_int(text, i)) {
    k = Kind::kInt64;
  } else if (parse_double(text, d)) {
    k = Kind::kDouble;
  } else if (parse_bool(text, b)) {
    k = Kind::kBool;
  } else if (parse_timestamp(text, i, utc)) {
    k = utc ? Kind::kTimestampUtc : Kind::kTimestamp;
  } else {
    return Kind::kString;
  }
  if (current == Kind::kNull || current == k) return k;
  if ((current == Kind::kInt64 && k == Kind::kDouble) || (current == Kind::kDouble && k == Kind::kInt64)) {
    return Kind::kDouble;
  }
  return Kind::kString;
}

Kind kind_from_name(const std::string& name) {
  if (name == "int64" || name == "int" || name == "bigint") return Kind::kInt64;
  if (name == "double" || name == "float") return Kind::kDouble;
  if (name == "bool" || name == "boolean") return Kind::kBool;
  if (name == "timestamp") return Kind::kTimestamp;
  if (name == "timestamptz") return Kind::kTimestampUtc;
  if (name == "string" || name == "utf8") return Kind::kString;
  throw_invalid("unknown column type '" + name + "' (int64, double, bool, timestamp, timestamptz, string)");
}

DataType arrow_type(Kind kind) {
  switch (kind) {
    case Kind::kBool: return DataType::make(TypeId::kBool);
    case Kind::kInt64: return DataType::make(TypeId::kInt64);
    case Kind::kDouble: return DataType::make(TypeId::kFloat64);
    case Kind::kTimestamp: return DataType::timestamp(ArrowTimeUnit::kMicro, "");
    case Kind::kTimestampUtc: return DataType::timestamp(ArrowTimeUnit::kMicro, "UTC");
    default: return DataType::make(TypeId::kString);
  }
}

// ---------------------------------------------------------------------------
// Column builders: one batch of one column.

struct ColumnBuilder {
  Kind kind = Kind::kString;
  std::string name;
  std::vector<uint8_t> valid;
  std::vector<int64_t> ints;  // int64, timestamps, bools (0/1)
  std::vector<double> doubles;
  std::vector<int32_t> offsets{0};
  std::string chars;
  int64_t nulls = 0;

  void append_null() {
    valid.push_back(0);
    ++nulls;
    if (kind == Kind::kDouble) {
      doubles.push_back(0);
    } else if (kind == Kind::kString) {
      offsets.push_back(int32_t(chars.size()));
    } else {
      ints.push_back(0);
    }
  }

  void append(std::string_view text, int64_t line) {
    int64_t i = 0;
    double d = 0;
    bool b = false, utc = false;
    bool ok = true;
    switch (kind) {
      case Kind::kNull:
      case Kind::kString:
        chars.append(text);
        if (chars.size() > size_t(INT32_MAX))
          throw_limit("a batch of column " + name + " exceeds 2 GiB of text");
        offsets.push_back(int32_t(chars.size()));
        break;
      case Kind::kInt64:
        ok = parse_int(text, i);
        ints.push_back(i);
        break;
      case Kind::kDouble:
        ok = parse_double(text, d);
        doubles.push_back(d);
        break;
      case Kind::kBool:
        ok = parse_bool(text, b);
        ints.push_back(b);
        break;
      case Kind::kTimestamp:
      case Kind::kTimestampUtc:
        ok = parse_timestamp(text, i, utc);
        ints.push_back(i);
        break;
    }
    if (!ok) {
      throw_invalid("line " + std::to_string(line) + ", column " + name + ": '" + std::string(text) +
                    "' is not a valid value of the column's type (use --schema, or a larger --infer-rows)");
    }
    valid.push_back(1);
  }

  std::shared_ptr<ArrayData> finish() {
    auto a = std::make_shared<ArrayData>();
    a->type = std::make_shared<DataType>(arrow_type(kind));
    a->length = int64_t(valid.size());
    a->null_count = nulls;
    auto adopt = [](const void* data, size_t size) {
      Buffer buffer(size);
      if (size) std::memcpy(buffer.data(), data, size);
      return BufferRef::adopt(std::move(buffer));
    };
    if (nulls > 0) {
      Buffer bitmap((valid.size() + 7) / 8);
      std::memset(bitmap.data(), 0, bitmap.size());
      for (size_t k = 0; k < valid.size(); ++k) {
        if (valid[k]) bitmap.data()[k >> 3] |= uint8_t(1u << (k & 7));
      }
      a->buffers.push_back(BufferRef::adopt(std::move(bitmap)));
    } else {
      a->buffers.push_back(BufferRef{});
    }
    switch (kind) {
      case Kind::kBool: {
        Buffer bitmap((ints.size() + 7) / 8);
        std::memset(bitmap.data(), 0, bitmap.size());
        for (size_t k = 0; k < ints.size(); ++k) {
          if (ints[k]) bitmap.data()[k >> 3] |= uint8_t(1u << (k & 7));
        }
        a->buffers.push_back(BufferRef::adopt(std::move(bitmap)));
        break;
      }
      case Kind::kDouble: a->buffers.push_back(adopt(doubles.data(), doubles.size() * 8)); break;
      case Kind::kNull:
      case Kind::kString:
        a->buffers.push_back(adopt(offsets.data(), offsets.size() * 4));
        a->buffers.push_back(adopt(chars.data(), chars.size()));
        break;
      default: a->buffers.push_back(adopt(ints.data(), ints.size() * 8));
    }
    valid.clear();
    ints.clear();
    doubles.clear();
    offsets.assign(1, 0);
    chars.clear();
    nulls = 0;
    return a;
  }
};

// ---------------------------------------------------------------------------
// Text readers: produce records of (column index, text or null).

struct Record {
  std::vector<std::optional<std::string>> fields;
};

class CsvReader {
 public:
  explicit CsvReader(const std::string& path) : in_(path, std::ios::binary) {
    if (!in_) throw_io("cannot open " + path, errno);
    std::vector<std::string> header;
    std::vector<bool> quoted;
    if (!next_fields(header, quoted)) throw_invalid(path + " is empty: a CSV file needs a header row");
    names_ = header;
  }
  const std::vector<std::string>& names() const { return names_; }
  int64_t line() const { return line_; }

  bool next(Record& record) {
    std::vector<std::string> fields;
    std::vector<bool> quoted;
    if (!next_fields(fields, quoted)) return false;
    if (fields.size() != names_.size()) {
      throw_invalid("line " + std::to_string(line_) + " has " + std::to_string(fields.size()) +
                    " fields, the header " + std::to_string(names_.size()));
    }
    record.fields.resize(fields.size());
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].empty() && !quoted[i]) {
        record.fields[i].reset();
      } else {
        record.fields[i] = std::move(fields[i]);
      }
    }
    return true;
  }

 private:
  // RFC 4180: quoted fields may hold commas, doubled quotes and newlines.
  bool next_fields(std::vector<std::string>& fields, std::vector<bool>& quoted) {
    fields.clear();
    quoted.clear();
    std::string line;
    if (!std::getline(in_, line)) return false;
    ++line_;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string field;
    bool in_quotes = false, was_quoted = false;
    size_t i = 0;
    while (true) {
      if (i == line.size()) {
        if (in_quotes) {
          std::string more;
          if (!std::getline(in_, more))
            throw_invalid("unterminated quoted field at line " + std::to_string(line_));
          ++line_;
          if (!more.empty() && more.back() == '\r') more.pop_back();
          field += '\n';
          line = more;
          i = 0;
          continue;
        }
        fields.push_back(std::move(field));
        quoted.push_back(was_quoted);
        return true;
      }
      const char c = line[i++];
      if (in_quotes) {
        if (c == '"') {
          if (i < line.size() && line[i] == '"') {
            field += '"';
            ++i;
          } else {
            in_quotes = false;
          }
        } else {
          field += c;
        }
      } else if (c == '"') {
        in_quotes = true;
        was_quoted = true;
      } else if (c == ',') {
        fields.push_back(std::move(field));
        quoted.push_back(was_quoted);
        field.clear();
        was_quoted = false;
      } else {
        field += c;
      }
    }
  }

  std::ifstream in_;
  std::vector<std::string> names_;
  int64_t line_ = 0;
};

class JsonLinesReader {
 public:
  explicit JsonLinesReader(const std::string& path) : path_(path), in_(path, std::ios::binary) {
    if (!in_) throw_io("cannot open " + path, errno);
  }
  std::vector<std::string>& names() { return names_; }
  int64_t line() const { return line_; }

  bool next(Record& record) {
    std::string text;
    while (true) {
      if (!std::getline(in_, text)) return false;
      ++line_;
      if (text.find_first_not_of(" \t\r") != std::string::npos) break;
    }
    simdjson::dom::element doc;
    if (parser_.parse(text).get(doc) != simdjson::SUCCESS || !doc.is_object()) {
      throw_invalid(path_ + " line " + std::to_string(line_) + " is not a JSON object");
    }
    record.fields.assign(names_.size(), std::nullopt);
    for (auto field : doc.get_object()) {
      std::string key(field.key);
      size_t index = 0;
      while (index < names_.size() && names_[index] != key) ++index;
      if (index == names_.size()) {
        names_.push_back(key);
        record.fields.emplace_back();
      }
      simdjson::dom::element v = field.value;
      switch (v.type()) {
        case simdjson::dom::element_type::NULL_VALUE: break;
        case simdjson::dom::element_type::STRING:
          record.fields[index] = std::string(std::string_view(v));
          break;
        case simdjson::dom::element_type::BOOL: record.fields[index] = bool(v) ? "true" : "false"; break;
        case simdjson::dom::element_type::INT64: record.fields[index] = std::to_string(int64_t(v)); break;
        case simdjson::dom::element_type::UINT64: record.fields[index] = std::to_string(uint64_t(v)); break;
        case simdjson::dom::element_type::DOUBLE: {
          char buffer[64];
          auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof(buffer), double(v));
          record.fields[index] = std::string(buffer, ptr);
          break;
        }
        default: record.fields[index] = simdjson::to_string(v); break;
      }
    }
    return true;
  }

 private:
  std::string path_;
  std::ifstream in_;
  simdjson::dom::parser parser_;
  std::vector<std::string> names_;
  int64_t line_ = 0;
};

struct ConvertOptions {
  std::string input;
  std::string output;
  std::string schema;
  std::string codec;
  int64_t infer_rows = 10000;
  int64_t batch_rows = 64 * 1024;
};

template <typename Reader>
void text_to_parquet(Reader& reader, const ConvertOptions& o) {
  // Sample the first rows to fix the column names and types.
  std::vector<Record> sample;
  Record record;
  while (int64_t(sample.size()) < o.infer_rows && reader.next(record)) sample.push_back(record);
  const std::vector<std::string> names = reader.names();
  if (names.empty()) throw_invalid(o.input + " has no columns");
  std::vector<ColumnBuilder> columns(names.size());
  for (size_t c = 0; c < names.size(); ++c) {
    columns[c].name = names[c];
    Kind kind = Kind::kNull;
    for (const Record& r : sample) {
      if (c < r.fields.size() && r.fields[c]) kind = widen(kind, *r.fields[c]);
    }
    columns[c].kind = kind == Kind::kNull ? Kind::kString : kind;
  }
  if (!o.schema.empty()) {
    size_t start = 0;
    while (start <= o.schema.size()) {
      size_t end = o.schema.find(',', start);
      if (end == std::string::npos) end = o.schema.size();
      const std::string item = o.schema.substr(start, end - start);
      const size_t colon = item.find(':');
      if (colon == std::string::npos) throw_invalid("--schema takes name:type pairs, got '" + item + "'");
      const std::string name = item.substr(0, colon);
      size_t c = 0;
      while (c < names.size() && names[c] != name) ++c;
      if (c == names.size())
        throw_invalid("--schema names column '" + name + "', which the input does not have");
      columns[c].kind = kind_from_name(item.substr(colon + 1));
      start = end + 1;
    }
  }
  BatchSchema schema;
  for (const ColumnBuilder& c : columns)
    schema.fields.push_back(Field{c.name, arrow_type(c.kind), true, -1, {}});
  auto shared = std::make_shared<const BatchSchema>(schema);
  WriterOptions options;
  if (!o.codec.empty()) options.codec = parse_codec(o.codec);
  auto writer = FileWriter::open(o.output, schema, options);
  int64_t rows = 0;
  int64_t line = 1;
  auto add = [&](const Record& r) {
    ++line;
    for (size_t c = 0; c < columns.size(); ++c) {
      if (c < r.fields.size() && r.fields[c]) {
        columns[c].append(*r.fields[c], line);
      } else {
        columns[c].append_null();
      }
    }
    if (++rows == o.batch_rows) {
      RecordBatch batch;
      batch.schema = shared;
      batch.num_rows = rows;
      for (ColumnBuilder& c : columns) batch.columns.push_back(c.finish());
      writer->write(batch);
      rows = 0;
    }
  };
  for (const Record& r : sample) add(r);
  sample.clear();
  while (reader.next(record)) add(record);
  if (rows > 0) {
    RecordBatch batch;
    batch.schema = shared;
    batch.num_rows = rows;
    for (ColumnBuilder& c : columns) batch.columns.push_back(c.finish());
    writer->write(batch);
  }
  writer->close();
}

// ---------------------------------------------------------------------------
// Parquet -> text

void csv_field(std::string& out, std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) {
    out.append(text);
    return;
  }
  out += '"';
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

void parquet_to_text(const ConvertOptions& o, Format format) {
  auto reader = FileReader::open(o.input);
  std::FILE* out = std::fopen((o.output + ".tmp").c_str(), "wb");
  if (out == nullptr) throw_io("cannot create " + o.output, errno);
  std::string text;
  try {
    const BatchSchema& schema = *reader->batch_schema();
    if (format == Format::kCsv) {
      for (size_t c = 0; c < schema.fields.size(); ++c) {
        if (c) text += ',';
        csv_field(text, schema.fields[c].name);
      }
      text += '\n';
    }
    auto batches = reader->batches();
    RecordBatch batch;
    simdjson::dom::parser parser;
    while (batches->next(batch)) {
      for (int64_t r = 0; r < batch.num_rows; ++r) {
        if (format == Format::kJsonLines) {
          JsonWriter json;
          write_json_row(json, batch, r);
          text += json.take();
        } else {
          for (size_t c = 0; c < batch.columns.size(); ++c) {
            if (c) text += ',';
            const ArrayData& column = *batch.columns[c];
            if (!column.is_valid(r) || column.type->id == TypeId::kNull) continue;
            JsonWriter json;
            write_json_value(json, column, r);
            std::string value = json.take();
            // Plain JSON strings lose their quotes; anything else (numbers, nested values) stays JSON text.
            simdjson::dom::element e;
            if (value.size() >= 2 && value.front() == '"' &&
                parser.parse(value).get(e) == simdjson::SUCCESS && e.is_string()) {
              csv_field(text, std::string_view(e));
            } else {
              csv_field(text, value);
            }
          }
        }
        text += '\n';
        if (text.size() > (1 << 20)) {
          if (std::fwrite(text.data(), 1, text.size(), out) != text.size())
            throw_io("cannot write " + o.output, errno);
          text.clear();
        }
      }
    }
    if (std::fwrite(text.data(), 1, text.size(), out) != text.size())
      throw_io("cannot write " + o.output, errno);
    if (std::fclose(out) != 0) throw_io("cannot write " + o.output, errno);
    out = nullptr;
    if (std::rename((o.output + ".tmp").c_str(), o.output.c_str()) != 0)
      throw_io("cannot rename to " + o.output, errno);
  } catch (...) {
    if (out != nullptr) std::fclose(out);
    std::remove((o.output + ".tmp").c_str());
    throw;
  }
}

void run_convert(const ConvertOptions& o) {
  const Format in = format_of(o.input);
  const Format out = format_of(o.output);
  if (in == Format::kParquet && out != Format::kParquet) return parquet_to_text(o, out);
  if (in != Format::kParquet && out == Format::kParquet) {
    if (in == Format::kCsv) {
      CsvReader reader(o.input);
      return text_to_parquet(reader, o);
    }
    JsonLinesReader reader(o.input);
    return text_to_parquet(reader, o);
  }
  throw_invalid("convert goes from CSV or JSON lines to Parquet, or from Parquet to CSV or JSON lines");
}

const CommandRegistration kConvertCommand(50, [](CLI::App& app) {
  auto o = std::make_shared<ConvertOptions>();
  CLI::App* command =
      app.add_subcommand("convert", "Convert CSV / JSON lines to Parquet, or Parquet to CSV / JSON lines");
  command->add_option("input", o->input, "Input file (.csv, .jsonl or .parquet)")->required();
  command->add_option("output", o->output, "Output file (.parquet, .csv or .jsonl)")->required();
  command->add_option("--schema", o->schema,
                      "Column types: name:type,... (int64, double, bool, timestamp, "
                      "timestamptz, string); others are inferred");
  command->add_option("--infer-rows", o->infer_rows, "Rows sampled to infer column types (default 10000)");
  command->add_option("--codec", o->codec, "Parquet codec (default snappy)");
  command->callback([o] { run_convert(*o); });
});

}  // namespace
}  // namespace parquetry::cli
