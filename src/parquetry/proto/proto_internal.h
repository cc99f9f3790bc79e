// Internals shared by the files of the proto layer.
#pragma once

#include "parquetry/writer.h"

namespace parquetry::proto {

using parquetry::kEnumExtension;
using parquetry::kRepeatedLayoutBare;
using parquetry::kRepeatedLayoutKey;

}  // namespace parquetry::proto

#include "parquetry/proto_columns.h"

namespace parquetry::proto {

/// Points `column` (and its children, matched by name) at `array` for reading; null unbinds.
void bind_column(Column& column, const ArrayData* array);

}  // namespace parquetry::proto
