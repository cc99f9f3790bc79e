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

namespace google::protobuf {
class Message;
}  // namespace google::protobuf

namespace parquetry::proto {

// Unwrapped well-known types (well_known.cc).
int64_t timestamp_nanos(const google::protobuf::Message& timestamp);
void set_timestamp(int64_t nanos, google::protobuf::Message* timestamp);
int32_t date_days(const google::protobuf::Message& date);
void set_date(int32_t days, google::protobuf::Message* date);
int64_t time_of_day_nanos(const google::protobuf::Message& time);
void set_time_of_day(int64_t nanos, google::protobuf::Message* time);

}  // namespace parquetry::proto
