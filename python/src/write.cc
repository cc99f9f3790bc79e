// Writing: numpy columns (prepared by parquetry/__init__.py from a pandas
// DataFrame or a dict of arrays) -> one RecordBatch -> FileWriter, whose
// atomic output makes the file appear whole or not at all.
//
// Fixed-width values are not copied: the batch points into the numpy arrays,
// which the caller holds for the duration of the call (the writer keeps no
// reference to a batch after write() returns). Booleans are packed to bits,
// strings gathered into offsets + bytes, null masks into validity bitmaps.
#include <cctype>
#include <cstring>
#include <limits>

#include "bindings.h"
#include "parquetry/error.h"
#include "parquetry/writer.h"

namespace parquetry::python {
namespace {

// A borrowed numpy buffer: valid while the array the caller passed lives.
BufferRef borrow(const py::array& array) {
  return BufferRef{static_cast<const uint8_t*>(array.data()), static_cast<int64_t>(array.nbytes()), nullptr};
}

BufferRef pack_bits(const bool* values, int64_t length, int64_t* unset) {
  Buffer bits((size_t(length) + 7) / 8);
  std::memset(bits.data(), 0, bits.size());
  int64_t zeros = 0;
  for (int64_t i = 0; i < length; ++i) {
    if (values[i]) {
      bits.data()[i >> 3] |= uint8_t(1u << (i & 7));
    } else {
      ++zeros;
    }
  }
  if (unset != nullptr) *unset = zeros;
  return BufferRef::adopt(std::move(bits));
}

DataType numeric_type(const py::dtype& dtype) {
  const char kind = dtype.kind();
  const auto size = dtype.itemsize();
  if (kind == 'b') return DataType::make(TypeId::kBool);
  if (kind == 'i') {
    switch (size) {
      case 1: return DataType::make(TypeId::kInt8);
      case 2: return DataType::make(TypeId::kInt16);
      case 4: return DataType::make(TypeId::kInt32);
      case 8: return DataType::make(TypeId::kInt64);
    }
  } else if (kind == 'u') {
    switch (size) {
      case 1: return DataType::make(TypeId::kUInt8);
      case 2: return DataType::make(TypeId::kUInt16);
      case 4: return DataType::make(TypeId::kUInt32);
      case 8: return DataType::make(TypeId::kUInt64);
    }
  } else if (kind == 'f') {
    switch (size) {
      case 2: return DataType::make(TypeId::kFloat16);
      case 4: return DataType::make(TypeId::kFloat32);
      case 8: return DataType::make(TypeId::kFloat64);
    }
  }
  throw_unsupported("write: numpy dtype " + dtype.attr("name").cast<std::string>() +
                    " has no Parquet column type");
}

ArrowTimeUnit parse_unit(const std::string& unit) {
  if (unit == "s") return ArrowTimeUnit::kSecond;
  if (unit == "ms") return ArrowTimeUnit::kMilli;
  if (unit == "us") return ArrowTimeUnit::kMicro;
  if (unit == "ns") return ArrowTimeUnit::kNano;
  throw_unsupported("write: time unit " + unit);
}

// Strings (str) or binaries (bytes) of an object array; None marks a null.
template <typename Offset>
std::shared_ptr<ArrayData> gather_strings(const py::array& objects, bool text, Buffer& validity,
                                          int64_t& nulls) {
  const int64_t length = objects.shape(0);
  auto* const* slots = static_cast<PyObject* const*>(objects.data());
  Buffer offsets((size_t(length) + 1) * sizeof(Offset));
  Buffer data;
  Offset* offset = offsets.as<Offset>();
  offset[0] = 0;
  for (int64_t i = 0; i < length; ++i) {
    PyObject* value = slots[i];
    const char* bytes = nullptr;
    Py_ssize_t size = 0;
    if (value == Py_None) {
      validity.data()[i >> 3] &= uint8_t(~(1u << (i & 7)));
      ++nulls;
    } else if (text && PyUnicode_Check(value)) {
      bytes = PyUnicode_AsUTF8AndSize(value, &size);
      if (bytes == nullptr) throw py::error_already_set();
    } else if (!text && PyBytes_Check(value)) {
      bytes = PyBytes_AS_STRING(value);
      size = PyBytes_GET_SIZE(value);
    } else {
      throw_invalid(std::string("write: expected ") + (text ? "str" : "bytes") + " or None, got " +
                    std::string(py::str(py::type::handle_of(value))));
    }
    if (size > 0) data.append(bytes, size_t(size));
    if (data.size() > size_t(std::numeric_limits<Offset>::max()))
      throw_limit("write: string column too large");
    offset[i + 1] = static_cast<Offset>(data.size());
  }
  auto array = std::make_shared<ArrayData>();
  array->length = length;
  array->buffers = {BufferRef{}, BufferRef::adopt(std::move(offsets)), BufferRef::adopt(std::move(data))};
  return array;
}

// One column: (name, kind, values, valid, unit, timezone) from Python.
// Borrowed buffers point into arrays appended to `keep`, which the caller holds until the write ends.
std::pair<Field, std::shared_ptr<ArrayData>> make_column(const py::tuple& spec,
                                                         std::vector<py::object>& keep) {
  Field field;
  field.name = spec[0].cast<std::string>();
  const auto kind = spec[1].cast<std::string>();
  py::array values = py::array::ensure(spec[2], py::array::c_style);
  if (!values || values.ndim() != 1) throw_invalid("write: column " + field.name + " is not a 1-d array");
  keep.push_back(values);
  const int64_t length = values.shape(0);
  const bool has_mask = !spec[3].is_none();

  Buffer validity((size_t(length) + 7) / 8);
  std::memset(validity.data(), 0xff, validity.size());
  int64_t nulls = 0;
  std::shared_ptr<ArrayData> array;
  if (kind == "str" || kind == "bytes") {
    const bool text = kind == "str";
    field.type = DataType::make(text ? TypeId::kString : TypeId::kBinary);
    array = gather_strings<int32_t>(values, text, validity, nulls);
  } else {
    array = std::make_shared<ArrayData>();
    array->length = length;
    if (kind == "timestamp") {
      field.type = DataType::timestamp(parse_unit(spec[4].cast<std::string>()), spec[5].cast<std::string>());
    } else if (kind == "date32") {
      field.type = DataType::make(TypeId::kDate32);
    } else if (kind == "numeric") {
      field.type = numeric_type(values.dtype());
    } else {
      throw_invalid("write: unknown column kind " + kind);
    }
    if (field.type.id == TypeId::kBool) {
      array->buffers = {BufferRef{}, pack_bits(static_cast<const bool*>(values.data()), length, nullptr)};
    } else {
      if (values.itemsize() != field.type.fixed_width())
        throw_invalid("write: column " + field.name + " width");
      array->buffers = {BufferRef{}, borrow(values)};
    }
  }
  if (has_mask) {
    py::array_t<bool, py::array::c_style | py::array::forcecast> valid(spec[3]);
    if (valid.ndim() != 1 || valid.shape(0) != length) throw_invalid("write: mask of " + field.name);
    int64_t unset = 0;
    BufferRef bits = pack_bits(valid.data(), length, &unset);
    // Strings already cleared their None slots: combine both.
    auto* combined = validity.data();
    for (size_t i = 0; i < validity.size(); ++i) combined[i] &= bits.data[i];
    nulls = 0;
    for (int64_t i = 0; i < length; ++i) nulls += !((combined[i >> 3] >> (i & 7)) & 1);
  }
  array->type = std::make_shared<DataType>(field.type);
  array->null_count = nulls;
  if (nulls > 0) array->buffers[0] = BufferRef::adopt(std::move(validity));
  field.nullable = true;
  return {std::move(field), std::move(array)};
}

CompressionCodec parse_codec(std::string name) {
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (name == "NONE") name = "UNCOMPRESSED";
  for (int32_t value = 0; value <= 7; ++value) {
    const auto codec = static_cast<CompressionCodec>(value);
    if (codec_name(codec) == name) return codec;
  }
  throw_invalid("write: unknown codec " + name);
}

WriterOptions make_options(const py::dict& given) {
  WriterOptions options;
  for (auto [key_handle, value] : given) {
    const auto key = key_handle.cast<std::string>();
    if (key == "row_group_rows") {
      options.row_group_rows = value.cast<int64_t>();
    } else if (key == "row_group_bytes") {
      options.row_group_bytes = value.cast<int64_t>();
    } else if (key == "page_rows") {
      options.page_rows = value.cast<int64_t>();
    } else if (key == "page_bytes") {
      options.page_bytes = value.cast<int64_t>();
    } else if (key == "codec" || key == "compression") {
      options.codec = parse_codec(value.cast<std::string>());
    } else if (key == "compression_level") {
      options.compression_level = value.cast<int>();
    } else if (key == "dictionary") {
      options.dictionary = value.cast<bool>();
    } else if (key == "statistics") {
      options.statistics = value.cast<bool>();
    } else if (key == "page_index") {
      options.page_index = value.cast<bool>();
    } else if (key == "data_page_v2") {
      options.data_page_v2 = value.cast<bool>();
    } else if (key == "bloom_filter") {
      options.bloom_filter = value.cast<bool>();
    } else if (key == "page_checksum") {
      options.page_checksum = value.cast<bool>();
    } else if (key == "threads") {
      options.threads = value.cast<int>();
    } else if (key == "encryption") {
      options.encryption = encryption_options(value.cast<py::dict>());
    } else if (key == "key_value_metadata") {
      for (auto [k, v] : value.cast<py::dict>()) {
        options.key_value_metadata.push_back(KeyValue{k.cast<std::string>(), v.cast<std::string>()});
      }
    } else {
      throw_invalid("write: unknown option " + key);
    }
  }
  return options;
}

}  // namespace

void bind_write(py::module_& m) {
  m.def(
      "write",
      [](const std::string& path, const py::list& columns, const py::dict& options) {
        auto schema = std::make_shared<BatchSchema>();
        RecordBatch batch;
        batch.num_rows = -1;
        std::vector<py::object> keep;
        for (py::handle spec : columns) {
          auto [field, array] = make_column(spec.cast<py::tuple>(), keep);
          if (batch.num_rows >= 0 && array->length != batch.num_rows) {
            throw_invalid("write: column " + field.name + " has " + std::to_string(array->length) +
                          " rows, the first column " + std::to_string(batch.num_rows));
          }
          batch.num_rows = array->length;
          schema->fields.push_back(std::move(field));
          batch.columns.push_back(std::move(array));
        }
        if (schema->fields.empty()) throw_invalid("write: no columns");
        batch.schema = schema;
        WriterOptions writer_options = make_options(options);
        py::gil_scoped_release unlocked;
        auto writer = FileWriter::open(path, *schema, std::move(writer_options));
        writer->write(batch);
        writer->close();
        return writer->num_rows();
      },
      py::arg("path"), py::arg("columns"), py::arg("options") = py::dict(),
      "Writes (name, kind, values, valid, unit, timezone) columns as one Parquet file; returns the row "
      "count");
}

}  // namespace parquetry::python
