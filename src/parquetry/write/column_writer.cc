// The column chunk writer: levels + dense physical values -> encoded,
// compressed pages, with statistics, page index entries and Bloom filter
// hashes gathered on the way.
//
// Values are encoded as they arrive (dictionary indices, PLAIN bytes or a
// streaming encoder) so nothing of the caller's batch is kept. A page is
// closed at a record boundary (repetition level 0) once it reaches the byte
// or row limit; the input is walked in slices of whole records, so the
// limits are checked at a fine grain without a check per value.
//
// Dictionary trial: a chunk starts dictionary-encoded, and when its first
// page is about to close (or the page's PLAIN size reaches the page limit)
// the writer compares the dictionary page plus the indices with the PLAIN
// size of the same values. When the dictionary does not make them smaller
// (high-cardinality values such as random ints or ids) the chunk drops the
// dictionary: the open page's values are gathered back from the dictionary
// and re-encoded with the fallback encoding, no dictionary page is written
// and no value of the chunk is hashed again.
//
// Dictionary fallback: when a slice would push the dictionary past its byte
// limit after pages were already written with it, the page accumulated so
// far is closed with dictionary indices and the slice (whole records) is
// encoded again with the fallback encoding, so a page never mixes encodings
// and never splits a record. (Before the first dictionary page, overflowing
// the limit drops the dictionary as the trial does.)
//
// Levels are RLE-encoded as they arrive; a slice whose levels are all
// max_def (a column without nulls) is one run, not a level per value.
#include <libdeflate.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "parquetry/encoding/buffer_append.h"
#include "parquetry/encoding/byte_stream_split.h"
#include "parquetry/encoding/delta.h"
#include "parquetry/encoding/dictionary.h"
#include "parquetry/encoding/plain.h"
#include "parquetry/encoding/rle.h"
#include "parquetry/error.h"
#include "parquetry/io.h"
#include "parquetry/util/bit_util.h"
#include "parquetry/util/block_pool.h"
#include "parquetry/write/write_internal.h"

namespace parquetry::write {
namespace {

constexpr int64_t kSliceRows = 1024;

bool encoding_fits(Encoding encoding, Type type) {
  switch (encoding) {
    case Encoding::PLAIN: return true;
    case Encoding::RLE: return type == Type::BOOLEAN;
    case Encoding::DELTA_BINARY_PACKED: return type == Type::INT32 || type == Type::INT64;
    case Encoding::DELTA_LENGTH_BYTE_ARRAY: return type == Type::BYTE_ARRAY;
    case Encoding::DELTA_BYTE_ARRAY: return type == Type::BYTE_ARRAY || type == Type::FIXED_LEN_BYTE_ARRAY;
    case Encoding::BYTE_STREAM_SPLIT:
      return type == Type::FLOAT || type == Type::DOUBLE || type == Type::INT32 || type == Type::INT64 ||
             type == Type::FIXED_LEN_BYTE_ARRAY;
    default: return false;
  }
}

}  // namespace

ColumnSettings settings_for(const WriterOptions& options, const ColumnDescriptor& column) {
  ColumnSettings s;
  s.dictionary = options.dictionary;
  s.codec = options.codec;
  s.level = options.compression_level;
  s.statistics = options.statistics;
  s.bloom_filter = options.bloom_filter;
  s.bloom_filter_fpp = options.bloom_filter_fpp;
  const Type type = column.physical_type;
  std::optional<Encoding> file_encoding = options.encoding;
  if (file_encoding == Encoding::RLE_DICTIONARY || file_encoding == Encoding::PLAIN_DICTIONARY) {
    s.dictionary = true;
    file_encoding.reset();
  }
  // A file-wide encoding applies to the columns whose type it fits.
  if (file_encoding && encoding_fits(*file_encoding, type)) {
    s.encoding = *file_encoding;
  } else {
    s.encoding = (type == Type::BOOLEAN && options.data_page_v2) ? Encoding::RLE : Encoding::PLAIN;
  }
  auto it = options.columns.find(column.path);
  if (it != options.columns.end()) {
    const ColumnWriterOptions& c = it->second;
    if (c.dictionary) s.dictionary = *c.dictionary;
    if (c.encoding) {
      if (*c.encoding == Encoding::RLE_DICTIONARY || *c.encoding == Encoding::PLAIN_DICTIONARY) {
        s.dictionary = true;
      } else {
        if (!encoding_fits(*c.encoding, type)) {
          throw_invalid("encoding " + std::string(encoding_name(*c.encoding)) + " cannot encode column " +
                        column.path + " of type " + std::string(type_name(type)));
        }
        s.encoding = *c.encoding;
        if (!c.dictionary) s.dictionary = false;  // an explicit value encoding means "this one"
      }
    }
    if (c.codec) s.codec = *c.codec;
    if (c.compression_level) s.level = *c.compression_level;
    if (c.statistics) s.statistics = *c.statistics;
    if (c.bloom_filter) s.bloom_filter = *c.bloom_filter;
    if (c.bloom_filter_fpp) s.bloom_filter_fpp = *c.bloom_filter_fpp;
  }
  if (type == Type::BOOLEAN) s.dictionary = false;
  if (column.logical_type && column.logical_type->is<NullType>()) {
    s.dictionary = false;
    s.bloom_filter = false;
  }
  if (!can_compress(s.codec)) {
    throw_unsupported("codec " + std::string(codec_name(s.codec)) + " cannot be written");
  }
  return s;
}

struct ColumnChunkWriter::State {
  const LeafPlan& plan;
  const WriterOptions& options;
  ColumnSettings settings;
  Type physical;
  int width = 0;  // bytes per fixed value
  int16_t max_def;
  int16_t max_rep;
  StatKind kind;
  std::unique_ptr<Codec> codec;

