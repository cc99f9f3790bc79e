// Reading: read() (a whole Table), scan() (a stream of one-batch Tables) and
// open_schema() (a Table without rows, for schemas and Dask's meta).
//
// Three ways to the batches, by what the caller asked for:
//  - no filter: FileReader over the selected row groups (zero-copy slices);
//  - a filter over the whole file: FilteredScan (statistics, dictionary,
//    Bloom filter and page-index pruning, late materialization);
//  - a filter over given row groups (a Dask task of a plan): the predicate
//    columns are read and evaluated per row group, then the projected
//    columns only for the selected rows. The planner has already dropped the
//    row groups whose statistics exclude the filter.

#include "bindings.h"
#include "parquetry/error.h"
#include "parquetry/filtered_scan.h"
#include "parquetry/io.h"
#include "parquetry/predicate.h"
#include "parquetry/reader.h"
#include "parquetry/scan.h"
#include "parquetry/table/select.h"
#include "parquetry/remote.h"

namespace parquetry::python {
namespace {

struct ReadRequest {
  std::string path;
  std::vector<std::string> columns;
  std::string where;
  std::vector<int32_t> row_groups;
  int threads = 1;
  // One batch per row group, up to the largest batch the reader allows.
  int64_t batch_size = Limits{}.max_rows_per_batch;
  DecryptionOptions decryption;
};

// Batches of a FileReader (which the stream must outlive).
class PlainStream final : public BatchReader {
 public:
  explicit PlainStream(const ReadRequest& request) {
    ReaderOptions options;
    options.columns = request.columns;
    options.row_groups = request.row_groups;
    options.threads = request.threads;
    options.batch_size = request.batch_size;
    options.decryption = request.decryption;
    reader_ = FileReader::open(request.path, options);
    batches_ = reader_->batches();
  }
  std::shared_ptr<const BatchSchema> schema() const override { return reader_->batch_schema(); }
  bool next(RecordBatch& out) override { return batches_->next(out); }

 private:
  std::unique_ptr<FileReader> reader_;
  std::unique_ptr<BatchReader> batches_;
};

class FilteredStream final : public BatchReader {
 public:
  explicit FilteredStream(const ReadRequest& request) {
    FilteredScanOptions options;
    options.columns = request.columns;
    options.filter = parse_predicate(request.where);
    options.threads = request.threads;
    options.decryption = request.decryption;
    scan_ = FilteredScan::open(request.path, options);
  }
  std::shared_ptr<const BatchSchema> schema() const override { return scan_->schema(); }
  bool next(RecordBatch& out) override { return scan_->next(out); }

 private:
  std::unique_ptr<FilteredScan> scan_;
};

// A filter over chosen row groups: evaluate on the predicate columns, then
// read the projected columns for the selected rows only.
class RowGroupFilterStream final : public BatchReader {
 public:
  explicit RowGroupFilterStream(const ReadRequest& request)
      : filter_(push_down_not(parse_predicate(request.where))), row_groups_(request.row_groups) {
    auto source = open_source(request.path, /*use_mmap=*/true);
    ReaderOptions options;
    options.threads = request.threads;
    options.columns = request.columns;
    options.decryption = request.decryption;
    data_ = FileReader::open(source, options);
    const std::vector<std::string> filter_columns = filter_.columns();
    for (const std::string& column : filter_columns) {
      if (data_->schema().find_column(column) == nullptr) {
        throw_invalid("filter: no leaf column " + column + " in " + request.path);
      }
    }
    if (!filter_columns.empty()) {
      options.columns = filter_columns;
      predicate_ = FileReader::open(source, options);
    }
  }
  std::shared_ptr<const BatchSchema> schema() const override { return data_->batch_schema(); }

  bool next(RecordBatch& out) override {
    while (next_ < row_groups_.size()) {
      const int rg = row_groups_[next_++];
      if (rg < 0 || rg >= data_->num_row_groups()) throw_invalid("no row group " + std::to_string(rg));
      const int64_t rows = data_->metadata().row_groups[size_t(rg)].num_rows;
      std::vector<RowRange> selected;
      if (predicate_) {
        RecordBatch predicate_batch = predicate_->read_row_group(rg);
        std::vector<uint8_t> bitmap;
        evaluate_predicate(filter_, predicate_batch, bitmap);
        selected = ranges_from_bitmap(bitmap.data(), predicate_batch.num_rows);
      } else if (filter_.kind != Predicate::Kind::kFalse) {
        selected = {{0, rows}};
      }
      int64_t kept = 0;
      for (const RowRange& range : selected) kept += range.length();
      if (kept == 0) continue;
      out = kept == rows ? data_->read_row_group(rg) : data_->read_row_group(rg, selected);
      return true;
    }
    return false;
  }

