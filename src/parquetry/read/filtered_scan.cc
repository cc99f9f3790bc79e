// FilteredScan: prune row groups and pages with the metadata, evaluate the
// predicate on its own columns, then read the rest for surviving rows only.
#include "parquetry/filtered_scan.h"
#include "parquetry/read/dictionary_pages.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <map>
#include <optional>

#include "parquetry/encryption/file_decryptor.h"
#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/page/page_reader.h"
#include "parquetry/read/bloom.h"
#include "parquetry/read/predicate_bind.h"
#include "parquetry/scan.h"
#include "parquetry/table/decode_dictionary.h"
#include "parquetry/table/select.h"
#include "parquetry/util/bit_util.h"
#include "parquetry/util/parallel.h"
#include "parquetry/remote.h"

namespace parquetry {

namespace {

bool is_virtual(const std::string& name) { return name == kRowNumberColumn || name == kRowGroupColumn; }

std::vector<RowRange> intersect(const std::vector<RowRange>& a, const std::vector<RowRange>& b) {
  std::vector<RowRange> out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    int64_t begin = std::max(a[i].begin, b[j].begin);
    int64_t end = std::min(a[i].end, b[j].end);
    if (begin < end) out.push_back({begin, end});
    if (a[i].end < b[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

std::vector<RowRange> unite(const std::vector<RowRange>& a, const std::vector<RowRange>& b) {
  std::vector<RowRange> all;
  all.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(all),
             [](const RowRange& x, const RowRange& y) { return x.begin < y.begin; });
  std::vector<RowRange> out;
  for (const RowRange& r : all) {
    if (!out.empty() && r.begin <= out.back().end) {
      out.back().end = std::max(out.back().end, r.end);
    } else {
      out.push_back(r);
    }
  }
  return out;
}

int64_t total_rows(const std::vector<RowRange>& ranges) {
  int64_t n = 0;
  for (const RowRange& r : ranges) n += r.length();
  return n;
}

// Ranges over the concatenation of `windows` -> ranges over the row group.
std::vector<RowRange> to_row_group(const std::vector<RowRange>& compact,
                                   const std::vector<RowRange>& windows) {
  std::vector<RowRange> out;
  size_t w = 0;
  int64_t window_start = 0;  // compact position of windows[w].begin
  for (RowRange r : compact) {
    while (r.begin < r.end) {
      while (w < windows.size() && r.begin >= window_start + windows[w].length()) {
        window_start += windows[w].length();
        ++w;
      }
      if (w == windows.size()) throw_invalid("filtered scan: selection outside the read ranges");
      const int64_t take = std::min(r.end, window_start + windows[w].length()) - r.begin;
      const int64_t begin = windows[w].begin + (r.begin - window_start);
      if (!out.empty() && out.back().end == begin) {
        out.back().end += take;
      } else {
        out.push_back({begin, begin + take});
      }
      r.begin += take;
    }
  }
  return out;
}

// A row group whose survivors are at most 1 / kSparseSelection of its rows
// decodes the other columns' values only at those rows (fold_claimed).
constexpr int64_t kSparseSelection = 8;

}  // namespace

// Hidden: a nested class takes the visibility of the exported class around it.
struct PARQUETRY_LOCAL FilteredScan::Impl {
  std::string path;
  FilteredScanOptions options;
  Predicate filter;  // NOT pushed down
  std::shared_ptr<RandomAccessSource> source;
  std::unique_ptr<FileReader> predicate_reader;  // predicate columns only; null when the filter reads none
  // A top-level AND is evaluated one conjunct at a time, each reading its
  // own columns only for the rows the previous ones kept, most selective
  // first as measured so far (pass rate = rows kept / rows evaluated).
  struct Conjunct {
    Predicate predicate;
    std::unique_ptr<FileReader> reader;  // null when it reads no column
    int64_t rows_in = 0;
    int64_t rows_out = 0;
    double pass_rate() const { return rows_in == 0 ? 0.5 : double(rows_out) / double(rows_in); }
  };
  std::vector<Conjunct> conjuncts;
  std::unique_ptr<FileReader> data_reader;       // projected file columns; null when only virtual ones
  std::unique_ptr<FileReader> meta_reader;       // footer and schema
  std::optional<StatisticsCatalogue> catalogue;  // what the file's writer got right in its statistics
  std::vector<std::string> virtual_columns;
  std::shared_ptr<const BatchSchema> schema;
  std::vector<int64_t> first_row;  // file row number of each row group's first row
  int next_row_group = 0;
  std::atomic<int>* shared_next = nullptr;  // set when several scans split the row groups
  FilterStats stats;

  const Schema& file_schema() const { return meta_reader->schema(); }
  const FileMetaData& metadata() const { return meta_reader->metadata(); }

  // Whether chunk (rg, c) can be read for pruning, and its keys when it is
  // encrypted. A chunk without its key prunes nothing (reading it fails later).
  bool chunk_crypto(int rg, int32_t c, std::optional<ModuleCrypto>& crypto) const {
    const FileDecryptor* decryptor = file_decryptor_of(*meta_reader);
    if (decryptor == nullptr) return true;
    if (!decryptor->readable(size_t(rg), size_t(c))) return false;
    crypto = decryptor->chunk(size_t(rg), size_t(c), file_schema().column(size_t(c)).path);
    return true;
  }

  const ColumnDescriptor& leaf_column(const std::string& path) const {
    const ColumnDescriptor* column = file_schema().find_column(path);
    if (column == nullptr) throw_invalid("filter: no leaf column " + path + " in " + this->path);
    return *column;
  }

  bool excluded_by_statistics(int rg) const {
    return row_group_excluded_by_statistics(filter, file_schema(), metadata().row_groups[size_t(rg)],
                                            *catalogue);
  }

  bool excluded_by_bloom(int rg) {
    const RowGroup& group = metadata().row_groups[size_t(rg)];
    return predicate_excluded(filter, [&](const Predicate& leaf) {
      if (leaf.kind != Predicate::Kind::kCompare && leaf.kind != Predicate::Kind::kIn) return false;
      if (leaf.kind == Predicate::Kind::kCompare && leaf.op != CompareOp::kEq) return false;
      const ColumnDescriptor& column = leaf_column(leaf.column);
      const ColumnChunk& chunk = group.columns.at(size_t(column.index));
      if (!chunk.meta_data || !chunk.meta_data->bloom_filter_offset) return false;
      std::optional<ModuleCrypto> crypto;
      if (!chunk_crypto(rg, column.index, crypto)) return false;
      for (const Literal& value : leaf.values) {
        if (value.kind == Literal::Kind::kNull) continue;  // never equal
        std::optional<std::string> plain = plain_encode_literal(column, value);
        if (!plain) return false;
        if (bloom_might_contain(*source, *chunk.meta_data, bloom_hash(*plain), &stats.bloom_bytes_read,
                                crypto ? &*crypto : nullptr)) {
          return false;
        }
      }
      return true;
    });
  }

  // Every data page of the chunk is dictionary-encoded (per the page
  // encoding stats), so the dictionary holds every value of the chunk.
  static bool fully_dictionary_encoded(const ColumnMetaData& meta) {
    if (meta.encoding_stats.empty() || !meta.dictionary_page_offset) return false;
    return data_pages_dictionary_encoded(meta.encoding_stats);
  }

  // The PLAIN-encoded dictionary values of a chunk (byte arrays without
  // their length prefix); nullopt when it cannot be read as expected.
  std::optional<std::vector<std::string>> dictionary_values(const ColumnDescriptor& column,
                                                            const ColumnMetaData& meta, int rg) {
    ErrorLocation where;
    where.file = path;
    where.column = column.path;
    where.row_group = rg;
    std::optional<ModuleCrypto> crypto;
    if (!chunk_crypto(rg, column.index, crypto)) return std::nullopt;
    PageReaderOptions page_options;
    if (crypto) page_options.crypto = &*crypto;
    PageReader pages(*source, meta, page_options, where);
    Page page;
    if (!pages.next(page) || page.type != PageType::DICTIONARY_PAGE) return std::nullopt;
    if (page.encoding != Encoding::PLAIN && page.encoding != Encoding::PLAIN_DICTIONARY) return std::nullopt;
    stats.dictionary_bytes_read += int64_t(page.body.size());
    std::vector<std::string> values;
    const uint8_t* at = page.body.data();
    const uint8_t* end = at + page.body.size();
    size_t width = 0;
    switch (column.physical_type) {
      case Type::INT32:
      case Type::FLOAT: width = 4; break;
      case Type::INT64:
      case Type::DOUBLE: width = 8; break;
      case Type::FIXED_LEN_BYTE_ARRAY: width = size_t(column.type_length); break;
      case Type::BYTE_ARRAY: break;
      default: return std::nullopt;
    }
    for (int64_t i = 0; i < page.num_values; ++i) {
      size_t size = width;
      if (column.physical_type == Type::BYTE_ARRAY) {
        if (end - at < 4) return std::nullopt;
        uint32_t length;
        std::memcpy(&length, at, 4);
        at += 4;
        size = length;
      }
      if (size_t(end - at) < size) return std::nullopt;
      values.emplace_back(reinterpret_cast<const char*>(at), size);
      at += size;
    }
    return values;
  }

  bool excluded_by_dictionary(int rg) {
    const RowGroup& group = metadata().row_groups[size_t(rg)];
    return predicate_excluded(filter, [&](const Predicate& leaf) {
      if (leaf.kind != Predicate::Kind::kCompare && leaf.kind != Predicate::Kind::kIn) return false;
      if (leaf.kind == Predicate::Kind::kCompare && leaf.op != CompareOp::kEq) return false;
      const ColumnDescriptor& column = leaf_column(leaf.column);
      const ColumnChunk& chunk = group.columns.at(size_t(column.index));
      if (!chunk.meta_data || !fully_dictionary_encoded(*chunk.meta_data)) return false;
      // Floats: -0.0 equals +0.0 but their bytes differ; leave them to the statistics.
      if (column.physical_type == Type::FLOAT || column.physical_type == Type::DOUBLE) return false;
      std::vector<std::string> wanted;
      for (const Literal& value : leaf.values) {
        if (value.kind == Literal::Kind::kNull) continue;
        std::optional<std::string> plain = plain_encode_literal(column, value);
        if (!plain) return false;
        wanted.push_back(std::move(*plain));
      }
      std::optional<std::vector<std::string>> values = dictionary_values(column, *chunk.meta_data, rg);
      if (!values) return false;
      for (const std::string& value : *values) {
        if (std::find(wanted.begin(), wanted.end(), value) != wanted.end()) return false;
      }
      return true;
    });
  }

  // Row ranges of pages whose column-index bounds may satisfy `p`.
  std::vector<RowRange> page_candidates(const Predicate& p, int rg,
                                        std::map<int32_t, std::pair<ColumnIndex, OffsetIndex>>& cache) {
    const int64_t rows = metadata().row_groups[size_t(rg)].num_rows;
    const std::vector<RowRange> all = {{0, rows}};
    switch (p.kind) {
      case Predicate::Kind::kTrue: return all;
      case Predicate::Kind::kFalse: return {};
      case Predicate::Kind::kAnd: {
        std::vector<RowRange> out = all;
        for (const Predicate& c : p.children) out = intersect(out, page_candidates(c, rg, cache));
        return out;
      }
      case Predicate::Kind::kOr: {
        std::vector<RowRange> out;
        for (const Predicate& c : p.children) out = unite(out, page_candidates(c, rg, cache));
        return out;
      }
      case Predicate::Kind::kNot: return all;
      default: break;
    }
    const ColumnDescriptor& column = leaf_column(p.column);
    if (column.max_repetition_level > 0) return all;  // pages hold values, not rows
    const ColumnChunk& chunk = metadata().row_groups[size_t(rg)].columns.at(size_t(column.index));
    if (!chunk.column_index_offset || !chunk.column_index_length || !chunk.offset_index_offset ||
        !chunk.offset_index_length) {
      return all;
    }
    auto found = cache.find(column.index);
    if (found == cache.end()) {
      std::optional<ModuleCrypto> crypto;
      if (!chunk_crypto(rg, column.index, crypto)) return all;
      Buffer scratch, plaintext;
      std::span<const uint8_t> bytes = source->read(*chunk.column_index_offset, *chunk.column_index_length, scratch);
      if (crypto) bytes = crypto->decrypt(ModuleType::kColumnIndex, -1, bytes, plaintext);
      ColumnIndex column_index = decode_column_index(bytes);
      bytes = source->read(*chunk.offset_index_offset, *chunk.offset_index_length, scratch);
      if (crypto) bytes = crypto->decrypt(ModuleType::kOffsetIndex, -1, bytes, plaintext);
      OffsetIndex offset_index = decode_offset_index(bytes);
      found =
          cache.emplace(column.index, std::make_pair(std::move(column_index), std::move(offset_index))).first;
    }
    const ColumnIndex& index = found->second.first;
    const std::vector<PageLocation>& pages = found->second.second.page_locations;
    const size_t n = pages.size();
    if (index.null_pages.size() != n || index.min_values.size() != n || index.max_values.size() != n)
      return all;
    if (!chunk.meta_data) return all;
    const StatisticsTrust trust = catalogue->column_index_trust(column, *chunk.meta_data);
    std::vector<RowRange> out;
    for (size_t i = 0; i < n; ++i) {
      const int64_t begin = pages[i].first_row_index;
      const int64_t end = i + 1 < n ? pages[i + 1].first_row_index : rows;
      if (begin < 0 || end > rows || begin >= end) return all;  // inconsistent index: trust nothing
      // The writer catalogue decides whether null_pages / null_counts and
      // the page bounds may be used; NaN bounds are dropped per page.
      ValueBounds bounds;
      if (trust.null_count_usable()) {
        bounds.all_null = index.null_pages[i];
        if (!index.null_counts.empty() && index.null_counts.size() == n)
          bounds.null_count = index.null_counts[i];
      }
      bounds.num_values = end - begin;
      if (!index.null_pages[i]) {
        Statistics page_statistics;
        page_statistics.min_value = index.min_values[i];
        page_statistics.max_value = index.max_values[i];
        ValueBounds checked = usable_bounds(column, page_statistics, end - begin, trust);
        bounds.min = std::move(checked.min);
        bounds.max = std::move(checked.max);
      }
      if (bounds_exclude(p, column, bounds)) continue;
      if (!out.empty() && out.back().end == begin) {
        out.back().end = end;
      } else {
        out.push_back({begin, end});
      }
    }
    return out;
  }

  // Compressed bytes of the chunks the scan would have read in a row group.
  int64_t projected_bytes(int rg) const {
    std::vector<int32_t> columns;
    for (FileReader* reader : {predicate_reader.get(), data_reader.get()}) {
      if (reader == nullptr) continue;
      for (int32_t c : reader->selected_columns()) {
        if (std::find(columns.begin(), columns.end(), c) == columns.end()) columns.push_back(c);
      }
    }
    int64_t bytes = 0;
    const RowGroup& group = metadata().row_groups[size_t(rg)];
    for (int32_t c : columns) {
      const ColumnChunk& chunk = group.columns.at(size_t(c));
      if (chunk.meta_data) bytes += chunk.meta_data->total_compressed_size;
    }
    return bytes;
  }

  void append_virtual(int rg, const std::vector<RowRange>& ranges, int64_t rows, RecordBatch& out) const {
    for (const std::string& name : virtual_columns) {
      auto array = std::make_shared<ArrayData>();
      array->length = rows;
      Buffer values;
      if (name == kRowNumberColumn) {
        array->type = std::make_shared<DataType>(DataType::make(TypeId::kInt64));
        values.resize(size_t(rows) * sizeof(int64_t));
        int64_t* v = reinterpret_cast<int64_t*>(values.data());
        int64_t k = 0;
        for (const RowRange& r : ranges) {
          for (int64_t row = r.begin; row < r.end; ++row) v[k++] = first_row[size_t(rg)] + row;
        }
      } else {
        array->type = std::make_shared<DataType>(DataType::make(TypeId::kInt32));
        values.resize(size_t(rows) * sizeof(int32_t));
        int32_t* v = reinterpret_cast<int32_t*>(values.data());
        std::fill(v, v + rows, static_cast<int32_t>(rg));
      }
      array->buffers = {BufferRef{}, BufferRef::adopt(std::move(values))};
      out.columns.push_back(std::move(array));
    }
  }

  // What the filter keeps of one row group.
  struct Evaluation {
    int rg = -1;
    int64_t rows = 0;                  // rows of the row group
    std::vector<RowRange> candidates;  // rows read for the predicate (pages the page index kept)
    int64_t kept = 0;                  // surviving rows
    // Either the surviving rows as row-group ranges, or (filter evaluated
    // on one batch) a bitmap over the candidate rows with that batch.
    std::vector<RowRange> selected;
    bool has_bitmap = false;
    std::vector<uint8_t> bitmap;
    RecordBatch predicate_batch;

    bool all_candidates() const {
      return candidates.size() == 1 && candidates[0].begin == 0 && candidates[0].end == rows;
    }
  };

  // The next row group a scan works on: the shared counter when several
  // scans split the file, else this scan's own.
  int claim_row_group() {
    if (shared_next != nullptr) return shared_next->fetch_add(1);
    return next_row_group++;
  }

  // Reads rows `ranges` of a row group (no ranges when they cover it whole, so nothing is copied).
  static RecordBatch read_rows(FileReader& reader, int rg, const std::vector<RowRange>& ranges, bool whole) {
    return whole ? reader.read_row_group(rg) : reader.read_row_group(rg, ranges);
  }

  // Prunes row group `rg` and evaluates the filter on what is left; false
  // when no row survives.
  bool evaluate(int rg, Evaluation& e) {
    e = Evaluation{};
    e.rg = rg;
    const int64_t rows = metadata().row_groups[size_t(rg)].num_rows;
    e.rows = rows;
    ++stats.row_groups;
    stats.rows_total += rows;
    if (options.use_statistics && excluded_by_statistics(rg)) {
      ++stats.row_groups_pruned_statistics;
      stats.bytes_pruned_row_groups += projected_bytes(rg);
      return false;
    }
    if (options.use_dictionary && excluded_by_dictionary(rg)) {
      ++stats.row_groups_pruned_dictionary;
      stats.bytes_pruned_row_groups += projected_bytes(rg);
      return false;
    }
    if (options.use_bloom_filter && excluded_by_bloom(rg)) {
      ++stats.row_groups_pruned_bloom;
      stats.bytes_pruned_row_groups += projected_bytes(rg);
      return false;
    }
    e.candidates = {{0, rows}};
    if (options.use_page_index && predicate_reader) {
      std::map<int32_t, std::pair<ColumnIndex, OffsetIndex>> cache;
      e.candidates = page_candidates(filter, rg, cache);
      if (e.candidates.empty()) {
        ++stats.row_groups_pruned_page_index;
        stats.bytes_pruned_row_groups += projected_bytes(rg);
        return false;
      }
    }
    if (rows == 0) return false;
    stats.rows_after_page_index += total_rows(e.candidates);
    if (!conjuncts.empty()) {
      e.selected = evaluate_conjuncts(rg, e.candidates);
      e.kept = total_rows(e.selected);
    } else if (predicate_reader) {
      e.predicate_batch = read_rows(*predicate_reader, rg, e.candidates, e.all_candidates());
      e.kept = evaluate_predicate(filter, e.predicate_batch, e.bitmap);
      e.has_bitmap = true;
    } else if (filter.kind != Predicate::Kind::kFalse) {
      e.selected = e.candidates;
      e.kept = total_rows(e.selected);
    }
    if (e.kept == 0) return false;
    stats.rows_selected += e.kept;
    return true;
  }

  // The surviving rows of an evaluation as row-group ranges.
  static std::vector<RowRange> selected_ranges(const Evaluation& e) {
    if (!e.has_bitmap) return e.selected;
    return to_row_group(ranges_from_bitmap(e.bitmap.data(), total_rows(e.candidates)), e.candidates);
  }

  bool next(RecordBatch& out) {
    for (int rg = claim_row_group(); rg < meta_reader->num_row_groups(); rg = claim_row_group()) {
      Evaluation e;
      if (!evaluate(rg, e)) continue;
      const std::vector<RowRange> selected = selected_ranges(e);
      const int64_t kept = e.kept;
      out = RecordBatch{};
      out.schema = schema;
      out.num_rows = kept;
      if (data_reader) {
        RecordBatch data;
        const bool dense = !options.late_materialization ||
                           static_cast<double>(kept) > options.dense_fraction * static_cast<double>(e.rows);
        if (dense) {
          ++stats.dense_row_groups;
          data = data_reader->read_row_group(rg);
          if (kept != e.rows) data = select_ranges(data, selected);
        } else {
          data = data_reader->read_row_group(rg, selected);
        }
        out.columns = std::move(data.columns);
      }
      append_virtual(rg, selected, kept, out);
      refresh_reader_stats();
      return true;
    }
    refresh_reader_stats();
    return false;
  }

  // Output columns the predicate batch already holds (top-level leaves):
  // next_selection and the fold take them from there instead of reading
  // their chunks twice. The predicate reads dictionary-encoded columns as
  // dictionary arrays; an output that wants their values decodes them from
  // those indices (decode_dictionary), which costs what the data reader's
  // own gather would, without its decompression and index decoding. Built
  // on first use.
  struct Reuse {
    std::unique_ptr<FileReader> rest_reader;  // the other projected file columns; null if none
    std::vector<int> from_predicate;          // per data field: predicate batch column, or -1
    std::vector<bool> decode;                 // per data field: from_predicate is a dictionary to decode
    std::vector<int> from_rest;               // per data field: rest_reader column, or -1
  };

  // Data field f as the output wants it, from the predicate batch.
  std::shared_ptr<ArrayData> shared_field(const Evaluation& e, size_t f) const {
    const std::shared_ptr<ArrayData>& column = e.predicate_batch.columns[size_t(reuse->from_predicate[f])];
    return reuse->decode[f] ? decode_dictionary(*column) : column;
  }
  std::optional<Reuse> reuse;

  // Also opens the reader of the columns not shared: its row-group reads
  // fetch only their chunks, where the data reader's would fetch the shared
  // ones a second time.
  void build_reuse() {
    reuse.emplace();
    const std::vector<Field>& fields = data_reader->batch_schema()->fields;
    reuse->from_predicate.assign(fields.size(), -1);
    reuse->decode.assign(fields.size(), false);
    reuse->from_rest.assign(fields.size(), -1);
    std::vector<std::string> rest;
    const std::vector<Field>* predicate_fields =
        predicate_reader ? &predicate_reader->batch_schema()->fields : nullptr;
    for (size_t f = 0; f < fields.size(); ++f) {
      const SchemaNode* node = file_schema().find_node(fields[f].name);
      const bool leaf = node != nullptr && node->kind() == NodeKind::kLeaf;
      if (leaf && conjuncts.empty() && predicate_fields != nullptr) {
        for (size_t p = 0; p < predicate_fields->size(); ++p) {
          const Field& predicate_field = (*predicate_fields)[p];
          if (predicate_field.name != fields[f].name) continue;
          if (predicate_field.type == fields[f].type) {
            reuse->from_predicate[f] = int(p);
            reuse->decode[f] = false;
          } else if (predicate_field.type.id == TypeId::kDictionary &&
                     predicate_field.type.dictionary_value &&
                     *predicate_field.type.dictionary_value == fields[f].type &&
                     can_decode_dictionary(fields[f].type)) {
            reuse->from_predicate[f] = int(p);
            reuse->decode[f] = true;
          }
        }
      }
      if (reuse->from_predicate[f] < 0) {
        reuse->from_rest[f] = int(rest.size());
        rest.push_back(fields[f].name);
      }
    }
    if (rest.size() == fields.size()) return;  // nothing shared: the data reader does it all
    if (!rest.empty()) {
      ReaderOptions rest_options;
      rest_options.threads = options.threads;
      rest_options.use_mmap = options.use_mmap;
      rest_options.coalesce_gap = options.coalesce_gap;
      rest_options.coalesce_max_size = options.coalesce_max_size;
      rest_options.decryption = options.decryption;
      rest_options.dictionary_arrays = options.dictionary_arrays;
      rest_options.columns = rest;
      reuse->rest_reader = FileReader::open(source, rest_options);
      const std::vector<Field>& got = reuse->rest_reader->batch_schema()->fields;
      bool same = got.size() == rest.size();
      for (size_t i = 0; same && i < got.size(); ++i) same = got[i].name == rest[i];
      if (!same) {
        reuse->from_predicate.assign(fields.size(), -1);  // a name that did not map 1:1: share nothing
        reuse->decode.assign(fields.size(), false);
        reuse->rest_reader.reset();
        return;
      }
    }
  }

  // The survivors of an evaluation as a bitmap over its candidate rows.
  static void take_selection(Evaluation& e, std::vector<uint8_t>& selection) {
    if (e.has_bitmap) {
      selection = std::move(e.bitmap);
      return;
    }
    selection.assign(size_t(bits::bytes_for_bits(total_rows(e.candidates))), 0);
    for (const RowRange& r : to_local_ranges(e.selected, e.candidates)) {
      for (int64_t i = r.begin; i < r.end; ++i) bits::set_bit(selection.data(), i);
    }
  }

  // Folds the survivors of every row group this scan claims, one output
  // column at a time: each is decoded and folded through the selection
  // before the next is decoded, while its values are still in cache (one
  // column of a row group is ~0.5 MB of indices; the whole row group is not).
  ScanSummary fold_claimed() {
    std::vector<ScanAccumulator> folds;  // one per output column
    std::vector<std::shared_ptr<BatchSchema>> column_schemas;
    for (const Field& field : schema->fields) {
      auto one = std::make_shared<BatchSchema>();
      one->fields.push_back(field);
      folds.emplace_back(*one);
      column_schemas.push_back(std::move(one));
    }
    const size_t data_fields = data_reader ? data_reader->batch_schema()->fields.size() : 0;
    // The other columns come from the reader of just them, whose row-group
    // fetch leaves out the predicate columns' chunks (read already).
    if (data_reader && !reuse) build_reuse();
    int64_t rows = 0;
    std::vector<uint8_t> selection;
    RecordBatch column;
    for (int rg = claim_row_group(); rg < meta_reader->num_row_groups(); rg = claim_row_group()) {
      Evaluation e;
      if (!evaluate(rg, e)) continue;
      rows += e.kept;
      const bool whole = e.all_candidates();
      const int64_t read_rows_count = total_rows(e.candidates);
      take_selection(e, selection);
      // Every row kept (a non-selective filter): fold as the full scan does, without the bitmap.
      const bool every_row = e.kept == read_rows_count;
      auto fold = [&](size_t f, std::shared_ptr<ArrayData> array, bool survivors_only = false) {
        column.schema = column_schemas[f];
        column.num_rows = survivors_only ? e.kept : read_rows_count;
        column.columns.assign(1, std::move(array));
        folds[f].add(column, survivors_only || every_row ? nullptr : selection.data());
        column.columns.clear();  // unshared again: the next column decodes into the same memory
      };
      // A sparse selection over the whole row group: the other columns decode
      // their values only at the surviving rows (levels and pages are still
      // read whole). Denser ones decode everything and fold through the
      // bitmap, which costs less per row than finding each row's value.
      const bool sparse = whole && e.kept * kSparseSelection <= e.rows;
      for (size_t f = 0; f < data_fields; ++f) {
        if (reuse->from_predicate[f] >= 0) {
          fold(f, shared_field(e, f));
          continue;
        }
        FileReader& reader = reuse->rest_reader ? *reuse->rest_reader : *data_reader;
        const int field = reuse->rest_reader ? reuse->from_rest[f] : int(f);
        if (sparse) {
          fold(f, reader.read_field_selected(rg, field, selection.data()), true);
        } else {
          fold(f, whole ? reader.read_field(rg, field) : reader.read_field(rg, field, e.candidates));
        }
      }
      if (!virtual_columns.empty()) {
        RecordBatch virtual_batch;
        append_virtual(rg, e.candidates, read_rows_count, virtual_batch);
        for (size_t v = 0; v < virtual_columns.size(); ++v) fold(data_fields + v, virtual_batch.columns[v]);
      }
    }
    refresh_reader_stats();
    ScanSummary summary;
    summary.rows = rows;
    for (const ScanAccumulator& f : folds) summary.columns.push_back(f.summary().columns.at(0));
    return summary;
  }

  int64_t next_selection(RecordBatch& out, std::vector<uint8_t>& selection) {
    for (int rg = claim_row_group(); rg < meta_reader->num_row_groups(); rg = claim_row_group()) {
      Evaluation e;
      if (!evaluate(rg, e)) continue;
      const bool whole = e.all_candidates();
      const int64_t read_rows_count = total_rows(e.candidates);
      take_selection(e, selection);
      out = RecordBatch{};
      out.schema = schema;
      out.num_rows = read_rows_count;
      if (data_reader) {
        if (!reuse) build_reuse();
        const bool shares = std::any_of(reuse->from_predicate.begin(), reuse->from_predicate.end(),
                                        [](int p) { return p >= 0; });
        if (!shares) {
          out.columns = read_rows(*data_reader, rg, e.candidates, whole).columns;
        } else {
          RecordBatch rest;
          if (reuse->rest_reader) rest = read_rows(*reuse->rest_reader, rg, e.candidates, whole);
          for (size_t f = 0; f < reuse->from_predicate.size(); ++f) {
            out.columns.push_back(reuse->from_predicate[f] >= 0 ? shared_field(e, f)
                                                                : rest.columns[size_t(reuse->from_rest[f])]);
          }
        }
      }
      append_virtual(rg, e.candidates, read_rows_count, out);
      refresh_reader_stats();
      return e.kept;
    }
    refresh_reader_stats();
    return 0;
  }

  // Rows of `candidates` every conjunct keeps, conjuncts in learned order.
  std::vector<RowRange> evaluate_conjuncts(int rg, std::vector<RowRange> ranges) {
    std::vector<size_t> order(conjuncts.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return conjuncts[a].pass_rate() < conjuncts[b].pass_rate(); });
    for (size_t k : order) {
      if (ranges.empty()) break;
      Conjunct& conjunct = conjuncts[k];
      const int64_t rows = total_rows(ranges);
      RecordBatch batch;
      if (conjunct.reader) {
        batch = conjunct.reader->read_row_group(rg, ranges);
      } else {
        batch.num_rows = rows;
      }
      std::vector<uint8_t> bitmap;
      evaluate_predicate(conjunct.predicate, batch, bitmap);
      ranges = to_row_group(ranges_from_bitmap(bitmap.data(), batch.num_rows), ranges);
      conjunct.rows_in += rows;
      conjunct.rows_out += total_rows(ranges);
    }
    return ranges;
  }

  void refresh_reader_stats() {
    stats.pages_read = stats.pages_skipped = stats.bytes_skipped = 0;
    std::vector<FileReader*> readers = {predicate_reader.get(), data_reader.get()};
    if (reuse) readers.push_back(reuse->rest_reader.get());  // the columns not shared
    for (const Conjunct& conjunct : conjuncts) readers.push_back(conjunct.reader.get());
    for (FileReader* reader : readers) {
      if (reader == nullptr) continue;
      FileReader::Stats s = reader->stats();
      stats.pages_read += s.pages_read;
      stats.pages_skipped += s.pages_skipped;
      stats.bytes_skipped += s.bytes_skipped;
    }
  }
};

std::unique_ptr<FilteredScan> FilteredScan::open(const std::string& path, FilteredScanOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->filter = push_down_not(options.filter);
  impl->source = open_source(path, options.use_mmap);
  ReaderOptions base;
  base.threads = options.threads;
  base.use_mmap = options.use_mmap;
  base.coalesce_gap = options.coalesce_gap;
  base.coalesce_max_size = options.coalesce_max_size;
  base.decryption = options.decryption;
  impl->meta_reader = FileReader::open(impl->source, base);
  impl->catalogue.emplace(impl->meta_reader->metadata());
  // Every filter column must be a leaf the statistics describe.
  const std::vector<std::string> filter_columns = impl->filter.columns();
  for (const std::string& column : filter_columns) impl->leaf_column(column);
  if (!filter_columns.empty()) {
    ReaderOptions predicate_options = base;
    predicate_options.columns = filter_columns;
    // Predicates on dictionary arrays are evaluated once per dictionary entry.
    predicate_options.dictionary_arrays = true;
    impl->predicate_reader = FileReader::open(impl->source, predicate_options);
    if (impl->filter.kind == Predicate::Kind::kAnd && options.adaptive_order) {
      // Conjuncts sharing a column are evaluated together (a range's two
      // bounds read the column once); each group reads its own columns.
      std::vector<std::pair<Predicate, std::vector<std::string>>> groups;
      for (const Predicate& child : impl->filter.children) {
        std::vector<std::string> columns = child.columns();
        auto shares = [&](const std::vector<std::string>& other) {
          return std::any_of(columns.begin(), columns.end(), [&](const std::string& c) {
            return std::find(other.begin(), other.end(), c) != other.end();
          });
        };
        auto group =
            std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return shares(g.second); });
        if (group == groups.end()) {
          groups.emplace_back(child, std::move(columns));
          continue;
        }
        if (group->first.kind != Predicate::Kind::kAnd) {
          Predicate both;
          both.kind = Predicate::Kind::kAnd;
          both.children.push_back(std::move(group->first));
          group->first = std::move(both);
        }
        group->first.children.push_back(child);
        for (std::string& c : columns) {
          if (std::find(group->second.begin(), group->second.end(), c) == group->second.end()) {
            group->second.push_back(std::move(c));
          }
        }
      }
      for (auto& [predicate, columns] : groups) {
        if (groups.size() < 2) break;  // one group: nothing to order
        Impl::Conjunct conjunct;
        conjunct.predicate = std::move(predicate);
        if (!columns.empty()) {
          ReaderOptions conjunct_options = predicate_options;
          conjunct_options.columns = columns;
          conjunct.reader = FileReader::open(impl->source, conjunct_options);
        }
        impl->conjuncts.push_back(std::move(conjunct));
      }
    }
  }
  std::vector<std::string> file_columns;
  for (const std::string& name : options.columns) {
    if (is_virtual(name)) {
      impl->virtual_columns.push_back(name);
    } else {
      file_columns.push_back(name);
    }
  }
  if (options.columns.empty() || !file_columns.empty()) {
    ReaderOptions data_options = base;
    data_options.columns = file_columns;
    data_options.dictionary_arrays = options.dictionary_arrays;
    impl->data_reader = FileReader::open(impl->source, data_options);
  }
  auto schema = std::make_shared<BatchSchema>();
  if (impl->data_reader) schema->fields = impl->data_reader->batch_schema()->fields;
  for (const std::string& name : impl->virtual_columns) {
    schema->fields.push_back(Field{
        name, DataType::make(name == kRowNumberColumn ? TypeId::kInt64 : TypeId::kInt32), false, -1, {}});
  }
  impl->schema = std::move(schema);
  int64_t row = 0;
  for (const RowGroup& group : impl->metadata().row_groups) {
    impl->first_row.push_back(row);
    row += group.num_rows;
  }
  impl->options = std::move(options);
  return std::unique_ptr<FilteredScan>(new FilteredScan(std::move(impl)));
}

