// Streaming decode of a column chunk (chunk_stream.h), and the ChunkDecoder
// steps it is built from.
#include "parquetry/column/chunk_stream.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "parquetry/encoding/bit_unpack.h"
#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry {

// ---------------------------------------------------------------- ChunkDecoder steps

void ChunkDecoder::begin_chunk() {
  has_dictionary_ = false;
  chunk_has_levels_ = false;
  dictionary_size_ = 0;
  gathered_fallback_ = false;
  keep_page_views_ = false;
  shared_dictionary_values_.reset();
  shared_dictionary_offsets_.reset();
}

void ChunkDecoder::begin_batch(ChunkValues& out, BufferPool& pool, size_t slot_base, int64_t reserve_levels) {
  keep_page_views_ = false;
  out.clear_counts();
  // Each slot's old buffer is let go before asking the pool, so an unshared
  // one comes straight back.
  auto take = [&](std::shared_ptr<Buffer>& slot, bool wanted, size_t role, int64_t bytes) {
    slot.reset();
    if (!wanted) return;
    slot = pool.acquire(slot_base + role);
    slot->reserve(size_t(std::clamp<int64_t>(bytes, 0, int64_t(64) << 20)));
  };
  const bool flat_optional = spec_.flat_optional();
  take(out.def_levels, spec_.max_def > 0 && !flat_optional, 0, reserve_levels * 2);
  take(out.rep_levels, spec_.max_rep > 0, 1, reserve_levels * 2);
  take(out.validity, flat_optional, 2, (reserve_levels + 7) / 8);
  const PhysicalLayout layout = spec_.layout();
  take(out.values, true, 3,
       spec_.dictionary_indices           ? reserve_levels * 4
       : layout == PhysicalLayout::kFixed ? reserve_levels * spec_.width()
                                          : reserve_levels);
  take(out.offsets, layout == PhysicalLayout::kBinary, 4, (reserve_levels + 1) * 4);
  if (out.offsets) {
    int32_t zero = 0;
    out.offsets->append(&zero, 4);
  }
}

bool ChunkDecoder::decode_next_page(PageReader& pages, ChunkValues& out) {
  Page page;
  while (pages.next(page)) {
    const ErrorLocation where = pages.where(page);
    try {
      if (page.type == PageType::DICTIONARY_PAGE) {
        decode_dictionary(page);
        continue;
      }
      decode_data_page(page, out);
      ++out.data_pages;
      return true;
    } catch (const Error& e) {
      throw e.with_location(where);
    }
  }
  return false;
}

void ChunkDecoder::split_off(ChunkValues& from, int64_t level, ChunkValues& to) {
  if (level < 0 || level > from.num_levels) throw_invalid("split point outside the decoded levels");
  from.materialize();
  const int64_t moved = from.num_levels - level;
  // Values belong to the defined entries only: count those before the split.
  int64_t values_before = level;
  int64_t nulls_before = 0;
  if (spec_.flat_optional()) {
    values_before = level > 0 ? encoding::count_set_bits(from.validity->data(), 0, level) : 0;
    nulls_before = level - values_before;
  } else if (spec_.max_def > 0) {
    const int16_t* def = from.def_levels->as<int16_t>();
    const int16_t max_def = spec_.max_def;
    int64_t defined = 0;
    for (int64_t i = 0; i < level; ++i) defined += def[i] == max_def;
    values_before = defined;
  }
  if (values_before > from.num_values) throw_corrupt("levels define more values than were decoded");
  const int64_t values_moved = from.num_values - values_before;

  auto move_levels = [&](Buffer* source, Buffer* target) {
    target->resize(size_t(moved) * 2);
    if (moved > 0) std::memcpy(target->data(), source->data() + size_t(level) * 2, size_t(moved) * 2);
    source->resize(size_t(level) * 2);
  };
  if (from.rep_levels) move_levels(from.rep_levels.get(), to.rep_levels.get());
  if (from.def_levels) move_levels(from.def_levels.get(), to.def_levels.get());
  if (from.validity) {
    to.validity->resize(size_t(bits::bytes_for_bits(moved)));
    if (moved > 0) encoding::copy_bits(from.validity->data(), level, to.validity->data(), 0, moved);
    to.null_count = from.null_count - nulls_before;
    from.null_count = nulls_before;
    from.validity->resize(size_t(bits::bytes_for_bits(level)));
  }

  Buffer& source = *from.values;
  Buffer& target = *to.values;
  const bool indices = spec_.dictionary_indices && !gathered_fallback_;
  const PhysicalLayout layout = indices ? PhysicalLayout::kFixed : spec_.layout();
  if (layout == PhysicalLayout::kFixed) {
    const size_t width = indices ? 4 : size_t(spec_.width());
    target.resize(size_t(values_moved) * width);
    if (values_moved > 0)
      std::memcpy(target.data(), source.data() + size_t(values_before) * width, size_t(values_moved) * width);
    source.resize(size_t(values_before) * width);
  } else if (layout == PhysicalLayout::kBool) {
    target.resize(size_t(bits::bytes_for_bits(values_moved)));
    if (values_moved > 0) encoding::copy_bits(source.data(), values_before, target.data(), 0, values_moved);
    source.resize(size_t(bits::bytes_for_bits(values_before)));
  } else {
    const int32_t* offsets = from.offsets->as<int32_t>();
    const int32_t base = offsets[values_before];
    const int32_t end = offsets[from.num_values];
    Buffer& target_offsets = *to.offsets;
    target_offsets.resize(size_t(values_moved + 1) * 4);
    int32_t* rebased = target_offsets.as<int32_t>();
    for (int64_t i = 0; i <= values_moved; ++i) rebased[i] = offsets[values_before + i] - base;
    target.resize(size_t(end - base));
    if (end > base) std::memcpy(target.data(), source.data() + base, size_t(end - base));
    from.offsets->resize(size_t(values_before + 1) * 4);
    source.resize(size_t(base));
  }
  to.num_levels = moved;
  to.num_values = values_moved;
  from.num_levels = level;
  from.num_values = values_before;
}

