// ProtoReader: FileReader batches, bound to the plan's columns by name, read
// back one row at a time.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include "parquetry/error.h"
#include "parquetry/proto.h"
#include "parquetry/proto/proto_internal.h"

namespace parquetry::proto {

std::unique_ptr<ProtoReader> ProtoReader::open(const std::string& path,
                                               const google::protobuf::Descriptor* descriptor,
                                               const ProtoOptions& options, ReaderOptions reader_options) {
  std::unique_ptr<ProtoReader> reader(new ProtoReader());
  reader->plan_ = plan_for(descriptor, options);
  reader->reader_ = FileReader::open(path, std::move(reader_options));
  reader->batches_ = reader->reader_->batches();
  return reader;
}

ProtoReader::~ProtoReader() = default;

bool ProtoReader::next_row() {
  ++row_;
  while (row_ >= batch_.num_rows) {
    if (!batches_->next(batch_)) {
      row_ = batch_.num_rows;
      return false;
    }
    row_ = 0;
    for (Column& column : plan_->root.children) {
      const int index = batch_.schema->field_index(column.field->name());
      bind_column(column, index < 0 ? nullptr : batch_.columns[size_t(index)].get());
    }
  }
  return true;
}

bool ProtoReader::next(google::protobuf::Message* message) {
  if (message->GetDescriptor() != plan_->descriptor) {
    throw_invalid("ProtoReader for " + plan_->descriptor->full_name() + " was given a " +
                  message->GetDescriptor()->full_name());
  }
  if (!next_row()) return false;
  message->Clear();
  for (const Column& column : plan_->root.children) read_field(column, row_, message);
  return true;
}

}  // namespace parquetry::proto
