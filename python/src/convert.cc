// Arrow-layout arrays -> numpy. Fixed-width values without a layout change
// (integers, floats, timestamps, durations) become read-only numpy views of
// parquetry's buffer: the view's base object holds a reference to the array,
// so the buffer outlives the Table if the view does. Everything else is
// converted (booleans unpacked from bits, strings to Python objects).
#include <cstring>

#include "bindings.h"
#include "parquetry/error.h"
#include "parquetry/table/json_values.h"
#include "parquetry/util/json_writer.h"

namespace parquetry::python {
namespace {

const char* unit_suffix(ArrowTimeUnit unit) {
  switch (unit) {
    case ArrowTimeUnit::kSecond: return "[s]";
    case ArrowTimeUnit::kMilli: return "[ms]";
    case ArrowTimeUnit::kMicro: return "[us]";
    case ArrowTimeUnit::kNano: return "[ns]";
  }
  return "[ns]";
}

// A read-only view of `length` values of `width` bytes starting at the array's first value.
py::array view(const std::shared_ptr<ArrayData>& array, const std::string& kind, int width) {
  if (array->length == 0) return py::array(py::dtype::from_args(py::str(kind)), std::vector<py::ssize_t>{0});
  auto* keep = new std::shared_ptr<ArrayData>(array);
  py::capsule base(keep, [](void* p) { delete static_cast<std::shared_ptr<ArrayData>*>(p); });
  py::array out(py::dtype::from_args(py::str(kind)), std::vector<py::ssize_t>{array->length},
                std::vector<py::ssize_t>{width}, reinterpret_cast<const void*>(value_address(*array)), base);
  out.attr("setflags")(py::arg("write") = false);
  return out;
}

py::array unpack_bools(const ArrayData& array) {
  py::array_t<bool> out(array.length);
  bool* values = out.mutable_data();
  const uint8_t* bits = array.buffers[1].data;
  for (int64_t i = 0; i < array.length; ++i) {
    const int64_t bit = array.offset + i;
    values[i] = (bits[bit >> 3] >> (bit & 7)) & 1;
  }
  return out;
}

template <typename Offset>
py::array strings(const ArrayData& array, bool text) {
  py::array out(py::dtype::from_args(py::str("O")), std::vector<py::ssize_t>{array.length});
  auto** slots = static_cast<PyObject**>(out.mutable_data());
  const Offset* offsets = array.buffers[1].as<Offset>() + array.offset;
  const char* data = array.buffers.size() > 2 && array.buffers[2] ? array.buffers[2].as<char>() : "";
  for (int64_t i = 0; i < array.length; ++i) {
    PyObject* value;
    if (!array.is_valid(i)) {
      value = Py_None;
      Py_INCREF(value);
    } else {
      const char* begin = data + offsets[i];
      const auto size = static_cast<py::ssize_t>(offsets[i + 1] - offsets[i]);
      // Invalid UTF-8 in a STRING column is the file's fault; keep the bytes visible.
      value = text ? PyUnicode_DecodeUTF8(begin, size, "surrogateescape")
                   : PyBytes_FromStringAndSize(begin, size);
      if (value == nullptr) throw py::error_already_set();
    }
    Py_XDECREF(slots[i]);  // numpy fills object arrays with None
    slots[i] = value;
  }
  return out;
}

// Nested and rarer types: each value as the Python value of its JSON rendering.
py::array json_values(const ArrayData& array) {
  py::object loads = py::module_::import("json").attr("loads");
  py::array out(py::dtype::from_args(py::str("O")), std::vector<py::ssize_t>{array.length});
  auto** slots = static_cast<PyObject**>(out.mutable_data());
  for (int64_t i = 0; i < array.length; ++i) {
    py::object value = py::none();
    if (array.is_valid(i)) {
      JsonWriter json;
      write_json_value(json, array, i);
      value = loads(py::str(json.str()));
    }
    Py_XDECREF(slots[i]);
    slots[i] = value.release().ptr();
  }
  return out;
}

py::object validity(const ArrayData& array) {
  if (array.null_count == 0 || array.buffers.empty() || !array.buffers[0]) return py::none();
  py::array_t<bool> out(array.length);
  bool* valid = out.mutable_data();
  for (int64_t i = 0; i < array.length; ++i) valid[i] = array.is_valid(i);
  return out;
}

py::array values(const std::shared_ptr<ArrayData>& array);

// Dictionary arrays are materialised: the dictionary converts once, indices gather from it.
py::array dictionary_values(const ArrayData& array) {
  py::array dictionary = values(array.dictionary);
  py::array_t<int64_t> indices(array.length);
  int64_t* index = indices.mutable_data();
  const int32_t* stored = array.buffers[1].as<int32_t>() + array.offset;
  for (int64_t i = 0; i < array.length; ++i) index[i] = array.is_valid(i) ? stored[i] : 0;
  if (array.dictionary->length == 0)
    return py::array(dictionary.dtype(), std::vector<py::ssize_t>{array.length});
  return dictionary.attr("take")(indices);
}

py::array values(const std::shared_ptr<ArrayData>& array) {
  const DataType& type = *array->type;
  const std::string kind = numpy_kind(type);
  switch (type.id) {
    case TypeId::kBool: return unpack_bools(*array);
    case TypeId::kString: return strings<int32_t>(*array, true);
    case TypeId::kBinary: return strings<int32_t>(*array, false);
    case TypeId::kLargeString: return strings<int64_t>(*array, true);
    case TypeId::kLargeBinary: return strings<int64_t>(*array, false);
    case TypeId::kDictionary: return dictionary_values(*array);
    default: break;
  }
  if (kind == "json") return json_values(*array);
  // Dates and 32-bit times have no numpy unit of their width: Python widens those views.
  if (kind == "date32" || kind.starts_with("time32")) return view(array, "int32", 4);
  return view(array, kind, type.fixed_width());
}

}  // namespace

std::string numpy_kind(const DataType& type) {
  switch (type.id) {
    case TypeId::kBool: return "bool";
    case TypeId::kInt8: return "int8";
    case TypeId::kInt16: return "int16";
    case TypeId::kInt32: return "int32";
    case TypeId::kInt64: return "int64";
    case TypeId::kUInt8: return "uint8";
    case TypeId::kUInt16: return "uint16";
    case TypeId::kUInt32: return "uint32";
    case TypeId::kUInt64: return "uint64";
    case TypeId::kFloat16: return "float16";
    case TypeId::kFloat32: return "float32";
    case TypeId::kFloat64: return "float64";
    case TypeId::kDate32: return "date32";
    case TypeId::kTime32: return std::string("time32") + unit_suffix(type.unit);
    case TypeId::kTime64: return std::string("timedelta64") + unit_suffix(type.unit);
    case TypeId::kTimestamp: return std::string("datetime64") + unit_suffix(type.unit);
    case TypeId::kString:
    case TypeId::kLargeString: return "str";
    case TypeId::kBinary:
    case TypeId::kLargeBinary: return "bytes";
    case TypeId::kDictionary: return numpy_kind(*type.dictionary_value);
    default: return "json";
  }
}

uintptr_t value_address(const ArrayData& array) {
  const int32_t width = array.type->fixed_width();
  if (width <= 0 || array.buffers.size() < 2 || !array.buffers[1]) return 0;
  return reinterpret_cast<uintptr_t>(array.buffers[1].data + array.offset * width);
}

py::tuple column_piece(const std::shared_ptr<ArrayData>& array) {
  return py::make_tuple(values(array), validity(*array));
}

}  // namespace parquetry::python
