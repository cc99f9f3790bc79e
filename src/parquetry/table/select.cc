#include "parquetry/table/select.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "parquetry/error.h"
#include "parquetry/util/bit_util.h"

namespace parquetry {
namespace {

int64_t total_length(std::span<const RowRange> ranges) {
  int64_t total = 0;
  for (const RowRange& r : ranges) total += r.length();
  return total;
}

// Copies n bits of src from src_pos to dst at dst_pos: a byte at a time
// once dst is byte-aligned, since selections keep long runs of rows.
void copy_bits(const uint8_t* src, int64_t src_pos, uint8_t* dst, int64_t dst_pos, int64_t n) {
  while (n > 0 && (dst_pos & 7) != 0) {
    bits::set_bit_to(dst, dst_pos++, bits::get_bit(src, src_pos++));
    --n;
  }
  const int64_t whole = n >> 3;
  uint8_t* d = dst + (dst_pos >> 3);
  const uint8_t* s = src + (src_pos >> 3);
  const int shift = int(src_pos & 7);
  if (shift == 0) {
    if (whole > 0) std::memcpy(d, s, size_t(whole));
  } else {
    // Byte i of the output spans source bytes i and i + 1, both inside the
    // source bitmap because the bits run to src_pos + 8 * whole - 1.
    for (int64_t i = 0; i < whole; ++i) d[i] = uint8_t((s[i] >> shift) | (s[i + 1] << (8 - shift)));
  }
  src_pos += whole * 8;
  dst_pos += whole * 8;
  for (int64_t i = 0; i < (n & 7); ++i) bits::set_bit_to(dst, dst_pos + i, bits::get_bit(src, src_pos + i));
}

int64_t count_set(const uint8_t* bitmap, int64_t n) {
  int64_t set = 0;
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) set += std::popcount(bits::load<uint64_t>(bitmap + (i >> 3)));
  for (; i < n; ++i) set += bits::get_bit(bitmap, i);
  return set;
}

Buffer zeroed(size_t bytes) {
  Buffer buffer(bytes);
  if (bytes > 0) std::memset(buffer.data(), 0, bytes);
  return buffer;
}

// Validity of the selected rows (absent when the source has no nulls).
BufferRef select_validity(const ArrayData& a, std::span<const RowRange> ranges, int64_t total,
                          int64_t* nulls) {
  *nulls = 0;
  if (a.null_count == 0 || a.buffers.empty() || !a.buffers[0]) return {};
  Buffer out = zeroed(size_t(bits::bytes_for_bits(total)));
  int64_t pos = 0;
  for (const RowRange& r : ranges) {
    copy_bits(a.buffers[0].data, a.offset + r.begin, out.data(), pos, r.length());
    pos += r.length();
  }
  *nulls = total - count_set(out.data(), total);
  if (*nulls == 0) return {};
  return BufferRef::adopt(std::move(out));
}

template <typename Offset>
std::vector<RowRange> select_offsets(const ArrayData& a, std::span<const RowRange> ranges, int64_t total,
                                     Buffer& out_offsets) {
  out_offsets.resize(size_t(total + 1) * sizeof(Offset));
  Offset* out = out_offsets.as<Offset>();
  const Offset* in = a.buffers[1].as<Offset>();
  std::vector<RowRange> child_ranges;
  Offset running = 0;
  int64_t k = 0;
  out[0] = 0;
  for (const RowRange& r : ranges) {
    const int64_t first = a.offset + r.begin;
    for (int64_t i = 0; i < r.length(); ++i) {
      running += in[first + i + 1] - in[first + i];
      out[++k] = running;
    }
    RowRange child{int64_t(in[first]), int64_t(in[first + r.length()])};
    if (child.length() == 0) continue;
    if (!child_ranges.empty() && child_ranges.back().end == child.begin) {
      child_ranges.back().end = child.end;
    } else {
      child_ranges.push_back(child);
    }
  }
  return child_ranges;
}

}  // namespace

std::vector<RowRange> ranges_from_bitmap(const uint8_t* bitmap, int64_t length) {
  std::vector<RowRange> out;
  int64_t i = 0;
  while (i < length) {
    while (i < length && !bits::get_bit(bitmap, i)) ++i;
    if (i == length) break;
    int64_t begin = i;
    while (i < length && bits::get_bit(bitmap, i)) ++i;
    out.push_back({begin, i});
  }
  return out;
}

