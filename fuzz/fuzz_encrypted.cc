// Fuzzes the decrypting read path: mutated encrypted files opened with the
// parquet-testing keys (data/README.md) and read whole, then through the
// (encrypted) offset index by row ranges.
//
// Input: one configuration byte, then the file.
//   bit 0: key set: 0 the 128-bit keys (footer "kf", double_field "kc1",
//          float_field "kc2"), 1 the 256-bit keys of data/aes256 (kf, kc1..kc8)
//   bit 1: supply the AAD prefix "tester"
//   bit 2: keys by key metadata through a retriever (else given directly)
//   bit 3: do not check a plaintext footer's signature
// A tag or signature mismatch is a parquetry::Error like any other
// rejection; the fuzzer looks for crashes, sanitizer reports, hangs and
// unbounded allocations on the way there.
#include <memory>
#include <string>
#include <vector>

#include "fuzz_common.h"
#include "parquetry/io.h"
#include "parquetry/reader.h"

namespace {

using namespace parquetry;

const char* const kFooter128 = "0123456789012345";
const char* const kFooter256 = "01234567890123456789012345678901";

// kc1 -> double_field, kc2 -> float_field (both key sets); aes256 adds
// kc3..kc8 for the other columns (README order).
std::string column_key(bool aes256, int n) {
  if (!aes256) return n == 1 ? "1234567890123450" : "1234567890123451";
  return "1234567890123456789012345678901" + std::string(1, char('1' + n));
}

const char* const kAes256Paths[] = {"double_field",
                                    "float_field",
                                    "boolean_field",
                                    "int32_field",
                                    "ba_field",
                                    "flba_field",
                                    "int64_field.list.element",
                                    "int96_field"};

DecryptionOptions keys(uint8_t config) {
  const bool aes256 = (config & 1) != 0;
  DecryptionOptions options;
  if (config & 2) options.aad_prefix = "tester";
  options.verify_plaintext_footer = (config & 8) == 0;
  const int columns = aes256 ? 8 : 2;
  if (config & 4) {
    options.key_retriever = [aes256, columns](const std::string& id) -> std::string {
      if (id == "kf") return aes256 ? kFooter256 : kFooter128;
      if (id.size() == 3 && id[0] == 'k' && id[1] == 'c' && id[2] >= '1' && id[2] < '1' + columns)
        return column_key(aes256, id[2] - '0');
      return {};
    };
    return options;
  }
  options.footer_key = aes256 ? kFooter256 : kFooter128;
  for (int n = 1; n <= columns; ++n) options.column_keys[kAes256Paths[n - 1]] = column_key(aes256, n);
  return options;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Prefix prefix(data, size);
  const uint8_t config = prefix.byte();
  ReaderOptions options;
  options.limits = fuzz::tight_limits();
  options.batch_size = 1024;
  options.decryption = keys(config);
  try {
    auto source = std::make_shared<MemorySource>(prefix.rest(), "fuzz.parquet.encrypted");
    auto reader = FileReader::open(source, options);
    for (int g = 0; g < reader->num_row_groups(); ++g) {
      RecordBatch whole = reader->read_row_group(g);
      for (const auto& column : whole.columns) {
        if (column->length != whole.num_rows) __builtin_trap();
      }
      // Row ranges go through each chunk's offset index (decrypted with its key).
      if (whole.num_rows < 4) continue;
      const RowRange ranges[] = {{1, 2}, {whole.num_rows / 2, whole.num_rows - 1}};
      RecordBatch part = reader->read_row_group(g, ranges);
      const int64_t expected = 1 + (whole.num_rows - 1 - whole.num_rows / 2);
      if (part.num_rows != expected) __builtin_trap();
      for (const auto& column : part.columns) {
        if (column->length != part.num_rows) __builtin_trap();
      }
    }
  } catch (const Error&) {
  }
  return 0;
}