  // Dictionary.
  bool dictionary_active = false;
  bool dictionary_trial = false;        // still to decide whether the dictionary pays off
  int64_t last_dictionary_entries = 0;  // entries of the previous chunk's dictionary (sizes the next table)
  bool dictionary_fell_back = false;
  int dictionary_pages = 0;
  std::unique_ptr<encoding::DictionaryBuilder<int32_t>> dict32;
  std::unique_ptr<encoding::DictionaryBuilder<int64_t>> dict64;
  std::unique_ptr<encoding::DictionaryBuilder<float>> dict_float;
  std::unique_ptr<encoding::DictionaryBuilder<double>> dict_double;
  std::unique_ptr<encoding::ByteArrayDictionaryBuilder> dict_bytes;
  Buffer indices;  // int32 indices of the open page

  // Value encoders of the open page.
  Encoding value_encoding;
  Buffer plain;
  encoding::PlainBooleanEncoder bool_plain;
  encoding::RleBitPackedEncoder bool_rle{1};
  encoding::DeltaBinaryPackedEncoder<int32_t> delta32;
  encoding::DeltaBinaryPackedEncoder<int64_t> delta64;
  encoding::DeltaLengthByteArrayEncoder delta_length;
  encoding::DeltaByteArrayEncoder delta_bytes;
  encoding::ByteStreamSplitEncoder split{4};

  // The open page.
  encoding::RleBitPackedEncoder def_encoder{1};
  encoding::RleBitPackedEncoder rep_encoder{1};
  int64_t page_levels = 0;
  int64_t page_values = 0;
  int64_t page_rows = 0;
  int64_t page_value_bytes = 0;  // size estimate of the encoded values
  int64_t page_plain_bytes = 0;  // PLAIN size of the page's values while the dictionary is on trial
  int64_t page_byte_array_bytes = 0;
  MinMax page_stats;
  std::vector<int64_t> page_def_hist;
  std::vector<int64_t> page_rep_hist;

  // The chunk.
  MinMax chunk_stats;
  std::vector<int64_t> chunk_def_hist;
  std::vector<int64_t> chunk_rep_hist;
  int64_t chunk_byte_array_bytes = 0;
  int64_t chunk_levels = 0;
  int64_t chunk_rows = 0;
  int64_t uncompressed_total = 0;
  // The chunk's data pages, in pool blocks that go back to the pool (for
  // the next chunk of any column) once the row group is written.
  BlockChain pages;
  std::vector<PageLocation> locations;
  std::vector<int64_t> page_byte_array_sizes;
  ColumnIndex column_index;
  bool column_index_valid = true;
  std::vector<PageEncodingStats> encoding_stats;
  std::vector<Encoding> encodings;
  std::vector<uint64_t> hashes;

  // Scratch reused across pages and batches.
  Buffer stage_scratch;
  std::vector<ByteArrayView> views;
  Buffer body;
  Buffer levels;
  Buffer values_section;
  Buffer compressed;
  Buffer header_bytes;
  Buffer gathered;  // values of an open page re-encoded when the dictionary is dropped
  std::vector<ByteArrayView> gathered_views;

  State(const LeafPlan& p, const WriterOptions& o)
      : plan(p),
        options(o),
        settings(settings_for(o, p.column)),
        physical(p.column.physical_type),
        max_def(p.column.max_definition_level),
        max_rep(p.column.max_repetition_level),
        kind(stat_kind_for(p.column)),
        page_stats(kind, p.column.physical_type == Type::BYTE_ARRAY ? o.max_statistics_bytes : 0),
        chunk_stats(kind, p.column.physical_type == Type::BYTE_ARRAY ? o.max_statistics_bytes : 0) {
    width = physical == Type::FIXED_LEN_BYTE_ARRAY ? p.column.type_length : physical_width(physical);
    if (settings.codec != CompressionCodec::UNCOMPRESSED) codec = make_codec(settings.codec, settings.level);
    value_encoding = settings.encoding;
    if (value_encoding == Encoding::BYTE_STREAM_SPLIT) split.reset(width);
    def_encoder.reset(max_def > 0 ? bits::bit_width(uint64_t(max_def)) : 1);
    rep_encoder.reset(max_rep > 0 ? bits::bit_width(uint64_t(max_rep)) : 1);
    page_def_hist.assign(size_t(max_def) + 1, 0);
    page_rep_hist.assign(size_t(max_rep) + 1, 0);
    chunk_def_hist.assign(size_t(max_def) + 1, 0);
    chunk_rep_hist.assign(size_t(max_rep) + 1, 0);
    start_dictionary();
  }

