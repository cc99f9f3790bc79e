// Zero-copy exchange of parquetry batches through the Arrow C Data Interface
// and C Stream Interface (arrow_c.h).
//
// Export hands the consumer pointers into parquetry's own buffers; the
// consumer's call of `release` drops parquetry's references. Import takes
// ownership of a producer's structs (they are marked released for the
// caller) and keeps the producer's memory alive for as long as any imported
// array points into it.
#pragma once

#include <memory>

#include "parquetry/arrow_c.h"
#include "parquetry/export.h"
#include "parquetry/table.h"

namespace parquetry {

/// Arrow format string of a type ("l", "tsu:UTC", "+l", "d:10,2", ...).
PARQUETRY_API std::string arrow_format(const DataType& type);

/// Exports one field (name, type, nullability, field id and metadata).
PARQUETRY_API void export_field(const Field& field, ArrowSchema* out);
/// Exports a schema as a struct field ("+s") whose children are the columns.
PARQUETRY_API void export_schema(const BatchSchema& schema, ArrowSchema* out);
/// Exports one array without copying its buffers.
PARQUETRY_API void export_array(std::shared_ptr<ArrayData> array, ArrowArray* out);
/// Exports a batch as a struct array whose children are the columns.
PARQUETRY_API void export_batch(const RecordBatch& batch, ArrowArray* out);
/// Exports a reader as a C stream. Errors thrown by the reader are reported
/// through get_last_error with EIO, as the interface prescribes.
PARQUETRY_API void export_stream(std::unique_ptr<BatchReader> reader, ArrowArrayStream* out);

/// Imports (and releases) a field.
PARQUETRY_API Field import_field(ArrowSchema* schema);
/// Imports (and releases) a struct schema.
PARQUETRY_API BatchSchema import_schema(ArrowSchema* schema);
/// Takes ownership of `array`; the returned data keeps the producer's buffers alive.
/// Validates the layout (ArrayData::validate) before returning.
PARQUETRY_API std::shared_ptr<ArrayData> import_array(ArrowArray* array, const DataType& type);
/// Imports a struct array as a batch of `schema`.
PARQUETRY_API RecordBatch import_batch(ArrowArray* array, std::shared_ptr<const BatchSchema> schema);
/// Takes ownership of a C stream.
PARQUETRY_API std::unique_ptr<BatchReader> import_stream(ArrowArrayStream* stream);

}  // namespace parquetry
