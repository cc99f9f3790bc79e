// The `_parquetry` extension module: one registration call per binding file.
#include "bindings.h"

PYBIND11_MODULE(_parquetry, m) {
  m.doc() = "parquetry's C++ engine; use the `parquetry` package, which wraps it";
  parquetry::python::bind_errors(m);
  parquetry::python::bind_table(m);
  parquetry::python::bind_read(m);
  parquetry::python::bind_write(m);
  parquetry::python::bind_metadata(m);
  parquetry::python::bind_plan(m);
  parquetry::python::bind_remote(m);
  parquetry::python::bind_iceberg(m);
}
