// The code protoc-gen-parquetry emits. Each message M of a file gets
//   void parquetry_append_fields(const M&, parquetry::proto::Column* columns);
//   void parquetry_read_fields(const parquetry::proto::Column* columns, int64_t row, M*);
// over the plan's columns of M's fields (declaration order, as proto::plan_for
// lays them out), plus MParquetWriter / MParquetReader wrapping ProtoWriter /
// ProtoReader. Scalars, strings, bytes, enums (on write), lists of those and
// messages of the same file use the generated accessors; maps, well-known
// types and messages of other files call the reflection functions of the
// proto layer for that one field, so every option of ProtoOptions still
// applies (the plan says at run time what each column holds).
#include "generator.h"

#include <google/protobuf/compiler/code_generator.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/io/zero_copy_stream.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <set>
#include <string>

namespace parquetry::protoc {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::EnumDescriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::FileDescriptor;

std::string strip_proto(const std::string& name) {
  const std::string suffix = ".proto";
  if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
    return name.substr(0, name.size() - suffix.size());
  }
  return name;
}

std::string namespace_of(const FileDescriptor* file) {
  std::string out;
  for (char c : file->package()) {
    if (c == '.') {
      out += "::";
    } else {
      out += c;
    }
  }
  return out;
}

// The C++ class name protoc gives a (possibly nested) type: Outer_Inner.
template <typename D>
std::string class_name(const D* d) {
  std::string name = d->full_name();
  if (!d->file()->package().empty()) name = name.substr(d->file()->package().size() + 1);
  for (char& c : name) {
    if (c == '.') c = '_';
  }
  return name;
}

template <typename D>
std::string qualified(const D* d) {
  const std::string ns = namespace_of(d->file());
  return (ns.empty() ? "::" : "::" + ns + "::") + class_name(d);
}

// protoc's accessor name: the field name lower-cased, '_' appended to C++ keywords.
std::string accessor(const FieldDescriptor* fd) {
  static const std::set<std::string> kKeywords = {
      "alignas",  "alignof",   "and",      "asm",      "auto",      "bool",     "break",    "case",
      "catch",    "char",      "class",    "const",    "constexpr", "continue", "default",  "delete",
      "do",       "double",    "else",     "enum",     "explicit",  "export",   "extern",   "false",
      "float",    "for",       "friend",   "goto",     "if",        "inline",   "int",      "long",
      "mutable",  "namespace", "new",      "noexcept", "not",       "nullptr",  "operator", "or",
      "private",  "protected", "public",   "register", "return",    "short",    "signed",   "sizeof",
      "static",   "struct",    "switch",   "template", "this",      "throw",    "true",     "try",
      "typedef",  "typeid",    "typename", "union",    "unsigned",  "using",    "virtual",  "void",
      "volatile", "while",     "xor"};
  std::string name = fd->name();
  for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (kKeywords.count(name) != 0) name += '_';
  return name;
}

const char* fixed_type(const FieldDescriptor* fd) {
  switch (fd->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32: return "int32_t";
    case FieldDescriptor::CPPTYPE_INT64: return "int64_t";
    case FieldDescriptor::CPPTYPE_UINT32: return "uint32_t";
    case FieldDescriptor::CPPTYPE_UINT64: return "uint64_t";
    case FieldDescriptor::CPPTYPE_FLOAT: return "float";
    case FieldDescriptor::CPPTYPE_DOUBLE: return "double";
    default: return nullptr;
  }
}

const char* append_fn(const FieldDescriptor* fd) {
  switch (fd->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32: return "append_int32";
    case FieldDescriptor::CPPTYPE_INT64: return "append_int64";
    case FieldDescriptor::CPPTYPE_UINT32: return "append_uint32";
    case FieldDescriptor::CPPTYPE_UINT64: return "append_uint64";
    case FieldDescriptor::CPPTYPE_FLOAT: return "append_float";
    case FieldDescriptor::CPPTYPE_DOUBLE: return "append_double";
    case FieldDescriptor::CPPTYPE_BOOL: return "append_bool";
    case FieldDescriptor::CPPTYPE_STRING: return "append_bytes";
    default: return nullptr;
  }
}

