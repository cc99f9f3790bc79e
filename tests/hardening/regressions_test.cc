// One test per bug the hardening work found (corrupt-file sweep or fuzzing),
// named after the bug, on a minimal damaged version of a public file.
#include <gtest/gtest.h>

#include <climits>

#include "hardening_support.h"
#include "test_support.h"

namespace parquetry::hardening {
namespace {

FileImage parse_public(const std::string& name) {
  std::optional<FileImage> image =
      FileImage::parse(testing::read_bytes(testing::parquet_testing("data/" + name)));
  if (!image) throw std::runtime_error("cannot parse " + name);
  return *image;
}

// A FIXED_LEN_BYTE_ARRAY column declaring a width of INT32_MAX made the chunk
// decoder reserve (values x width) bytes up front before any page proved a
// single value: petabytes, an allocation failure instead of an Error.
TEST(Regressions, HugeFixedWidthDoesNotReserveUnboundedMemory) {
  FileImage image = parse_public("fixed_length_decimal.parquet");
  const ReadOutcome pristine = read_image(image.assemble(), "pristine.parquet", false);
  ASSERT_FALSE(pristine.error.has_value()) << pristine.error->what();
  EXPECT_EQ(pristine.rows, 24);
  for (SchemaElement& element : image.metadata.schema) {
    if (element.type == Type::FIXED_LEN_BYTE_ARRAY) element.type_length = INT32_MAX;
  }
  image.metadata.row_groups[0].columns[0].meta_data->num_values = int64_t(1) << 22;
  ReadOutcome outcome = read_image(image.assemble(), "wide.parquet", false);
  ASSERT_TRUE(outcome.error.has_value());
  EXPECT_EQ(outcome.error->where().file, "wide.parquet");
  EXPECT_EQ(outcome.error->where().row_group, 0);
  EXPECT_EQ(outcome.error->where().page, 0) << outcome.error->what();
}

}  // namespace
}  // namespace parquetry::hardening
