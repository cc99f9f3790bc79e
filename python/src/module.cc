// The `_parquetry` extension module: one registration call per binding file.
#include "bindings.h"
#include "parquetry/version.h"

PYBIND11_MODULE(_parquetry, m) {
  m.doc() = "parquetry's C++ engine; use the `parquetry` package, which wraps it";
  // The version of the C++ library compiled in (CMake's project version).
  m.attr("__version__") = parquetry::version();
  m.attr("build_commit") = parquetry::build_commit();
  parquetry::python::bind_errors(m);
  parquetry::python::bind_table(m);
  parquetry::python::bind_read(m);
  parquetry::python::bind_write(m);
  parquetry::python::bind_metadata(m);
  parquetry::python::bind_plan(m);
  parquetry::python::bind_remote(m);
  parquetry::python::bind_iceberg(m);
}
