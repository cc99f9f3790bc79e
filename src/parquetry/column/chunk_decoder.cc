#include "parquetry/column/chunk_decoder.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "parquetry/column/value_decoders.h"
#include "parquetry/encoding/bit_unpack.h"
#include "parquetry/encoding/buffer_append.h"
#include "parquetry/encoding/rle.h"
#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry {

using encoding::extend;

PhysicalLayout LeafSpec::layout() const {
  switch (physical_type) {
    case Type::BOOLEAN: return PhysicalLayout::kBool;
    case Type::BYTE_ARRAY: return PhysicalLayout::kBinary;
    default: return PhysicalLayout::kFixed;
  }
}

int32_t LeafSpec::width() const {
  if (physical_type == Type::FIXED_LEN_BYTE_ARRAY) return type_length;
  return physical_width(physical_type);
}

void ChunkValues::materialize() {
  if (!values_view) return;
  Buffer& buffer = writable(values);
  buffer.clear();
  buffer.append(values_view.data, size_t(values_view.size));
  values_view = BufferRef{};
}

void ChunkValues::clear_counts() {
  num_levels = 0;
  num_values = 0;
  null_count = 0;
  data_pages = 0;
  values_view = BufferRef{};
  dictionary_values.reset();
  dictionary_offsets.reset();
  dictionary_size = 0;
}

BufferRef ChunkValues::values_ref() const { return values_view ? values_view : BufferRef::share(values); }

Buffer& writable(std::shared_ptr<Buffer>& slot) {
  if (!slot || slot.use_count() > 1) slot = std::make_shared<Buffer>();
  return *slot;
}

void ChunkDecoder::reset_output(int64_t reserve_levels, ChunkValues& out) {
  has_dictionary_ = false;
  chunk_has_levels_ = false;
  dictionary_size_ = 0;
  out.clear_counts();
  gathered_fallback_ = false;
  keep_page_views_ = true;
  auto prepare = [&](std::shared_ptr<Buffer>& slot, bool wanted, int64_t bytes) {
    if (!wanted) {
      slot.reset();
      return;
    }
    Buffer& buffer = writable(slot);
    buffer.clear();
    // The count times a FIXED_LEN_BYTE_ARRAY width from the schema can ask
    // for petabytes before any page proves a value: cap the head start.
    buffer.reserve(size_t(std::min<int64_t>(bytes, int64_t(64) << 20)));
  };
  const bool flat_optional = spec_.flat_optional();
  prepare(out.def_levels, spec_.max_def > 0 && !flat_optional, reserve_levels * 2);
  prepare(out.rep_levels, spec_.max_rep > 0, reserve_levels * 2);
  prepare(out.validity, flat_optional, (reserve_levels + 7) / 8);
  const PhysicalLayout layout = spec_.layout();
  prepare(out.values, true,
          layout == PhysicalLayout::kFixed ? reserve_levels * spec_.width() : reserve_levels);
  prepare(out.offsets, layout == PhysicalLayout::kBinary, (reserve_levels + 1) * 4);
  if (out.offsets) {
    int32_t zero = 0;
    out.offsets->append(&zero, 4);
  }
}

void ChunkDecoder::decode(PageReader* pages_or_null, int64_t expected_levels, ChunkValues& out) {
  // expected_levels < 0: unknown (a subset of the pages is read).
  const bool check_count = expected_levels >= 0;
  // Reserve from the declared count, but never trust it for more than a
  // bounded up-front allocation: buffers grow as pages prove their content.
  reset_output(std::min<int64_t>(check_count ? expected_levels : 0, int64_t(1) << 22), out);

  // A chunk without values (an empty row group) has nothing worth parsing;
  // some writers leave its page offsets pointing anywhere.
  if (expected_levels == 0) {
    finish_dictionary_output(out);
    return;
  }
  if (pages_or_null == nullptr) throw_invalid("column chunk with values but no page reader");
  PageReader& pages = *pages_or_null;
  Page page;
  while (pages.next(page)) {
    const ErrorLocation where = pages.where(page);
    try {
      if (page.type == PageType::DICTIONARY_PAGE) {
        decode_dictionary(page);
      } else {
        decode_data_page(page, out);
        ++out.data_pages;
      }
    } catch (const Error& e) {
      throw e.with_location(where);
    }
  }
  if (check_count && out.num_levels != expected_levels) {
    throw Error(ErrorCode::kCorrupt,
                "column chunk declares " + std::to_string(expected_levels) + " values but its pages hold " +
                    std::to_string(out.num_levels),
                pages.where());
  }
  finish_dictionary_output(out);
}

