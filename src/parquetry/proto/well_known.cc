// Unwrapped well-known types (ProtoOptions::unwrap_well_known_types), read
// and written through reflection by field name so any copy of the type works
// (google.type.Date and TimeOfDay are not part of libprotobuf):
//   google.protobuf.Timestamp {seconds, nanos}         <-> int64 nanoseconds since the epoch, UTC
//   google.type.Date {year, month, day}                <-> int32 days since 1970-01-01
//   google.type.TimeOfDay {hours, minutes, seconds, nanos} <-> int64 nanoseconds since midnight
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include "parquetry/error.h"
#include "parquetry/proto/proto_internal.h"

namespace parquetry::proto {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

const FieldDescriptor* field(const Message& m, const char* name) {
  const FieldDescriptor* fd = m.GetDescriptor()->FindFieldByName(name);
  if (fd == nullptr) {
    throw Error(ErrorCode::kInvalidArgument, m.GetDescriptor()->full_name() + " has no field " + name);
  }
  return fd;
}

int64_t get_int(const Message& m, const char* name) {
  const FieldDescriptor* fd = field(m, name);
  const auto* r = m.GetReflection();
  return fd->cpp_type() == FieldDescriptor::CPPTYPE_INT64 ? r->GetInt64(m, fd) : r->GetInt32(m, fd);
}

void set_int(Message* m, const char* name, int64_t value) {
  const FieldDescriptor* fd = field(*m, name);
  const auto* r = m->GetReflection();
  if (fd->cpp_type() == FieldDescriptor::CPPTYPE_INT64) {
    r->SetInt64(m, fd, value);
  } else {
    r->SetInt32(m, fd, int32_t(value));
  }
}

constexpr int64_t kNanosPerSecond = 1'000'000'000;

// Days between 1970-01-01 and a proleptic Gregorian date: count whole
// 400-year eras from 0000-03-01 (a year starting in March puts the leap day last).
int64_t days_from_civil(int64_t year, int64_t month, int64_t day) {
  year -= month <= 2 ? 1 : 0;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const int64_t year_of_era = year - era * 400;
  const int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

void civil_from_days(int64_t days, int64_t& year, int64_t& month, int64_t& day) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t day_of_era = days - era * 146097;
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t shifted_month = (5 * day_of_year + 2) / 153;
  day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
  month = shifted_month < 10 ? shifted_month + 3 : shifted_month - 9;
  year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
}

}  // namespace

int64_t timestamp_nanos(const Message& timestamp) {
  const int64_t seconds = get_int(timestamp, "seconds");
  const int64_t nanos = get_int(timestamp, "nanos");
  // Wraps (rather than overflowing) outside 1677..2262, the range of int64 nanoseconds.
  return int64_t(uint64_t(seconds) * uint64_t(kNanosPerSecond) + uint64_t(nanos));
}

void set_timestamp(int64_t total, Message* timestamp) {
  int64_t seconds = total / kNanosPerSecond;
  int64_t nanos = total % kNanosPerSecond;
  if (nanos < 0) {
    nanos += kNanosPerSecond;
    --seconds;
  }
  set_int(timestamp, "seconds", seconds);
  set_int(timestamp, "nanos", nanos);
}

int32_t date_days(const Message& date) {
  return int32_t(days_from_civil(get_int(date, "year"), get_int(date, "month"), get_int(date, "day")));
}

void set_date(int32_t days, Message* date) {
  int64_t year = 0, month = 0, day = 0;
  civil_from_days(days, year, month, day);
  set_int(date, "year", year);
  set_int(date, "month", month);
  set_int(date, "day", day);
}

int64_t time_of_day_nanos(const Message& time) {
  const int64_t seconds =
      get_int(time, "hours") * 3600 + get_int(time, "minutes") * 60 + get_int(time, "seconds");
  return seconds * kNanosPerSecond + get_int(time, "nanos");
}

void set_time_of_day(int64_t nanos, Message* time) {
  const int64_t seconds = nanos / kNanosPerSecond;
  set_int(time, "hours", seconds / 3600);
  set_int(time, "minutes", seconds / 60 % 60);
  set_int(time, "seconds", seconds % 60);
  set_int(time, "nanos", nanos % kNanosPerSecond);
}

}  // namespace parquetry::proto
