// Internals of the writer: Arrow -> Parquet schema mapping, shredding of
// Arrow arrays into levels and dense physical values (the mirror of
// nested/assemble.h), statistics, Bloom filters and the column chunk writer.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "parquetry/compression/codec.h"
#include "parquetry/encoding/plain.h"
#include "parquetry/io.h"
#include "parquetry/metadata.h"
#include "parquetry/schema.h"
#include "parquetry/table.h"
#include "parquetry/util/buffer.h"
#include "parquetry/writer.h"

namespace parquetry::write {

using encoding::ByteArrayView;

/// How the Arrow values of a leaf become its physical values.
enum class Conversion : uint8_t {
  kNull,          ///< null type: no values at all
  kBool,          ///< bitmap -> one byte per value
  kCopy,          ///< same bytes (int32/int64/float/double/date/time/timestamp, unsigned reinterpreted, FLBA)
  kInt8,          ///< int8 -> INT32
  kInt16,         ///< int16 -> INT32
  kUInt8,         ///< uint8 -> INT32
  kUInt16,        ///< uint16 -> INT32
  kMillisFrom32,  ///< time32[s] -> INT32 milliseconds
  kMillisFrom64,  ///< timestamp[s] -> INT64 milliseconds
  kDecimalInt32,  ///< decimal128 -> INT32 (precision <= 9)
  kDecimalInt64,  ///< decimal128 -> INT64 (precision <= 18)
  kDecimalFlba,   ///< decimal128/256 -> big-endian FIXED_LEN_BYTE_ARRAY
  kDecimalBinary,       ///< decimal128/256 -> BYTE_ARRAY, minimal big-endian two's complement
  kScale64,             ///< int64 x LeafPlan::factor (time/timestamp to a finer unit), overflow checked
  kInt96FromTimestamp,  ///< timestamp (LeafPlan::factor nanoseconds per unit) -> INT96
  kTimestampFromInt96,  ///< raw INT96 bytes -> int64 in units of LeafPlan::factor nanoseconds
  kBinary,              ///< int32 offsets
  kLargeBinary,         ///< int64 offsets
  kView,                ///< binary/string views
};

/// One leaf column as the writer sees it.
struct LeafPlan {
  Conversion conversion = Conversion::kCopy;
  int32_t source_width = 0;  ///< Arrow bytes per value for fixed-width sources
  int64_t factor = 1;        ///< kScale64 multiplier; nanoseconds per unit for the INT96 conversions
  ColumnDescriptor column;   ///< path, physical type, levels, sort order
};

/// The Parquet schema of an Arrow schema plus one plan per leaf.
struct SchemaPlan {
  std::vector<SchemaElement> elements;
  std::vector<LeafPlan> leaves;
  /// The top-level fields as the shredder walks them: the batch schema's,
  /// with nullability taken from the Parquet repetitions when the Parquet
  /// schema was given (so levels follow the Parquet schema).
  std::vector<Field> shred_fields;
};
/// The Parquet schema FileWriter derives from an Arrow schema.
SchemaPlan plan_schema(const BatchSchema& schema);
/// Binds an Arrow schema to a given Parquet schema (schema_binding.cc):
/// checks that the shapes agree and picks each leaf's conversion.
SchemaPlan bind_schema(const BatchSchema& schema, std::span<const SchemaElement> elements);

/// The shredded content of one leaf for one batch.
struct LeafData {
  std::vector<int16_t> def;  ///< empty when max_def == 0 or all_defined
  /// Every level is max_def (a top-level column without nulls): `def` is left
  /// empty and the column writer emits one run instead of a level per value.
  bool all_defined = false;
  std::vector<int16_t> rep;  ///< empty when max_rep == 0
  int64_t num_levels = 0;
  /// The Arrow array holding the leaf values (a dictionary is materialised
  /// into `owned` first) and the logical indexes of its non-null values.
  const ArrayData* array = nullptr;
  std::shared_ptr<ArrayData> owned;
  std::vector<int64_t> positions;
  /// When true, values are the contiguous logical range [range_start, range_start + num_values).
  bool contiguous = false;
  int64_t range_start = 0;
  int64_t num_values = 0;
};

/// Shreds the top-level field `field` (array `array`) into its leaves, which
/// are leaves[0 .. number of leaves under the field).
void shred_field(const Field& field, const ArrayData& array, std::span<const LeafPlan> plans,
                 std::span<LeafData> leaves);

/// Dense physical values of a leaf, ready for encoding.
struct PhysicalValues {
  const uint8_t* fixed = nullptr;  ///< `width` bytes per value (INT32/INT64/FLOAT/DOUBLE/FLBA)
  const uint8_t* bools = nullptr;  ///< BOOLEAN, one byte (0/1) per value
  const ByteArrayView* binary = nullptr;
  int64_t count = 0;
};

/// Converts the values of `leaf` into physical form, using `scratch` and
/// `views` as storage when a copy is needed (contiguous same-width values are
/// referenced in place).
PhysicalValues stage_values(const LeafPlan& plan, const LeafData& leaf, Buffer& scratch,
                            std::vector<ByteArrayView>& views);

// ---------------------------------------------------------------------------
// Statistics

/// Comparison families of min/max statistics.
enum class StatKind : uint8_t {
  kNone,
  kBool,
  kInt32,
  kUInt32,
  kInt64,
  kUInt64,
  kFloat,
  kDouble,
  kFloat16,
  kBytes,          ///< unsigned lexicographic (BYTE_ARRAY, FLBA)
  kSignedDecimal,  ///< big-endian two's complement FLBA
};
StatKind stat_kind_for(const ColumnDescriptor& column);

/// True when a < b in the order of `kind` (values PLAIN-encoded, byte arrays bare).
bool stat_less(StatKind kind, std::string_view a, std::string_view b);

/// Running min/max/null count of a page or chunk.
///
/// With a `byte_limit` (the truncation length of byte-array statistics), a
/// candidate longer than byte_limit + 1 bytes is kept as its first
/// byte_limit + 1 bytes: a 1 GiB string is not copied to be truncated later.
/// What truncate_min/truncate_max make of the result is unchanged, because
/// they read only the first byte_limit bytes and whether more follow, and
/// prefixes of byte_limit + 1 bytes order two values the same way wherever
/// that matters. A max whose first byte_limit bytes are all 0xFF has no
/// shorter upper bound and is kept whole.
class MinMax {
 public:
  explicit MinMax(StatKind kind = StatKind::kNone, int32_t byte_limit = 0)
      : kind_(kind), byte_limit_(kind == StatKind::kBytes ? byte_limit : 0) {}
  void update(const PhysicalValues& values, int width);
  void merge(const MinMax& other);
  void add_nulls(int64_t n) { null_count_ += n; }
  void reset() {
    has_ = false;
    null_count_ = 0;
  }
  bool has_min_max() const { return has_; }
  int64_t null_count() const { return null_count_; }
  /// min/max as written (float zeros normalised: min -0, max +0).
  std::string min() const;
  std::string max() const;
  StatKind kind() const { return kind_; }