// A top-level field the writer stores directly (Column::fixed_room): a
// fixed-width scalar without presence, whose column is never null and holds
// the value's bits under every ProtoOptions.
bool direct_field(const FieldDescriptor* fd) {
  return !fd->is_repeated() && !fd->has_presence() && fixed_type(fd) != nullptr;
}

// A message type whose generated functions live in this file.
bool local_message(const FieldDescriptor* fd, const FileDescriptor* file) {
  return fd->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE && fd->message_type()->file() == file &&
         !fd->message_type()->options().map_entry();
}

class Emitter {
 public:
  explicit Emitter(const FileDescriptor* file) : file_(file) {}

  void messages(const Descriptor* d, std::string& header, std::string& source) {
    if (d->options().map_entry()) return;
    declare(d, header);
    append_function(d, source);
    writer_functions(d, source);
    read_function(d, source);
    for (int i = 0; i < d->nested_type_count(); ++i) messages(d->nested_type(i), header, source);
  }

 private:
  void declare(const Descriptor* d, std::string& out) {
    const std::string m = class_name(d);
    out += "// ---- " + d->full_name() + "\n\n";
    out += "/// Appends one row of " + m + "'s fields to `columns` (the children of its message column).\n";
    out += "void parquetry_append_fields(const " + m + "& m, ::parquetry::proto::Column* columns);\n";
    out += "/// Sets the fields of `m` from row `row` of `columns`.\n";
    out += "void parquetry_read_fields(const ::parquetry::proto::Column* columns, int64_t row, " + m +
           "* m);\n\n";
    out += "/// Writes " + m + " messages to Parquet through the generated accessors; the file is\n";
    out += "/// byte-identical to what parquetry::proto::ProtoWriter writes with the same options.\n";
    out += "/// Fixed-width fields without presence are stored straight into their columns\n";
    out += "/// (windows of rows reserved at once); the others go through the column appends.\n";
    out += "class " + m + "ParquetWriter {\n public:\n";
    out += "  explicit " + m +
           "ParquetWriter(const std::string& path, const ::parquetry::proto::ProtoOptions& options = {},\n"
           "      ::parquetry::WriterOptions writer_options = {})\n"
           "      : writer_(::parquetry::proto::ProtoWriter::open(path, " +
           m + "::descriptor(), options, std::move(writer_options))) {}\n";
    out += "  void write(const " + m + "& m);\n";
    out += "  /// Hands the buffered rows to the file writer as one batch.\n";
    out += "  void flush() {\n    commit_window();\n    writer_->flush();\n  }\n";
    out += "  void close() {\n    commit_window();\n    writer_->close();\n  }\n";
    out += "  int64_t num_rows() const { return writer_->num_rows(); }\n";
    out += "  /// The reflection writer underneath; call flush() before using it directly.\n";
    out += "  ::parquetry::proto::ProtoWriter& base() { return *writer_; }\n\n private:\n";
    out += "  void open_window();\n  void commit_window();\n\n";
    out += "  std::unique_ptr<::parquetry::proto::ProtoWriter> writer_;\n";
    out += "  int64_t used_ = 0;  // rows stored in the open window\n";
    out += "  int64_t room_ = 0;  // rows the open window still has room for\n";
    for (int i = 0; i < d->field_count(); ++i) {
      const FieldDescriptor* fd = d->field(i);
      if (direct_field(fd))
        out += "  " + std::string(fixed_type(fd)) + "* " + direct_name(fd) + " = nullptr;\n";
    }
    out += "};\n\n";
    out += "/// Reads " + m + " messages back from Parquet through the generated setters.\n";
    out += "class " + m + "ParquetReader {\n public:\n";
    out += "  explicit " + m +
           "ParquetReader(const std::string& path, const ::parquetry::proto::ProtoOptions& options = {},\n"
           "      ::parquetry::ReaderOptions reader_options = {})\n"
           "      : reader_(::parquetry::proto::ProtoReader::open(path, " +
           m + "::descriptor(), options, std::move(reader_options))) {}\n";
    out += "  /// Clears `m` and fills it from the next row; false at the end.\n";
    out +=
        "  bool next(" + m +
        "* m) {\n    if (!reader_->next_row()) return false;\n    m->Clear();\n"
        "    parquetry_read_fields(reader_->columns().data(), reader_->row(), m);\n    return true;\n  }\n\n";
    out += " private:\n  std::unique_ptr<::parquetry::proto::ProtoReader> reader_;\n};\n\n";
  }

