#include "parquetry/scan.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <string_view>
#include <vector>

#include "parquetry/error.h"
#include "parquetry/table/select.h"
#include "parquetry/util/bit_util.h"
#include "parquetry/util/parallel.h"

namespace parquetry {
namespace {

bool is_float(TypeId id) { return id == TypeId::kFloat32 || id == TypeId::kFloat64; }

bool is_integer_like(TypeId id) {
  switch (id) {
    case TypeId::kBool:
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kDate32:
    case TypeId::kTime32:
    case TypeId::kTime64:
    case TypeId::kTimestamp: return true;
    default: return false;
  }
}

// Reads value i of a fixed-width integer-like array as int64.
int64_t integer_at(const ArrayData& a, int64_t i) {
  const uint8_t* p = a.buffers[1].data;
  const int64_t k = a.offset + i;
  switch (a.type->id) {
    case TypeId::kBool: return bits::get_bit(p, k);
    case TypeId::kInt8: return reinterpret_cast<const int8_t*>(p)[k];
    case TypeId::kInt16: return reinterpret_cast<const int16_t*>(p)[k];
    case TypeId::kUInt8: return p[k];
    case TypeId::kUInt16: return reinterpret_cast<const uint16_t*>(p)[k];
    case TypeId::kUInt32: return reinterpret_cast<const uint32_t*>(p)[k];
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32: return reinterpret_cast<const int32_t*>(p)[k];
    default: return reinterpret_cast<const int64_t*>(p)[k];
  }
}

// Eight independent accumulators break the dependency chain of a running
// min/max so the loop vectorises (one lane per accumulator). `word` masks the
// values (bit i for values[i]); masked-out values are replaced by the
// identity of min/max instead of branching, so mixed null/valid blocks stay
// vectorised too.
template <typename T, typename Acc>
void min_max_block(const T* values, int64_t n, uint64_t word, bool all_valid, Acc& lo, Acc& hi) {
  constexpr int kLanes = 8;
  const Acc lo_identity = std::numeric_limits<Acc>::has_infinity ? std::numeric_limits<Acc>::infinity()
                                                                 : std::numeric_limits<Acc>::max();
  const Acc hi_identity = std::numeric_limits<Acc>::has_infinity ? -std::numeric_limits<Acc>::infinity()
                                                                 : std::numeric_limits<Acc>::lowest();
  Acc mn[kLanes], mx[kLanes];
  for (int j = 0; j < kLanes; ++j) {
    mn[j] = lo;
    mx[j] = hi;
  }
  int64_t i = 0;
  if (all_valid) {
    for (; i + kLanes <= n; i += kLanes) {
      for (int j = 0; j < kLanes; ++j) {
        Acc v = Acc(values[i + j]);
        mn[j] = v < mn[j] ? v : mn[j];
        mx[j] = v > mx[j] ? v : mx[j];
      }
    }
  } else {
    for (; i + kLanes <= n; i += kLanes) {
      for (int j = 0; j < kLanes; ++j) {
        const bool valid = (word >> (i + j)) & 1;
        Acc v = Acc(values[i + j]);
        Acc vmin = valid ? v : lo_identity;
        Acc vmax = valid ? v : hi_identity;
        mn[j] = vmin < mn[j] ? vmin : mn[j];
        mx[j] = vmax > mx[j] ? vmax : mx[j];
      }
    }
  }
  for (; i < n; ++i) {
    if (!all_valid && !((word >> i) & 1)) continue;
    Acc v = Acc(values[i]);
    mn[0] = v < mn[0] ? v : mn[0];
    mx[0] = v > mx[0] ? v : mx[0];
  }
  for (int j = 0; j < kLanes; ++j) {
    lo = mn[j] < lo ? mn[j] : lo;
    hi = mx[j] > hi ? mx[j] : hi;
  }
}

// Folds min/max over the valid values, 64 slots at a time; returns how many were valid.
template <typename T, typename Acc>
int64_t fold_min_max(const ArrayData& a, Acc& lo, Acc& hi) {
  const T* values = a.buffers[1].as<T>() + a.offset;
  const uint8_t* validity = a.null_count > 0 ? a.buffers[0].data : nullptr;
  if (validity == nullptr) {
    min_max_block<T, Acc>(values, a.length, 0, true, lo, hi);
    return a.length;
  }
  int64_t valid = 0;
  for (int64_t block = 0; block < a.length; block += 64) {
    const int64_t n = std::min<int64_t>(64, a.length - block);
    const int64_t start = a.offset + block;
    uint64_t word = 0;
    if ((start & 7) == 0 && n == 64) {
      word = bits::load<uint64_t>(validity + (start >> 3));
    } else {
      for (int64_t i = 0; i < n; ++i) word |= uint64_t(bits::get_bit(validity, start + i)) << i;
    }
    if (word == 0) continue;
    const uint64_t full = n == 64 ? ~uint64_t(0) : ((uint64_t(1) << n) - 1);
    min_max_block<T, Acc>(values + block, n, word, word == full, lo, hi);
    valid += std::popcount(word);
  }
  return valid;
}

template <typename T, typename Acc>
void fold_fixed(const ArrayData& a, int64_t& count, Acc& lo, Acc& hi) {
  count += fold_min_max<T, Acc>(a, lo, hi);
}

// NaN never becomes min or max: `v < mn` is false for NaN, so it is skipped
// without a branch (and the loop vectorises to min/max instructions).
template <typename T>
void fold_floats(const ArrayData& a, ColumnScanSummary& s) {
  double mn = std::numeric_limits<double>::infinity();
  double mx = -std::numeric_limits<double>::infinity();
  s.count += fold_min_max<T, double>(a, mn, mx);
  if (mn <= mx) {
    if (!std::holds_alternative<double>(s.min) || mn < std::get<double>(s.min)) s.min = mn;
    if (!std::holds_alternative<double>(s.max) || mx > std::get<double>(s.max)) s.max = mx;
  }
}

void fold_integers(const ArrayData& a, ColumnScanSummary& s) {
  int64_t lo = std::numeric_limits<int64_t>::max();
  int64_t hi = std::numeric_limits<int64_t>::min();
  const int64_t before = s.count;
  switch (a.type->fixed_width()) {
    case 8: fold_fixed<int64_t>(a, s.count, lo, hi); break;
    case 4:
      if (a.type->id == TypeId::kUInt32) {
        fold_fixed<uint32_t>(a, s.count, lo, hi);
      } else {
        fold_fixed<int32_t>(a, s.count, lo, hi);
      }
      break;
    default: {
      for (int64_t i = 0; i < a.length; ++i) {
        if (!a.is_valid(i)) continue;
        int64_t v = integer_at(a, i);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        ++s.count;
      }
    }
  }
  if (s.count == before) return;
  if (!std::holds_alternative<int64_t>(s.min) || lo < std::get<int64_t>(s.min)) s.min = lo;
  if (!std::holds_alternative<int64_t>(s.max) || hi > std::get<int64_t>(s.max)) s.max = hi;
}

void fold_uint64(const ArrayData& a, ColumnScanSummary& s) {
  uint64_t lo = std::numeric_limits<uint64_t>::max(), hi = 0;
  const int64_t before = s.count;
  fold_fixed<uint64_t>(a, s.count, lo, hi);
  if (s.count == before) return;
  if (!std::holds_alternative<uint64_t>(s.min) || lo < std::get<uint64_t>(s.min)) s.min = lo;
  if (!std::holds_alternative<uint64_t>(s.max) || hi > std::get<uint64_t>(s.max)) s.max = hi;
}

void fold_strings(const ArrayData& a, ColumnScanSummary& s) {
  const bool large = a.type->id == TypeId::kLargeString || a.type->id == TypeId::kLargeBinary;
  std::string_view lo, hi;
  bool any = false;
  const uint8_t* data = a.buffers[2].data;
  for (int64_t i = 0; i < a.length; ++i) {
    if (!a.is_valid(i)) continue;
    int64_t k = a.offset + i;
    int64_t begin = large ? a.buffers[1].as<int64_t>()[k] : a.buffers[1].as<int32_t>()[k];
    int64_t end = large ? a.buffers[1].as<int64_t>()[k + 1] : a.buffers[1].as<int32_t>()[k + 1];
    std::string_view v(reinterpret_cast<const char*>(data) + begin, size_t(end - begin));
    ++s.count;
    if (!any) {
      lo = hi = v;
      any = true;
    } else {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  if (!any) return;
  if (!std::holds_alternative<std::string>(s.min) || lo < std::string_view(std::get<std::string>(s.min)))
    s.min = std::string(lo);
  if (!std::holds_alternative<std::string>(s.max) || hi > std::string_view(std::get<std::string>(s.max)))
    s.max = std::string(hi);
}

void fold_list(const ArrayData& a, ColumnScanSummary& s) {
  const ArrayData& child = *a.children[0];
  const bool large = a.type->id == TypeId::kLargeList;
  for (int64_t i = 0; i < a.length; ++i) {
    if (!a.is_valid(i)) {
      ++s.nulls;
      continue;
    }
    int64_t k = a.offset + i;
    int64_t begin = large ? a.buffers[1].as<int64_t>()[k] : a.buffers[1].as<int32_t>()[k];
    int64_t end = large ? a.buffers[1].as<int64_t>()[k + 1] : a.buffers[1].as<int32_t>()[k + 1];
    const TypeId id = child.type->id;
    for (int64_t j = begin; j < end; ++j) {
      if (!child.is_valid(j)) continue;
      ++s.count;
      if (id == TypeId::kFloat64) {
        s.sum_double += child.buffers[1].as<double>()[child.offset + j];
      } else if (id == TypeId::kFloat32) {
        s.sum_double += child.buffers[1].as<float>()[child.offset + j];
      } else if (is_integer_like(id) || id == TypeId::kUInt64) {
        s.sum_int = int64_t(uint64_t(s.sum_int) + uint64_t(integer_at(child, j)));
      }
    }
  }
}

void fold_column(const ArrayData& a, ColumnScanSummary& s);

// A dictionary array: count its non-null rows, then fold min/max over just
// the dictionary entries some row uses (one pass marking them), never over
// every row's value.
void fold_dictionary(const ArrayData& a, ColumnScanSummary& s) {
  const ArrayData& dictionary = *a.dictionary;
  std::vector<uint8_t> used(size_t(bits::bytes_for_bits(dictionary.length)), 0);  // bitmap of used entries
  const int32_t* indices = a.buffers[1].as<int32_t>() + a.offset;
  const uint8_t* validity = a.null_count > 0 && a.buffers[0] ? a.buffers[0].data : nullptr;
  for (int64_t i = 0; i < a.length; ++i) {
    if (validity && !bits::get_bit(validity, a.offset + i)) continue;
    const int32_t index = indices[i];
    if (index < 0 || index >= dictionary.length) throw_invalid("dictionary index out of range");
    bits::set_bit(used.data(), index);
  }
  const std::vector<RowRange> entries = ranges_from_bitmap(used.data(), dictionary.length);
  const int64_t count = s.count;
  fold_column(*select_ranges(dictionary, entries), s);
  s.count = count + a.length - a.null_count;  // rows, not distinct entries
  s.nulls += a.null_count;
}

void fold_column(const ArrayData& a, ColumnScanSummary& s) {
  const TypeId id = a.type->id;
  if (id == TypeId::kDictionary) {
    fold_dictionary(a, s);
    return;
  }
  if (a.type->is_nested() && id != TypeId::kStruct && id != TypeId::kMap) {
    fold_list(a, s);
    return;
  }
  s.nulls += id == TypeId::kNull ? a.length : a.null_count;
  if (is_float(id)) {
    if (id == TypeId::kFloat64) {
      fold_floats<double>(a, s);
    } else {
      fold_floats<float>(a, s);
    }
  } else if (id == TypeId::kUInt64) {
    fold_uint64(a, s);
  } else if (is_integer_like(id)) {
    fold_integers(a, s);
  } else if (id == TypeId::kString || id == TypeId::kBinary || id == TypeId::kLargeString ||
             id == TypeId::kLargeBinary) {
    fold_strings(a, s);
  } else if (id != TypeId::kNull) {
    s.count += a.length - a.null_count;  // structs, maps, decimals...: counted, not ordered
  }
}

}  // namespace

ScanAccumulator::ScanAccumulator(const BatchSchema& schema) {
  for (const Field& field : schema.fields) {
    ColumnScanSummary column;
    column.name = field.name;
    // A dictionary column folds as its values.
    column.type = field.type.id == TypeId::kDictionary ? *field.type.dictionary_value : field.type;
    summary_.columns.push_back(std::move(column));
  }
}

void ScanAccumulator::add(const RecordBatch& batch, int threads) {
  if (batch.columns.size() != summary_.columns.size())
    throw_invalid("batch does not match the scan's schema");
  summary_.rows += batch.num_rows;
  parallel_for(int64_t(batch.columns.size()), threads,
               [&](int64_t c) { fold_column(*batch.columns[size_t(c)], summary_.columns[size_t(c)]); });
}

ScanSummary scan_file(const std::string& path, const ReaderOptions& options) {
  std::unique_ptr<FileReader> reader = FileReader::open(path, options);
  ScanAccumulator accumulator(*reader->batch_schema());
  const int fold_threads = options.threads;
  for (int i = 0; i < reader->num_row_groups(); ++i) {
    if (!options.row_groups.empty()) break;
    accumulator.add(reader->read_row_group(i), fold_threads);
  }
  if (!options.row_groups.empty()) {
    for (int32_t index : options.row_groups) accumulator.add(reader->read_row_group(index), fold_threads);
  }
  return accumulator.summary();
}

}  // namespace parquetry
