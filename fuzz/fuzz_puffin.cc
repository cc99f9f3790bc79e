// Fuzzes the Iceberg parsers: Puffin files (footer JSON, blob addressing,
// codecs), deletion-vector blobs and portable 64-bit roaring bitmaps. The
// first byte picks the parser. A bitmap that parses must serialize back to
// a form that parses to the same positions.
#include <vector>

#include "fuzz_common.h"
#include "parquetry/iceberg.h"

namespace {

using namespace parquetry;
using namespace parquetry::iceberg;

void check_index(const PositionDeleteIndex& index) {
  std::vector<uint8_t> bytes = index.serialize_portable();
  if (bytes.size() != index.portable_size()) __builtin_trap();
  PositionDeleteIndex again = PositionDeleteIndex::deserialize_portable(bytes);
  if (again.cardinality() != index.cardinality() || again.min() != index.min() || again.max() != index.max())
    __builtin_trap();
  (void)index.count_range(0, 1 << 20);
  uint8_t bits[16];
  index.deleted_bitmap(0, 128, bits);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::span<const uint8_t> rest(data + 1, size - 1);
  try {
    switch (data[0] % 3) {
      case 0: {
        PuffinReader reader(rest, fuzz::tight_limits());
        for (const PuffinBlobMetadata& blob : reader.metadata().blobs) {
          try {
            if (blob.type == kDeletionVectorBlobType) {
              check_index(reader.read_deletion_vector(blob));
            } else {
              (void)reader.read_blob(blob);
            }
          } catch (const Error&) {
          }
        }
        break;
      }
      case 1: check_index(deserialize_deletion_vector(rest)); break;
      case 2: check_index(PositionDeleteIndex::deserialize_portable(rest)); break;
    }
  } catch (const Error&) {
  }
  return 0;
}
