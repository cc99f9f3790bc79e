// Iceberg table scans with deletes (suite `iceberg_table`, table
// `delete_scan`): one table of 4 data files x 500,000 rows (id long, part
// int, name string; identity(part), row groups of 100,000 rows) with three
// snapshots over the same data files, written once into the dataset folder:
//  - plain (snapshot 101): the data files alone, the baseline;
//  - dv_10pct (102): a deletion vector per data file deleting 10% of its
//    rows (seeded random positions), in one Puffin file;
//  - equality_100k (103): one global equality-delete file of 100,000 ids
//    (every 20th id), so 5% of the rows go;
//  - positions_10pct (104): the deletion vectors' rows as position-delete
//    Parquet files, one per partition (as Spark writes them), each scoped
//    to its data file by partition and by file_path bounds.
// Each case is a full TableScan (every column, 1 and 2 threads) counting
// rows; the count is checked against what the deletes leave. The rows are
// held to +10% / +30% of the plain scan, so the table runs five forks of
// each case round-robin (interleaved_forks): run one after another, the
// machine's drift between rows decided the ratio.
#include <filesystem>
#include <random>
#include <string>

#include "../tests/iceberg_read/delete_file_support.h"
#include "../tests/iceberg_table/table_writer.h"
#include "harness.h"
#include "parquetry/array_builder.h"
#include "parquetry/iceberg.h"
#include "parquetry/iceberg_table.h"
#include "parquetry/writer.h"

namespace parquetry::bench {
namespace {

using namespace parquetry::testing;

constexpr int kFiles = 4;
constexpr int64_t kRowsPerFile = 500'000;
constexpr int64_t kEqualityKeys = 100'000;
constexpr int64_t kEqualityStride = kFiles * kRowsPerFile / kEqualityKeys;

BatchSchema data_schema() {
  BatchSchema schema;
  schema.fields = {Field{"id", DataType::make(TypeId::kInt64), false, 1, {}},
                   Field{"part", DataType::make(TypeId::kInt32), false, 2, {}},
                   Field{"name", DataType::make(TypeId::kString), true, 3, {}}};
  return schema;
}

void write_data_file(const std::string& path, int part) {
  const BatchSchema schema = data_schema();
  ArrayBuilder id(schema.fields[0]), part_column(schema.fields[1]), name(schema.fields[2]);
  for (int64_t r = 0; r < kRowsPerFile; ++r) {
    const int64_t value = part * kRowsPerFile + r;
    id.append_int(value);
    part_column.append_int(part);
    if (value % 10 == 9) {
      name.append_null();
    } else {
      name.append_bytes("n" + std::to_string(value));
    }
  }
  RecordBatch batch;
  batch.schema = std::make_shared<const BatchSchema>(schema);
  batch.num_rows = kRowsPerFile;
  batch.columns = {id.finish(), part_column.finish(), name.finish()};
  WriterOptions options;
  options.row_group_rows = 100'000;
  auto writer = FileWriter::open(path, schema, options);
  writer->write(batch);
  writer->close();
}

void write_equality_file(const std::string& path) {
  BatchSchema schema;
  schema.fields = {Field{"id", DataType::make(TypeId::kInt64), false, 1, {}}};
  ArrayBuilder id(schema.fields[0]);
  for (int64_t k = 0; k < kEqualityKeys; ++k) id.append_int(k * kEqualityStride);
  RecordBatch batch;
  batch.schema = std::make_shared<const BatchSchema>(schema);
  batch.num_rows = kEqualityKeys;
  batch.columns = {id.finish()};
  auto writer = FileWriter::open(path, schema, WriterOptions{});
  writer->write(batch);
  writer->close();
}

struct DeleteTable {
  std::string root;
  int64_t dv_deleted = 0;
};

std::string metadata_json(const std::string& location) {
  std::string snapshots;
  for (int s = 1; s <= 4; ++s) {
    if (!snapshots.empty()) snapshots += ",";
    snapshots += R"({"snapshot-id":)" + std::to_string(100 + s) + R"(,"sequence-number":)" +
                 std::to_string(s) + R"(,"timestamp-ms":)" + std::to_string(s * 1000) +
                 R"(,"manifest-list":")" + location + "/metadata/snap-" + std::to_string(100 + s) +
                 R"(.avro","schema-id":0})";
  }
  return R"({"format-version":2,"location":")" + location +
         R"(","last-sequence-number":4,"last-column-id":3,"current-schema-id":0,
