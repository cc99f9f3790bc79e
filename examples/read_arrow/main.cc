// Reads a Parquet file with parquetry and consumes it through the Arrow C
// stream interface only, as any Arrow-speaking engine (DuckDB, Polars,
// pyarrow, DataFusion) would take it: no parquetry type past export_stream().
//
// Prints the row count, each column's name and Arrow format, and the sum of
// every 32/64-bit integer column without nulls.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "parquetry/arrow_export.h"
#include "parquetry/error.h"
#include "parquetry/reader.h"

namespace {

struct ColumnTotal {
  std::string name;
  std::string format;
  int64_t sum = 0;
  bool summable = true;
};

void add_column(const ArrowArray& array, ColumnTotal& total) {
  const bool is32 = total.format == "i";
  const bool is64 = total.format == "l";
  if (!(is32 || is64) || array.null_count != 0) {
    total.summable = false;
    return;
  }
  // buffers[0]: validity (unused without nulls), buffers[1]: the values.
  const void* values = array.buffers[1];
  for (int64_t i = 0; i < array.length; ++i) {
    const int64_t at = array.offset + i;
    total.sum += is32 ? static_cast<const int32_t*>(values)[at] : static_cast<const int64_t*>(values)[at];
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: read_arrow FILE.parquet\n");
    return 2;
  }
  try {
    ArrowArrayStream stream;
    parquetry::export_stream(parquetry::FileReader::open(argv[1])->batches(), &stream);

    ArrowSchema schema;
    if (stream.get_schema(&stream, &schema) != 0) {
      std::fprintf(stderr, "get_schema: %s\n", stream.get_last_error(&stream));
      return 1;
    }
    std::vector<ColumnTotal> columns(static_cast<size_t>(schema.n_children));
    for (int64_t i = 0; i < schema.n_children; ++i) {
      columns[i].name = schema.children[i]->name;
      columns[i].format = schema.children[i]->format;
    }
    schema.release(&schema);

    int64_t rows = 0;
    int64_t batches = 0;
    for (;;) {
      ArrowArray batch;
      if (stream.get_next(&stream, &batch) != 0) {
        std::fprintf(stderr, "get_next: %s\n", stream.get_last_error(&stream));
        return 1;
      }
      if (batch.release == nullptr) break;  // end of stream
      rows += batch.length;
      ++batches;
      for (int64_t i = 0; i < batch.n_children; ++i) add_column(*batch.children[i], columns[i]);
      batch.release(&batch);
    }
    stream.release(&stream);

    std::printf("rows %lld batches %lld columns %zu\n", static_cast<long long>(rows),
                static_cast<long long>(batches), columns.size());
    for (const ColumnTotal& c : columns) {
      std::printf("%s %s", c.name.c_str(), c.format.c_str());
      if (c.summable) std::printf(" sum %lld", static_cast<long long>(c.sum));
      std::printf("\n");
    }
    return 0;
  } catch (const parquetry::Error& e) {
    std::fprintf(stderr, "read_arrow: %s\n", e.what());
    return 1;
  }
}
