// Random protobuf messages of any descriptor, for the proto round-trip tests:
// every field kind, proto2 required fields always set (so messages serialize),
// at most one member per oneof, finite floats, timestamps inside the
// nanosecond range and valid dates and times of day.
#pragma once

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <random>
#include <string>

namespace parquetry::testing {

class RandomMessages {
 public:
  explicit RandomMessages(uint64_t seed) : rng_(seed) {}

  void fill(google::protobuf::Message* m, int depth = 0) {
    using google::protobuf::FieldDescriptor;
    const auto* d = m->GetDescriptor();
    const auto* r = m->GetReflection();
    for (int i = 0; i < d->field_count(); ++i) {
      const FieldDescriptor* fd = d->field(i);
      if (fd->real_containing_oneof() != nullptr) continue;
      if (fd->is_repeated()) {
        const int n = int(rng_() % 4);
        for (int k = 0; k < n; ++k) {
          if (fd->is_map()) {
            auto* entry = r->AddMessage(m, fd);
            set(entry, entry->GetDescriptor()->map_key(), depth + 1);
            set(entry, entry->GetDescriptor()->map_value(), depth + 1);
          } else {
            add(m, fd, depth + 1);
          }
        }
        continue;
      }
      const bool message = fd->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE;
      if (fd->is_required() || (!fd->has_presence() && !message) || (coin() && (!message || depth < 3))) {
        set(m, fd, depth + 1);
      }
    }
    for (int i = 0; i < d->real_oneof_decl_count(); ++i) {
      const auto* oneof = d->oneof_decl(i);
      const int pick = int(rng_() % uint64_t(oneof->field_count() + 1)) - 1;
      if (pick >= 0) set(m, oneof->field(pick), depth + 1);
    }
  }

 private:
  bool coin() { return rng_() & 1; }

  std::string text() {
    std::string s(rng_() % 9, 'a');
    for (char& c : s) c = char('a' + rng_() % 26);
    return s;
  }
  std::string bytes() {
    std::string s(rng_() % 9, '\0');
    for (char& c : s) c = char(rng_() % 256);
    return s;
  }
  double real() { return std::uniform_real_distribution<double>(-1e6, 1e6)(rng_); }

  void fill_message(google::protobuf::Message* sub, int depth) {
    const std::string& name = sub->GetDescriptor()->full_name();
    if (name == "google.protobuf.Timestamp") {
      const auto* r = sub->GetReflection();
      r->SetInt64(sub, sub->GetDescriptor()->field(0), int64_t(rng_() % 2'000'000'000) - 1'000'000'000);
      r->SetInt32(sub, sub->GetDescriptor()->field(1), int32_t(rng_() % 1'000'000'000));
      return;
    }
    if (name == "google.type.Date") {
      set_named(sub, "year", 1 + int64_t(rng_() % 9999));
      set_named(sub, "month", 1 + int64_t(rng_() % 12));
      set_named(sub, "day", 1 + int64_t(rng_() % 28));
      return;
    }
    if (name == "google.type.TimeOfDay") {
      set_named(sub, "hours", int64_t(rng_() % 24));
      set_named(sub, "minutes", int64_t(rng_() % 60));
      set_named(sub, "seconds", int64_t(rng_() % 60));
      set_named(sub, "nanos", int64_t(rng_() % 1'000'000'000));
      return;
    }
    fill(sub, depth);
  }

  static void set_named(google::protobuf::Message* m, const char* name, int64_t value) {
    m->GetReflection()->SetInt32(m, m->GetDescriptor()->FindFieldByName(name), int32_t(value));
  }

  void set(google::protobuf::Message* m, const google::protobuf::FieldDescriptor* fd, int depth) {
    using google::protobuf::FieldDescriptor;
    const auto* r = m->GetReflection();
    switch (fd->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32: r->SetInt32(m, fd, int32_t(rng_())); break;
      case FieldDescriptor::CPPTYPE_INT64: r->SetInt64(m, fd, int64_t(rng_())); break;
      case FieldDescriptor::CPPTYPE_UINT32: r->SetUInt32(m, fd, uint32_t(rng_())); break;
      case FieldDescriptor::CPPTYPE_UINT64: r->SetUInt64(m, fd, rng_()); break;
      case FieldDescriptor::CPPTYPE_FLOAT: r->SetFloat(m, fd, float(real())); break;
      case FieldDescriptor::CPPTYPE_DOUBLE: r->SetDouble(m, fd, real()); break;
      case FieldDescriptor::CPPTYPE_BOOL: r->SetBool(m, fd, coin()); break;
      case FieldDescriptor::CPPTYPE_STRING:
        r->SetString(m, fd, fd->type() == FieldDescriptor::TYPE_STRING ? text() : bytes());
        break;
      case FieldDescriptor::CPPTYPE_ENUM:
        r->SetEnum(m, fd, fd->enum_type()->value(int(rng_() % uint64_t(fd->enum_type()->value_count()))));
        break;
      case FieldDescriptor::CPPTYPE_MESSAGE: fill_message(r->MutableMessage(m, fd), depth); break;
    }
  }

  void add(google::protobuf::Message* m, const google::protobuf::FieldDescriptor* fd, int depth) {
    using google::protobuf::FieldDescriptor;
    const auto* r = m->GetReflection();
    switch (fd->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32: r->AddInt32(m, fd, int32_t(rng_())); break;
      case FieldDescriptor::CPPTYPE_INT64: r->AddInt64(m, fd, int64_t(rng_())); break;
      case FieldDescriptor::CPPTYPE_UINT32: r->AddUInt32(m, fd, uint32_t(rng_())); break;
      case FieldDescriptor::CPPTYPE_UINT64: r->AddUInt64(m, fd, rng_()); break;
      case FieldDescriptor::CPPTYPE_FLOAT: r->AddFloat(m, fd, float(real())); break;
      case FieldDescriptor::CPPTYPE_DOUBLE: r->AddDouble(m, fd, real()); break;
      case FieldDescriptor::CPPTYPE_BOOL: r->AddBool(m, fd, coin()); break;
      case FieldDescriptor::CPPTYPE_STRING:
        r->AddString(m, fd, fd->type() == FieldDescriptor::TYPE_STRING ? text() : bytes());
        break;
      case FieldDescriptor::CPPTYPE_ENUM:
        r->AddEnum(m, fd, fd->enum_type()->value(int(rng_() % uint64_t(fd->enum_type()->value_count()))));
        break;
      case FieldDescriptor::CPPTYPE_MESSAGE:
        if (depth < 4) fill_message(r->AddMessage(m, fd), depth);
        break;
    }
  }

  std::mt19937_64 rng_;
};

}  // namespace parquetry::testing