"schemas":[{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","required":true,"type":"long"},
{"id":2,"name":"part","required":true,"type":"int"},{"id":3,"name":"name","required":false,"type":"string"}]}],
"default-spec-id":0,"partition-specs":[{"spec-id":0,"fields":[{"name":"part","transform":"identity","source-id":2,"field-id":1000}]},
{"spec-id":1,"fields":[]}],"last-partition-id":1000,"current-snapshot-id":101,"snapshots":[)" +
         snapshots + "]}";
}

// Written once per dataset folder (a stamp file marks it complete).
const DeleteTable& delete_table() {
  static const DeleteTable table = [] {
    DeleteTable t;
    t.root = data_dir() + "/iceberg_deletes";
    const std::string location = "s3://bench/iceberg_deletes";
    // Named for the table's layout: a folder of an older layout is rebuilt.
    const std::string stamp = t.root + "/complete-4-snapshots";
    const bool reuse = std::filesystem::exists(stamp);
    if (!reuse) {
      std::filesystem::remove_all(t.root);
      std::filesystem::create_directories(t.root + "/data");
      std::filesystem::create_directories(t.root + "/metadata");
    }
    std::vector<EntrySpec> data_entries;
    iceberg::PuffinWriter puffin;
    std::vector<EntrySpec> dv_entries;
    std::vector<EntrySpec> position_entries;
    std::mt19937_64 random(29);
    for (int f = 0; f < kFiles; ++f) {
      const std::string rel = "data/f" + std::to_string(f) + ".parquet";
      if (!reuse) write_data_file(t.root + "/" + rel, f);
      EntrySpec e{.snapshot_id = 101,
                  .path = location + "/" + rel,
                  .part = f,
                  .record_count = kRowsPerFile,
                  .file_size = int64_t(std::filesystem::file_size(t.root + "/" + rel))};
      e.lower = {{1, le64(f * kRowsPerFile)}, {2, le32(f)}};
      e.upper = {{1, le64((f + 1) * kRowsPerFile - 1)}, {2, le32(f)}};
      data_entries.push_back(e);
      iceberg::PositionDeleteIndex dv;
      for (int64_t r = 0; r < kRowsPerFile; ++r) {
        if (random() % 10 == 0) dv.add(r);
      }
      t.dv_deleted += dv.cardinality();
      const std::string positions_rel = "data/positions" + std::to_string(f) + ".parquet";
      if (!reuse) {
        std::vector<DeleteRow> rows;
        rows.reserve(size_t(dv.cardinality()));
        dv.for_each([&](int64_t row) { rows.push_back({e.path, row}); });
        write_delete_file(t.root + "/" + positions_rel, rows, true, 100'000, 20'000);
      }
      EntrySpec positions{.snapshot_id = 104,
                          .content = 1,
                          .path = location + "/" + positions_rel,
                          .part = f,
                          .record_count = dv.cardinality(),
                          .file_size = int64_t(std::filesystem::file_size(t.root + "/" + positions_rel))};
      positions.lower = {{iceberg::kDeleteFilePathFieldId, e.path}};
      positions.upper = {{iceberg::kDeleteFilePathFieldId, e.path}};
      position_entries.push_back(positions);
      const iceberg::PuffinBlobMetadata blob = puffin.add_deletion_vector(e.path, dv);
      dv_entries.push_back(EntrySpec{.snapshot_id = 102,
                                     .content = 1,
                                     .path = location + "/data/dv.puffin",
                                     .format = "PUFFIN",
                                     .part = f,
                                     .record_count = dv.cardinality(),
                                     .referenced_data_file = e.path,
                                     .content_offset = blob.offset,
                                     .content_size = blob.length});
    }
    if (!reuse) {
      const std::vector<uint8_t> puffin_bytes = puffin.finish();
      write_text(t.root + "/data/dv.puffin",
                 std::string_view(reinterpret_cast<const char*>(puffin_bytes.data()), puffin_bytes.size()));
      write_equality_file(t.root + "/data/eq.parquet");
      EntrySpec eq{.snapshot_id = 103,
                   .content = 2,
                   .path = location + "/data/eq.parquet",
                   .record_count = kEqualityKeys,
                   .equality_ids = {1}};
      write_text(t.root + "/metadata/data.avro", manifest_bytes(data_entries, 0, 0));
      write_text(t.root + "/metadata/dv.avro", manifest_bytes(dv_entries, 0, 1));
      write_text(t.root + "/metadata/eq.avro", manifest_bytes({eq}, 1, 1));
      write_text(t.root + "/metadata/positions.avro", manifest_bytes(position_entries, 0, 1));
      const ManifestSpec data{location + "/metadata/data.avro", 0, 0, 0, 1, 101, 0, kFiles - 1};
      const ManifestSpec dvs{location + "/metadata/dv.avro", 0, 0, 1, 2, 102, 0, kFiles - 1};
      const ManifestSpec eqs{location + "/metadata/eq.avro", 0, 1, 1, 3, 103};
      const ManifestSpec positions{location + "/metadata/positions.avro", 0, 0, 1, 4, 104, 0, kFiles - 1};
      write_text(t.root + "/metadata/snap-101.avro", manifest_list_bytes({data}));
      write_text(t.root + "/metadata/snap-102.avro", manifest_list_bytes({data, dvs}));
      write_text(t.root + "/metadata/snap-103.avro", manifest_list_bytes({data, eqs}));
      write_text(t.root + "/metadata/snap-104.avro", manifest_list_bytes({data, positions}));
      write_text(t.root + "/metadata/v1.metadata.json", metadata_json(location));
      write_text(t.root + "/metadata/version-hint.text", "1");
      write_text(stamp, "");
    }
    return t;
  }();
  return table;
}

