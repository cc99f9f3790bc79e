// Shared declarations of the `_parquetry` extension: the Table object Python
// sees and the functions each binding file registers.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "parquetry/encryption.h"
#include "parquetry/table.h"

namespace parquetry::python {

namespace py = pybind11;

/// DecryptionOptions from the `decryption` dict of read/scan/summarize:
/// {"footer_key": key, "column_keys": {path: key}, "aad_prefix": str,
///  "key_file": path}; a key is bytes (raw) or str (hex or base64). None = no keys.
DecryptionOptions decryption_options(const py::object& given);
/// EncryptionOptions from the `encryption` option of write:
/// {"footer_key": key, "footer_key_metadata": str, "cipher": "AES_GCM_V1" | "AES_GCM_CTR_V1",
///  "plaintext_footer": bool, "column_keys": {path: key or (key, key_metadata)},
///  "aad_prefix": str, "store_aad_prefix": bool}.
EncryptionOptions encryption_options(const py::dict& given);

/// Batches of one schema (one per row group read). Columns reach numpy
/// through column_piece(), which views the C++ buffers where the layout
/// allows it; the batches own those buffers for as long as any view lives.
struct Table {
  std::shared_ptr<const BatchSchema> schema;
  std::vector<RecordBatch> batches;

  int64_t num_rows() const;
};

/// How a column of `type` reaches numpy (see convert.cc): "int64",
/// "float64", "bool", "datetime64[us]", "timedelta64[ns]", "str", "bytes",
/// "json" (nested and other types, as Python values), or "date32" /
/// "time32[ms]" (int32 views that Python widens to a numpy unit).
std::string numpy_kind(const DataType& type);

/// One array as (values, valid): values a numpy array of numpy_kind(type)
/// (a zero-copy, read-only view for fixed-width types), valid a bool array
/// (true = not null) or None when the array has no nulls.
py::tuple column_piece(const std::shared_ptr<ArrayData>& array);

/// Address of the first value of a fixed-width array (what a zero-copy view starts at).
uintptr_t value_address(const ArrayData& array);

void bind_errors(py::module_& m);
void bind_table(py::module_& m);
void bind_read(py::module_& m);
void bind_write(py::module_& m);
void bind_metadata(py::module_& m);
void bind_plan(py::module_& m);
void bind_remote(py::module_& m);
void bind_iceberg(py::module_& m);

}  // namespace parquetry::python
