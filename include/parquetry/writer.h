// Writing Arrow-layout batches to Parquet files.
//
//   parquetry::WriterOptions options;
//   options.codec = parquetry::CompressionCodec::ZSTD;
//   options.columns["tags.element"].encoding = parquetry::Encoding::DELTA_BYTE_ARRAY;
//   auto writer = parquetry::FileWriter::open("out.parquet", schema, options);
//   writer->write(batch);  // any number of times
//   writer->close();       // footer, fsync, rename: the file appears whole or not at all
//
// Memory is bounded by one row group of *encoded, compressed* pages: input
// batches are shredded into levels and values, encoded and compressed page by
// page as they arrive, and are not retained after write() returns. A writer
// destroyed without close(), or one whose write failed, leaves nothing at the
// final path (the bytes go to a temporary file beside it).
//
// Every Arrow type FileReader produces can be written; see docs/writer.md for
// the mapping and for why each default was chosen. To write a given Parquet
// schema instead of the mapped one (a faithful copy of another file, as
// `parquetry rewrite` does), set WriterOptions::parquet_schema:
//
//   auto reader = parquetry::FileReader::open("in.parquet", {.int96_as_binary = true});
//   parquetry::WriterOptions options;
//   options.parquet_schema = reader->metadata().schema;
//   auto writer = parquetry::FileWriter::open("out.parquet", *reader->batch_schema(), options);
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parquetry/compression.h"
#include "parquetry/encryption.h"
#include "parquetry/export.h"
#include "parquetry/metadata.h"
#include "parquetry/table.h"
#include "parquetry/types.h"

struct ArrowArrayStream;

namespace parquetry {

class Sink;

/// Options of one column (a leaf, named by its dotted Parquet path, e.g.
/// "tags.list.element" or "point.x"). Unset members take the file's value.
struct ColumnWriterOptions {
  std::optional<bool> dictionary;
  /// Encoding of data pages when no dictionary is used (or after the
  /// dictionary fell back): PLAIN, RLE (booleans), DELTA_BINARY_PACKED,
  /// DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT.
  /// RLE_DICTIONARY here means "dictionary on".
  std::optional<Encoding> encoding;
  std::optional<CompressionCodec> codec;
  std::optional<int> compression_level;
  std::optional<bool> statistics;
  std::optional<bool> bloom_filter;
  std::optional<double> bloom_filter_fpp;
};

struct WriterOptions {
  /// A row group is closed when it reaches either limit.
  int64_t row_group_rows = 1024 * 1024;
  int64_t row_group_bytes = 128LL * 1024 * 1024;  ///< encoded + compressed bytes buffered
  /// A data page is closed when it reaches either limit (at a record boundary).
  int64_t page_bytes = 1024 * 1024;  ///< encoded bytes before compression
  int64_t page_rows = 20'000;
  /// Dictionary encoding, and the PLAIN size of the dictionary page beyond
  /// which a column chunk falls back to `encoding`. Each chunk also drops
  /// its dictionary when, on its first page, dictionary page + indices are
  /// not smaller than the same values PLAIN (high-cardinality values): that
  /// chunk is then written without a dictionary page (docs/writer.md).
  bool dictionary = true;
  int64_t dictionary_page_bytes = 1024 * 1024;
  /// Non-dictionary encoding; nullopt = PLAIN (booleans: RLE on v2 pages).
  std::optional<Encoding> encoding;
  CompressionCodec codec = CompressionCodec::SNAPPY;
  int compression_level = kDefaultCompressionLevel;
  /// DATA_PAGE_V2 instead of DATA_PAGE.
  bool data_page_v2 = false;
  /// Column chunk statistics (min/max, null count).
  bool statistics = true;
  /// Also put min/max/null count in every data page header.
  bool page_header_statistics = false;
  /// distinct_count in chunk statistics when the whole chunk was dictionary encoded.
  bool distinct_count = false;
  /// Longest min/max kept for byte arrays; longer values are truncated (max rounded up).
  int32_t max_statistics_bytes = 64;
  /// ColumnIndex + OffsetIndex after the row groups.
  bool page_index = true;
  /// SizeStatistics (unencoded byte-array bytes, level histograms) in chunks and column indexes.
  bool size_statistics = true;
  /// Split-block Bloom filters (sized from the chunk's distinct values).
  bool bloom_filter = false;
  double bloom_filter_fpp = 0.01;
  int32_t bloom_filter_max_bytes = 1024 * 1024;
  /// CRC-32 of every page body in its header.
  bool page_checksum = true;
  /// Threads encoding the columns of a batch in parallel (1 = caller's thread).
  int threads = 1;
  /// FileMetaData.sorting_columns of every row group (the caller promises the order).
  std::vector<SortingColumn> sorting_columns;
  /// Extra key-value metadata (added after the schema's own metadata).
  std::vector<KeyValue> key_value_metadata;
  /// Whether the batch schema's metadata becomes key-value metadata of the
  /// file (before `key_value_metadata`). Off when `key_value_metadata` is
  /// already the complete list, e.g. copied from another file's footer (which
  /// keeps keys without a value, that a batch schema cannot hold).
  bool schema_metadata = true;
  /// The Parquet schema to write: SchemaElements depth-first, root first,
  /// exactly as in FileMetaData::schema (e.g. another file's footer, or the
  /// result of parquet_schema_for edited). Empty = derived from the batch
  /// schema (docs/writer.md, "Type mapping").
  ///
  /// When set, the file's schema is these elements unchanged: every logical
  /// and converted type with its parameters (a converted type without a
  /// logical type stays so), field ids, repetitions, the root's name, the
  /// physical type of decimals (INT32, INT64, FIXED_LEN_BYTE_ARRAY or
  /// BYTE_ARRAY), INT96, legacy LIST/MAP layouts (2-level lists, bare
  /// repeated fields, MAP_KEY_VALUE). The batch schema must have the shape
  /// FileReader gives this Parquet schema: one top-level field per top-level
  /// node, the same nesting, and leaf types that convert losslessly to the
  /// physical type (int8/16 and uint8/16 widen to INT32, decimals narrow to
  /// INT32/INT64/FLBA/BYTE_ARRAY with a range check, timestamps and times
  /// scale up to a finer unit, timestamps become INT96, an INT96 column read
  /// as raw bytes (kInt96Extension) is copied, or becomes an INT64 TIMESTAMP
  /// of the schema's unit). Nullability follows the Parquet repetitions: a
  /// null in a REQUIRED node fails the write. open() refuses, naming the
  /// field, a schema that does not match the batches.
  std::vector<SchemaElement> parquet_schema;
  /// Per-column overrides by dotted Parquet path.
  std::map<std::string, ColumnWriterOptions> columns;
  /// Modular encryption (parquetry/encryption.h): encrypted or signed
  /// plaintext footer, columns with the footer key or their own keys; their
  /// page indexes and Bloom filters are encrypted with the column's key.
  std::optional<EncryptionOptions> encryption;
};

/// Field metadata asking for the legacy layout of a list field: with
/// {kRepeatedLayoutKey, kRepeatedLayoutBare} a non-nullable list of
/// non-nullable items is written as a bare `repeated <item> name` (no LIST
/// group), as protobuf writers did before LogicalTypes.md. The levels are the
/// same as the 3-level form's, so only the schema changes; readers see a list.
inline constexpr const char* kRepeatedLayoutKey = "parquetry.repeated";
inline constexpr const char* kRepeatedLayoutBare = "bare";
/// DataType::extension_name of a string column written as BYTE_ARRAY (ENUM)
/// instead of (STRING): protobuf enum names.
inline constexpr const char* kEnumExtension = "parquet.enum";

/// DataType::extension_name of a fixed_size_binary(12) holding INT96 values
/// as stored (8 bytes little-endian nanoseconds of the day, then 4 bytes
/// little-endian Julian day): what FileReader gives with
/// ReaderOptions::int96_as_binary. The writer writes such a column as INT96.
inline constexpr const char* kInt96Extension = "parquet.int96";

/// created_by() of version.h ("parquetry version X.Y.Z (build <commit>)"),
/// written as FileMetaData.created_by.
PARQUETRY_API const char* writer_created_by();

class PARQUETRY_API FileWriter {
 public:
  /// Writes to `path` atomically (temporary file beside it, renamed on close()).
  static std::unique_ptr<FileWriter> open(const std::string& path, const BatchSchema& schema,
                                          WriterOptions options = {});
  /// Writes to any sink; close() calls sink->commit().
  static std::unique_ptr<FileWriter> open(std::unique_ptr<Sink> sink, const BatchSchema& schema,
                                          WriterOptions options = {});
  /// Destroying an unclosed writer abandons the output (nothing at the final path).
  ~FileWriter();
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;

