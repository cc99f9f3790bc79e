// The Table object: schema, row count, per-column conversion to numpy, the
// buffer addresses the zero-copy test compares with, and the Arrow PyCapsule
// stream interface (`__arrow_c_stream__`), which hands the batches to any
// Arrow-speaking library without copying them.
#include <cstdlib>

#include "bindings.h"
#include "parquetry/arrow_export.h"
#include "parquetry/error.h"

namespace parquetry::python {
namespace {

// Streams a Table's batches (sharing their buffers) to an Arrow consumer.
class TableBatchReader final : public BatchReader {
 public:
  explicit TableBatchReader(std::shared_ptr<const Table> table) : table_(std::move(table)) {}
  std::shared_ptr<const BatchSchema> schema() const override { return table_->schema; }
  bool next(RecordBatch& out) override {
    if (next_ >= table_->batches.size()) return false;
    out = table_->batches[next_++];
    return true;
  }

 private:
  std::shared_ptr<const Table> table_;
  size_t next_ = 0;
};

constexpr const char* kStreamCapsule = "arrow_array_stream";

// The capsule owns the struct; a consumer that took the stream has moved it
// out (release set to null), otherwise the stream is released here.
void release_stream_capsule(PyObject* capsule) {
  auto* stream = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule, kStreamCapsule));
  if (stream == nullptr) {
    PyErr_Clear();
    return;
  }
  if (stream->release != nullptr) stream->release(stream);
  std::free(stream);
}

py::object stream_capsule(const std::shared_ptr<Table>& table, py::object requested_schema) {
  // Casting to a requested schema is optional in the protocol; parquetry hands out its own.
  (void)requested_schema;
  auto* stream = static_cast<ArrowArrayStream*>(std::calloc(1, sizeof(ArrowArrayStream)));
  if (stream == nullptr) throw std::bad_alloc();
  try {
    export_stream(std::make_unique<TableBatchReader>(table), stream);
  } catch (...) {
    std::free(stream);
    throw;
  }
  return py::reinterpret_steal<py::object>(PyCapsule_New(stream, kStreamCapsule, release_stream_capsule));
}

// Any object with __arrow_c_stream__ (or a bare capsule) -> a Table; the
// imported buffers keep the producer's memory alive.
std::shared_ptr<Table> table_from_stream(py::object source) {
  py::object capsule =
      py::hasattr(source, "__arrow_c_stream__") ? source.attr("__arrow_c_stream__")() : source;
  auto* stream = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule.ptr(), kStreamCapsule));
  if (stream == nullptr) throw py::error_already_set();
  auto reader = import_stream(stream);  // moves the stream out; the capsule then frees an empty struct
  auto table = std::make_shared<Table>();
  table->schema = reader->schema();
  RecordBatch batch;
  while (reader->next(batch)) table->batches.push_back(std::move(batch));
  return table;
}

size_t column_index(const Table& table, const std::string& name) {
  const int index = table.schema->field_index(name);
  if (index < 0) throw_invalid("no column " + name);
  return static_cast<size_t>(index);
}

}  // namespace

int64_t Table::num_rows() const {
  int64_t rows = 0;
  for (const RecordBatch& batch : batches) rows += batch.num_rows;
  return rows;
}

void bind_table(py::module_& m) {
  py::class_<Table, std::shared_ptr<Table>>(m, "Table")
      .def_property_readonly("num_rows", &Table::num_rows)
      .def_property_readonly("num_batches", [](const Table& t) { return t.batches.size(); })
      .def_property_readonly("column_names",
                             [](const Table& t) {
                               std::vector<std::string> names;
                               for (const Field& field : t.schema->fields) names.push_back(field.name);
                               return names;
                             })
      .def_property_readonly("column_types",
                             [](const Table& t) {
                               std::vector<std::string> types;
                               for (const Field& field : t.schema->fields)
                                 types.push_back(field.type.to_string());
                               return types;
                             })
      .def_property_readonly("column_kinds",
                             [](const Table& t) {
                               std::vector<std::string> kinds;
                               for (const Field& field : t.schema->fields)
                                 kinds.push_back(numpy_kind(field.type));
                               return kinds;
                             })
      .def_property_readonly("column_timezones",
                             [](const Table& t) {
                               std::vector<std::string> zones;
                               for (const Field& field : t.schema->fields)
                                 zones.push_back(field.type.timezone);
                               return zones;
                             })
      .def_property_readonly("column_nullable",
                             [](const Table& t) {
                               std::vector<bool> nullable;
                               for (const Field& field : t.schema->fields) nullable.push_back(field.nullable);
                               return nullable;
                             })
      .def(
          "column_pieces",
          [](const Table& t, const std::string& name) {
            const size_t index = column_index(t, name);
            py::list pieces;
            for (const RecordBatch& batch : t.batches) pieces.append(column_piece(batch.columns[index]));
            return pieces;
          },
          py::arg("name"), "One (values, valid) pair per batch (see bindings.h)")
      .def(
          "buffer_address",
          [](const Table& t, const std::string& name, size_t batch) {
            if (batch >= t.batches.size()) throw_invalid("no batch " + std::to_string(batch));
            return value_address(*t.batches[batch].columns[column_index(t, name)]);
          },
          py::arg("name"), py::arg("batch") = 0,
          "Address of the first value of a fixed-width column in one batch (0 for other types)")
      .def("__arrow_c_stream__", &stream_capsule, py::arg("requested_schema") = py::none())
      .def("__len__", &Table::num_rows);
  m.def("table_from_stream", &table_from_stream, py::arg("source"),
        "Imports an Arrow C stream (an object with __arrow_c_stream__ or the capsule itself)");
}

}  // namespace parquetry::python
