// Iceberg table planning (suite `iceberg_table`): plan_scan over a table of
// 10,000 data files in 100 manifests plus 1,000 delete files (500 deletion
// vectors referencing one data file each, 500 partition-scoped equality
// delete files), written once into a temp folder by the test table writer.
// No data file exists: planning never opens one.
//  - plan_all: every file planned, deletes attached;
//  - plan_selective: `part = 7 AND id >= 500000` prunes manifests by their
//    partition summaries and files by bounds.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "../tests/iceberg_table/table_writer.h"
#include "parquetry/iceberg_table.h"

namespace parquetry::bench {
namespace {

using namespace parquetry::testing;

constexpr int kManifests = 100;
constexpr int kFilesPerManifest = 100;
constexpr int kDeleteFiles = 1000;

std::string planning_table() {
  static const std::string root = [] {
    const std::string dir = (std::filesystem::temp_directory_path() / "parquetry_bench_iceberg_plan").string();
    std::filesystem::remove_all(dir);
    const std::string loc = "s3://bench/t";
    std::vector<ManifestSpec> manifests;
    for (int m = 0; m < kManifests; ++m) {
      std::vector<EntrySpec> entries;
      for (int f = 0; f < kFilesPerManifest; ++f) {
        const int64_t n = int64_t(m) * kFilesPerManifest + f;
        EntrySpec e{.snapshot_id = 1, .path = loc + "/data/f" + std::to_string(n) + ".parquet", .part = m % 10,
                    .record_count = 1000, .file_size = 100000};
        e.lower = {{1, le64(n * 1000)}, {2, le32(m % 10)}};
        e.upper = {{1, le64(n * 1000 + 999)}, {2, le32(m % 10)}};
        e.null_counts = {{1, 0}, {2, 0}, {3, 5}};
        entries.push_back(std::move(e));
      }
      const std::string rel = "metadata/m" + std::to_string(m) + ".avro";
      write_text(dir + "/" + rel, manifest_bytes(entries, 0, 0));
      manifests.push_back(ManifestSpec{loc + "/" + rel, 0, 0, 0, 1, 1, m % 10, m % 10});
    }
    std::vector<EntrySpec> deletes;
    for (int d = 0; d < kDeleteFiles; ++d) {
      EntrySpec e{.snapshot_id = 2, .sequence_number = 2, .content = d % 2 == 0 ? 1 : 2,
                  .path = loc + "/data/d" + std::to_string(d) + (d % 2 == 0 ? ".puffin" : ".parquet"), .part = d % 10,
                  .record_count = 10};
      if (d % 2 == 0) {
        e.format = "PUFFIN";
        e.referenced_data_file = loc + "/data/f" + std::to_string(d * 10 + d % 10) + ".parquet";
        e.content_offset = 4;
        e.content_size = 40;
      } else {
        e.equality_ids = {1};
      }
      deletes.push_back(std::move(e));
    }
    write_text(dir + "/metadata/deletes.avro", manifest_bytes(deletes, 0, 1));
    manifests.push_back(ManifestSpec{loc + "/metadata/deletes.avro", 0, 0, 1, 2, 2, 0, 9});
    write_text(dir + "/metadata/snap.avro", manifest_list_bytes(manifests));
    write_text(dir + "/metadata/v1.metadata.json",
               R"({"format-version":2,"location":")" + loc + R"(","last-sequence-number":2,"current-schema-id":0,
"schemas":[{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","required":true,"type":"long"},
{"id":2,"name":"part","required":true,"type":"int"},{"id":3,"name":"name","required":false,"type":"string"}]}],
"default-spec-id":0,"partition-specs":[{"spec-id":0,"fields":[{"name":"part","transform":"identity","source-id":2,"field-id":1000}]}],
"current-snapshot-id":2,"snapshots":[{"snapshot-id":2,"sequence-number":2,"timestamp-ms":1,"manifest-list":")" + loc +
                   R"(/metadata/snap.avro"}]})");
    return dir;
  }();
  return root;
}

void plan_all(benchmark::State& state) {
  const iceberg::Table table = iceberg::Table::open(planning_table());
  size_t tasks = 0, deletes = 0;
  for (auto _ : state) {
    const iceberg::ScanPlan plan = iceberg::plan_scan(table, {});
    tasks = plan.tasks.size();
    deletes = 0;
    for (const auto& t : plan.tasks) deletes += t.deletes.size();
    benchmark::DoNotOptimize(tasks);
  }
  if (tasks != size_t(kManifests * kFilesPerManifest)) state.SkipWithError("wrong number of planned files");
  state.counters["files"] = double(tasks);
  state.counters["deletes_attached"] = double(deletes);
}
BENCHMARK(plan_all)->Unit(benchmark::kMillisecond);

void plan_selective(benchmark::State& state) {
  const iceberg::Table table = iceberg::Table::open(planning_table());
  const Predicate filter = parse_predicate("part = 7 AND id >= 5000000");
  size_t tasks = 0;
  for (auto _ : state) {
    const iceberg::ScanPlan plan = iceberg::plan_scan(table, {}, filter);
    tasks = plan.tasks.size();
    benchmark::DoNotOptimize(tasks);
  }
  state.counters["files"] = double(tasks);
}
BENCHMARK(plan_selective)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace parquetry::bench