  /// Appends the rows of a batch whose columns follow the schema given to
  /// open() (field for field; dictionary arrays are written as their values).
  /// Row groups are closed whenever a limit of WriterOptions is reached.
  void write(const RecordBatch& batch);
  /// Imports and writes every batch of an Arrow C stream (releasing it).
  void write(ArrowArrayStream* stream);
  /// Writes every batch of a reader.
  void write(BatchReader& reader);
  /// Closes the current row group now (no-op when it is empty).
  void flush_row_group();
  /// Closes the current row group (when it holds rows), then writes a row
  /// group of no rows: every column chunk without pages and with statistics
  /// of no values. Some writers leave such groups; a rewrite that keeps row
  /// groups keeps them too, so row group ordinals match the input's.
  void write_empty_row_group();
  /// Writes the remaining row group, the Bloom filters, page indexes and the
  /// footer, then commits the sink. The writer accepts nothing afterwards.
  void close();

  /// Rows written so far (including the open row group).
  int64_t num_rows() const;
  /// Row groups completed so far.
  int num_row_groups() const;
  /// Bytes of encoded pages buffered for the open row group.
  int64_t buffered_bytes() const;
  /// The footer written by close() (empty before).
  const FileMetaData& metadata() const;
  /// The Parquet schema elements the Arrow schema maps to.
  const std::vector<SchemaElement>& schema_elements() const;

  struct Impl;

 private:
  explicit FileWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// The Parquet schema elements (depth-first, root first) FileWriter writes
/// for an Arrow schema when WriterOptions::parquet_schema is empty. Throws kInvalidArgument / kUnsupported
/// for a schema that has no Parquet form (an empty struct, a non-nullable null column...).
PARQUETRY_API std::vector<SchemaElement> parquet_schema_for(const BatchSchema& schema);

}  // namespace parquetry