 private:
  void offer(std::string_view low, std::string_view high);
  void keep_min(std::string_view low);
  void keep_max(std::string_view high);

  StatKind kind_;
  int32_t byte_limit_;  ///< 0: keep candidates whole
  bool has_ = false;
  std::string min_;
  std::string max_;
  int64_t null_count_ = 0;
};

/// Truncates a byte-array min (prefix) or max (prefix with the last byte
/// that is not 0xFF incremented) to `limit` bytes; *exact says whether the
/// value was kept whole. A max of only 0xFF bytes is kept whole.
std::string truncate_min(const std::string& value, int32_t limit, bool* exact);
std::string truncate_max(const std::string& value, int32_t limit, bool* exact);

// ---------------------------------------------------------------------------
// Bloom filters

/// xxhash64 (seed 0) of each value's PLAIN bytes (byte arrays without length).
void hash_values(const PhysicalValues& values, int width, std::vector<uint64_t>& out);

/// Split-block Bloom filter bytes (a multiple of 32, a power of two, >= 32)
/// for `ndv` distinct values at false-positive probability `fpp`.
int64_t bloom_filter_bytes(int64_t ndv, double fpp, int64_t max_bytes);
/// Inserts hashes into a split-block bitset of `bytes` bytes.
void bloom_insert(uint8_t* bitset, int64_t bytes, uint64_t hash);
bool bloom_contains(const uint8_t* bitset, int64_t bytes, uint64_t hash);

// ---------------------------------------------------------------------------
// Column chunk writer

/// Effective options of one leaf.
struct ColumnSettings {
  bool dictionary = true;
  Encoding encoding = Encoding::PLAIN;
  CompressionCodec codec = CompressionCodec::SNAPPY;
  int level = kDefaultCompressionLevel;
  bool statistics = true;
  bool bloom_filter = false;
  double bloom_filter_fpp = 0.01;
};
ColumnSettings settings_for(const WriterOptions& options, const ColumnDescriptor& column);

/// A finished column chunk: its pages (dictionary page first) ready to be
/// written, and everything the footer and indexes need, with offsets
/// relative to the start of `bytes`.
struct ChunkResult {
  ColumnMetaData meta;  ///< offsets relative to the chunk start
  ColumnIndex column_index;
  OffsetIndex offset_index;  ///< offsets relative to the chunk start
  bool has_column_index = false;
  Buffer bloom;  ///< header + bitset, empty when none
};

class ColumnChunkWriter {
 public:
  ColumnChunkWriter(const LeafPlan& plan, const WriterOptions& options);
  ~ColumnChunkWriter();

  /// Adds one batch of the leaf. Pages are cut at record boundaries.
  void write(const LeafData& leaf);
  /// Encoded bytes held for the open chunk (pages + the open page's estimate).
  int64_t buffered_bytes() const;
  /// Finishes the chunk: flushes the last page, builds statistics, indexes
  /// and the Bloom filter. The chunk's bytes are `dictionary_page` (set
  /// here, empty without a dictionary) followed by the data pages, which
  /// write_pages() sends to a sink. release_pages() then gives their blocks
  /// back to the shared BlockPool, where the next chunk (of any column)
  /// finds them already mapped.
  void finish(ChunkResult& result, Buffer& dictionary_page);
  void write_pages(Sink& sink) const;
  /// Appends the data pages to `out` (for encryption, which needs them contiguous).
  void append_pages_to(Buffer& out) const;
  int64_t pages_size() const;
  void release_pages();

  struct State;

 private:
  std::unique_ptr<State> state_;
};

}  // namespace parquetry::write
