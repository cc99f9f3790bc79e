// Fuzzes page decoding below the file reader. A 10-byte prefix configures
// the column (physical type, levels, codec or encoding, value count); the
// rest is either
//  - mode 0: a column chunk (page headers and bodies) that PageReader and
//    ChunkDecoder decode as the file reader would, or
//  - mode 1: one values section handed straight to the value decoders
//    (PLAIN, RLE booleans, DELTA_*, BYTE_STREAM_SPLIT, dictionary gather).
#include <algorithm>
#include <vector>

#include "fuzz_common.h"
#include "parquetry/column/chunk_decoder.h"
#include "parquetry/column/value_decoders.h"
#include "parquetry/io.h"
#include "parquetry/page/page_reader.h"

namespace {

using namespace parquetry;

constexpr Type kTypes[] = {Type::BOOLEAN, Type::INT32,  Type::INT64,      Type::INT96,
                           Type::FLOAT,   Type::DOUBLE, Type::BYTE_ARRAY, Type::FIXED_LEN_BYTE_ARRAY};
constexpr CompressionCodec kCodecs[] = {CompressionCodec::UNCOMPRESSED, CompressionCodec::SNAPPY,
                                        CompressionCodec::GZIP,         CompressionCodec::BROTLI,
                                        CompressionCodec::LZ4,          CompressionCodec::ZSTD,
                                        CompressionCodec::LZ4_RAW,      CompressionCodec::LZO};
constexpr Encoding kEncodings[] = {Encoding::PLAIN,
                                   Encoding::PLAIN_DICTIONARY,
                                   Encoding::RLE,
                                   Encoding::DELTA_BINARY_PACKED,
                                   Encoding::DELTA_LENGTH_BYTE_ARRAY,
                                   Encoding::DELTA_BYTE_ARRAY,
                                   Encoding::RLE_DICTIONARY,
                                   Encoding::BYTE_STREAM_SPLIT};

void decode_chunk(const LeafSpec& spec, CompressionCodec codec, int64_t expected,
                  std::span<const uint8_t> chunk, const Limits& limits, bool verify_crc) {
  MemorySource source(chunk, "fuzz-chunk");
  ColumnMetaData column;
  column.type = spec.physical_type;
  column.codec = codec;
  column.num_values = expected;
  column.total_compressed_size = int64_t(chunk.size());
  column.data_page_offset = 0;
  PageReader pages(source, column, PageReaderOptions{limits, verify_crc},
                   ErrorLocation{"fuzz", "c", 0, -1, -1});
  ChunkDecoder decoder(spec);
  ChunkValues values;
  decoder.decode(&pages, expected, values);
  if (values.num_levels != expected) __builtin_trap();
}

void decode_section(const LeafSpec& spec, Encoding encoding, int64_t count, std::span<const uint8_t> data) {
  Buffer values;
  Buffer offsets;
  int32_t zero = 0;
  offsets.append(&zero, 4);
  Buffer scratch;
  Buffer* offsets_or_null = spec.layout() == PhysicalLayout::kBinary ? &offsets : nullptr;
  if (encoding == Encoding::PLAIN) {
    const size_t consumed = decode_plain(spec, data, count, values, offsets_or_null, 0);
    if (consumed > data.size()) __builtin_trap();
  } else if (encoding == Encoding::PLAIN_DICTIONARY || encoding == Encoding::RLE_DICTIONARY) {
    // The section is a PLAIN dictionary of `count` entries followed by
    // indices (one little-endian u32 each, taken as they come).
    Buffer dictionary;
    Buffer dictionary_offsets;
    dictionary_offsets.append(&zero, 4);
    const size_t consumed = decode_plain(spec, data, count, dictionary, &dictionary_offsets, 0);
    std::span<const uint8_t> rest = data.subspan(consumed);
    std::vector<uint32_t> indices(rest.size() / 4);
    if (!indices.empty()) std::memcpy(indices.data(), rest.data(), indices.size() * 4);
    gather(spec, indices.data(), int64_t(indices.size()), dictionary, dictionary_offsets, count, values,
           offsets_or_null, 0);
  } else {
    decode_other(spec, encoding, data, count, values, offsets_or_null, 0, scratch);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Prefix prefix(data, size);
  LeafSpec spec;
  spec.physical_type = kTypes[prefix.byte() % 8];
  const uint8_t levels = prefix.byte();
  spec.max_def = int16_t(levels & 3);
  spec.max_rep = int16_t((levels >> 2) & 3);
  if (spec.max_rep > spec.max_def) spec.max_rep = spec.max_def;
  const uint8_t flags = prefix.byte();
  spec.bitmap_levels = spec.max_def == 1 && spec.max_rep == 0 && (flags & 1) != 0;
  const bool section_mode = (flags & 2) != 0;
  const bool verify_crc = (flags & 4) != 0;
  const uint8_t kind = prefix.byte();
  spec.type_length = spec.physical_type == Type::FIXED_LEN_BYTE_ARRAY ? int32_t(prefix.byte() % 40) + 1 : 0;
  const Limits limits = fuzz::tight_limits();
  const int64_t count = int64_t(prefix.u32() % uint32_t(limits.max_values_per_page));
  std::span<const uint8_t> rest = prefix.rest();
  try {
    if (section_mode) {
      decode_section(spec, kEncodings[kind % 8], count, rest);
    } else {
      decode_chunk(spec, kCodecs[kind % 8], count, rest, limits, verify_crc);
    }
  } catch (const Error&) {
  }
  return 0;
}
