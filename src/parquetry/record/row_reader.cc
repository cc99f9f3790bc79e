// RowReader: hands out the rows of FilteredScan batches one at a time.
#include <string>

#include "parquetry/error.h"
#include "parquetry/record.h"
#include "parquetry/table/json_values.h"
#include "parquetry/util/json_writer.h"

namespace parquetry {

ValueRef Row::operator[](std::string_view path) const {
  const BatchSchema& s = *batch_->schema;
  for (size_t c = 0; c < s.fields.size(); ++c) {
    if (s.fields[c].name == path) return (*this)[int(c)];
  }
  // A dotted path: the longest column-name prefix, then struct fields.
  for (size_t dot = path.rfind('.'); dot != std::string_view::npos && dot > 0;
       dot = path.rfind('.', dot - 1)) {
    const std::string_view head = path.substr(0, dot);
    for (size_t c = 0; c < s.fields.size(); ++c) {
      if (s.fields[c].name != head) continue;
      ValueRef value = (*this)[int(c)];
      std::string_view rest = path.substr(dot + 1);
      while (!rest.empty()) {
        const size_t next = rest.find('.');
        value = value[rest.substr(0, next)];
        rest = next == std::string_view::npos ? std::string_view() : rest.substr(next + 1);
      }
      return value;
    }
    if (dot == 0) break;
  }
  throw_invalid("row has no column '" + std::string(path) + "'");
}

std::string Row::to_json() const {
  JsonWriter out;
  write_json_row(out, *batch_, index_);
  return out.take();
}

std::unique_ptr<RowReader> RowReader::open(const std::string& path, RowReaderOptions options) {
  FilteredScanOptions scan;
  scan.columns = std::move(options.columns);
  scan.filter = std::move(options.filter);
  scan.threads = options.threads;
  std::unique_ptr<RowReader> reader(new RowReader());
  reader->scan_ = FilteredScan::open(path, std::move(scan));
  reader->schema_ = reader->scan_->schema();
  return reader;
}

std::unique_ptr<RowReader> RowReader::over(std::unique_ptr<BatchReader> batches) {
  std::unique_ptr<RowReader> reader(new RowReader());
  reader->schema_ = batches->schema();
  reader->batches_ = std::move(batches);
  return reader;
}

bool RowReader::next(Row& row) {
  while (position_ >= batch_.num_rows) {
    // The batch is replaced in place: rows of the previous batch end here.
    const bool more = scan_ ? scan_->next(batch_) : batches_->next(batch_);
    if (!more) return false;
    position_ = 0;
  }
  row = Row(&batch_, position_++);
  ++rows_read_;
  return true;
}

}  // namespace parquetry