  void start_dictionary() {
    dictionary_active = settings.dictionary;
    dictionary_trial = settings.dictionary;
    dictionary_fell_back = false;
    dictionary_pages = 0;
    if (!dictionary_active) return;
    const int64_t limit = options.dictionary_page_bytes;
    switch (physical) {
      case Type::INT32:
        if (!dict32) dict32 = std::make_unique<encoding::DictionaryBuilder<int32_t>>(limit);
        dict32->reset(last_dictionary_entries);
        break;
      case Type::INT64:
        if (!dict64) dict64 = std::make_unique<encoding::DictionaryBuilder<int64_t>>(limit);
        dict64->reset(last_dictionary_entries);
        break;
      case Type::FLOAT:
        if (!dict_float) dict_float = std::make_unique<encoding::DictionaryBuilder<float>>(limit);
        dict_float->reset(last_dictionary_entries);
        break;
      case Type::DOUBLE:
        if (!dict_double) dict_double = std::make_unique<encoding::DictionaryBuilder<double>>(limit);
        dict_double->reset(last_dictionary_entries);
        break;
      case Type::BYTE_ARRAY:
        if (!dict_bytes) dict_bytes = std::make_unique<encoding::ByteArrayDictionaryBuilder>(limit);
        dict_bytes->reset();
        break;
      case Type::FIXED_LEN_BYTE_ARRAY:
        if (!dict_bytes) dict_bytes = std::make_unique<encoding::ByteArrayDictionaryBuilder>(limit, width);
        dict_bytes->reset();
        break;
      default: dictionary_active = false;
    }
  }

  int32_t dictionary_size() const {
    switch (physical) {
      case Type::INT32: return dict32->size();
      case Type::INT64: return dict64->size();
      case Type::FLOAT: return dict_float->size();
      case Type::DOUBLE: return dict_double->size();
      default: return dict_bytes->size();
    }
  }

  // Maps values to indices; returns how many were mapped before the limit.
  int64_t dictionary_put(const PhysicalValues& v, int32_t* out) {
    switch (physical) {
      case Type::INT32: return dict32->put(reinterpret_cast<const int32_t*>(v.fixed), v.count, out);
      case Type::INT64: return dict64->put(reinterpret_cast<const int64_t*>(v.fixed), v.count, out);
      case Type::FLOAT: return dict_float->put(reinterpret_cast<const float*>(v.fixed), v.count, out);
      case Type::DOUBLE: return dict_double->put(reinterpret_cast<const double*>(v.fixed), v.count, out);
      case Type::BYTE_ARRAY: return dict_bytes->put(v.binary, v.count, out);
      default: return dict_bytes->put_fixed(v.fixed, v.count, out);
    }
  }

  void write_dictionary_body(Buffer& out) const {
    switch (physical) {
      case Type::INT32: dict32->write_dictionary_page(out); break;
      case Type::INT64: dict64->write_dictionary_page(out); break;
      case Type::FLOAT: dict_float->write_dictionary_page(out); break;
      case Type::DOUBLE: dict_double->write_dictionary_page(out); break;
      default: dict_bytes->write_dictionary_page(out); break;
    }
  }

  static int64_t plain_size(const PhysicalValues& v, Type physical, int width) {
    if (v.binary != nullptr) {
      int64_t total = 4 * v.count;
      for (int64_t i = 0; i < v.count; ++i) total += v.binary[i].length;
      return total;
    }
    if (physical == Type::BOOLEAN) return (v.count + 7) / 8;
    return v.count * width;
  }

  void encode_values(const PhysicalValues& v) {
    if (v.count == 0) return;
    switch (value_encoding) {
      case Encoding::PLAIN:
        if (v.bools != nullptr) {
          bool_plain.put(v.bools, v.count);
        } else if (v.binary != nullptr) {
          encoding::plain_encode_byte_arrays(v.binary, v.count, plain);
        } else {
          encoding::plain_encode_fixed(v.fixed, width, v.count, plain);
        }
        break;
      case Encoding::RLE: bool_rle.put(v.bools, v.count); break;
      case Encoding::DELTA_BINARY_PACKED:
        if (physical == Type::INT32) {
          delta32.put(reinterpret_cast<const int32_t*>(v.fixed), v.count);
        } else {
          delta64.put(reinterpret_cast<const int64_t*>(v.fixed), v.count);
        }
        break;
      case Encoding::DELTA_LENGTH_BYTE_ARRAY: delta_length.put(v.binary, v.count); break;
      case Encoding::DELTA_BYTE_ARRAY:
        if (v.binary != nullptr) {
          delta_bytes.put(v.binary, v.count);
        } else {
          delta_bytes.put_fixed(v.fixed, width, v.count);
        }
        break;
      case Encoding::BYTE_STREAM_SPLIT: split.put(v.fixed, v.count); break;
      default: throw Error(ErrorCode::kInternal, "unexpected value encoding");
    }
    page_value_bytes += plain_size(v, physical, width);
  }

