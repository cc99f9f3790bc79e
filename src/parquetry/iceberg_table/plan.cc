// Scan planning (format/spec.md "Scan Planning"): snapshot selection,
// manifest and file pruning, and which delete files apply to which data file.
#include <algorithm>
#include <unordered_map>

#include "parquetry/error.h"
#include "parquetry/iceberg_table.h"
#include "parquetry/iceberg_table/avro.h"
#include "parquetry/iceberg_table/files.h"
#include "parquetry/iceberg_table/name_mapping.h"
#include "parquetry/iceberg_table/prune.h"
#include "parquetry/util/parallel.h"

namespace parquetry::iceberg {

const Snapshot* select_snapshot(const TableMetadata& m, const SnapshotSelection& selection) {
  const int chosen = int(selection.snapshot_id.has_value()) + int(selection.as_of_ms.has_value()) +
                     int(!selection.ref.empty());
  if (chosen > 1) throw_invalid("choose one of a snapshot id, a timestamp and a ref");
  if (selection.snapshot_id) {
    const Snapshot* s = m.snapshot(*selection.snapshot_id);
    if (s == nullptr) throw_invalid("snapshot " + std::to_string(*selection.snapshot_id) + " does not exist");
    return s;
  }
  if (!selection.ref.empty()) {
    for (const SnapshotRef& ref : m.refs) {
      if (ref.name == selection.ref) {
        const Snapshot* s = m.snapshot(ref.snapshot_id);
        if (s == nullptr)
          throw_corrupt("ref '" + ref.name + "' names missing snapshot " + std::to_string(ref.snapshot_id));
        return s;
      }
    }
    if (selection.ref == "main") return m.current_snapshot();
    throw_invalid("ref '" + selection.ref + "' does not exist");
  }
  if (selection.as_of_ms) {
    // The last snapshot at or before the time (by commit time; among equal
    // times the later one in the list).
    const Snapshot* best = nullptr;
    for (const Snapshot& s : m.snapshots) {
      if (s.timestamp_ms <= *selection.as_of_ms && (best == nullptr || s.timestamp_ms >= best->timestamp_ms))
        best = &s;
    }
    if (best == nullptr)
      throw_invalid("no snapshot at or before timestamp " + std::to_string(*selection.as_of_ms) + " ms");
    return best;
  }
  return m.current_snapshot();
}

namespace {

std::string partition_key(int32_t spec_id, const std::vector<PartitionValue>& values) {
  std::string key = std::to_string(spec_id);
  for (const PartitionValue& v : values) {
    key += '|';
    key += char('0' + int(v.kind));
    switch (v.kind) {
      case PartitionValue::Kind::kNull: break;
      case PartitionValue::Kind::kInt: key += std::to_string(v.int_value); break;
      case PartitionValue::Kind::kDouble:
        key.append(reinterpret_cast<const char*>(&v.double_value), 8);
        break;
      case PartitionValue::Kind::kBytes:
        key += std::to_string(v.bytes.size());
        key += ':';
        key += v.bytes;
        break;
    }
  }
  return key;
}

struct ManifestResult {
  std::vector<ManifestEntry> entries;
  bool pruned = false;
};

}  // namespace

ScanPlan plan_scan(const Table& table, const SnapshotSelection& selection, const Predicate& filter) {
  const TableMetadata& m = table.metadata();
  ScanPlan plan;
  plan.snapshot = select_snapshot(m, selection);
  // Rows are read in the table's current schema (format/spec.md: time travel
  // reads old snapshots with the current schema, except by a snapshot's own
  // schema id when asked); the snapshot's schema is used when it names one.
  plan.schema = &m.current_schema();
  if (plan.snapshot != nullptr && plan.snapshot->schema_id && (selection.snapshot_id || selection.as_of_ms)) {
    if (const IcebergSchema* s = m.schema(*plan.snapshot->schema_id)) plan.schema = s;
  }
  if (plan.snapshot == nullptr) return plan;
  const Snapshot& snap = *plan.snapshot;
  const std::string snap_what = "table " + table.name() + ", snapshot " + std::to_string(snap.snapshot_id);

  std::vector<ManifestFile> manifests;
  if (!snap.manifest_list.empty()) {
    const std::string what = snap_what + ", manifest list " + snap.manifest_list;
    manifests = read_manifest_list(read_whole_file(table.local_path(snap.manifest_list), what), what);
  } else {
    // v1 snapshots may embed their manifest paths; the spec id is in each
    // manifest's Avro header.
    for (const std::string& path : snap.manifests) {
      ManifestFile mf;
      mf.path = path;
      mf.added_snapshot_id = snap.snapshot_id;
      mf.partition_spec_id = m.default_spec_id;
      manifests.push_back(std::move(mf));
    }
  }
  plan.stats.manifests = int64_t(manifests.size());

  std::vector<int32_t> unmapped;
  const auto mapping = parse_name_mapping(m, "table " + table.name());
  if (mapping) {
    for (const SchemaField& f : plan.schema->fields) {
      if (!mapping->contains(f.id)) unmapped.push_back(f.id);
    }
  }
  const Pruner pruner(*plan.schema, filter, std::move(unmapped));
  std::vector<ManifestResult> results(manifests.size());
  auto read_one = [&](size_t i) {
    ManifestFile& mf = manifests[i];
    const std::string what = snap_what + ", manifest " + mf.path;
    const PartitionSpec* spec = m.spec(mf.partition_spec_id);
    std::vector<uint8_t> bytes = read_whole_file(table.local_path(mf.path), what);
    if (snap.manifest_list.empty()) {
      // Embedded manifests: take the spec id from the header.
      avro::ContainerReader header(bytes, what);
      if (const std::string* id = header.metadata("partition-spec-id")) {
        try {
          mf.partition_spec_id = std::stoi(*id);
        } catch (const std::exception&) {
          throw_corrupt(what + ": bad partition-spec-id '" + *id + "'");
        }
        spec = m.spec(mf.partition_spec_id);
      }
    }
    if (spec == nullptr)
      throw_corrupt(what + ": partition spec " + std::to_string(mf.partition_spec_id) +
                    " is not in the table metadata");
    if (mf.content == ManifestContent::kData && pruner.excludes_manifest(*spec, mf)) {
      results[i].pruned = true;
      return;
    }
    results[i].entries = read_manifest(bytes, mf, *spec, what);
  };
  // Manifest summaries prune before any manifest is read.
  std::vector<size_t> to_read;
  for (size_t i = 0; i < manifests.size(); ++i) {
    const PartitionSpec* spec = m.spec(manifests[i].partition_spec_id);
    if (!snap.manifest_list.empty() && spec != nullptr && manifests[i].content == ManifestContent::kData &&
        pruner.excludes_manifest(*spec, manifests[i])) {
      results[i].pruned = true;
      continue;
    }
    to_read.push_back(i);
  }
  for (size_t i : to_read) read_one(i);
  for (const ManifestResult& r : results) plan.stats.manifests_pruned += r.pruned;

  // Collect live entries.
  for (size_t i = 0; i < manifests.size(); ++i) {
    const ManifestFile& mf = manifests[i];
    const PartitionSpec* spec = m.spec(mf.partition_spec_id);
    for (ManifestEntry& e : results[i].entries) {
      if (e.status == EntryStatus::kDeleted) continue;
      if (e.file.content == FileContent::kData) {
        if (mf.content != ManifestContent::kData)
          throw_corrupt(snap_what + ", manifest " + mf.path + ": data file " + e.file.file_path +
                        " in a delete manifest");
        ++plan.stats.data_files;
        if (pruner.excludes_partition(*spec, e.file)) {
          ++plan.stats.files_pruned_partition;
          continue;
        }
        if (pruner.excludes_bounds(e.file)) {
          ++plan.stats.files_pruned_bounds;
          continue;
        }
        FileTask task;
        task.sequence_number = e.sequence_number;
        task.file = std::move(e.file);
        plan.tasks.push_back(std::move(task));
      } else {
        if (e.file.content == FileContent::kEqualityDeletes && e.file.equality_ids.empty())
          throw_corrupt(snap_what + ", manifest " + mf.path + ": equality delete file " + e.file.file_path +
                        " without equality_ids");
        DeleteFile d;
        d.sequence_number = e.sequence_number;
        d.file = std::move(e.file);
        plan.delete_files.push_back(std::move(d));
      }
    }
  }
  plan.stats.delete_files = int64_t(plan.delete_files.size());

  // Index deletes: by referenced data file, by partition, and global
  // (unpartitioned specs) so each data file looks up only candidates.
  std::unordered_map<std::string_view, std::vector<uint32_t>> by_reference;
  std::unordered_map<std::string, std::vector<uint32_t>> by_partition;
  std::vector<uint32_t> global;
  for (uint32_t d = 0; d < plan.delete_files.size(); ++d) {
    DeleteFile& del = plan.delete_files[d];
    const PartitionSpec* spec = m.spec(del.file.spec_id);
    if (del.file.content == FileContent::kPositionDeletes && del.file.referenced_data_file) {
      by_reference[*del.file.referenced_data_file].push_back(d);
    } else if (spec == nullptr || spec->is_unpartitioned()) {
      global.push_back(d);
    } else {
      by_partition[partition_key(del.file.spec_id, del.file.partition)].push_back(d);
    }
  }
  for (FileTask& task : plan.tasks) {
    // Each candidate list is in ascending order; the task's list needs a
    // sort only when it takes from more than one of them.
    const std::vector<uint32_t>* by_file = nullptr;
    const std::vector<uint32_t>* in_partition = nullptr;
    if (!by_reference.empty()) {
      auto it = by_reference.find(task.file.file_path);
      if (it != by_reference.end()) by_file = &it->second;
    }
    if (!by_partition.empty()) {
      auto it = by_partition.find(partition_key(task.file.spec_id, task.file.partition));
      if (it != by_partition.end()) in_partition = &it->second;
    }
    task.deletes.reserve((by_file ? by_file->size() : 0) + global.size() +
                         (in_partition ? in_partition->size() : 0));
    auto consider = [&](uint32_t d) {
      const DeleteFile& del = plan.delete_files[d];
      if (del.file.content == FileContent::kPositionDeletes) {
        // Position deletes and DVs: sequence number at or after the data file's.
        if (del.sequence_number < task.sequence_number) return;
      } else if (del.sequence_number <= task.sequence_number) {
        return;  // equality deletes: strictly later
      }
      task.deletes.push_back(d);
    };
    int sources = 0;
    for (const std::vector<uint32_t>* list :
         {by_file, static_cast<const std::vector<uint32_t>*>(&global), in_partition}) {
      if (list == nullptr || list->empty()) continue;
      ++sources;
      for (uint32_t d : *list) consider(d);
    }
    if (sources > 1) std::sort(task.deletes.begin(), task.deletes.end());
  }
  // Local paths, only for what will be opened.
  for (FileTask& task : plan.tasks) task.local_path = table.local_path(task.file.file_path);
  for (DeleteFile& del : plan.delete_files) del.local_path = table.local_path(del.file.file_path);
  return plan;
}

}  // namespace parquetry::iceberg
