// Iceberg tables: open a table folder (or a metadata JSON file), plan a scan
// of one snapshot with pruning, and read its rows with every kind of delete
// applied.
//
//   auto table = parquetry::iceberg::Table::open("warehouse/db/events");
//   parquetry::iceberg::TableScanOptions options;
//   options.filter = parquetry::parse_predicate("event_date >= DATE '2024-01-02'");
//   options.columns = {"user_id", "event_type"};
//   auto scan = parquetry::iceberg::TableScan::open(table, options);
//   parquetry::RecordBatch batch;
//   while (scan->next(batch)) { ... }
//
// Formats: apache/iceberg format/spec.md (table metadata, manifest lists,
// manifests, partition transforms, single-value serialization, scan planning,
// sequence numbers, column projection, name mapping, deletion vectors) and
// the Avro 1.11 specification. Manifest lists and manifests are decoded by an
// own Avro decoder (src/parquetry/iceberg_table/avro.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parquetry/export.h"
#include "parquetry/predicate.h"
#include "parquetry/table.h"

namespace parquetry::iceberg {

// ---------------------------------------------------------------------------
// Table metadata

/// Iceberg primitive and nested types.
enum class TypeKind : uint8_t {
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kDecimal,
  kDate,
  kTime,
  kTimestamp,      ///< microseconds, no zone
  kTimestampTz,    ///< microseconds, UTC-adjusted
  kTimestampNs,    ///< nanoseconds, no zone
  kTimestampTzNs,  ///< nanoseconds, UTC-adjusted
  kString,
  kUuid,
  kFixed,
  kBinary,
  kVariant,
  kUnknown,  ///< v3 `unknown`: always null
  kStruct,
  kList,
  kMap,
};

/// Name of a type kind as written in metadata ("long", "timestamptz"...).
PARQUETRY_API std::string_view type_kind_name(TypeKind kind);

struct SchemaField;

/// A type: primitives carry precision/scale/length; nested types their
/// children (struct fields; list: "element"; map: "key", "value").
struct PARQUETRY_API IcebergType {
  TypeKind kind = TypeKind::kUnknown;
  int32_t precision = 0;  ///< decimal
  int32_t scale = 0;      ///< decimal
  int32_t length = 0;     ///< fixed
  std::vector<SchemaField> children;

  bool is_nested() const {
    return kind == TypeKind::kStruct || kind == TypeKind::kList || kind == TypeKind::kMap;
  }
  /// The type as written in metadata ("decimal(9,2)", "fixed[16]", "struct<...>").
  std::string to_string() const;
};

struct SchemaField {
  int32_t id = 0;
  std::string name;
  bool required = false;
  IcebergType type;
  std::string doc;
  /// `initial-default` / `write-default` as their JSON text (empty when absent).
  std::string initial_default_json;
  std::string write_default_json;
};

struct PARQUETRY_API IcebergSchema {
  int32_t schema_id = 0;
  std::vector<SchemaField> fields;
  std::vector<int32_t> identifier_field_ids;

  /// The top-level or nested field with `id`, or nullptr.
  const SchemaField* find(int32_t id) const;
  /// The top-level field named `name` (exact, then case-insensitive), or nullptr.
  const SchemaField* find_top_level(std::string_view name) const;
};

/// A partition transform.
struct PARQUETRY_API Transform {
  enum class Kind : uint8_t { kIdentity, kBucket, kTruncate, kYear, kMonth, kDay, kHour, kVoid, kUnknown };
  Kind kind = Kind::kIdentity;
  int32_t parameter = 0;  ///< bucket count or truncate width
  std::string text;       ///< as written ("bucket[16]")