void ChunkDecoder::finish_dictionary_output(ChunkValues& out) {
  if (!spec_.dictionary_indices) return;
  const bool binary = spec_.layout() == PhysicalLayout::kBinary;
  if (gathered_fallback_) {
    make_values_own_dictionary(out);
    return;
  }
  // The dictionary moves to the output (arrays keep it); the next chunk decodes a fresh one.
  out.dictionary_values =
      std::make_shared<Buffer>(has_dictionary_ ? std::move(dictionary_values_) : Buffer());
  dictionary_values_ = Buffer();
  if (binary) {
    out.dictionary_offsets =
        std::make_shared<Buffer>(has_dictionary_ ? std::move(dictionary_offsets_) : Buffer());
    dictionary_offsets_ = Buffer();
    if (out.dictionary_offsets->empty()) {
      int32_t zero = 0;
      out.dictionary_offsets->append(&zero, 4);
    }
  }
  out.dictionary_size = has_dictionary_ ? dictionary_size_ : 0;
  out.offsets.reset();
}

// The dense values become the dictionary; each row points at its own.
void ChunkDecoder::make_values_own_dictionary(ChunkValues& out) {
  const bool binary = spec_.layout() == PhysicalLayout::kBinary;
  out.materialize();
  out.dictionary_values = std::move(out.values);
  out.dictionary_offsets = binary ? std::move(out.offsets) : nullptr;
  out.dictionary_size = out.num_values;
  out.values = std::make_shared<Buffer>(size_t(out.num_values) * 4);
  int32_t* indices = out.values->as<int32_t>();
  for (int64_t i = 0; i < out.num_values; ++i) indices[i] = int32_t(i);
  out.offsets.reset();
}

// A chunk read as dictionary indices met a page of another encoding: the
// indices kept so far become values, and the chunk continues as values.
void ChunkDecoder::gather_kept_indices(ChunkValues& out) {
  gathered_fallback_ = true;
  const int64_t kept = out.num_values;
  indices_.resize(size_t(kept) * 4);
  if (kept > 0) std::memcpy(indices_.data(), out.values->data(), size_t(kept) * 4);
  Buffer& values = writable(out.values);
  values.clear();
  if (out.offsets) {
    Buffer& offsets = writable(out.offsets);
    offsets.clear();
    int32_t zero = 0;
    offsets.append(&zero, 4);
  }
  if (kept > 0) {
    gather(spec_, indices_.as<uint32_t>(), kept, dictionary_values_, dictionary_offsets_, dictionary_size_,
           values, out.offsets.get(), 0);
  }
}

void ChunkDecoder::decode_dictionary(const Page& page) {
  if (page.encoding != Encoding::PLAIN && page.encoding != Encoding::PLAIN_DICTIONARY) {
    throw_unsupported(std::string("dictionary page encoding ") + std::string(encoding_name(page.encoding)));
  }
  dictionary_values_.clear();
  dictionary_offsets_.clear();
  shared_dictionary_values_.reset();
  shared_dictionary_offsets_.reset();
  int32_t zero = 0;
  dictionary_offsets_.append(&zero, 4);
  size_t consumed =
      decode_plain(spec_, page.body, page.num_values, dictionary_values_, &dictionary_offsets_, 0);
  (void)consumed;
  dictionary_size_ = page.num_values;
  has_dictionary_ = true;
}

