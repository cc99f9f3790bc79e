// Fuzzes the Thrift compact-protocol decoders of the metadata structs. The
// first byte picks the struct; the rest is the encoded bytes. A struct that
// decodes must survive an encode/decode round trip: re-encoding what the
// encoded form decodes to gives the same bytes (compared as bytes, so NaNs in
// statistics compare equal).
#include <cstdlib>
#include <cstring>

#include "fuzz_common.h"
#include "parquetry/metadata.h"

namespace {

template <typename T, typename Decode, typename Encode>
void round_trip(const T& first, Decode decode, Encode encode) {
  parquetry::Buffer encoded;
  encode(first, encoded);
  T second = decode(std::span<const uint8_t>(encoded.data(), encoded.size()));
  parquetry::Buffer again;
  encode(second, again);
  if (again.size() != encoded.size() || std::memcmp(again.data(), encoded.data(), again.size()) != 0) {
    std::abort();  // the encoder and decoder disagree
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace parquetry;
  fuzz::Prefix prefix(data, size);
  const uint8_t selector = prefix.byte();
  const std::span<const uint8_t> bytes = prefix.rest();
  const Limits limits = fuzz::tight_limits();
  try {
    switch (selector % 8) {
      case 0: {
        FileMetaData metadata = decode_file_metadata(bytes, limits);
        round_trip(
            metadata, [&](std::span<const uint8_t> b) { return decode_file_metadata(b, limits); },
            [](const FileMetaData& m, Buffer& out) { encode_file_metadata(m, out); });
        break;
      }
      case 1: {
        MetadataOptions skip{true, true, true};
        FileMetaData metadata = decode_file_metadata(bytes, limits, skip);
        for (const RowGroup& group : metadata.row_groups) {
          for (const ColumnChunk& chunk : group.columns) {
            if (!chunk.meta_data) continue;
            const ColumnMetaData& column = *chunk.meta_data;
            // Skipped sections must decode on their own from the recorded spans.
            auto span_of = [&](const SkippedBytes& skipped) -> std::span<const uint8_t> {
              if (size_t(skipped.offset) > bytes.size() || skipped.length > bytes.size() - skipped.offset) {
                std::abort();  // a recorded span outside the decoded buffer
              }
              return bytes.subspan(skipped.offset, skipped.length);
            };
            if (column.skipped_statistics.length != 0)
              (void)decode_statistics(span_of(column.skipped_statistics), limits);
            if (column.skipped_size_statistics.length != 0)
              (void)decode_size_statistics(span_of(column.skipped_size_statistics), limits);
            if (column.skipped_encoding_stats.length != 0)
              (void)decode_page_encoding_stats(span_of(column.skipped_encoding_stats), limits);
          }
        }
        break;
      }
      case 2: {
        size_t consumed = 0;
        PageHeader header = decode_page_header(bytes, limits, &consumed);
        if (consumed > bytes.size()) std::abort();
        round_trip(
            header, [&](std::span<const uint8_t> b) { return decode_page_header(b, limits); },
            [](const PageHeader& h, Buffer& out) { encode_page_header(h, out); });
        break;
      }
      case 3: {
        ColumnIndex index = decode_column_index(bytes, limits);
        round_trip(
            index, [&](std::span<const uint8_t> b) { return decode_column_index(b, limits); },
            [](const ColumnIndex& i, Buffer& out) { encode_column_index(i, out); });
        break;
      }
      case 4: {
        OffsetIndex index = decode_offset_index(bytes, limits);
        round_trip(
            index, [&](std::span<const uint8_t> b) { return decode_offset_index(b, limits); },
            [](const OffsetIndex& i, Buffer& out) { encode_offset_index(i, out); });
        break;
      }
      case 5: {
        size_t consumed = 0;
        (void)decode_bloom_filter_header(bytes, limits, &consumed);
        if (consumed > bytes.size()) std::abort();
        break;
      }
      case 6: {
        Statistics statistics = decode_statistics(bytes, limits);
        round_trip(
            statistics, [&](std::span<const uint8_t> b) { return decode_statistics(b, limits); },
            [](const Statistics& s, Buffer& out) { encode_statistics(s, out); });
        break;
      }
      case 7: {
        (void)decode_size_statistics(bytes, limits);
        (void)decode_page_encoding_stats(bytes, limits);
        break;
      }
    }
  } catch (const Error&) {
    // Rejected: the expected outcome for most inputs.
  }
  return 0;
}
