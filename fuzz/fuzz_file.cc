// Fuzzes the whole read path: FileReader::open on an in-memory file and
// read_all() under tight limits, with page CRC verification and dictionary
// arrays chosen by bits of the input's last byte.
#include <memory>
#include <vector>

#include "fuzz_common.h"
#include "parquetry/io.h"
#include "parquetry/reader.h"

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
  } catch (const Error&) {
  }
  return 0;
}
