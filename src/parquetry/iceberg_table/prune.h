// Pruning a scan's predicate against what the planner knows without opening
// a data file: manifest partition summaries, a file's partition tuple
// (through each transform's projection) and its column bounds and counts.
#pragma once

#include "parquetry/iceberg_table.h"
#include "parquetry/iceberg_table/values.h"

namespace parquetry::iceberg {

/// A predicate with its leaves resolved against a table schema once.
class Pruner {
 public:
  /// Column statistics of `unreliable_stats` field ids are not used (fields
  /// a name mapping leaves out read as null from files without ids, whatever
  /// their manifests recorded).
  Pruner(const IcebergSchema& schema, const Predicate& filter, std::vector<int32_t> unreliable_stats = {});

  bool trivially_true() const { return always_true_; }
  /// True when no row of a manifest with these partition summaries (of
  /// `spec`) can match.
  bool excludes_manifest(const PartitionSpec& spec, const ManifestFile& manifest) const;
  /// True when no row of `file` (partitioned by `spec`) can match.
  bool excludes_partition(const PartitionSpec& spec, const DataFile& file) const;
  bool excludes_bounds(const DataFile& file) const;

 private:
  struct Leaf {
    const SchemaField* field = nullptr;  ///< nullptr: unknown column, never prunes
    Predicate::Kind kind = Predicate::Kind::kTrue;
    CompareOp op = CompareOp::kEq;
    std::vector<Value> values;  ///< typed literals (empty when a literal did not type)
    bool typed = false;
  };
  bool excluded(const std::function<bool(const Leaf&)>& leaf_excluded) const;

  Predicate filter_;  // NOT pushed down
  bool always_true_ = true;
  const IcebergSchema* schema_;
  std::vector<int32_t> unreliable_stats_;
};

}  // namespace parquetry::iceberg
