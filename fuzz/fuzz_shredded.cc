// Fuzzes shredded-variant reconstruction: the input is a whole Parquet file
// (seeds: the public shredded_variant cases). Its VARIANT columns are found
// and their shredding schema checked, every row group is read under tight
// limits, and each row of each top-level VARIANT column is rebuilt from its
// metadata / value / typed_value columns. Invariants beyond "no crash":
//  - a rebuilt variant that validates renders as JSON without an error;
//  - plan_variant_get() picks a plan for the first shredded key of every
//    column (planning reads only the schema and the statistics).
#include <memory>
#include <string>
#include <vector>

#include "fuzz_common.h"
#include "parquetry/io.h"
#include "parquetry/reader.h"
#include "parquetry/variant.h"
#include "parquetry/variant_json.h"
#include "parquetry/variant_parquet.h"

namespace {

using namespace parquetry;

void rebuild_rows(VariantColumnReader& reader, const ArrayData& group) {
  OwnedVariant value;
  for (int64_t row = 0; row < group.length; ++row) {
    bool present = false;
    try {
      present = reader.read(group, row, value);
    } catch (const Error&) {
      continue;  // an invalid layout at this row is a clean rejection
    }
    if (!present) continue;
    bool valid = true;
    try {
      VariantMetadata metadata(std::span<const uint8_t>(value.metadata.data(), value.metadata.size()));
      metadata.validate();
      Variant(metadata, std::span<const uint8_t>(value.value.data(), value.value.size())).validate();
    } catch (const Error&) {
      valid = false;  // passed-through `value` bytes are the file's, and may be invalid
    }
    if (!valid) continue;
    try {
      (void)value.to_json();
    } catch (const Error&) {
      __builtin_trap();  // a validated variant must always render
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ReaderOptions options;
  options.limits = fuzz::tight_limits();
  options.batch_size = 512;
  try {
    auto source = std::make_shared<MemorySource>(std::span<const uint8_t>(data, size), "fuzz.parquet");
    auto reader = FileReader::open(source, options);
    const std::vector<VariantColumn> columns = find_variant_columns(reader->schema());
    if (columns.empty()) return 0;
    for (const VariantColumn& column : columns) {
      std::vector<std::string> path;
      if (column.root.kind == VariantShredKind::kObject && !column.root.fields.empty())
        path.push_back(column.root.fields.front().first);
      const VariantGetPlanInfo plan = plan_variant_get(column, reader->metadata(), path);
      if (plan.columns.empty()) __builtin_trap();
    }
    std::vector<std::unique_ptr<VariantColumnReader>> readers;
    for (const VariantColumn& column : columns)
      readers.push_back(std::make_unique<VariantColumnReader>(column));
    auto batches = reader->batches();
    RecordBatch batch;
    while (batches->next(batch)) {
      for (size_t v = 0; v < columns.size(); ++v) {
        const int index = batch.schema->field_index(columns[v].path);
        if (index < 0) continue;  // nested VARIANT columns are reached through their parents
        rebuild_rows(*readers[v], *batch.columns[size_t(index)]);
      }
    }
  } catch (const Error&) {
  }
  return 0;
}