  void flush_encoder(Buffer& out) {
    switch (value_encoding) {
      case Encoding::PLAIN:
        if (physical == Type::BOOLEAN) {
          bool_plain.flush_to(out);
        } else {
          out.append(plain.data(), plain.size());
          plain.clear();
        }
        break;
      case Encoding::RLE: bool_rle.flush_to(out, true); break;
      case Encoding::DELTA_BINARY_PACKED:
        if (physical == Type::INT32) {
          delta32.flush_to(out);
        } else {
          delta64.flush_to(out);
        }
        break;
      case Encoding::DELTA_LENGTH_BYTE_ARRAY: delta_length.flush_to(out); break;
      case Encoding::DELTA_BYTE_ARRAY: delta_bytes.flush_to(out); break;
      case Encoding::BYTE_STREAM_SPLIT: split.flush_to(out); break;
      default: throw Error(ErrorCode::kInternal, "unexpected value encoding");
    }
  }

  int64_t dictionary_bytes() const {
    switch (physical) {
      case Type::INT32: return dict32->dictionary_bytes();
      case Type::INT64: return dict64->dictionary_bytes();
      case Type::FLOAT: return dict_float->dictionary_bytes();
      case Type::DOUBLE: return dict_double->dictionary_bytes();
      default: return dict_bytes->dictionary_bytes();
    }
  }

  void put_values(const PhysicalValues& v) {
    if (v.count == 0) return;
    if (dictionary_active) {
      const size_t old = indices.size();
      int32_t* out = reinterpret_cast<int32_t*>(encoding::extend(indices, size_t(v.count) * 4));
      const int64_t mapped = dictionary_put(v, out);
      if (mapped == v.count) {
        page_value_bytes += v.count * (encoding::dictionary_index_bit_width(dictionary_size()) + 1) / 8 + 1;
        if (dictionary_trial) page_plain_bytes += plain_size(v, physical, width);
        return;
      }
      // The dictionary is full.
      indices.resize(old);
      if (dictionary_pages == 0) {
        // No page uses it yet: drop it, the open page included.
        drop_dictionary();
      } else {
        // Close what the page holds and continue without it.
        if (page_levels > 0) flush_page();
        dictionary_active = false;
        dictionary_fell_back = true;
        if (value_encoding == Encoding::BYTE_STREAM_SPLIT) split.reset(width);
      }
    }
    encode_values(v);
  }

  // Ends the dictionary trial: keeps the dictionary when the dictionary page
  // plus the open page's indices (at their bit-packed width, an upper bound)
  // are smaller than the same values PLAIN, and drops it otherwise.
  void decide_dictionary() {
    if (!dictionary_trial || !dictionary_active || page_values == 0) return;
    dictionary_trial = false;
    const int64_t index_bytes =
        (page_values * encoding::dictionary_index_bit_width(dictionary_size()) + 7) / 8 + 1;
    if (dictionary_bytes() + index_bytes < page_plain_bytes) return;
    drop_dictionary();
  }

  // True when the trial can already tell that the dictionary will lose, for
  // fixed-width values without repetition: the page ends with at most
  // `most` values (rows limit, or the PLAIN byte limit plus one slice), and
  // the test above at n <= most values, with at least today's entries and
  // bit width, can only pass if it passes at n = most. Random values thus
  // stop being hashed after about half a page.
  bool dictionary_cannot_win() const {
    if (width == 0 || physical == Type::BYTE_ARRAY || max_rep > 0) return false;
    const int64_t most = std::min<int64_t>(options.page_rows, options.page_bytes / width + kSliceRows);
    const int64_t index_bytes = (most * encoding::dictionary_index_bit_width(dictionary_size()) + 7) / 8 + 1;
    return dictionary_bytes() + index_bytes >= most * width;
  }

  // Drops the chunk's dictionary before any page used it: the open page's
  // values are gathered back from the dictionary and encoded with the
  // fallback encoding, so the chunk has no dictionary page at all.
  void drop_dictionary() {
    last_dictionary_entries = dictionary_size();
    const int32_t* idx = reinterpret_cast<const int32_t*>(indices.data());
    const int64_t count = int64_t(indices.size() / 4);
    PhysicalValues values;
    values.count = count;
    switch (physical) {
      case Type::INT32:
      case Type::INT64:
      case Type::FLOAT:
      case Type::DOUBLE: {
        const void* entries = physical == Type::INT32   ? static_cast<const void*>(dict32->values().data())
                              : physical == Type::INT64 ? static_cast<const void*>(dict64->values().data())
                              : physical == Type::FLOAT
                                  ? static_cast<const void*>(dict_float->values().data())
                                  : static_cast<const void*>(dict_double->values().data());
        gathered.resize(size_t(count) * size_t(width));
        encoding::gather_fixed(static_cast<const uint8_t*>(entries), width, idx, count, gathered.data());
        values.fixed = gathered.data();
        break;
      }
      case Type::BYTE_ARRAY:
        gathered_views.resize(size_t(count));
        for (int64_t i = 0; i < count; ++i) gathered_views[size_t(i)] = dict_bytes->value(idx[i]);
        values.binary = gathered_views.data();
        break;
      default:  // FIXED_LEN_BYTE_ARRAY
        gathered.resize(size_t(count) * size_t(width));
        for (int64_t i = 0; i < count; ++i)
          std::memcpy(gathered.data() + i * width, dict_bytes->value(idx[i]).data, size_t(width));
        values.fixed = gathered.data();
        break;
    }
    dictionary_active = false;
    dictionary_trial = false;
    page_value_bytes = 0;
    page_plain_bytes = 0;
    if (value_encoding == Encoding::BYTE_STREAM_SPLIT) split.reset(width);
    encode_values(values);  // counts the PLAIN size into page_value_bytes
    indices.clear();
  }