void ChunkDecoder::decode_data_page(const Page& page, ChunkValues& out) {
  const int64_t n = page.num_values;
  std::span<const uint8_t> values_data;
  encoding::LevelDecoder rep_decoder;
  encoding::LevelDecoder def_decoder;
  if (page.type == PageType::DATA_PAGE) {
    std::span<const uint8_t> body = page.body;
    if (spec_.max_rep > 0)
      body = body.subspan(size_t(rep_decoder.reset_v1(page.v1_rep_encoding, body, spec_.max_rep, n)));
    if (spec_.max_def > 0)
      body = body.subspan(size_t(def_decoder.reset_v1(page.v1_def_encoding, body, spec_.max_def, n)));
    values_data = body;
  } else {
    if (spec_.max_rep > 0) rep_decoder.reset_v2(page.rep_levels, spec_.max_rep);
    if (spec_.max_def > 0) def_decoder.reset_v2(page.def_levels, spec_.max_def);
    values_data = page.body;
  }

  if (spec_.max_rep > 0) {
    int16_t* levels = reinterpret_cast<int16_t*>(extend(*out.rep_levels, size_t(n) * 2));
    if (rep_decoder.decode(levels, n) != n)
      throw_corrupt("page holds fewer repetition levels than its value count");
    if (n > 0 && !chunk_has_levels_ && levels[0] != 0)
      throw_corrupt("first repetition level of a column chunk is not 0");
  }
  chunk_has_levels_ = chunk_has_levels_ || n > 0;
  int64_t non_null = n;
  if (spec_.flat_optional()) {
    Buffer& validity = *out.validity;
    validity.resize(size_t((out.num_levels + n + 7) / 8));
    int64_t nulls = 0;
    if (def_decoder.decode_validity(validity.data(), out.num_levels, n, &nulls) != n) {
      throw_corrupt("page holds fewer definition levels than its value count");
    }
    out.null_count += nulls;
    non_null = n - nulls;
  } else if (spec_.max_def > 0) {
    int16_t* levels = reinterpret_cast<int16_t*>(extend(*out.def_levels, size_t(n) * 2));
    if (def_decoder.decode(levels, n) != n)
      throw_corrupt("page holds fewer definition levels than its value count");
    const int16_t max_def = spec_.max_def;
    int64_t defined = 0;
    for (int64_t i = 0; i < n; ++i) defined += levels[i] == max_def;
    non_null = defined;
  }
  if (page.num_nulls >= 0 && page.num_nulls != n - non_null && spec_.max_rep == 0) {
    throw_corrupt("data page v2 declares " + std::to_string(page.num_nulls) + " nulls but its levels hold " +
                  std::to_string(n - non_null));
  }
  decode_values(page, values_data, non_null, out);
  out.num_levels += n;
}