  /// Parses "identity", "bucket[N]", "truncate[W]", "year"... Unknown names
  /// give kUnknown (such fields are not used for pruning).
  static Transform parse(std::string_view text);
  /// The partition value type the transform produces from `source`.
  IcebergType result_type(const IcebergType& source) const;
  /// Whether x <= y implies T(x) <= T(y) (every transform but bucket, void, unknown).
  bool is_monotonic() const { return kind != Kind::kBucket && kind != Kind::kVoid && kind != Kind::kUnknown; }
};

struct PartitionField {
  int32_t source_id = 0;
  int32_t field_id = 0;
  std::string name;
  Transform transform;
};

struct PARQUETRY_API PartitionSpec {
  int32_t spec_id = 0;
  std::vector<PartitionField> fields;
  /// True when no field partitions anything (no fields, or only void ones).
  bool is_unpartitioned() const;
};

struct SortField {
  int32_t source_id = 0;
  std::string transform;
  std::string direction;   ///< "asc" / "desc"
  std::string null_order;  ///< "nulls-first" / "nulls-last"
};

struct SortOrder {
  int32_t order_id = 0;
  std::vector<SortField> fields;
};

using Properties = std::vector<std::pair<std::string, std::string>>;

struct Snapshot {
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  int64_t sequence_number = 0;
  int64_t timestamp_ms = 0;
  std::string manifest_list;           ///< empty for v1 snapshots with embedded manifests
  std::vector<std::string> manifests;  ///< v1: the deprecated embedded manifest list
  Properties summary;                  ///< includes "operation"
  std::optional<int32_t> schema_id;
};

struct SnapshotRef {
  std::string name;
  int64_t snapshot_id = 0;
  std::string type;  ///< "branch" / "tag"
};

struct PARQUETRY_API TableMetadata {
  int format_version = 1;
  std::string table_uuid;
  std::string location;
  int64_t last_sequence_number = 0;
  int64_t last_updated_ms = 0;
  int32_t last_column_id = 0;
  std::vector<IcebergSchema> schemas;
  int32_t current_schema_id = 0;
  std::vector<PartitionSpec> specs;
  int32_t default_spec_id = 0;
  std::vector<SortOrder> sort_orders;
  int32_t default_sort_order_id = 0;
  Properties properties;
  std::optional<int64_t> current_snapshot_id;
  std::vector<Snapshot> snapshots;
  std::vector<SnapshotRef> refs;

  const IcebergSchema& current_schema() const;
  const IcebergSchema* schema(int32_t id) const;
  const PartitionSpec* spec(int32_t id) const;
  const Snapshot* snapshot(int64_t id) const;
  const Snapshot* current_snapshot() const;
  const std::string* property(std::string_view key) const;
};

/// Parses table metadata JSON (format versions 1 to 3, including v1's
/// deprecated `schema`, `partition-spec` and embedded `manifests`). `what`
/// names the file in errors. Throws kCorrupt on malformed JSON, missing or
/// mistyped required fields, kUnsupported on unknown types or versions.
PARQUETRY_API TableMetadata parse_table_metadata(std::string_view json, const std::string& what);

// ---------------------------------------------------------------------------
// Manifests

enum class ManifestContent : uint8_t { kData = 0, kDeletes = 1 };
enum class EntryStatus : uint8_t { kExisting = 0, kAdded = 1, kDeleted = 2 };
enum class FileContent : uint8_t { kData = 0, kPositionDeletes = 1, kEqualityDeletes = 2 };

/// One partition field summary of a manifest list entry.
struct FieldSummary {
  bool contains_null = true;
  std::optional<bool> contains_nan;
  std::optional<std::string> lower_bound;  ///< single-value serialization
  std::optional<std::string> upper_bound;
};

/// One entry of a manifest list.
struct ManifestFile {
  std::string path;
  int64_t length = 0;
  int32_t partition_spec_id = 0;
  ManifestContent content = ManifestContent::kData;
  int64_t sequence_number = 0;
  int64_t min_sequence_number = 0;
  int64_t added_snapshot_id = -1;
  int64_t added_files_count = -1;
  int64_t existing_files_count = -1;
  int64_t deleted_files_count = -1;
  int64_t added_rows_count = -1;
  int64_t existing_rows_count = -1;
  int64_t deleted_rows_count = -1;
  std::vector<FieldSummary> partitions;
};

/// A partition tuple value as the manifest's Avro typed it.
struct PartitionValue {
  enum class Kind : uint8_t { kNull, kInt, kDouble, kBytes };
  Kind kind = Kind::kNull;
  int64_t int_value = 0;    ///< int, long, boolean, date, time, timestamp
  double double_value = 0;  ///< float, double
  std::string bytes;        ///< string, binary, fixed, uuid, decimal (unscaled big-endian)

