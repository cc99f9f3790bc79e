// Fuzzes the Iceberg table layer's Avro decoder: object container headers,
// schemas, codecs, blocks, and the manifest / manifest-list bindings. The
// first byte picks the reader; a manifest is decoded against a two-field
// spec so partition tuples are exercised too.
#include "fuzz_common.h"
#include "parquetry/error.h"
#include "parquetry/iceberg_table.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace parquetry::iceberg;
  if (size == 0) return 0;
  std::span<const uint8_t> rest(data + 1, size - 1);
  try {
    if (data[0] % 2 == 0) {
      const std::vector<ManifestFile> list = read_manifest_list(rest, "fuzz.avro");
      for (const ManifestFile& m : list) {
        if (m.path.empty()) __builtin_trap();  // the reader rejects entries without a path
      }
    } else {
      ManifestFile manifest;
      manifest.sequence_number = 3;
      PartitionSpec spec;
      spec.fields.push_back(PartitionField{1, 1000, "a", Transform::parse("identity")});
      spec.fields.push_back(PartitionField{2, 1001, "b", Transform::parse("bucket[8]")});
      const std::vector<ManifestEntry> entries = read_manifest(rest, manifest, spec, "fuzz.avro");
      for (const ManifestEntry& e : entries) {
        if (e.file.partition.size() != 2) __builtin_trap();
        (void)e.file.column_stats(1);
      }
    }
  } catch (const parquetry::Error&) {
  }
  return 0;
}
