// parquetry::Error -> the Python exception `parquetry.Error`, carrying the
// C++ message (with file/row group/column location) and the error code name.
#include "bindings.h"
#include "parquetry/error.h"

namespace parquetry::python {

void bind_errors(py::module_& m) {
  static py::exception<Error> error(m, "Error", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const Error& e) {
      // The code name lets Python callers tell a corrupt file from a bad argument.
      py::object instance = py::reinterpret_borrow<py::object>(error)(py::str(e.what()));
      instance.attr("code") = py::str(error_code_name(e.code()));
      PyErr_SetObject(error.ptr(), instance.ptr());
    }
  });
}

}  // namespace parquetry::python