  bool operator==(const PartitionValue&) const = default;
};

/// Statistics of one column of a data file.
struct ColumnStats {
  int32_t field_id = 0;
  int64_t value_count = -1;
  int64_t null_count = -1;
  int64_t nan_count = -1;
  std::optional<std::string> lower_bound;  ///< single-value serialization
  std::optional<std::string> upper_bound;
};

struct PARQUETRY_API DataFile {
  FileContent content = FileContent::kData;
  std::string file_path;  ///< as written in the manifest
  std::string file_format;
  int32_t spec_id = 0;
  std::vector<PartitionValue> partition;  ///< one per field of the spec, in spec order
  int64_t record_count = 0;
  int64_t file_size_in_bytes = 0;
  std::vector<ColumnStats> stats;  ///< sorted by field id
  std::vector<int32_t> equality_ids;
  std::optional<std::string> referenced_data_file;
  std::optional<int64_t> content_offset;
  std::optional<int64_t> content_size_in_bytes;

  const ColumnStats* column_stats(int32_t field_id) const;
};

struct ManifestEntry {
  EntryStatus status = EntryStatus::kAdded;
  int64_t snapshot_id = -1;
  /// Data and file sequence numbers after inheritance from the manifest.
  int64_t sequence_number = 0;
  int64_t file_sequence_number = 0;
  DataFile file;
};

/// Decodes a manifest list (Avro) into its entries. `what` names it in errors.
PARQUETRY_API std::vector<ManifestFile> read_manifest_list(std::span<const uint8_t> bytes,
                                                           const std::string& what);

/// Decodes a manifest. `manifest` supplies inherited values (sequence
/// numbers, snapshot id, spec id); `spec` orders the partition tuple.
PARQUETRY_API std::vector<ManifestEntry> read_manifest(std::span<const uint8_t> bytes,
                                                       const ManifestFile& manifest,
                                                       const PartitionSpec& spec, const std::string& what);

// ---------------------------------------------------------------------------
// Opening a table

struct TableOpenOptions {
  /// A metadata file to use instead of finding one (relative to the table's
  /// `metadata/` folder when not found as given).
  std::string metadata_file;
  /// A metadata version: "2" -> metadata/v2.metadata.json (or
  /// v2.gz.metadata.json), "00001-<uuid>" -> that stem.
  std::string version;
};

/// An opened table: its metadata and where its files are on this machine.
class PARQUETRY_API Table {
 public:
  /// Opens `path`: a table folder (metadata/version-hint.text, else the
  /// highest-numbered metadata file) or a metadata JSON file (possibly gzip).
  static Table open(const std::string& path, const TableOpenOptions& options = {});
  /// A table from metadata already parsed; files resolve against `root`.
  static Table from_metadata(TableMetadata metadata, std::string root, std::string metadata_path);

  const TableMetadata& metadata() const { return metadata_; }
  /// The folder the table was opened as.
  const std::string& root() const { return root_; }
  const std::string& metadata_path() const { return metadata_path_; }
  /// A short name for errors: the opened path.
  const std::string& name() const { return root_; }

  /// The local path of a file the metadata names: `location` (or the text
  /// up to `data/persistent/<table>` style prefixes) replaced by the opened
  /// folder, `file://` stripped; a path that exists as written is kept.
  std::string local_path(std::string_view written) const;

