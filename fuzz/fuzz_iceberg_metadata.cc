// Fuzzes Iceberg table metadata JSON: parsing (every format version), then
// what planning derives from it without files: snapshot selection, schema
// and spec lookups, type names and partition transforms of defaults.
#include <string_view>

#include "fuzz_common.h"
#include "parquetry/error.h"
#include "parquetry/iceberg_table.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace parquetry::iceberg;
  try {
    const TableMetadata m = parse_table_metadata(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
    const IcebergSchema& schema = m.current_schema();  // parse checked it exists
    for (const SchemaField& f : schema.fields) (void)f.type.to_string();
    for (const Snapshot& s : m.snapshots) {
      SnapshotSelection selection;
      selection.as_of_ms = s.timestamp_ms;
      if (select_snapshot(m, selection) == nullptr) __builtin_trap();
    }
    for (const SnapshotRef& r : m.refs) {
      SnapshotSelection selection;
      selection.ref = r.name;
      try {
        (void)select_snapshot(m, selection);
      } catch (const parquetry::Error&) {
      }
    }
    for (const PartitionSpec& spec : m.specs) {
      for (const PartitionField& f : spec.fields) {
        if (const SchemaField* source = schema.find(f.source_id)) (void)f.transform.result_type(source->type);
      }
    }
  } catch (const parquetry::Error&) {
  }
  return 0;
}
