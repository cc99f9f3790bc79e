// The deletes of a scan, loaded once per delete file and shared by every
// data file they apply to: position-delete files and deletion vectors as
// PositionDeleteIndexes, equality-delete files as sets of row keys.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "int_set.h"

#include "parquetry/iceberg.h"
#include "parquetry/iceberg_table.h"

namespace parquetry::iceberg {

/// Rows of an equality-delete file: their values of `field_ids` as keys
/// (arrays.h append_key, in field-id order of `field_ids`).
struct EqualityDeleteSet {
  std::vector<int32_t> field_ids;
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_set<std::string, Hash, std::equal_to<>> keys;
  /// One equality column of a type append_key() keys as an int64 (integers
  /// of any width, dates, times, timestamps): its keys are kept here instead
  /// of in `keys`, the non-null ones in a flat set looked up straight from
  /// the data column's values, and `null_key` when NULL is one of them.
  bool integer_keys = false;
  bool null_key = false;
  FlatInt64Set ints;
};

class DeleteCache {
 public:
  DeleteCache(const Table& table, const ScanPlan& plan) : table_(&table), plan_(&plan), slots_(plan.delete_files.size()) {}

  /// The positions `task`'s position deletes and deletion vectors remove
  /// (empty when none apply).
  PositionDeleteIndex positions_for(const FileTask& task);
  /// The equality-delete sets that apply to `task`.
  std::vector<std::shared_ptr<const EqualityDeleteSet>> equality_for(const FileTask& task);

 private:
  struct Slot {
    std::once_flag once;
    std::shared_ptr<const PositionIndexMap> positions;
    std::shared_ptr<const EqualityDeleteSet> equality;
  };
  std::string what(const DeleteFile& d) const;
  void load(uint32_t index);

  const Table* table_;
  const ScanPlan* plan_;
  std::vector<Slot> slots_;
};

}  // namespace parquetry::iceberg