void ChunkDecoder::decode_values(const Page& page, std::span<const uint8_t> data, int64_t count,
                                 ChunkValues& out) {
  Buffer* offsets = out.offsets.get();
  const bool dictionary_page =
      page.encoding == Encoding::PLAIN_DICTIONARY || page.encoding == Encoding::RLE_DICTIONARY;
  if (spec_.dictionary_indices && !gathered_fallback_ && !dictionary_page) gather_kept_indices(out);
  const bool first_values = out.num_values == 0 && !out.values_view;
  // Arrays are read through typed pointers, so a view must sit at the
  // value's natural alignment; values behind levels of odd length often do
  // not, and are copied instead.
  const int32_t width = spec_.width();
  const uintptr_t alignment = (width > 0 && (width & (width - 1)) == 0) ? uintptr_t(std::min(width, 8)) : 1;
  const bool aligned = reinterpret_cast<uintptr_t>(data.data()) % alignment == 0;
  if (page.encoding == Encoding::PLAIN && first_values && keep_page_views_ && page.body_owner && aligned &&
      spec_.layout() == PhysicalLayout::kFixed && width > 0) {
    // Keep the values where decompression put them; copied only if another page follows.
    const size_t need = size_t(count) * size_t(spec_.width());
    if (need > data.size())
      throw_corrupt("PLAIN values: " + std::to_string(count) + " values do not fit in the page");
    out.values_view = BufferRef{data.data(), int64_t(need), page.body_owner};
    out.num_values += count;
    return;
  }
  out.materialize();
  switch (page.encoding) {
    case Encoding::PLAIN: decode_plain(spec_, data, count, *out.values, offsets, out.num_values); break;
    case Encoding::PLAIN_DICTIONARY:
    case Encoding::RLE_DICTIONARY: gather_dictionary(data, count, out); break;
    default:
      decode_other(spec_, page.encoding, data, count, *out.values, offsets, out.num_values, scratch_);
      break;
  }
  out.num_values += count;
}

void ChunkDecoder::gather_dictionary(std::span<const uint8_t> data, int64_t count, ChunkValues& out) {
  if (!has_dictionary_) throw_corrupt("dictionary-encoded page without a dictionary page");
  if (count == 0) return;
  if (data.empty()) throw_corrupt("dictionary-encoded page has no index bit width");
  const int bit_width = data[0];
  if (bit_width > 32) throw_corrupt("dictionary index bit width " + std::to_string(bit_width) + " above 32");
  encoding::RleBitPackedDecoder decoder(data.subspan(1), bit_width);
  if (spec_.dictionary_indices && !gathered_fallback_) {
    // Indices are the output: decode them in place at the end of the values.
    const size_t before = out.values->size();
    out.values->resize(before + size_t(count) * 4);
    uint32_t* indices = reinterpret_cast<uint32_t*>(out.values->data() + before);
    if (decoder.decode(indices, count) != count) {
      out.values->resize(before);
      throw_corrupt("page holds fewer dictionary indices than values");
    }
    uint32_t largest = 0;
    for (int64_t i = 0; i < count; ++i) largest = std::max(largest, indices[i]);
    if (int64_t(largest) >= dictionary_size_) {
      out.values->resize(before);
      throw_corrupt("dictionary index " + std::to_string(largest) + " out of range (dictionary of " +
                    std::to_string(dictionary_size_) + ")");
    }
    return;
  }
  indices_.resize(size_t(count) * 4);
  uint32_t* indices = indices_.as<uint32_t>();
  if (decoder.decode(indices, count) != count)
    throw_corrupt("page holds fewer dictionary indices than values");
  gather(spec_, indices, count, dictionary_values_, dictionary_offsets_, dictionary_size_, *out.values,
         out.offsets.get(), out.num_values);
}

// ---------------------------------------------------------------- selected rows only

bool ChunkDecoder::can_decode_selected() const {
  if (spec_.max_rep != 0) return false;
  if (spec_.max_def > 0 && !spec_.flat_optional()) return false;
  switch (spec_.layout()) {
    case PhysicalLayout::kFixed: return spec_.width() > 0;
    // Dictionary pages only (decode_selected_page declines PLAIN ones): the
    // indices are fixed-width, and the selected ones gather their strings.
    case PhysicalLayout::kBinary: return true;
    default: return false;
  }
}

