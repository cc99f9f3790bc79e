// Writes `rows` rows (id, name, score) with RowWriter, then reads the file
// back with RowReader and prints what it finds: the row count, the sum of the
// ids, how many names are null, and the file's created_by.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "parquetry/record.h"
#include "parquetry/version.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: write_rows OUT.parquet ROWS\n");
    return 2;
  }
  const std::string path = argv[1];
  const int64_t count = std::atoll(argv[2]);
  try {
    parquetry::BatchSchema schema;
    schema.fields = {
        {"id", parquetry::DataType::make(parquetry::TypeId::kInt64), /*nullable=*/false},
        {"name", parquetry::DataType::make(parquetry::TypeId::kString), /*nullable=*/true},
        {"score", parquetry::DataType::make(parquetry::TypeId::kFloat64), /*nullable=*/false},
    };
    parquetry::WriterOptions options;
    options.codec = parquetry::CompressionCodec::ZSTD;
    auto writer = parquetry::RowWriter::open(path, schema, options);
    for (int64_t i = 0; i < count; ++i) {
      // Every third name is null.
      parquetry::Datum name =
          i % 3 == 0 ? parquetry::Datum(nullptr) : parquetry::Datum("row " + std::to_string(i));
      writer->write({parquetry::Datum(i), name, parquetry::Datum(static_cast<double>(i) / 2)});
    }
    writer->close();  // the file appears whole, or not at all

    int64_t rows = 0, id_sum = 0, null_names = 0;
    double score_sum = 0;
    auto reader = parquetry::RowReader::open(path);
    parquetry::Row row;
    while (reader->next(row)) {
      ++rows;
      id_sum += row["id"].as_int64();
      score_sum += row["score"].as_double();
      if (row["name"].is_null()) {
        ++null_names;
      } else if (row["name"].as_string() != "row " + std::to_string(row["id"].as_int64())) {
        std::fprintf(stderr, "write_rows: row %lld reads back a wrong name\n", static_cast<long long>(rows));
        return 1;
      }
    }
    // metadata() refers into the reader: keep the reader while using it.
    const auto file = parquetry::FileReader::open(path);
    const parquetry::FileMetaData& metadata = file->metadata();
    std::printf("rows %lld id_sum %lld score_sum %.1f null_names %lld\n", static_cast<long long>(rows),
                static_cast<long long>(id_sum), score_sum, static_cast<long long>(null_names));
    std::printf("created_by %s\n", metadata.created_by ? metadata.created_by->c_str() : "-");
    std::printf("library %s (build %s)\n", parquetry::version(), parquetry::build_commit());
    return 0;
  } catch (const parquetry::Error& e) {
    std::fprintf(stderr, "write_rows: %s\n", e.what());
    return 1;
  }
}