  // Appends `n` levels starting at `def`/`rep` to the open page; `defined`
  // of them are max_def, and `all_defined` says every one is (def unused).
  void put_levels(const int16_t* def, const int16_t* rep, int64_t n, int64_t defined, bool all_defined) {
    if (max_def > 0) {
      int64_t* hist = page_def_hist.data();
      if (all_defined) {
        def_encoder.put_repeated(uint32_t(max_def), n);
        hist[max_def] += n;
      } else {
        def_encoder.put(def, n);
        if (max_def == 1) {
          hist[1] += defined;
          hist[0] += n - defined;
        } else {
          for (int64_t i = 0; i < n; ++i) ++hist[def[i]];
        }
      }
    }
    if (max_rep > 0) {
      rep_encoder.put(rep, n);
      int64_t* hist = page_rep_hist.data();
      for (int64_t i = 0; i < n; ++i) ++hist[rep[i]];
    }
    page_levels += n;
  }

  void flush_page() {
    if (page_levels == 0) return;
    if (dictionary_trial) decide_dictionary();
    // Values. PLAIN fixed-width values are stored straight from `plain`.
    values_section.clear();
    Buffer* values = &values_section;
    Encoding page_encoding;
    if (dictionary_active && dictionary_size() > 0) {
      const int64_t count = int64_t(indices.size() / 4);
      encoding::encode_dictionary_indices(reinterpret_cast<const int32_t*>(indices.data()), count,
                                          encoding::dictionary_index_bit_width(dictionary_size()),
                                          values_section);
      indices.clear();
      page_encoding = Encoding::RLE_DICTIONARY;
      ++dictionary_pages;
      dictionary_trial = false;
    } else if (dictionary_active) {
      // Only nulls so far: there is nothing to index.
      indices.clear();
      page_encoding = Encoding::PLAIN;
    } else {
      if (value_encoding == Encoding::PLAIN && physical != Type::BOOLEAN) {
        values = &plain;
      } else {
        flush_encoder(values_section);
      }
      page_encoding = value_encoding;
    }

    // Levels: repetition then definition; v1 prefixes each with its length.
    const bool v2 = options.data_page_v2;
    levels.clear();
    int32_t rep_bytes = 0, def_bytes = 0;
    if (max_rep > 0) rep_encoder.flush_to(levels, !v2);
    rep_bytes = int32_t(levels.size());
    if (max_def > 0) def_encoder.flush_to(levels, !v2);
    def_bytes = int32_t(levels.size()) - rep_bytes;
    const size_t levels_size = levels.size();
    const int64_t uncompressed_size = int64_t(levels_size + values->size());

    // The stored page is up to two pieces, appended after the header without
    // joining them first. Compression: v1 compresses levels and values
    // together, v2 only the values.
    std::span<const uint8_t> pieces[2];
    bool is_compressed = false;
    if (!codec) {
      pieces[0] = levels.span();
      pieces[1] = values->span();
    } else if (v2) {
      compressed.clear();
      codec->compress(values->span(), compressed);
      is_compressed = compressed.size() < values->size();  // else store the values as they are
      pieces[0] = levels.span();
      pieces[1] = is_compressed ? compressed.span() : values->span();
    } else {
      // The levels move in front of the values within the values' buffer:
      // the same bytes copied as joining them elsewhere, but a page of long
      // strings is not held twice.
      const size_t value_bytes = values->size();
      values->resize(levels_size + value_bytes);
      std::memmove(values->data() + levels_size, values->data(), value_bytes);
      if (levels_size != 0) std::memcpy(values->data(), levels.data(), levels_size);
      compressed.clear();
      codec->compress(values->span(), compressed);
      pieces[0] = compressed.span();
    }
    const size_t stored_size = pieces[0].size() + pieces[1].size();
    if (uncompressed_size > INT32_MAX || int64_t(stored_size) > INT32_MAX) {
      throw_limit("page of column " + plan.column.path + " exceeds 2 GiB");
    }

    PageHeader header;
    header.uncompressed_page_size = int32_t(uncompressed_size);
    header.compressed_page_size = int32_t(stored_size);
    if (options.page_checksum) {
      uint32_t crc = 0;
      // (Empty pieces are skipped: libdeflate_crc32 of a null buffer restarts at 0.)
      for (const auto& piece : pieces) {
        if (!piece.empty()) crc = libdeflate_crc32(crc, piece.data(), piece.size());
      }
      header.crc = int32_t(crc);
    }
    std::optional<Statistics> page_statistics;
    if (options.page_header_statistics && settings.statistics)
      page_statistics = make_statistics(page_stats, false);
    if (v2) {
      header.type = PageType::DATA_PAGE_V2;
      DataPageHeaderV2 h;
      h.num_values = int32_t(page_levels);
      h.num_nulls = int32_t(page_levels - page_values);
      h.num_rows = int32_t(page_rows);
      h.encoding = page_encoding;
      h.definition_levels_byte_length = def_bytes;
      h.repetition_levels_byte_length = rep_bytes;
      h.is_compressed = is_compressed;
      h.statistics = std::move(page_statistics);
      header.data_page_header_v2 = std::move(h);
    } else {
      header.type = PageType::DATA_PAGE;
      DataPageHeader h;
      h.num_values = int32_t(page_levels);
      h.encoding = page_encoding;
      h.definition_level_encoding = Encoding::RLE;
      h.repetition_level_encoding = Encoding::RLE;
      h.statistics = std::move(page_statistics);
      header.data_page_header = std::move(h);
    }
    header_bytes.clear();
    encode_page_header(header, header_bytes);

    PageLocation location;
    location.offset = int64_t(pages.size());
    location.compressed_page_size = int32_t(header_bytes.size() + stored_size);
    location.first_row_index = chunk_rows;
    locations.push_back(location);
    pages.append(header_bytes.data(), header_bytes.size());
    for (const auto& piece : pieces) pages.append(piece.data(), piece.size());
    if (values == &plain) plain.clear();
    uncompressed_total += int64_t(header_bytes.size()) + uncompressed_size;
    note_encoding(header.type, page_encoding);

    // Page index entry.
    if (settings.statistics && kind != StatKind::kNone) {
      const bool null_page = !page_stats.has_min_max();
      column_index.null_pages.push_back(null_page);
      if (null_page) {
        column_index.min_values.emplace_back();
        column_index.max_values.emplace_back();
      } else {
        bool exact;
        std::string low = page_stats.min();
        std::string high = page_stats.max();
        if (physical == Type::BYTE_ARRAY) {
          low = truncate_min(low, options.max_statistics_bytes, &exact);
          high = truncate_max(high, options.max_statistics_bytes, &exact);
        }
        column_index.min_values.push_back(std::move(low));
        column_index.max_values.push_back(std::move(high));
      }
      column_index.null_counts.push_back(page_levels - page_values);
    } else {
      column_index_valid = false;
    }
    if (options.size_statistics) {
      if (max_rep > 0) {
        column_index.repetition_level_histograms.insert(column_index.repetition_level_histograms.end(),
                                                        page_rep_hist.begin(), page_rep_hist.end());
      }
      if (max_def > 0) {
        column_index.definition_level_histograms.insert(column_index.definition_level_histograms.end(),
                                                        page_def_hist.begin(), page_def_hist.end());
      }
      if (physical == Type::BYTE_ARRAY) page_byte_array_sizes.push_back(page_byte_array_bytes);
    }

    // Roll the page into the chunk.
    chunk_stats.merge(page_stats);
    for (size_t i = 0; i < page_def_hist.size(); ++i) chunk_def_hist[i] += page_def_hist[i];
    for (size_t i = 0; i < page_rep_hist.size(); ++i) chunk_rep_hist[i] += page_rep_hist[i];
    std::fill(page_def_hist.begin(), page_def_hist.end(), 0);
    std::fill(page_rep_hist.begin(), page_rep_hist.end(), 0);
    chunk_byte_array_bytes += page_byte_array_bytes;
    chunk_levels += page_levels;
    chunk_rows += page_rows;
    page_stats.reset();
    page_levels = page_values = page_rows = page_value_bytes = page_plain_bytes = page_byte_array_bytes = 0;
  }

