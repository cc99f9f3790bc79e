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

std::span<const LeafSlot> BinaryLeafStream::next_page() {
  if (!pages_) return {};
  Page page;
  while (pages_->next(page)) {
    ErrorLocation where = pages_->where();
    where.page = page.ordinal;
    where.offset = page.file_offset;
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
    return {slots_.as<LeafSlot>(), size_t(page.num_values)};
  }
  pages_.reset();
  return {};
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
  slots_.resize(size_t(n) * sizeof(LeafSlot));
  fill_values(page, data, defined);
}

void BinaryLeafStream::fill_values(const Page& page, std::span<const uint8_t> data, int64_t defined) {
  switch (page.encoding) {
    case Encoding::PLAIN: fill_plain(data, defined); return;
    case Encoding::PLAIN_DICTIONARY:
    case Encoding::RLE_DICTIONARY: fill_dictionary(data, defined); return;
    default: fill_decoded(page, data, defined); return;
  }
}

// PLAIN: each value is a 4-byte little-endian length and the bytes, walked
// in place; rows point into the page.
void BinaryLeafStream::fill_plain(std::span<const uint8_t> data, int64_t defined) {
  const int64_t n = int64_t(slots_.size() / sizeof(LeafSlot));
  const int16_t* levels = levels_.as<int16_t>();
  LeafSlot* slots = slots_.as<LeafSlot>();
  const uint8_t* pos = data.data();
  const uint8_t* end = pos + data.size();
  int64_t value = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (levels[i] != max_def_) {
      slots[i] = LeafSlot{nullptr, 0, levels[i]};
      continue;
    }
    if (end - pos < 4) {
      throw_corrupt("PLAIN byte array length runs past the page (value " + std::to_string(value) + ")");
    }
    const uint32_t length = bits::load<uint32_t>(pos);
    pos += 4;
    if (length > size_t(end - pos)) {
      throw_corrupt("PLAIN byte array of " + std::to_string(length) + " bytes runs past the page");
    }
    slots[i] = LeafSlot{pos, length, max_def_};
    pos += length;
    ++value;
  }
  (void)defined;
}

// Dictionary indices: rows point into the chunk's decoded dictionary.
void BinaryLeafStream::fill_dictionary(std::span<const uint8_t> data, int64_t defined) {
  if (!has_dictionary_) throw_corrupt("dictionary-encoded page without a dictionary page");
  const int64_t n = int64_t(slots_.size() / sizeof(LeafSlot));
  const int16_t* levels = levels_.as<int16_t>();
  LeafSlot* slots = slots_.as<LeafSlot>();
  uint32_t* indices = nullptr;
  if (defined > 0) {
    if (data.empty()) throw_corrupt("dictionary-encoded page has no index bit width");
    const int bit_width = data[0];
    if (bit_width > 32)
      throw_corrupt("dictionary index bit width " + std::to_string(bit_width) + " above 32");
    indices_.resize(size_t(defined) * 4);
    indices = indices_.as<uint32_t>();
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
  const int32_t* offsets = dictionary_offsets_.as<int32_t>();
  const uint8_t* bytes = dictionary_values_.data();
  int64_t value = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (levels[i] != max_def_) {
      slots[i] = LeafSlot{nullptr, 0, levels[i]};
      continue;
    }
    const uint32_t index = indices[value++];
    slots[i] = LeafSlot{bytes + offsets[index], uint32_t(offsets[index + 1] - offsets[index]), max_def_};
  }
}

// DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY: decoded into a scratch buffer
// (the values are not stored contiguously in the page), rows point there.
void BinaryLeafStream::fill_decoded(const Page& page, std::span<const uint8_t> data, int64_t defined) {
  decoded_values_.clear();
  decoded_offsets_.clear();
  const int32_t zero = 0;
  decoded_offsets_.append(&zero, 4);
  decode_other(binary_spec(max_def_), page.encoding, data, defined, decoded_values_, &decoded_offsets_, 0,
               scratch_);
  if (int64_t(decoded_offsets_.size() / 4) != defined + 1) throw_corrupt("byte array page decoded short");
  const int64_t n = int64_t(slots_.size() / sizeof(LeafSlot));
  const int16_t* levels = levels_.as<int16_t>();
  LeafSlot* slots = slots_.as<LeafSlot>();
  const int32_t* offsets = decoded_offsets_.as<int32_t>();
  const uint8_t* bytes = decoded_values_.data();
  int64_t value = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (levels[i] != max_def_) {
      slots[i] = LeafSlot{nullptr, 0, levels[i]};
      continue;
    }
    slots[i] = LeafSlot{bytes + offsets[value], uint32_t(offsets[value + 1] - offsets[value]), max_def_};
    ++value;
  }
}

}  // namespace parquetry::variant_parquet
