#include "parquetry/variant_parquet/binary_leaf_stream.h"

#include <algorithm>
#include <string>

#include "parquetry/column/value_decoders.h"
#include "parquetry/encoding/rle.h"
#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry::variant_parquet {

namespace {

LeafSpec binary_spec(int16_t max_def) {
  LeafSpec spec;
  spec.physical_type = Type::BYTE_ARRAY;
  spec.max_def = max_def;
  return spec;
}

}  // namespace

BinaryLeafStream::BinaryLeafStream(RandomAccessSource& source, int16_t max_def, Limits limits)
    : source_(source), max_def_(max_def), limits_(limits) {
  if (max_def < 0) throw_invalid("negative definition level");
}

void BinaryLeafStream::start_chunk(const ColumnMetaData& chunk, int64_t rows, ErrorLocation where) {
  where_ = std::move(where);
  pages_.reset();
  has_dictionary_ = false;
  dictionary_size_ = 0;
  rows_ = rows;
  rows_seen_ = 0;
  page_rows_ = 0;
  page_next_ = 0;
  if (chunk.type != Type::BYTE_ARRAY) {
    throw Error(ErrorCode::kCorrupt, "column chunk type differs from the schema", where_);
  }
  if (chunk.num_values != rows) {
    throw Error(ErrorCode::kCorrupt,
                "column chunk declares " + std::to_string(chunk.num_values) + " values for a row group of " +
                    std::to_string(rows) + " rows",
                where_);
  }
  if (rows == 0) return;  // an empty chunk's page offsets may point anywhere
  pages_.emplace(source_, chunk, PageReaderOptions{limits_, false}, where_, &decompressed_);
}

bool BinaryLeafStream::load_page() {
  if (!pages_) return false;
  Page page;
  while (pages_->next(page)) {
    const ErrorLocation where = pages_->where(page);
    try {
      if (page.type == PageType::DICTIONARY_PAGE) {
        decode_dictionary(page);
        continue;
      }
      if (page.num_values == 0) continue;
      decode_page(page);
    } catch (const Error& e) {
      throw e.with_location(where);
    }
    rows_seen_ += page.num_values;
    return true;
  }
  pages_.reset();
  return false;
}

std::span<const LeafSlot> BinaryLeafStream::next(int64_t max_rows) {
  if (page_next_ == page_rows_ && !load_page()) return {};
  const int64_t begin = page_next_;
  const int64_t end = begin + std::min(max_rows, page_rows_ - begin);
  slots_.resize(size_t(end - begin) * sizeof(LeafSlot));
  LeafSlot* slots = slots_.as<LeafSlot>();
  try {
    switch (source_kind_) {
      case Source::kPlain: fill_plain(slots, begin, end); break;
      case Source::kDictionary:
        fill_indexed(slots, begin, end, indices_.as<uint32_t>(), dictionary_offsets_, dictionary_values_);
        break;
      case Source::kDecoded:
        fill_indexed(slots, begin, end, nullptr, decoded_offsets_, decoded_values_);
        break;
    }
  } catch (const Error& e) {
    throw e.with_location(where_);
  }
  page_next_ = end;
  return {slots, size_t(end - begin)};
}

void BinaryLeafStream::finish_chunk() const {
  if (rows_seen_ != rows_) {
    throw Error(ErrorCode::kCorrupt,
                "column chunk declares " + std::to_string(rows_) + " values but its pages hold " +
                    std::to_string(rows_seen_),
                where_);
  }
}

void BinaryLeafStream::decode_dictionary(const Page& page) {
  if (page.encoding != Encoding::PLAIN && page.encoding != Encoding::PLAIN_DICTIONARY) {
    throw_unsupported(std::string("dictionary page encoding ") + std::string(encoding_name(page.encoding)));
  }
  dictionary_values_.clear();
  dictionary_offsets_.clear();
  const int32_t zero = 0;
  dictionary_offsets_.append(&zero, 4);
  decode_plain(binary_spec(max_def_), page.body, page.num_values, dictionary_values_, &dictionary_offsets_,
               0);
  dictionary_size_ = page.num_values;
  has_dictionary_ = true;
}