void scan_snapshot(CaseContext& ctx, int64_t snapshot, int64_t expected_rows) {
  const iceberg::Table table = iceberg::Table::open(delete_table().root);
  iceberg::TableScanOptions options;
  options.snapshot.snapshot_id = snapshot;
  options.threads = int(ctx.param_int("threads"));
  int64_t rows = 0;
  ctx.measure([&] {
    auto scan = iceberg::TableScan::open(table, options);
    RecordBatch batch;
    rows = 0;
    while (scan->next(batch)) rows += batch.num_rows;
  });
  if (rows != expected_rows) {
    throw std::runtime_error("iceberg delete_scan: " + std::to_string(rows) + " rows, expected " +
                             std::to_string(expected_rows));
  }
}

}  // namespace

PARQUETRY_BENCH_CASE(iceberg_delete_plain,
                     add_case("iceberg_table", "delete_scan", "plain",
                              [](CaseContext& ctx) { scan_snapshot(ctx, 101, kFiles * kRowsPerFile); })
                         .param("threads", {"1", "2"})
                         .baseline()
                         .interleaved_forks(5));
PARQUETRY_BENCH_CASE(iceberg_delete_dv,
                     add_case("iceberg_table", "delete_scan", "dv_10pct",
                              [](CaseContext& ctx) {
                                scan_snapshot(ctx, 102, kFiles * kRowsPerFile - delete_table().dv_deleted);
                              })
                         .param("threads", {"1", "2"})
                         .interleaved_forks(5));
PARQUETRY_BENCH_CASE(iceberg_delete_equality, add_case("iceberg_table", "delete_scan", "equality_100k",
                                                       [](CaseContext& ctx) {
                                                         scan_snapshot(ctx, 103,
                                                                       kFiles * kRowsPerFile - kEqualityKeys);
                                                       })
                                                  .param("threads", {"1", "2"})
                                                  .interleaved_forks(5));
PARQUETRY_BENCH_CASE(iceberg_delete_positions,
                     add_case("iceberg_table", "delete_scan", "positions_10pct",
                              [](CaseContext& ctx) {
                                scan_snapshot(ctx, 104, kFiles * kRowsPerFile - delete_table().dv_deleted);
                              })
                         .param("threads", {"1", "2"})
                         .interleaved_forks(5));

}  // namespace parquetry::bench