bool ChunkDecoder::decode_selected(PageReader& pages, int64_t expected_levels, const uint8_t* selection,
                                   ChunkValues& out) {
  if (!can_decode_selected() || expected_levels < 0) return false;
  reset_output(0, out);  // the selected rows are few: buffers grow as they come
  int64_t rows = 0;
  Page page;
  while (pages.next(page)) {
    const ErrorLocation where = pages.where(page);
    try {
      if (page.type == PageType::DICTIONARY_PAGE) {
        decode_dictionary(page);
        continue;
      }
      if (page.num_values > expected_levels - rows) {
        throw_corrupt("column chunk declares " + std::to_string(expected_levels) +
                      " values but its pages hold more");
      }
      if (!decode_selected_page(page, rows, selection, out)) return false;
      rows += page.num_values;
      ++out.data_pages;
    } catch (const Error& e) {
      throw e.with_location(where);
    }
  }
  if (rows != expected_levels) {
    throw Error(ErrorCode::kCorrupt,
                "column chunk declares " + std::to_string(expected_levels) + " values but its pages hold " +
                    std::to_string(rows),
                pages.where());
  }
  finish_dictionary_output(out);
  return true;
}

namespace {

// Copies the `width`-byte values at `ordinals` out of `data`, back to back.
template <size_t kWidth>
void pick_fixed(const uint8_t* data, const uint32_t* ordinals, int64_t k, uint8_t* out) {
  for (int64_t i = 0; i < k; ++i)
    std::memcpy(out + size_t(i) * kWidth, data + size_t(ordinals[i]) * kWidth, kWidth);
}

}  // namespace