  void append_function(const Descriptor* d, std::string& out) {
    out += "void parquetry_append_fields(const " + class_name(d) +
           "& m, ::parquetry::proto::Column* columns) {\n";
    for (int i = 0; i < d->field_count(); ++i) {
      const FieldDescriptor* fd = d->field(i);
      out += "  {  // " + fd->name() + "\n    ::parquetry::proto::Column& c = columns[" + std::to_string(i) +
             "];\n";
      append_field(fd, out);
      out += "  }\n";
    }
    out += "}\n\n";
  }

  void append_field(const FieldDescriptor* fd, std::string& out) {
    const std::string n = accessor(fd);
    const std::string fallback = "    ::parquetry::proto::append_field(c, m);\n";
    if (fd->is_map()) {
      // Entries in reflection's order, so both paths write the same bytes.
      out += fallback;
      return;
    }
    if (fd->is_repeated()) {
      if (fd->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        if (!local_message(fd, file_)) {
          out += fallback;
          return;
        }
        out += "    ::parquetry::proto::Column& e = c.children[0];\n";
        out += "    if (e.kind == ::parquetry::proto::ValueKind::kMessage && e.wrapped == nullptr) {\n";
        out += "      for (const auto& v : m." + n + "()) {\n";
        out +=
            "        e.append_struct();\n        parquetry_append_fields(v, e.children.data());\n      }\n";
        out += "      c.end_list();\n    } else {\n  " + fallback + "    }\n";
        return;
      }
      out += "    ::parquetry::proto::Column& e = c.children[0];\n";
      if (fd->cpp_type() == FieldDescriptor::CPPTYPE_ENUM) {
        out +=
            "    for (int v : m." + n + "()) e.append_enum(v, " + qualified(fd->enum_type()) + "_Name(v));\n";
      } else {
        out += "    for (const auto& v : m." + n + "()) e." + append_fn(fd) + "(v);\n";
      }
      out += "    c.end_list();\n";
      return;
    }
    std::string value;
    if (fd->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      if (!local_message(fd, file_)) {
        out += fallback;
        return;
      }
      out += "    if (c.kind != ::parquetry::proto::ValueKind::kMessage || c.wrapped != nullptr) {\n  " +
             fallback;
      out += "    } else if (m.has_" + n + "()) {\n";
      out += "      c.append_struct();\n      parquetry_append_fields(m." + n + "(), c.children.data());\n";
      out += "    } else {\n      c.append_null();\n    }\n";
      return;
    }
    if (fd->cpp_type() == FieldDescriptor::CPPTYPE_ENUM) {
      value = "c.append_enum(int(m." + n + "()), " + qualified(fd->enum_type()) + "_Name(m." + n + "()));";
    } else {
      value = std::string("c.") + append_fn(fd) + "(m." + n + "());";
    }
    if (fd->has_presence()) {
      out +=
          "    if (m.has_" + n + "()) {\n      " + value + "\n    } else {\n      c.append_null();\n    }\n";
    } else {
      out += "    " + value + "\n";
    }
  }

  static std::string direct_name(const FieldDescriptor* fd) { return "direct_" + accessor(fd) + "_"; }

