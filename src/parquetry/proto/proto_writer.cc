// ProtoWriter: the plan's columns, cut into a RecordBatch every batch_rows
// rows and handed to FileWriter.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include "parquetry/error.h"
#include "parquetry/proto.h"

namespace parquetry::proto {

std::unique_ptr<ProtoWriter> ProtoWriter::open(const std::string& path,
                                               const google::protobuf::Descriptor* descriptor,
                                               const ProtoOptions& options, WriterOptions writer_options) {
  std::unique_ptr<ProtoWriter> writer(new ProtoWriter());
  writer->plan_ = plan_for(descriptor, options);
  writer->schema_ = std::make_shared<const BatchSchema>(writer->plan_->schema);
  writer->writer_ = FileWriter::open(path, *writer->schema_, std::move(writer_options));
  return writer;
}

ProtoWriter::~ProtoWriter() = default;

void ProtoWriter::write(const google::protobuf::Message& message) {
  if (message.GetDescriptor() != plan_->descriptor) {
    throw_invalid("ProtoWriter for " + plan_->descriptor->full_name() + " was given a " +
                  message.GetDescriptor()->full_name());
  }
  append_fields(plan_->root, message);
  end_row();
}

void ProtoWriter::flush() {
  if (pending_ == 0) return;
  RecordBatch batch;
  batch.schema = schema_;
  batch.num_rows = pending_;
  auto& columns = plan_->root.children;
  batch.columns.reserve(columns.size());
  for (size_t i = 0; i < columns.size(); ++i) {
    batch.columns.push_back(columns[i].take(schema_->fields[i].type));
  }
  rows_ += pending_;
  pending_ = 0;
  writer_->write(batch);
}

void ProtoWriter::close() {
  flush();
  writer_->close();
}

}  // namespace parquetry::proto
