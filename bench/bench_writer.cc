// Writer suite (BENCHMARKS.md §2): the taxi dataset written from in-memory
// batches at one thread with snappy, zstd, gzip (level 6) and no compression.
// The output goes to a MemorySink so the figure is the writer's own work
// (shredding, encoding, statistics, compression, footer), not the disk's.
// The peer is DuckDB's COPY ... TO of the same rows from an in-memory table
// at one thread (bench/peers/copy_write.js); both files' folds must agree.
// Counter: output bytes (DuckDB's file sits beside ours in the data folder).
//
// The rewrite table reads a taxi file and writes it again (what `parquetry
// rewrite` does): the file parquetry wrote (row groups of ~1M rows) and the
// file DuckDB wrote (122,880 rows), at 1 and 2 threads, snappy, default
// writer options. The peer is DuckDB's COPY of read_parquet(...) to a file
// with 1,048,576-row groups (bench/peers/rewrite_copy.js). Measured cold too:
// a program rewrites a file once, so a fresh process is the usual case.
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>

#include "datasets.h"
#include "harness.h"
#include "parquetry/io.h"
#include "parquetry/reader.h"
#include "parquetry/scan.h"
#include "parquetry/writer.h"
#include "scan_summary_result.h"

namespace parquetry::bench {
namespace {

BufferRef adopt(const void* data, size_t size) {
  Buffer buffer(size);
  if (size != 0) std::memcpy(buffer.data(), data, size);
  return BufferRef::adopt(std::move(buffer));
}

// The generator's columns as Arrow arrays, split into batches of 64Ki rows.
struct TaxiBatches {
  BatchSchema schema;
  std::vector<RecordBatch> batches;
  int64_t rows = 0;
};

const TaxiBatches& taxi() {
  static const TaxiBatches data = [] {
    TaxiBatches out;
    datasets::Table table = datasets::generate("taxi");
    out.rows = table.rows;
    std::vector<std::shared_ptr<ArrayData>> columns;
    for (const datasets::Column& column : table.columns) {
      DataType type;
      switch (column.type) {
        case datasets::ColumnType::kInt64: type = DataType::make(TypeId::kInt64); break;
        case datasets::ColumnType::kDouble: type = DataType::make(TypeId::kFloat64); break;
        case datasets::ColumnType::kTimestampMicros:
          type = DataType::timestamp(ArrowTimeUnit::kMicro, "");
          break;
        case datasets::ColumnType::kString: type = DataType::make(TypeId::kString); break;
        default: continue;  // taxi has no list columns
      }
      out.schema.fields.push_back(Field{column.name, type, column.nullable, -1, {}});
      auto array = std::make_shared<ArrayData>();
      array->type = std::make_shared<DataType>(type);
      array->length = table.rows;
      if (!column.valid.empty()) {
        std::vector<uint8_t> bitmap(size_t((table.rows + 7) / 8), 0);
        for (int64_t r = 0; r < table.rows; ++r) {
          if (column.valid[size_t(r)]) {
            bitmap[size_t(r >> 3)] |= uint8_t(1u << (r & 7));
          } else {
            ++array->null_count;
          }
        }
        array->buffers.push_back(adopt(bitmap.data(), bitmap.size()));
      } else {
        array->buffers.push_back(BufferRef{});
      }
      if (column.type == datasets::ColumnType::kString) {
        std::vector<int32_t> offsets(column.offsets.begin(), column.offsets.end());
        array->buffers.push_back(adopt(offsets.data(), offsets.size() * 4));
        array->buffers.push_back(adopt(column.chars.data(), column.chars.size()));
      } else if (column.type == datasets::ColumnType::kDouble) {
        array->buffers.push_back(adopt(column.doubles.data(), column.doubles.size() * 8));
      } else {
        array->buffers.push_back(adopt(column.ints.data(), column.ints.size() * 8));
      }
      columns.push_back(std::move(array));
    }
    auto schema = std::make_shared<const BatchSchema>(out.schema);
    const int64_t batch_rows = 64 * 1024;
    for (int64_t start = 0; start < table.rows; start += batch_rows) {
      RecordBatch batch;
      batch.schema = schema;
      batch.num_rows = std::min(batch_rows, table.rows - start);
      for (const auto& column : columns) batch.columns.push_back(slice(column, start, batch.num_rows));
      out.batches.push_back(std::move(batch));
    }
    return out;
  }();
  return data;
}

void write_taxi(CaseContext& ctx) {
  const TaxiBatches& data = taxi();
  const std::string codec = ctx.param("codec");
  WriterOptions options;
  options.threads = 1;
  if (codec == "snappy") {
    options.codec = CompressionCodec::SNAPPY;
  } else if (codec == "zstd") {
    options.codec = CompressionCodec::ZSTD;
    options.compression_level = 3;
  } else if (codec == "gzip") {
    options.codec = CompressionCodec::GZIP;
    options.compression_level = 6;
  } else {
    options.codec = CompressionCodec::UNCOMPRESSED;
  }
  int64_t bytes = 0;
  ctx.measure([&] {
    auto sink = std::make_unique<MemorySink>();
    MemorySink* raw = sink.get();
    auto writer = FileWriter::open(std::move(sink), data.schema, options);
    for (const RecordBatch& batch : data.batches) writer->write(batch);
    writer->close();
    bytes = int64_t(raw->buffer().size());
    benchmark::DoNotOptimize(bytes);
  });
  ctx.state().counters["file_bytes"] = double(bytes);
  // The answer checked against DuckDB's: the fold of the file written, kept
  // beside the datasets (next to DuckDB's own output) for size comparisons.
  const std::string path = data_dir() + "/writer_parquetry_" + codec + ".parquet";
  {
    auto writer = FileWriter::open(path, data.schema, options);
    for (const RecordBatch& batch : data.batches) writer->write(batch);
    writer->close();
  }
  ctx.set_result(to_scan_result(scan_file(path, ReaderOptions{})));
}

std::string rewrite_input(CaseContext& ctx) {
  // written_by=parquetry: row groups of ~1M rows; written_by=duckdb: 122,880 rows.
  return ctx.param("written_by") == "parquetry" ? datasets::parquetry_parquet_path(data_dir(), "taxi")
                                                : datasets::duckdb_parquet_path(data_dir(), "taxi");
}

void rewrite_taxi(CaseContext& ctx) {
  const std::string input = rewrite_input(ctx);
  const std::string output =
      data_dir() + "/rewrite_parquetry_" + ctx.param("written_by") + "_" + ctx.param("threads") + ".parquet";
  WriterOptions options;
  options.threads = int(ctx.param_int("threads"));
  ReaderOptions reader_options;
  reader_options.threads = options.threads;
  int64_t rows = 0;
  ctx.measure([&] {
    auto reader = FileReader::open(input, reader_options);
    auto writer = FileWriter::open(output, *reader->batch_schema(), options);
    auto batches = reader->batches();
    RecordBatch batch;
    rows = 0;
    while (batches->next(batch)) {
      writer->write(batch);
      rows += batch.num_rows;
    }
    writer->close();
  });
  ctx.state().counters["rows"] = double(rows);
  ctx.set_result(to_scan_result(scan_file(output, ReaderOptions{})));
}

}  // namespace

PARQUETRY_BENCH_CASE(writer_rewrite, add_case("writer", "rewrite", "parquetry", rewrite_taxi)
                                         .param("written_by", {"parquetry", "duckdb"})
                                         .param("threads", {"1", "2"})
                                         .single_shot()
                                         .cold());
PARQUETRY_BENCH_CASE(writer_rewrite_peer,
                     set_table_peer("writer", "rewrite",
                                    PeerSpec{"duckdb_copy",
                                             "rewrite_copy.js",
                                             {"--input", "{data_dir}/taxi.{written_by}.parquet", "--output",
                                              "{data_dir}/rewrite_duckdb_{written_by}_{threads}.parquet",
                                              "--threads", "{threads}"}}));

PARQUETRY_BENCH_CASE(writer_taxi, add_case("writer", "taxi_write", "parquetry", write_taxi)
                                      .param("codec", {"snappy", "zstd", "gzip", "none"})
                                      .single_shot()
                                      .cold());
PARQUETRY_BENCH_CASE(writer_taxi_peer, set_table_peer("writer", "taxi_write",
                                                      PeerSpec{"duckdb_copy",
                                                               "copy_write.js",
                                                               {"--data-dir", "{data_dir}", "--codec",
                                                                "{codec}", "--threads", "1"}}));

}  // namespace parquetry::bench
