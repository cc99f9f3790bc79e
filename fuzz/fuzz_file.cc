// Fuzzes the whole read path: FileReader::open on an in-memory file and
// read_all() under tight limits, with page CRC verification and dictionary
// arrays chosen by bits of the input's last byte; then what consumes the
// batches: the full-scan fold, whole and through a selection made of the
// input's bytes, and dictionary arrays decoded back to values.
#include <memory>
#include <vector>

#include "fuzz_common.h"
#include "parquetry/io.h"
#include "parquetry/reader.h"
#include "parquetry/scan.h"
#include "parquetry/table/decode_dictionary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace parquetry;
  ReaderOptions options;
  options.limits = fuzz::tight_limits();
  options.verify_crc = size > 0 && (data[size - 1] & 1) != 0;
  options.dictionary_arrays = size > 0 && (data[size - 1] & 2) != 0;
  options.batch_size = 1024;
  try {
    auto source = std::make_shared<MemorySource>(std::span<const uint8_t>(data, size), "fuzz.parquet");
    auto reader = FileReader::open(source, options);
    std::vector<RecordBatch> batches = reader->read_all();
    // Every row group that decodes must hold the rows its footer declares.
    for (size_t i = 0; i < batches.size(); ++i) {
      for (const auto& column : batches[i].columns) {
        if (column->length != batches[i].num_rows) __builtin_trap();
        // Dictionary arrays must only point at entries their dictionary has.
        if (column->type->id == TypeId::kDictionary) {
          try {
            column->validate();
          } catch (const Error&) {
            __builtin_trap();
          }
        }
      }
    }
    ScanAccumulator whole(*reader->batch_schema());
    ScanAccumulator selected(*reader->batch_schema());
    for (const RecordBatch& batch : batches) {
      whole.add(batch);
      std::vector<uint8_t> selection(size_t((batch.num_rows + 7) / 8));
      for (size_t k = 0; k < selection.size(); ++k) selection[k] = data[k % size];
      selected.add(batch, selection.data());
      for (const auto& column : batch.columns) {
        if (column->type->id != TypeId::kDictionary ||
            !can_decode_dictionary(*column->type->dictionary_value))
          continue;
        std::shared_ptr<ArrayData> values = decode_dictionary(*column);
        if (values->length != column->length || values->null_count != column->null_count) __builtin_trap();
        try {
          values->validate();
        } catch (const Error&) {
          __builtin_trap();
        }
      }
    }
    // A selection never holds more rows than the batches.
    if (selected.summary().rows > whole.summary().rows) __builtin_trap();
  } catch (const Error&) {
  }
  return 0;
}