std::vector<RowRange> to_local_ranges(std::span<const RowRange> wanted, std::span<const RowRange> have) {
  std::vector<RowRange> out;
  int64_t local_start = 0;
  size_t w = 0;
  for (const RowRange& segment : have) {
    while (w < wanted.size() && wanted[w].end <= segment.begin) ++w;
    for (size_t k = w; k < wanted.size() && wanted[k].begin < segment.end; ++k) {
      const int64_t begin = std::max(wanted[k].begin, segment.begin);
      const int64_t end = std::min(wanted[k].end, segment.end);
      if (end > begin)
        out.push_back({local_start + begin - segment.begin, local_start + end - segment.begin});
    }
    local_start += segment.length();
  }
  return out;
}

std::shared_ptr<ArrayData> select_ranges(const ArrayData& a, std::span<const RowRange> ranges) {
  int64_t previous_end = 0;
  for (const RowRange& r : ranges) {
    if (r.begin < previous_end || r.end < r.begin || r.end > a.length) {
      throw_invalid("row ranges must be sorted, disjoint and inside the array of " +
                    std::to_string(a.length) + " rows");
    }
    previous_end = r.end;
  }
  const int64_t total = total_length(ranges);
  auto out = std::make_shared<ArrayData>();
  out->type = a.type;
  out->length = total;
  const TypeId id = a.type->id;
  if (id == TypeId::kNull) {
    out->null_count = total;
    return out;
  }
  out->buffers.push_back(select_validity(a, ranges, total, &out->null_count));
  switch (id) {
    case TypeId::kBool: {
      Buffer values = zeroed(size_t(bits::bytes_for_bits(total)));
      int64_t pos = 0;
      for (const RowRange& r : ranges) {
        copy_bits(a.buffers[1].data, a.offset + r.begin, values.data(), pos, r.length());
        pos += r.length();
      }
      out->buffers.push_back(BufferRef::adopt(std::move(values)));
      return out;
    }
    case TypeId::kBinary:
    case TypeId::kString:
    case TypeId::kLargeBinary:
    case TypeId::kLargeString: {
      const bool large = id == TypeId::kLargeBinary || id == TypeId::kLargeString;
      Buffer offsets;
      std::vector<RowRange> bytes = large ? select_offsets<int64_t>(a, ranges, total, offsets)
                                          : select_offsets<int32_t>(a, ranges, total, offsets);
      Buffer data(size_t(total_length(bytes)));
      size_t pos = 0;
      for (const RowRange& r : bytes) {
        std::memcpy(data.data() + pos, a.buffers[2].data + r.begin, size_t(r.length()));
        pos += size_t(r.length());
      }
      out->buffers.push_back(BufferRef::adopt(std::move(offsets)));
      out->buffers.push_back(BufferRef::adopt(std::move(data)));
      return out;
    }
    case TypeId::kList:
    case TypeId::kMap:
    case TypeId::kLargeList: {
      Buffer offsets;
      std::vector<RowRange> child_ranges = id == TypeId::kLargeList
                                               ? select_offsets<int64_t>(a, ranges, total, offsets)
                                               : select_offsets<int32_t>(a, ranges, total, offsets);
      out->buffers.push_back(BufferRef::adopt(std::move(offsets)));
      out->children.push_back(select_ranges(*a.children[0], child_ranges));
      return out;
    }
    case TypeId::kStruct: {
      std::vector<RowRange> shifted(ranges.begin(), ranges.end());
      for (RowRange& r : shifted) {
        r.begin += a.offset;
        r.end += a.offset;
      }
      for (const auto& child : a.children) out->children.push_back(select_ranges(*child, shifted));
      return out;
    }
    case TypeId::kBinaryView:
    case TypeId::kStringView:
    default: {
      const size_t width =
          id == TypeId::kBinaryView || id == TypeId::kStringView ? 16 : size_t(a.type->fixed_width());
      Buffer values(size_t(total) * width);
      size_t pos = 0;
      for (const RowRange& r : ranges) {
        const size_t bytes = size_t(r.length()) * width;
        if (bytes > 0)
          std::memcpy(values.data() + pos, a.buffers[1].data + size_t(a.offset + r.begin) * width, bytes);
        pos += bytes;
      }
      out->buffers.push_back(BufferRef::adopt(std::move(values)));
      for (size_t i = 2; i < a.buffers.size(); ++i)
        out->buffers.push_back(a.buffers[i]);  // view data buffers
      out->dictionary = a.dictionary;
      return out;
    }
  }
}

RecordBatch select_ranges(const RecordBatch& batch, std::span<const RowRange> ranges) {
  RecordBatch out;
  out.schema = batch.schema;
  out.num_rows = total_length(ranges);
  for (const auto& column : batch.columns) out.columns.push_back(select_ranges(*column, ranges));
  return out;
}

}  // namespace parquetry