bool ChunkDecoder::decode_selected_page(const Page& page, int64_t first_row, const uint8_t* selection,
                                        ChunkValues& out) {
  const bool dictionary_page =
      page.encoding == Encoding::PLAIN_DICTIONARY || page.encoding == Encoding::RLE_DICTIONARY;
  const bool plain_fixed = page.encoding == Encoding::PLAIN && spec_.layout() == PhysicalLayout::kFixed &&
                           !spec_.dictionary_indices;
  if (!dictionary_page && !plain_fixed) return false;
  const int64_t n = page.num_values;
  if (n < 0) throw_corrupt("negative value count in a data page");
  std::span<const uint8_t> values_data;
  encoding::LevelDecoder def_decoder;
  if (page.type == PageType::DATA_PAGE) {
    std::span<const uint8_t> body = page.body;
    if (spec_.max_def > 0)
      body = body.subspan(size_t(def_decoder.reset_v1(page.v1_def_encoding, body, spec_.max_def, n)));
    values_data = body;
  } else {
    if (spec_.max_def > 0) def_decoder.reset_v2(page.def_levels, spec_.max_def);
    values_data = page.body;
  }
  // Levels: the whole page's (a row's value ordinal counts the defined rows before it).
  int64_t non_null = n;
  const uint8_t* valid = nullptr;
  if (spec_.max_def > 0) {
    page_validity_.resize(size_t(bits::bytes_for_bits(n)));
    int64_t nulls = 0;
    if (def_decoder.decode_validity(page_validity_.data(), 0, n, &nulls) != n) {
      throw_corrupt("page holds fewer definition levels than its value count");
    }
    non_null = n - nulls;
    valid = page_validity_.data();
  }
  if (page.num_nulls >= 0 && page.num_nulls != n - non_null) {
    throw_corrupt("data page v2 declares " + std::to_string(page.num_nulls) + " nulls but its levels hold " +
                  std::to_string(n - non_null));
  }
  // The selected rows of the page: their validity goes to the output, the
  // ordinals of the defined ones (their index among the page's values) to
  // ordinals_. Both are sized for every row of the page, then trimmed.
  ordinals_.resize(size_t(n) * 4);
  uint32_t* ordinals = ordinals_.as<uint32_t>();
  int64_t k = 0;
  int64_t selected = 0;
  if (valid != nullptr && non_null < n) {
    Buffer& validity = *out.validity;
    validity.resize(size_t(bits::bytes_for_bits(out.num_levels + n)));
    uint8_t* out_valid = validity.data();
    int64_t row = out.num_levels;
    int64_t rank = 0;  // defined rows before the block
    for (int64_t block = 0; block < n; block += 64) {
      const int64_t m = std::min<int64_t>(64, n - block);
      const uint64_t defined = bits::word_at(valid, block, m);
      for (uint64_t word = bits::word_at(selection, first_row + block, m); word != 0; word &= word - 1) {
        const int j = std::countr_zero(word);
        const bool is_valid = (defined >> j) & 1;
        bits::set_bit_to(out_valid, row++, is_valid);
        if (is_valid) ordinals[k++] = uint32_t(rank + std::popcount(defined & ((uint64_t(1) << j) - 1)));
      }
      rank += std::popcount(defined);
    }
    selected = row - out.num_levels;
    out.null_count += selected - k;
  } else {
    // Every row defined: a row's ordinal is its position.
    for (int64_t block = 0; block < n; block += 64) {
      const int64_t m = std::min<int64_t>(64, n - block);
      for (uint64_t word = bits::word_at(selection, first_row + block, m); word != 0; word &= word - 1)
        ordinals[k++] = uint32_t(block + std::countr_zero(word));
    }
    selected = k;
    if (valid != nullptr) {
      Buffer& validity = *out.validity;
      validity.resize(size_t(bits::bytes_for_bits(out.num_levels + selected)));
      encoding::fill_bits(validity.data(), out.num_levels, selected, true);
    }
  }
  if (valid != nullptr) out.validity->resize(size_t(bits::bytes_for_bits(out.num_levels + selected)));
  if (plain_fixed) {
    const size_t width = size_t(spec_.width());
    if (size_t(non_null) * width > values_data.size())
      throw_corrupt("PLAIN values: " + std::to_string(non_null) + " values do not fit in the page");
    uint8_t* dst = encoding::extend(*out.values, size_t(k) * width);
    switch (width) {
      case 4: pick_fixed<4>(values_data.data(), ordinals, k, dst); break;
      case 8: pick_fixed<8>(values_data.data(), ordinals, k, dst); break;
      default:
        for (int64_t i = 0; i < k; ++i)
          std::memcpy(dst + size_t(i) * width, values_data.data() + size_t(ordinals[i]) * width, width);
    }
  } else if (non_null > 0) {
    if (!has_dictionary_) throw_corrupt("dictionary-encoded page without a dictionary page");
    if (values_data.empty()) throw_corrupt("dictionary-encoded page has no index bit width");
    const int bit_width = values_data[0];
    if (bit_width > 32)
      throw_corrupt("dictionary index bit width " + std::to_string(bit_width) + " above 32");
    encoding::RleBitPackedDecoder decoder(values_data.subspan(1), bit_width);
    uint32_t* indices;
    if (spec_.dictionary_indices) {
      indices = reinterpret_cast<uint32_t*>(encoding::extend(*out.values, size_t(k) * 4));
    } else {
      indices_.resize(size_t(k) * 4);
      indices = indices_.as<uint32_t>();
    }
    // The page must hold every value it declares, read or not (as decode() demands).
    const int64_t last = k > 0 ? int64_t(ordinals[k - 1]) : -1;
    if (decoder.decode_at(ordinals, k, indices) != k ||
        decoder.skip(non_null - 1 - last) != non_null - 1 - last)
      throw_corrupt("page holds fewer dictionary indices than values");
    if (spec_.dictionary_indices) {
      uint32_t largest = 0;
      for (int64_t i = 0; i < k; ++i) largest = std::max(largest, indices[i]);
      if (k > 0 && int64_t(largest) >= dictionary_size_) {
        throw_corrupt("dictionary index " + std::to_string(largest) + " out of range (dictionary of " +
                      std::to_string(dictionary_size_) + ")");
      }
    } else {
      gather(spec_, indices, k, dictionary_values_, dictionary_offsets_, dictionary_size_, *out.values,
             out.offsets.get(), out.num_values);
    }
  }
  out.num_values += k;
  out.num_levels += selected;
  return true;
}

}  // namespace parquetry