 private:
  TableMetadata metadata_;
  std::string root_;
  std::string metadata_path_;
};

// ---------------------------------------------------------------------------
// Planning

struct SnapshotSelection {
  std::optional<int64_t> snapshot_id;
  /// The last snapshot at or before this time (milliseconds since the epoch).
  std::optional<int64_t> as_of_ms;
  std::string ref;  ///< a branch or tag name
};

/// The snapshot a selection names (current when empty), or nullptr when the
/// table has no snapshot. Throws kInvalidArgument for unknown ids, refs or
/// times before the first snapshot.
PARQUETRY_API const Snapshot* select_snapshot(const TableMetadata& metadata,
                                              const SnapshotSelection& selection);

/// A delete file the plan applies.
struct DeleteFile {
  DataFile file;
  std::string local_path;
  int64_t sequence_number = 0;
};

/// One data file to read and the deletes that apply to it.
struct FileTask {
  DataFile file;
  std::string local_path;
  int64_t sequence_number = 0;
  std::vector<uint32_t> deletes;  ///< indexes into ScanPlan::delete_files
};

struct PlanStats {
  int64_t manifests = 0;
  int64_t manifests_pruned = 0;  ///< by partition summaries
  int64_t data_files = 0;        ///< live data files of the snapshot
  int64_t files_pruned_partition = 0;
  int64_t files_pruned_bounds = 0;
  int64_t delete_files = 0;
};

struct ScanPlan {
  const Snapshot* snapshot = nullptr;  ///< nullptr for an empty table
  const IcebergSchema* schema = nullptr;
  std::vector<FileTask> tasks;
  std::vector<DeleteFile> delete_files;
  PlanStats stats;
};

/// Plans a scan: reads the snapshot's manifest list and manifests (never a
/// data file), prunes manifests by partition summaries and files by
/// partition values and column bounds, and attaches deletes by sequence
/// number and partition.
PARQUETRY_API ScanPlan plan_scan(const Table& table, const SnapshotSelection& selection,
                                 const Predicate& filter = {});

// ---------------------------------------------------------------------------
// Scanning

struct TableScanOptions {
  SnapshotSelection snapshot;
  /// Top-level columns by name (current schema); empty = all.
  std::vector<std::string> columns;
  Predicate filter;
  /// Threads of the scan. Above 1, data files are read side by side, each
  /// by a worker thread of its own (decoding, deletes and filter), and their
  /// batches still come out in plan order; threads beyond the number of
  /// files left decode columns within a file.
  int threads = 1;
  /// Read-ahead budget of each data file's reader (ReaderOptions::read_ahead_budget);
  /// with several threads also the bytes of finished batches the workers
  /// hold for the consumer, split evenly between them (at least one batch each).
  int64_t read_ahead_budget = 256LL << 20;
  int64_t batch_size = 64 * 1024;
  /// Only these planned files (indexes into plan().tasks, which the same
  /// snapshot, filter and table always produce in the same order); unset =
  /// all, empty = none (a scan for the schema). Lets a distributed reader
  /// plan once and hand files to workers.
  std::optional<std::vector<int32_t>> tasks;
};

/// Rows of a snapshot, projected by field id into the snapshot's schema,
/// with deletes applied and the filter evaluated.
class PARQUETRY_API TableScan final : public BatchReader {
 public:
  static std::unique_ptr<TableScan> open(const Table& table, TableScanOptions options);
  ~TableScan() override;

  std::shared_ptr<const BatchSchema> schema() const override;
  bool next(RecordBatch& out) override;
  const ScanPlan& plan() const;
  /// Rows the scan returns, without materializing them when the plan allows
  /// (no filter, no deletes: the data files' row counts). Instead of next():
  /// a scan that next() has started throws kInvalidArgument.
  int64_t count();

  struct Impl;

 private:
  explicit TableScan(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// The Arrow type an Iceberg type reads as.
PARQUETRY_API DataType arrow_type(const IcebergType& type);

/// Iceberg's 32-bit Murmur3 (x86 variant, seed 0) of `bytes`, as bucket
/// transforms hash values.
PARQUETRY_API int32_t murmur3_32(std::string_view bytes);

}  // namespace parquetry::iceberg