 private:
  Predicate filter_;
  std::vector<int32_t> row_groups_;
  std::unique_ptr<FileReader> data_;
  std::unique_ptr<FileReader> predicate_;
  size_t next_ = 0;
};

std::unique_ptr<BatchReader> open_stream(const ReadRequest& request) {
  if (request.where.empty()) return std::make_unique<PlainStream>(request);
  if (request.row_groups.empty()) return std::make_unique<FilteredStream>(request);
  return std::make_unique<RowGroupFilterStream>(request);
}

ReadRequest make_request(std::string path, std::optional<std::vector<std::string>> columns,
                         std::optional<std::string> where, std::optional<std::vector<int32_t>> row_groups,
                         std::optional<int> threads) {
  ReadRequest request;
  request.path = std::move(path);
  if (columns) request.columns = *columns;
  if (where) request.where = *where;
  if (row_groups) {
    request.row_groups = *row_groups;
    // An explicit empty list means "none" (a planner that pruned everything), not "all".
    if (row_groups->empty()) request.where = "FALSE";
  }
  if (threads) {
    if (*threads < 1) throw_invalid("threads must be at least 1");
    request.threads = *threads;
  }
  return request;
}

std::shared_ptr<Table> read_table(const ReadRequest& request) {
  auto table = std::make_shared<Table>();
  py::gil_scoped_release unlocked;
  auto stream = open_stream(request);
  table->schema = stream->schema();
  RecordBatch batch;
  while (stream->next(batch)) table->batches.push_back(std::move(batch));
  return table;
}

// A scan as a Python iterator of one-batch Tables.
class PyScan {
 public:
  explicit PyScan(const ReadRequest& request) {
    py::gil_scoped_release unlocked;
    stream_ = open_stream(request);
  }
  std::shared_ptr<Table> next() {
    auto table = std::make_shared<Table>();
    table->schema = stream_->schema();
    RecordBatch batch;
    bool more;
    {
      py::gil_scoped_release unlocked;
      more = stream_->next(batch);
    }
    if (!more) throw py::stop_iteration();
    table->batches.push_back(std::move(batch));
    return table;
  }
  std::shared_ptr<Table> schema() const {
    auto table = std::make_shared<Table>();
    table->schema = stream_->schema();
    return table;
  }

 private:
  std::unique_ptr<BatchReader> stream_;
};

py::object scalar(const ScanScalar& value) {
  if (std::holds_alternative<int64_t>(value)) return py::int_(std::get<int64_t>(value));
  if (std::holds_alternative<uint64_t>(value)) return py::int_(std::get<uint64_t>(value));
  if (std::holds_alternative<double>(value)) return py::float_(std::get<double>(value));
  if (std::holds_alternative<std::string>(value)) return py::bytes(std::get<std::string>(value));
  return py::none();
}

// The CLI's `scan` workload: every selected value decoded and folded, nothing
// handed to Python but the summary (what a distributed aggregate's task returns).
py::dict scan_summary(const ReadRequest& request) {
  ScanSummary summary;
  {
    py::gil_scoped_release unlocked;
    auto stream = open_stream(request);
    ScanAccumulator accumulator(*stream->schema());
    RecordBatch batch;
    while (stream->next(batch)) accumulator.add(batch, request.threads);
    summary = accumulator.summary();
  }
  py::dict columns;
  for (const ColumnScanSummary& column : summary.columns) {
    py::dict c;
    c["type"] = column.type.to_string();
    c["count"] = column.count;
    c["nulls"] = column.nulls;
    c["min"] = scalar(column.min);
    c["max"] = scalar(column.max);
    columns[py::str(column.name)] = c;
  }
  py::dict out;
  out["rows"] = summary.rows;
  out["columns"] = columns;
  return out;
}

}  // namespace

void bind_read(py::module_& m) {
  m.def(
      "scan_summary",
      [](std::string path, std::optional<std::vector<std::string>> columns, std::optional<std::string> where,
         std::optional<std::vector<int32_t>> row_groups, std::optional<int> threads, const py::object& decryption) {
        ReadRequest request = make_request(std::move(path), columns, where, row_groups, threads);
        request.decryption = decryption_options(decryption);
        return scan_summary(request);
      },
      py::arg("path"), py::arg("columns") = py::none(), py::arg("where") = py::none(),
      py::arg("row_groups") = py::none(), py::arg("threads") = py::none(), py::arg("decryption") = py::none(),
      "Decodes the selection and folds count / nulls / min / max per column, as `parquetry scan` does");

  m.def(
      "read",
      [](std::string path, std::optional<std::vector<std::string>> columns, std::optional<std::string> where,
         std::optional<std::vector<int32_t>> row_groups, std::optional<int> threads, const py::object& decryption) {
        ReadRequest request = make_request(std::move(path), columns, where, row_groups, threads);
        request.decryption = decryption_options(decryption);
        return read_table(request);
      },
      py::arg("path"), py::arg("columns") = py::none(), py::arg("where") = py::none(),
      py::arg("row_groups") = py::none(), py::arg("threads") = py::none(), py::arg("decryption") = py::none(),
      "Reads the selected columns / row groups / rows of a file into one Table (a batch per row group)");

  py::class_<PyScan>(m, "Scan")
      .def("__iter__", [](PyScan& self) -> PyScan& { return self; })
      .def("__next__", &PyScan::next)
      .def_property_readonly("schema", &PyScan::schema);
  m.def(
      "scan",
      [](std::string path, std::optional<std::vector<std::string>> columns, std::optional<std::string> where,
         std::optional<std::vector<int32_t>> row_groups, std::optional<int> threads, int64_t batch_size,
         const py::object& decryption) {
        ReadRequest request = make_request(std::move(path), columns, where, row_groups, threads);
        request.decryption = decryption_options(decryption);
        if (batch_size < 1) throw_invalid("batch_size must be at least 1");
        request.batch_size = batch_size;
        return std::make_unique<PyScan>(request);
      },
      py::arg("path"), py::arg("columns") = py::none(), py::arg("where") = py::none(),
      py::arg("row_groups") = py::none(), py::arg("threads") = py::none(), py::arg("batch_size") = 64 * 1024,
      py::arg("decryption") = py::none());

  m.def(
      "open_schema",
      [](const std::string& path, std::optional<std::vector<std::string>> columns) {
        ReaderOptions options;
        if (columns) options.columns = *columns;
        auto table = std::make_shared<Table>();
        py::gil_scoped_release unlocked;
        table->schema = FileReader::open(path, options)->batch_schema();
        return table;
      },
      py::arg("path"), py::arg("columns") = py::none(), "A Table with the columns of a file and no rows");
}

}  // namespace parquetry::python