FilteredScan::FilteredScan(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FilteredScan::~FilteredScan() = default;

std::shared_ptr<const BatchSchema> FilteredScan::schema() const { return impl_->schema; }
bool FilteredScan::next(RecordBatch& out) { return impl_->next(out); }
const FilterStats& FilteredScan::stats() const { return impl_->stats; }

int64_t FilteredScan::next_selection(RecordBatch& out, std::vector<uint8_t>& selection) {
  return impl_->next_selection(out, selection);
}

namespace {

// Folds the survivors of every row group `scan` claims, whole batches with
// their columns spread over `fold_threads` threads.
ScanSummary fold_selections(FilteredScan& scan, int fold_threads) {
  ScanAccumulator accumulator(*scan.schema());
  RecordBatch batch;
  std::vector<uint8_t> selection;
  while (scan.next_selection(batch, selection) > 0) accumulator.add(batch, selection.data(), fold_threads);
  return accumulator.summary();
}

}  // namespace

ScanSummary FilteredScan::fold(const std::string& path, const FilteredScanOptions& options) {
  const int threads = std::max(1, options.threads);
  if (threads == 1) {
    std::unique_ptr<FilteredScan> scan = open(path, options);
    return scan->impl_->fold_claimed();
  }
  // One scan per thread, each decoding and folding whole row groups claimed
  // from a shared counter: no thread waits on another's column, and the
  // predicate's own evaluation runs in parallel too.
  FilteredScanOptions single = options;
  single.threads = 1;
  std::unique_ptr<FilteredScan> first = open(path, single);
  const int row_groups = first->impl_->meta_reader->num_row_groups();
  if (row_groups < 2) {  // one row group: its columns in parallel instead
    std::unique_ptr<FilteredScan> scan = open(path, options);
    return fold_selections(*scan, threads);
  }
  const int workers = std::min(threads, row_groups);
  std::atomic<int> next_row_group{0};
  first->impl_->shared_next = &next_row_group;
  std::vector<ScanSummary> parts(static_cast<size_t>(workers));
  parallel_for(workers, workers, [&](int64_t w) {
    std::unique_ptr<FilteredScan> own;
    if (w > 0) {
      own = open(path, single);
      own->impl_->shared_next = &next_row_group;
    }
    parts[size_t(w)] = (w == 0 ? *first : *own).impl_->fold_claimed();
  });
  ScanAccumulator total(*first->schema());
  for (const ScanSummary& part : parts) total.merge(part);
  return total.summary();
}

std::string FilteredScan::explain() const {
  const FilterStats& s = impl_->stats;
  std::string out;
  auto line = [&](const std::string& label, int64_t value) {
    out += "  " + label + ": " + std::to_string(value) + "\n";
  };
  out += "filter: " + impl_->filter.to_string() + "\n";
  line("row groups", s.row_groups);
  line("  pruned by statistics", s.row_groups_pruned_statistics);
  line("  pruned by dictionary", s.row_groups_pruned_dictionary);
  line("  pruned by bloom filter", s.row_groups_pruned_bloom);
  line("  pruned by page index", s.row_groups_pruned_page_index);
  line("  read with other columns decoded whole", s.dense_row_groups);
  line("rows in row groups", s.rows_total);
  line("rows in pages read for the filter", s.rows_after_page_index);
  line("rows selected", s.rows_selected);
  line("pages read", s.pages_read);
  line("pages skipped (page index / late materialization)", s.pages_skipped);
  line("bytes skipped in read row groups", s.bytes_skipped);
  line("bytes of pruned row groups not read", s.bytes_pruned_row_groups);
  line("bloom filter bytes read", s.bloom_bytes_read);
  line("dictionary bytes read", s.dictionary_bytes_read);
  if (!impl_->conjuncts.empty()) {
    // The learned order: most selective first.
    std::vector<const Impl::Conjunct*> order;
    for (const auto& c : impl_->conjuncts) order.push_back(&c);
    std::stable_sort(order.begin(), order.end(), [](const Impl::Conjunct* a, const Impl::Conjunct* b) {
      return a->pass_rate() < b->pass_rate();
    });
    out += "conjuncts, most selective first (rows kept / rows evaluated):\n";
    for (const Impl::Conjunct* c : order) {
      out += "  " + c->predicate.to_string() + ": " + std::to_string(c->rows_out) + " / " +
             std::to_string(c->rows_in) + "\n";
    }
  }
  return out;
}

}  // namespace parquetry