  void note_encoding(PageType type, Encoding encoding) {
    for (PageEncodingStats& s : encoding_stats) {
      if (s.page_type == type && s.encoding == encoding) {
        ++s.count;
        return;
      }
    }
    encoding_stats.push_back(PageEncodingStats{type, encoding, 1});
  }

  Statistics make_statistics(const MinMax& stats, bool chunk) const {
    Statistics out;
    out.null_count = stats.null_count();
    if (stats.has_min_max()) {
      bool min_exact = true, max_exact = true;
      std::string low = stats.min();
      std::string high = stats.max();
      if (physical == Type::BYTE_ARRAY) {
        low = truncate_min(low, options.max_statistics_bytes, &min_exact);
        high = truncate_max(high, options.max_statistics_bytes, &max_exact);
      }
      out.min_value = std::move(low);
      out.max_value = std::move(high);
      out.is_min_value_exact = min_exact;
      out.is_max_value_exact = max_exact;
    }
    if (chunk && options.distinct_count && dictionary_pages > 0 && !dictionary_fell_back) {
      out.distinct_count = dictionary_size();
    }
    return out;
  }

  void write(const LeafData& leaf) {
    const PhysicalValues all = stage_values(plan, leaf, stage_scratch, views);
    if (settings.bloom_filter) hash_values(all, width, hashes);
    const int64_t n = leaf.num_levels;
    const bool all_defined = max_def > 0 && leaf.all_defined;
    const int16_t* def = max_def > 0 && !all_defined ? leaf.def.data() : nullptr;
    const int16_t* rep = max_rep > 0 ? leaf.rep.data() : nullptr;
    int64_t level = 0;
    int64_t value = 0;
    while (level < n) {
      const int64_t room = std::max<int64_t>(1, options.page_rows - page_rows);
      const int64_t want_rows = std::min(room, kSliceRows);
      int64_t end;
      int64_t rows;
      if (rep == nullptr) {
        end = std::min(n, level + want_rows);
        rows = end - level;
      } else {
        rows = 1;
        end = level + 1;
        while (end < n) {
          if (rep[end] == 0) {
            if (rows == want_rows) break;
            ++rows;
          }
          ++end;
        }
      }
      int64_t count;
      if (def == nullptr) {
        count = end - level;
      } else {
        count = 0;
        for (int64_t i = level; i < end; ++i) count += def[i] == max_def;
      }
      PhysicalValues slice;
      slice.count = count;
      if (all.fixed) slice.fixed = all.fixed + value * width;
      if (all.bools) slice.bools = all.bools + value;
      if (all.binary) slice.binary = all.binary + value;
      put_values(slice);
      if (settings.statistics) page_stats.update(slice, width);
      page_stats.add_nulls((end - level) - count);
      if (slice.binary != nullptr) {
        int64_t bytes = 0;
        for (int64_t i = 0; i < count; ++i) bytes += slice.binary[i].length;
        page_byte_array_bytes += bytes;
      }
      put_levels(def ? def + level : nullptr, rep ? rep + level : nullptr, end - level, count, all_defined);
      page_values += count;
      page_rows += rows;
      level = end;
      value += count;
      const int64_t level_bytes =
          page_levels * (max_def > 0 ? 1 : 0) / 4 + page_levels * (max_rep > 0 ? 1 : 0) / 4;
      if (dictionary_trial) {
        if (page_plain_bytes + level_bytes >= options.page_bytes) {
          decide_dictionary();
        } else if (dictionary_active && dictionary_cannot_win()) {
          drop_dictionary();
        }
      }
      if (page_rows >= options.page_rows || page_value_bytes + level_bytes >= options.page_bytes)
        flush_page();
    }
  }

