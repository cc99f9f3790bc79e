// protoc-gen-parquetry: for every message of a .proto file, a writer and a
// reader that move values between the message and parquetry's proto::Column
// plan through the generated accessors (m.f(), m.has_f(), m->set_f(...))
// instead of google::protobuf::Reflection.
#pragma once

#include <google/protobuf/compiler/code_generator.h>

#include <string>

namespace parquetry::protoc {

class Generator : public google::protobuf::compiler::CodeGenerator {
 public:
  bool Generate(const google::protobuf::FileDescriptor* file, const std::string& parameter,
                google::protobuf::compiler::GeneratorContext* context, std::string* error) const override;
  uint64_t GetSupportedFeatures() const override { return FEATURE_PROTO3_OPTIONAL; }
};

}  // namespace parquetry::protoc
