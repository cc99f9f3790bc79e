// Every fixed-width values buffer the reader hands out sits at its value's
// natural alignment (up to 8 bytes), whatever the page layout: consumers
// (ours included) read them through typed pointers. Values kept in the
// decompressed page used to start wherever the levels before them ended.
#include <gtest/gtest.h>

#include <cstdint>

#include "parquetry/error.h"
#include "parquetry/reader.h"
#include "test_support.h"

namespace parquetry {
namespace {

void expect_aligned(const ArrayData& array, const std::string& where, int64_t& checked) {
  const int32_t width = array.type->fixed_width();
  if (width > 1 && array.buffers.size() > 1 && array.buffers[1].data != nullptr) {
    const uintptr_t alignment = uintptr_t(width >= 8 ? 8 : width);
    if ((width & (width - 1)) == 0) {
      EXPECT_EQ(reinterpret_cast<uintptr_t>(array.buffers[1].data) % alignment, 0u)
          << where << ": " << array.type->to_string();
      ++checked;
    }
  }
  for (const auto& child : array.children) expect_aligned(*child, where, checked);
  if (array.dictionary) expect_aligned(*array.dictionary, where, checked);
}

TEST(BufferAlignment, FixedWidthValuesAreNaturallyAlignedInEveryPublicFile) {
  int64_t checked = 0;
  for (const auto& path : testing::public_parquet_files()) {
    std::vector<RecordBatch> batches;
    try {
      batches = FileReader::open(path.string())->read_all();
    } catch (const Error&) {
      continue;  // refused files are covered by the conformance tests
    }
    for (const RecordBatch& batch : batches) {
      for (size_t c = 0; c < batch.columns.size(); ++c) {
        expect_aligned(*batch.columns[c],
                       path.filename().string() + " column " + batch.schema->fields[c].name, checked);
      }
    }
  }
  EXPECT_GT(checked, 200);
}

}  // namespace
}  // namespace parquetry
