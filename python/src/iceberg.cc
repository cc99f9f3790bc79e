// Iceberg tables: iceberg_read (a snapshot's rows as one Table, or only some
// planned files of it) and iceberg_plan (the planned files, for Dask tasks).
#include "bindings.h"
#include "parquetry/iceberg_table.h"
#include "parquetry/predicate.h"

namespace parquetry::python {
namespace {

struct IcebergRequest {
  std::string table;
  iceberg::TableScanOptions options;
  std::string metadata;
};

IcebergRequest make_iceberg_request(std::string table, std::optional<std::vector<std::string>> columns,
                                    std::optional<std::string> where, std::optional<int64_t> snapshot_id,
                                    std::optional<int64_t> as_of_ms, std::optional<std::string> ref,
                                    std::optional<int> threads, std::optional<std::string> metadata) {
  IcebergRequest r;
  r.table = std::move(table);
  if (columns) r.options.columns = *columns;
  if (where && !where->empty()) r.options.filter = parse_predicate(*where);
  r.options.snapshot.snapshot_id = snapshot_id;
  r.options.snapshot.as_of_ms = as_of_ms;
  if (ref) r.options.snapshot.ref = *ref;
  if (threads) r.options.threads = *threads;
  if (metadata) r.metadata = *metadata;
  return r;
}

iceberg::Table open(const IcebergRequest& r) {
  iceberg::TableOpenOptions open;
  open.metadata_file = r.metadata;
  return iceberg::Table::open(r.table, open);
}

}  // namespace

void bind_iceberg(py::module_& m) {
  m.def(
      "iceberg_read",
      [](std::string table, std::optional<std::vector<std::string>> columns, std::optional<std::string> where,
         std::optional<int64_t> snapshot_id, std::optional<int64_t> as_of_ms, std::optional<std::string> ref,
         std::optional<int> threads, std::optional<std::string> metadata, std::optional<std::vector<int32_t>> tasks) {
        IcebergRequest r = make_iceberg_request(std::move(table), columns, where, snapshot_id, as_of_ms, ref, threads, metadata);
        if (tasks) r.options.tasks = *tasks;  // [] = no file: the schema only
        auto out = std::make_shared<Table>();
        py::gil_scoped_release unlocked;
        const iceberg::Table t = open(r);
        auto scan = iceberg::TableScan::open(t, r.options);
        out->schema = scan->schema();
        RecordBatch batch;
        while (scan->next(batch)) out->batches.push_back(batch);
        return out;
      },
      py::arg("table"), py::arg("columns") = py::none(), py::arg("where") = py::none(),
      py::arg("snapshot_id") = py::none(), py::arg("as_of_ms") = py::none(), py::arg("ref") = py::none(),
      py::arg("threads") = py::none(), py::arg("metadata") = py::none(), py::arg("tasks") = py::none(),
      "Rows of an Iceberg table snapshot (deletes applied, projected by field id) as one Table");

  m.def(
      "iceberg_plan",
      [](std::string table, std::optional<std::string> where, std::optional<int64_t> snapshot_id,
         std::optional<int64_t> as_of_ms, std::optional<std::string> ref, std::optional<std::string> metadata) {
        IcebergRequest r = make_iceberg_request(std::move(table), std::nullopt, where, snapshot_id, as_of_ms, ref, std::nullopt, metadata);
        iceberg::ScanPlan plan;
        {
          py::gil_scoped_release unlocked;
          const iceberg::Table t = open(r);
          plan = iceberg::plan_scan(t, r.options.snapshot, r.options.filter);
        }
        py::list files;
        for (const iceberg::FileTask& task : plan.tasks) {
          py::dict d;
          d["path"] = task.local_path;
          d["records"] = task.file.record_count;
          d["deletes"] = task.deletes.size();
          files.append(d);
        }
        py::dict out;
        out["snapshot_id"] = plan.snapshot ? py::object(py::int_(plan.snapshot->snapshot_id)) : py::object(py::none());
        out["files"] = files;
        out["data_files"] = plan.stats.data_files;
        out["files_pruned"] = plan.stats.files_pruned_partition + plan.stats.files_pruned_bounds;
        out["manifests_pruned"] = plan.stats.manifests_pruned;
        return out;
      },
      py::arg("table"), py::arg("where") = py::none(), py::arg("snapshot_id") = py::none(),
      py::arg("as_of_ms") = py::none(), py::arg("ref") = py::none(), py::arg("metadata") = py::none(),
      "The data files a scan of the snapshot reads, after pruning (never opens a data file)");
}

}  // namespace parquetry::python