  // MParquetWriter's write() and its windows of direct stores. A window never
  // crosses the point where ProtoWriter::end_row() cuts a batch: it holds at
  // most batch_rows - pending_rows() rows and is committed before the row
  // that fills it is ended.
  void writer_functions(const Descriptor* d, std::string& out) {
    const std::string w = class_name(d) + "ParquetWriter";
    std::string open, commit, stores, others;
    for (int i = 0; i < d->field_count(); ++i) {
      const FieldDescriptor* fd = d->field(i);
      const std::string column = "columns[" + std::to_string(i) + "]";
      if (direct_field(fd)) {
        const std::string t = fixed_type(fd);
        open += "  " + direct_name(fd) + " = " + column + ".fixed_room<" + t + ">(n);\n";
        commit += "  " + column + ".commit_fixed<" + t + ">(used_);\n";
        stores += "  " + direct_name(fd) + "[k] = m." + accessor(fd) + "();\n";
      } else {
        others += "  {  // " + fd->name() + "\n    ::parquetry::proto::Column& c = " + column + ";\n";
        append_field(fd, others);
        others += "  }\n";
      }
    }
    if (stores.empty()) {
      out += "void " + w + "::open_window() {}\nvoid " + w + "::commit_window() {}\n\n";
      out += "void " + w + "::write(const " + class_name(d) + "& m) {\n";
      out += "  parquetry_append_fields(m, writer_->columns().data());\n  writer_->end_row();\n}\n\n";
      return;
    }
    out += "void " + w + "::open_window() {\n";
    out += "  constexpr int64_t kWindowRows = 1024;\n";
    out += "  const int64_t n = std::min<int64_t>(kWindowRows,\n";
    out += "      writer_->plan().options.batch_rows - writer_->pending_rows());\n";
    out += "  ::parquetry::proto::Column* columns = writer_->columns().data();\n";
    out += open + "  used_ = 0;\n  room_ = n;\n}\n\n";
    out += "void " + w + "::commit_window() {\n  if (used_ == 0) return;\n";
    out += "  ::parquetry::proto::Column* columns = writer_->columns().data();\n";
    out += commit + "  used_ = 0;\n  room_ = 0;\n}\n\n";
    out += "void " + w + "::write(const " + class_name(d) + "& m) {\n";
    out += "  if (room_ == 0) open_window();\n  const int64_t k = used_;\n" + stores;
    if (!others.empty()) {
      out += "  ::parquetry::proto::Column* columns = writer_->columns().data();\n" + others;
    }
    out += "  ++used_;\n  if (--room_ == 0) commit_window();\n  writer_->end_row();\n}\n\n";
  }

  void read_function(const Descriptor* d, std::string& out) {
    out += "void parquetry_read_fields(const ::parquetry::proto::Column* columns, int64_t row, " +
           class_name(d) + "* m) {\n";
    for (int i = 0; i < d->field_count(); ++i) {
      const FieldDescriptor* fd = d->field(i);
      out += "  {  // " + fd->name() + "\n    const ::parquetry::proto::Column& c = columns[" +
             std::to_string(i) + "];\n";
      read_field(fd, out);
      out += "  }\n";
    }
    out += "}\n\n";
  }