void ChunkDecoder::append(ChunkValues& from, ChunkValues& to) {
  if (spec_.dictionary_indices) throw_invalid("appending dictionary indices");
  from.materialize();
  to.materialize();
  const int64_t levels = from.num_levels;
  auto append_levels = [&](Buffer* source, Buffer* target) {
    target->append(source->data(), size_t(levels) * 2);
  };
  if (from.rep_levels) append_levels(from.rep_levels.get(), to.rep_levels.get());
  if (from.def_levels) append_levels(from.def_levels.get(), to.def_levels.get());
  if (from.validity) {
    to.validity->resize(size_t(bits::bytes_for_bits(to.num_levels + levels)));
    if (levels > 0) encoding::copy_bits(from.validity->data(), 0, to.validity->data(), to.num_levels, levels);
    to.null_count += from.null_count;
  }
  Buffer& source = *from.values;
  Buffer& target = *to.values;
  const PhysicalLayout layout = spec_.layout();
  if (layout == PhysicalLayout::kFixed) {
    target.append(source.data(), size_t(from.num_values) * size_t(spec_.width()));
  } else if (layout == PhysicalLayout::kBool) {
    target.resize(size_t(bits::bytes_for_bits(to.num_values + from.num_values)));
    if (from.num_values > 0)
      encoding::copy_bits(source.data(), 0, target.data(), to.num_values, from.num_values);
  } else {
    const int32_t* offsets = from.offsets->as<int32_t>();
    const int64_t base = to.offsets->as<int32_t>()[to.num_values];
    const int64_t added = offsets[from.num_values];
    if (base + added > int64_t(std::numeric_limits<int32_t>::max()))
      throw_limit("byte array data exceeds the 2 GiB reach of 32-bit offsets");
    Buffer& target_offsets = *to.offsets;
    target_offsets.resize(size_t(to.num_values + from.num_values + 1) * 4);
    int32_t* rebased = target_offsets.as<int32_t>() + to.num_values;
    for (int64_t i = 1; i <= from.num_values; ++i) rebased[i] = int32_t(base + offsets[i]);
    target.append(source.data(), size_t(added));
  }
  to.num_levels += levels;
  to.num_values += from.num_values;
  to.data_pages += from.data_pages;
  from.clear_counts();
  if (from.rep_levels) from.rep_levels->resize(0);
  if (from.def_levels) from.def_levels->resize(0);
  if (from.validity) from.validity->resize(0);
  from.values->resize(0);
  if (from.offsets) from.offsets->resize(4);
}

void ChunkDecoder::finish_batch(ChunkValues& out) {
  if (!spec_.dictionary_indices) return;
  if (gathered_fallback_) {
    make_values_own_dictionary(out);
    return;
  }
  // Every batch of the chunk shares one copy of the dictionary (the decoder
  // keeps its own for the pages still to come).
  const bool binary = spec_.layout() == PhysicalLayout::kBinary;
  if (!shared_dictionary_values_) {
    shared_dictionary_values_ = std::make_shared<Buffer>();
    if (has_dictionary_)
      shared_dictionary_values_->append(dictionary_values_.data(), dictionary_values_.size());
    if (binary) {
      shared_dictionary_offsets_ = std::make_shared<Buffer>();
      if (has_dictionary_) {
        shared_dictionary_offsets_->append(dictionary_offsets_.data(), dictionary_offsets_.size());
      } else {
        int32_t zero = 0;
        shared_dictionary_offsets_->append(&zero, 4);
      }
    }
  }
  out.dictionary_values = shared_dictionary_values_;
  out.dictionary_offsets = binary ? shared_dictionary_offsets_ : nullptr;
  out.dictionary_size = has_dictionary_ ? dictionary_size_ : 0;
  out.offsets.reset();
}

// ---------------------------------------------------------------- ChunkStream