  void finish(ChunkResult& result, Buffer& out) {
    flush_page();
    ColumnMetaData& meta = result.meta;
    meta = ColumnMetaData{};
    meta.type = physical;
    meta.path_in_schema = plan.column.path_parts;
    meta.codec = settings.codec;
    meta.num_values = chunk_levels;
    out.clear();
    int64_t dictionary_page_bytes = 0;
    if (dictionary_pages > 0) {
      last_dictionary_entries = dictionary_size();
      body.clear();
      write_dictionary_body(body);
      std::span<const uint8_t> stored = body.span();
      if (codec) {
        compressed.clear();
        codec->compress(body.span(), compressed);
        stored = compressed.span();
      }
      if (body.size() > INT32_MAX || stored.size() > INT32_MAX) {
        throw_limit("dictionary page of column " + plan.column.path + " exceeds 2 GiB");
      }
      PageHeader header;
      header.type = PageType::DICTIONARY_PAGE;
      header.uncompressed_page_size = int32_t(body.size());
      header.compressed_page_size = int32_t(stored.size());
      if (options.page_checksum) header.crc = int32_t(libdeflate_crc32(0, stored.data(), stored.size()));
      DictionaryPageHeader dict;
      dict.num_values = dictionary_size();
      dict.encoding = Encoding::PLAIN;
      header.dictionary_page_header = dict;
      header_bytes.clear();
      encode_page_header(header, header_bytes);
      out.append(header_bytes.data(), header_bytes.size());
      out.append(stored.data(), stored.size());
      dictionary_page_bytes = int64_t(out.size());
      uncompressed_total += int64_t(header_bytes.size() + body.size());
      meta.dictionary_page_offset = 0;
      encoding_stats.insert(encoding_stats.begin(),
                            PageEncodingStats{PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1});
    }
    // The data pages stay in `pages` (see ColumnChunkWriter::pages()).
    meta.data_page_offset = dictionary_page_bytes;
    meta.total_compressed_size = dictionary_page_bytes + int64_t(pages.size());
    meta.total_uncompressed_size = uncompressed_total;

    // Encodings: the value encodings in page order, plus RLE when levels exist.
    std::vector<Encoding> used;
    auto add = [&](Encoding e) {
      if (std::find(used.begin(), used.end(), e) == used.end()) used.push_back(e);
    };
    for (const PageEncodingStats& s : encoding_stats) add(s.encoding);
    if (max_def > 0 || max_rep > 0 || used.empty()) add(Encoding::RLE);
    meta.encodings = std::move(used);
    meta.encoding_stats = encoding_stats;
    if (settings.statistics && kind != StatKind::kNone) {
      meta.statistics = make_statistics(chunk_stats, true);
    } else if (settings.statistics) {
      Statistics only_nulls;
      only_nulls.null_count = chunk_stats.null_count();
      meta.statistics = only_nulls;
    }
    if (options.size_statistics) {
      SizeStatistics size;
      if (physical == Type::BYTE_ARRAY) size.unencoded_byte_array_data_bytes = chunk_byte_array_bytes;
      if (max_rep > 0) size.repetition_level_histogram = chunk_rep_hist;
      if (max_def > 0) size.definition_level_histogram = chunk_def_hist;
      if (size.unencoded_byte_array_data_bytes || !size.repetition_level_histogram.empty() ||
          !size.definition_level_histogram.empty()) {
        meta.size_statistics = std::move(size);
      }
    }

    // Page index, offsets relative to the chunk start.
    result.offset_index = OffsetIndex{};
    result.offset_index.page_locations = locations;
    for (PageLocation& location : result.offset_index.page_locations)
      location.offset += dictionary_page_bytes;
    if (options.size_statistics && physical == Type::BYTE_ARRAY) {
      result.offset_index.unencoded_byte_array_data_bytes = page_byte_array_sizes;
    }
    result.has_column_index = column_index_valid && !locations.empty();
    if (result.has_column_index) {
      column_index.boundary_order = boundary_order();
      result.column_index = std::move(column_index);
    }

    // Bloom filter over the distinct hashes of the chunk.
    result.bloom.clear();
    if (settings.bloom_filter && !hashes.empty()) {
      std::sort(hashes.begin(), hashes.end());
      hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
      const int64_t bytes = bloom_filter_bytes(int64_t(hashes.size()), settings.bloom_filter_fpp,
                                               options.bloom_filter_max_bytes);
      BloomFilterHeader header;
      header.num_bytes = int32_t(bytes);
      encode_bloom_filter_header(header, result.bloom);
      const size_t start = result.bloom.size();
      result.bloom.resize(start + size_t(bytes));
      uint8_t* bitset = result.bloom.data() + start;
      std::memset(bitset, 0, size_t(bytes));
      for (uint64_t h : hashes) bloom_insert(bitset, bytes, h);
    }
    reset_chunk();
  }

