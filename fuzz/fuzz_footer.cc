// Fuzzes footer reading: the input is a whole file (magic, footer length,
// FileMetaData) served from memory.
#include "fuzz_common.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace parquetry;
  MemorySource source(std::span<const uint8_t>(data, size), "fuzz.parquet");
  const Limits limits = fuzz::tight_limits();
  try {
    FileMetaData metadata = read_file_metadata(source, limits);
    // Walk the page headers of every chunk: offsets come from the footer.
    for (const RowGroup& group : metadata.row_groups) {
      for (const ColumnChunk& chunk : group.columns) {
        if (!chunk.meta_data) continue;
        try {
          PageHeaderWalker walker(source, *chunk.meta_data, limits);
          PageHeaderAt page;
          for (int pages = 0; pages < 1000 && walker.next(page); ++pages) {
          }
        } catch (const Error&) {
        }
      }
    }
  } catch (const Error&) {
  }
  return 0;
}