void ChunkStream::start(std::unique_ptr<PageReader> pages, int64_t rows, int64_t expected_levels,
                        int64_t batch_rows) {
  if (expected_levels > 0 && pages == nullptr) throw_invalid("column chunk with values but no page reader");
  pages_ = std::move(pages);
  rows_left_ = rows;
  expected_levels_ = expected_levels;
  levels_out_ = 0;
  row_starts_ = 0;
  scanned_ = 0;
  data_pages_ = 0;
  // A chunk without values (an empty row group) has nothing worth parsing.
  exhausted_ = expected_levels == 0;
  reserve_levels_ = std::min(batch_rows, std::max<int64_t>(rows, 0));
  decoder_->begin_chunk();
  pending_ = ChunkValues{};
  decoder_->begin_batch(carry_, *carry_pool_, 0, 0);
}

void ChunkStream::count_row_starts() {
  const int16_t* rep = pending_.rep_levels->as<int16_t>();
  int64_t starts = 0;
  for (int64_t i = scanned_; i < pending_.num_levels; ++i) starts += rep[i] == 0;
  row_starts_ += starts;
  scanned_ = pending_.num_levels;
}

int64_t ChunkStream::level_of_row(int64_t row) const {
  const int16_t* rep = pending_.rep_levels->as<int16_t>();
  int64_t seen = 0;
  for (int64_t i = 0; i < pending_.num_levels; ++i) {
    if (rep[i] == 0 && seen++ == row) return i;
  }
  return pending_.num_levels;
}

void ChunkStream::decode_page(ChunkValues& into, int64_t held) {
  if (decoder_->decode_next_page(*pages_, into)) {
    ++data_pages_;
    if (levels_out_ + held + into.num_levels > expected_levels_) {
      throw Error(
          ErrorCode::kCorrupt,
          "column chunk declares " + std::to_string(expected_levels_) + " values but its pages hold more",
          pages_->where());
    }
  } else {
    exhausted_ = true;
  }
}

void ChunkStream::next(int64_t rows, ChunkValues& out) {
  out = ChunkValues{};
  if (rows <= 0 || rows > rows_left_) throw_invalid("batch asks for rows the chunk does not have left");
  const bool nested = spec_.max_rep > 0;
  // The batch's buffers are taken now that the previous batch is let go, and
  // start with the rows carried over from it.
  decoder_->begin_batch(pending_, *pool_, slot_base_, reserve_levels_);
  decoder_->split_off(carry_, 0, pending_);
  scanned_ = 0;
  row_starts_ = 0;
  if (nested) count_row_starts();
  // A nested row is complete once the next one starts (or the chunk ends).
  // Once the batch's last row has started, the next page goes to the carry:
  // it usually starts a row of the next batch, and decoded into the batch
  // it would be held twice (and could take a batch of very long strings
  // past 2 GiB). When it goes on with the last row it joins the batch.
  bool next_rows_carried = false;
  if (nested) {
    while (!exhausted_ && row_starts_ <= rows) {
      if (row_starts_ == rows && !spec_.dictionary_indices) {
        decoder_->begin_batch(carry_, *carry_pool_, 0, 0);
        decode_page(carry_, pending_.num_levels);
        if (carry_.num_levels == 0) continue;
        if (carry_.rep_levels->as<int16_t>()[0] == 0) {
          next_rows_carried = true;
          break;
        }
        decoder_->append(carry_, pending_);
      } else {
        decode_page(pending_);
      }
      count_row_starts();
    }
  } else {
    while (!exhausted_ && pending_.num_levels < rows) decode_page(pending_);
  }
  const int64_t have = nested ? row_starts_ : pending_.num_levels;
  if (have < rows) {
    throw Error(ErrorCode::kCorrupt,
                "column chunk holds " + std::to_string(levels_out_ + have) + " rows, its row group " +
                    std::to_string(levels_out_ + rows_left_),
                pages_ ? pages_->where() : ErrorLocation{});
  }
  const int64_t cut = !nested ? rows : row_starts_ > rows ? level_of_row(rows) : pending_.num_levels;
  if (!next_rows_carried) {
    decoder_->begin_batch(carry_, *carry_pool_, 0, 0);
    decoder_->split_off(pending_, cut, carry_);
  }
  levels_out_ += cut;
  rows_left_ -= rows;
  out = std::move(pending_);
  pending_ = ChunkValues{};
  decoder_->finish_batch(out);
  if (rows_left_ > 0) return;
  // The chunk's last rows: whatever pages remain must hold nothing more.
  while (!exhausted_) decode_page(carry_);
  if (carry_.num_levels != 0 || levels_out_ != expected_levels_) {
    throw Error(ErrorCode::kCorrupt,
                "column chunk declares " + std::to_string(expected_levels_) + " values but its pages hold " +
                    std::to_string(levels_out_ + carry_.num_levels),
                pages_ ? pages_->where() : ErrorLocation{});
  }
  carry_.clear_counts();
  pages_.reset();
}

}  // namespace parquetry