  BoundaryOrder boundary_order() const {
    bool ascending = true, descending = true;
    const std::string* prev_min = nullptr;
    const std::string* prev_max = nullptr;
    for (size_t i = 0; i < column_index.null_pages.size(); ++i) {
      if (column_index.null_pages[i]) continue;
      const std::string& mn = column_index.min_values[i];
      const std::string& mx = column_index.max_values[i];
      if (prev_min != nullptr) {
        if (stat_less(kind, mn, *prev_min) || stat_less(kind, mx, *prev_max)) ascending = false;
        if (stat_less(kind, *prev_min, mn) || stat_less(kind, *prev_max, mx)) descending = false;
      }
      prev_min = &mn;
      prev_max = &mx;
    }
    if (ascending) return BoundaryOrder::ASCENDING;
    if (descending) return BoundaryOrder::DESCENDING;
    return BoundaryOrder::UNORDERED;
  }

  void reset_chunk() {
    chunk_stats.reset();
    std::fill(chunk_def_hist.begin(), chunk_def_hist.end(), 0);
    std::fill(chunk_rep_hist.begin(), chunk_rep_hist.end(), 0);
    chunk_byte_array_bytes = chunk_levels = chunk_rows = uncompressed_total = 0;
    locations.clear();
    page_byte_array_sizes.clear();
    column_index = ColumnIndex{};
    column_index_valid = true;
    encoding_stats.clear();
    hashes.clear();
    value_encoding = settings.encoding;
    if (value_encoding == Encoding::BYTE_STREAM_SPLIT) split.reset(width);
    start_dictionary();
  }
};

ColumnChunkWriter::ColumnChunkWriter(const LeafPlan& plan, const WriterOptions& options)
    : state_(std::make_unique<State>(plan, options)) {}
ColumnChunkWriter::~ColumnChunkWriter() = default;

void ColumnChunkWriter::write(const LeafData& leaf) { state_->write(leaf); }

int64_t ColumnChunkWriter::buffered_bytes() const {
  const State& s = *state_;
  const int64_t dictionary = s.dictionary_active || s.dictionary_pages > 0 ? s.dictionary_bytes() : 0;
  return int64_t(s.pages.size()) + s.page_value_bytes + dictionary;
}

void ColumnChunkWriter::finish(ChunkResult& result, Buffer& dictionary_page) {
  state_->finish(result, dictionary_page);
}

void ColumnChunkWriter::write_pages(Sink& sink) const {
  state_->pages.for_each_piece(
      [&](std::span<const uint8_t> piece) { sink.write(piece.data(), piece.size()); });
}

void ColumnChunkWriter::append_pages_to(Buffer& out) const {
  state_->pages.for_each_piece(
      [&](std::span<const uint8_t> piece) { out.append(piece.data(), piece.size()); });
}

int64_t ColumnChunkWriter::pages_size() const { return int64_t(state_->pages.size()); }

void ColumnChunkWriter::release_pages() { state_->pages.clear(); }

}  // namespace parquetry::write