void BinaryLeafStream::decode_page(const Page& page) {
  const int64_t n = page.num_values;
  if (n > rows_ - rows_seen_) {
    throw_corrupt("data page holds " + std::to_string(n) + " values, more than the " +
                  std::to_string(rows_ - rows_seen_) + " rows left in the column chunk");
  }
  std::span<const uint8_t> data = page.body;
  int64_t defined = n;
  levels_.resize(size_t(n) * sizeof(int16_t));
  int16_t* levels = levels_.as<int16_t>();
  if (max_def_ > 0) {
    encoding::LevelDecoder decoder;
    if (page.type == PageType::DATA_PAGE) {
      data = data.subspan(size_t(decoder.reset_v1(page.v1_def_encoding, data, max_def_, n)));
    } else {
      decoder.reset_v2(page.def_levels, max_def_);
    }
    if (decoder.decode(levels, n) != n)
      throw_corrupt("page holds fewer definition levels than its value count");
    defined = 0;
    for (int64_t i = 0; i < n; ++i) defined += levels[i] == max_def_;
  } else {
    std::fill(levels, levels + n, int16_t(0));
  }
  if (page.num_nulls >= 0 && page.num_nulls != n - defined) {
    throw_corrupt("data page v2 declares " + std::to_string(page.num_nulls) + " nulls but its levels hold " +
                  std::to_string(n - defined));
  }
  // Levels, dictionary indices and non-PLAIN values are decoded for the
  // whole page (they are small or need decoding anyway); PLAIN values are
  // walked slice by slice in next().
  switch (page.encoding) {
    case Encoding::PLAIN:
      source_kind_ = Source::kPlain;
      plain_ = data.data();
      plain_end_ = data.data() + data.size();
      break;
    case Encoding::PLAIN_DICTIONARY:
    case Encoding::RLE_DICTIONARY:
      source_kind_ = Source::kDictionary;
      decode_indices(data, defined);
      break;
    default:
      source_kind_ = Source::kDecoded;
      decode_other_values(page, data, defined);
      break;
  }
  page_rows_ = n;
  page_next_ = 0;
  value_next_ = 0;
}

void BinaryLeafStream::decode_indices(std::span<const uint8_t> data, int64_t defined) {
  if (!has_dictionary_) throw_corrupt("dictionary-encoded page without a dictionary page");
  if (defined == 0) return;
  if (data.empty()) throw_corrupt("dictionary-encoded page has no index bit width");
  const int bit_width = data[0];
  if (bit_width > 32) throw_corrupt("dictionary index bit width " + std::to_string(bit_width) + " above 32");
  indices_.resize(size_t(defined) * 4);
  uint32_t* indices = indices_.as<uint32_t>();
  encoding::RleBitPackedDecoder decoder(data.subspan(1), bit_width);
  if (decoder.decode(indices, defined) != defined)
    throw_corrupt("page holds fewer dictionary indices than values");
  uint32_t largest = 0;
  for (int64_t i = 0; i < defined; ++i) largest = std::max(largest, indices[i]);
  if (int64_t(largest) >= dictionary_size_) {
    throw_corrupt("dictionary index " + std::to_string(largest) + " out of range (dictionary of " +
                  std::to_string(dictionary_size_) + ")");
  }
}

// DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY: the values are not stored
// contiguously in the page, so they are decoded into a scratch buffer.
void BinaryLeafStream::decode_other_values(const Page& page, std::span<const uint8_t> data, int64_t defined) {
  decoded_values_.clear();
  decoded_offsets_.clear();
  const int32_t zero = 0;
  decoded_offsets_.append(&zero, 4);
  decode_other(binary_spec(max_def_), page.encoding, data, defined, decoded_values_, &decoded_offsets_, 0,
               scratch_);
  if (int64_t(decoded_offsets_.size() / 4) != defined + 1) throw_corrupt("byte array page decoded short");
}

// PLAIN: each value is a 4-byte little-endian length and the bytes, walked
// in place; rows point into the page.
void BinaryLeafStream::fill_plain(LeafSlot* slots, int64_t begin, int64_t end) {
  const int16_t* levels = levels_.as<int16_t>();
  const int16_t max_def = max_def_;
  const uint8_t* pos = plain_;
  const uint8_t* const limit = plain_end_;
  for (int64_t i = begin; i < end; ++i) {
    LeafSlot& slot = slots[i - begin];
    if (levels[i] != max_def) {
      slot = LeafSlot{nullptr, 0, levels[i]};
      continue;
    }
    if (limit - pos < 4)
      throw_corrupt("PLAIN byte array length runs past the page (row " + std::to_string(i) + ")");
    const uint32_t length = bits::load<uint32_t>(pos);
    pos += 4;
    if (length > size_t(limit - pos)) {
      throw_corrupt("PLAIN byte array of " + std::to_string(length) + " bytes runs past the page");
    }
    slot = LeafSlot{pos, length, max_def};
    pos += length;
  }
  plain_ = pos;
}

// Rows pointing at entries of an offsets + bytes table: the chunk's
// dictionary through `indices`, or the page's decoded values in order (null `indices`).
void BinaryLeafStream::fill_indexed(LeafSlot* slots, int64_t begin, int64_t end, const uint32_t* indices,
                                    const Buffer& offsets_buffer, const Buffer& values) {
  const int16_t* levels = levels_.as<int16_t>();
  const int32_t* offsets = offsets_buffer.as<int32_t>();
  const uint8_t* bytes = values.data();
  int64_t value = value_next_;
  for (int64_t i = begin; i < end; ++i) {
    LeafSlot& slot = slots[i - begin];
    if (levels[i] != max_def_) {
      slot = LeafSlot{nullptr, 0, levels[i]};
      continue;
    }
    const uint32_t entry = indices != nullptr ? indices[value] : uint32_t(value);
    ++value;
    slot = LeafSlot{bytes + offsets[entry], uint32_t(offsets[entry + 1] - offsets[entry]), max_def_};
  }
  value_next_ = value;
}

}  // namespace parquetry::variant_parquet
