// protoc plugin entry point: protoc --plugin=protoc-gen-parquetry=PATH --parquetry_out=DIR x.proto
#include <google/protobuf/compiler/plugin.h>

#include "generator.h"

int main(int argc, char* argv[]) {
  parquetry::protoc::Generator generator;
  return google::protobuf::compiler::PluginMain(argc, argv, &generator);
}
