// RowWriter: Datum rows -> column builders -> batches -> FileWriter.
#include <string>

#include "parquetry/array_builder.h"
#include "parquetry/error.h"
#include "parquetry/record.h"

namespace parquetry {

// Hidden: a nested class takes the visibility of the exported class around it.
struct PARQUETRY_LOCAL RowWriter::Impl {
  std::unique_ptr<FileWriter> writer;
  std::shared_ptr<const BatchSchema> schema;
  std::vector<ArrayBuilder> columns;
  int64_t batch_rows = 0;
  int64_t buffered = 0;
  int64_t written = 0;

  void flush() {
    if (buffered == 0) return;
    RecordBatch batch;
    batch.schema = schema;
    batch.num_rows = buffered;
    for (auto& column : columns) batch.columns.push_back(column.finish());
    writer->write(batch);
    written += buffered;
    buffered = 0;
  }
};

RowWriter::RowWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RowWriter::~RowWriter() = default;

std::unique_ptr<RowWriter> RowWriter::open(const std::string& path, const BatchSchema& schema,
                                           WriterOptions options, int64_t batch_rows) {
  if (batch_rows <= 0) throw_invalid("batch_rows must be positive");
  auto impl = std::make_unique<Impl>();
  impl->schema = std::make_shared<BatchSchema>(schema);
  impl->batch_rows = batch_rows;
  impl->columns.reserve(schema.fields.size());
  for (const Field& field : schema.fields) impl->columns.emplace_back(field);
  impl->writer = FileWriter::open(path, schema, std::move(options));
  return std::unique_ptr<RowWriter>(new RowWriter(std::move(impl)));
}

void RowWriter::write(const std::vector<Datum>& row) {
  Impl& s = *impl_;
  if (row.size() != s.columns.size()) {
    throw_invalid("row of " + std::to_string(row.size()) + " values for a schema of " +
                  std::to_string(s.columns.size()) + " columns");
  }
  size_t c = 0;
  try {
    for (; c < s.columns.size(); ++c) s.columns[c].append(row[c]);
  } catch (const Error&) {
    // The row is all or nothing: columns already appended give it back.
    for (size_t done = 0; done < c; ++done) s.columns[done].truncate(s.buffered);
    throw;
  }
  if (++s.buffered >= s.batch_rows) s.flush();
}

void RowWriter::close() {
  impl_->flush();
  impl_->writer->close();
}

int64_t RowWriter::num_rows() const { return impl_->written + impl_->buffered; }

}  // namespace parquetry