  void read_field(const FieldDescriptor* fd, std::string& out) {
    const std::string n = accessor(fd);
    const std::string fallback = "    ::parquetry::proto::read_field(c, row, m);\n";
    // Enums go by name through the descriptor; maps and foreign messages by reflection.
    if (fd->is_map() || fd->cpp_type() == FieldDescriptor::CPPTYPE_ENUM ||
        (fd->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE && !local_message(fd, file_))) {
      out += fallback;
      return;
    }
    if (fd->is_repeated()) {
      out += "    const ::parquetry::proto::Column& e = c.children[0];\n";
      if (fd->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        out += "    if (e.kind != ::parquetry::proto::ValueKind::kMessage || e.wrapped != nullptr) {\n  " +
               fallback;
        out += "    } else if (c.valid_at(row)) {\n";
        out += "      const auto [begin, end] = c.list_range(row);\n";
        out += "      for (int64_t k = begin; k < end; ++k) {\n";
        out +=
            "        if (e.valid_at(k)) parquetry_read_fields(e.children.data(), e.array->offset + k, "
            "m->add_" +
            n + "());\n";
        out += "      }\n    }\n";
        return;
      }
      out += "    if (c.valid_at(row)) {\n      const auto [begin, end] = c.list_range(row);\n";
      if (fd->cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
        out += "      for (int64_t k = begin; k < end; ++k) {\n";
        out += "        if (e.valid_at(k)) m->add_" + n + "(std::string(e.bytes_at(k)));\n      }\n";
      } else {
        const std::string get = fd->cpp_type() == FieldDescriptor::CPPTYPE_BOOL
                                    ? "e.bool_at(k)"
                                    : std::string("e.fixed_at<") + fixed_type(fd) + ">(k)";
        out += "      auto* out = m->mutable_" + n + "();\n      out->Reserve(int(end - begin));\n";
        out += "      for (int64_t k = begin; k < end; ++k) {\n";
        out += "        if (e.valid_at(k)) out->Add(" + get + ");\n      }\n";
      }
      out += "    }\n";
      return;
    }
    if (fd->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      out += "    if (c.kind != ::parquetry::proto::ValueKind::kMessage || c.wrapped != nullptr) {\n  " +
             fallback;
      out += "    } else if (c.valid_at(row)) {\n";
      out +=
          "      parquetry_read_fields(c.children.data(), c.array->offset + row, m->mutable_" + n + "());\n";
      out += "    }\n";
      return;
    }
    std::string get;
    if (fd->cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
      get = "std::string(c.bytes_at(row))";
    } else if (fd->cpp_type() == FieldDescriptor::CPPTYPE_BOOL) {
      get = "c.bool_at(row)";
    } else {
      get = std::string("c.fixed_at<") + fixed_type(fd) + ">(row)";
    }
    out += "    if (c.valid_at(row)) m->set_" + n + "(" + get + ");\n";
  }

  const FileDescriptor* file_;
};

bool write_file(google::protobuf::compiler::GeneratorContext* context, const std::string& name,
                const std::string& text) {
  std::unique_ptr<google::protobuf::io::ZeroCopyOutputStream> stream(context->Open(name));
  void* data = nullptr;
  int size = 0;
  size_t written = 0;
  while (written < text.size()) {
    if (!stream->Next(&data, &size)) return false;
    const size_t n = std::min(size_t(size), text.size() - written);
    std::memcpy(data, text.data() + written, n);
    written += n;
    if (n < size_t(size)) stream->BackUp(int(size_t(size) - n));
  }
  return true;
}

}  // namespace

bool Generator::Generate(const FileDescriptor* file, const std::string& parameter,
                         google::protobuf::compiler::GeneratorContext* context, std::string* error) const {
  const std::string base = strip_proto(file->name());
  std::string header = "// Generated by protoc-gen-parquetry from " + file->name() +
                       ". Do not edit.\n#pragma once\n\n" +
                       "#include <algorithm>\n#include <cstdint>\n#include <memory>\n#include <string>\n"
                       "#include <utility>\n\n" +
                       "#include \"parquetry/proto.h\"\n#include \"" + base + ".pb.h\"\n\n";
  std::string source = "// Generated by protoc-gen-parquetry from " + file->name() +
                       ". Do not edit.\n#include \"" + base + ".parquetry.h\"\n\n";
  const std::string ns = namespace_of(file);
  if (!ns.empty()) {
    header += "namespace " + ns + " {\n\n";
    source += "namespace " + ns + " {\n\n";
  }
  Emitter emitter(file);
  for (int i = 0; i < file->message_type_count(); ++i)
    emitter.messages(file->message_type(i), header, source);
  if (!ns.empty()) {
    header += "}  // namespace " + ns + "\n";
    source += "}  // namespace " + ns + "\n";
  }
  if (!write_file(context, base + ".parquetry.h", header) ||
      !write_file(context, base + ".parquetry.cc", source)) {
    *error = "cannot write the output of " + file->name();
    return false;
  }
  return true;
}

}  // namespace parquetry::protoc
