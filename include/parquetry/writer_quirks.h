// Which writer made a file, and which of its statistics can be trusted.
//
//   WriterVersion writer = parse_created_by("parquet-mr version 1.7.0 (build abcd)");
//   writer.is("parquet-mr") && writer.before(1, 8, 0);   // true
//
//   StatisticsCatalogue catalogue(metadata);               // once per file
//   StatisticsTrust trust = catalogue.chunk_trust(column, *chunk.meta_data);
//   if (trust.null_count_usable()) ...                    // else: don't prune on it
//
// Writers have shipped statistics that contradict the values they describe:
// parquet-cpp-arrow before 5.0.0 wrote null_count = 0 for dictionary-encoded
// arrays with nulls, parquet-mr before 1.8.0 wrote corrupt binary min/max, the
// deprecated min/max fields were compared as signed bytes everywhere, and so
// on. The catalogue (statistics_defect_catalogue(), docs/limits.md) lists
// each known defect with its source; StatisticsCatalogue decides, per file
// and column chunk (or column index), which defects apply. Every reader path
// that prunes or answers from statistics asks it first: row-group pruning,
// page-index pruning, Dask planning, and `parquetry meta` reports what it
// says. Bloom filters and dictionary pages hold values, not statistics, and
// are not affected.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "parquetry/metadata.h"
#include "parquetry/schema.h"

namespace parquetry {

/// FileMetaData.created_by parsed: "<application> version <version> (build <build>)".
/// Versions are major[.minor[.patch]][-pre_release][+metadata], with an
/// optional leading 'v' ("DuckDB version v1.1.3"); missing parts are 0.
struct WriterVersion {
  std::string application;   ///< as written ("parquet-mr", "parquet-cpp-arrow", "parquetry", "impala", ...)
  bool has_version = false;  ///< a version number was found
  int32_t major = 0;
  int32_t minor = 0;
  int32_t patch = 0;
  std::string pre_release;  ///< after '-' ("SNAPSHOT", "cdh5"); empty for a release
  std::string build;        ///< the "(build ...)" part, e.g. a commit hash
  bool present = false;     ///< the file had a created_by at all

  /// Application name equality, ignoring ASCII case.
  bool is(std::string_view name) const;
  /// True when this version sorts before major.minor.patch; a pre-release of
  /// that very version counts as before it (1.8.0-SNAPSHOT < 1.8.0). A
  /// missing or unparseable version counts as before every version, so a
  /// defect of a writer whose version cannot be read is assumed to apply.
  bool before(int32_t major, int32_t minor, int32_t patch) const;
  /// "parquet-mr 1.8.0-SNAPSHOT (build abcd)" or "unknown writer".
  std::string to_string() const;
};

/// Parses a created_by string; never throws (unrecognised text leaves the
/// fields empty and has_version false).
WriterVersion parse_created_by(std::string_view created_by);

/// The part of a Statistics struct (or of a column index) a defect spoils.
enum class StatisticsField : uint8_t { kMinMax, kNullCount };

/// The known statistics defects. Each is one row of the catalogue.
enum class StatisticsDefect : uint8_t {
  kDictionaryNullCount,  ///< ARROW-12513: parquet-cpp(-arrow) < 5.0.0, dictionary-encoded chunk, null_count 0
  kNestedNullCount,  ///< PARQUET-2067: parquet-cpp(-arrow) < 6.0.0, repeated column, null lists not counted
  kCorruptBinaryMinMax,  ///< PARQUET-251: parquet-mr < 1.8.0, binary min/max from reused buffers
  kSignedOrderWriter,    ///< PARQUET-686: parquet-mr < 1.10.0 / parquet-cpp < 1.3.0 compared every type as
                         ///< signed
  kLegacyMinMaxOrder,    ///< deprecated min/max fields on a type whose order is not signed
  kNoColumnOrder,        ///< min_value/max_value without column_orders, type order not signed
  kUnknownColumnOrder,   ///< a column order this reader does not know or that does not fit the type
  kUndefinedSortOrder,   ///< the type has no defined sort order (INT96, INTERVAL, unknown annotation...)
  kNanBound,             ///< a float min or max that is NaN
};
inline constexpr int kStatisticsDefectCount = 9;

/// One catalogue row: what it spoils, when, and where it is documented.
struct StatisticsDefectInfo {
  StatisticsDefect defect;
  std::string_view name;         ///< stable short name ("dictionary-null-count")
  StatisticsField field;         ///< what is not used
  std::string_view source;       ///< JIRA id or spec section
  std::string_view description;  ///< one sentence: affected writers and columns
};

/// Every defect the catalogue knows, in enum order.
std::span<const StatisticsDefectInfo> statistics_defect_catalogue();
const StatisticsDefectInfo& statistics_defect_info(StatisticsDefect defect);

/// The verdict for one chunk's statistics (or one column index): a set of
/// defects. Empty = everything usable.
struct StatisticsTrust {
  uint32_t defects = 0;  ///< bit (1 << StatisticsDefect)

  bool has(StatisticsDefect d) const { return (defects >> static_cast<int>(d)) & 1u; }
  void add(StatisticsDefect d) { defects |= 1u << static_cast<int>(d); }
  /// min/max (either field pair) may bound the values.
  bool min_max_usable() const;
  /// null_count (and a column index's null_pages / null_counts) may be used.
  bool null_count_usable() const;
  /// The defects that apply, in catalogue order.
  std::vector<StatisticsDefect> list() const;
};

/// The catalogue applied to one file: parses created_by once and checks
/// column_orders; answers per column chunk. Cheap to copy; holds no pointer
/// into the metadata.
class StatisticsCatalogue {
 public:
  explicit StatisticsCatalogue(const FileMetaData& metadata);

  const WriterVersion& writer() const { return writer_; }

  /// Defects of the writer and the file that apply to the chunk's
  /// statistics, and those of the Statistics values themselves (NaN bounds,
  /// which field pair holds min/max). Pass the chunk's metadata; its
  /// statistics may be absent (then only the writer/file rules are checked).
  StatisticsTrust chunk_trust(const ColumnDescriptor& column, const ColumnMetaData& chunk) const;

  /// Defects that apply to the chunk's ColumnIndex (null_pages, null_counts,
  /// min_values, max_values). NaN page bounds are checked per page by
  /// usable_bounds().
  StatisticsTrust column_index_trust(const ColumnDescriptor& column, const ColumnMetaData& chunk) const;

  /// The writer/file rules only (no chunk): what holds for every chunk of
  /// the column, given whether a chunk is dictionary-encoded.
  StatisticsTrust writer_trust(const ColumnDescriptor& column, bool dictionary_encoded) const;

 private:
  WriterVersion writer_;
  std::vector<ColumnOrder> column_orders_;  // empty when absent or of the wrong length
  bool column_orders_present_ = false;
};

/// Defects of the Statistics values alone: which field pair usable_bounds
/// would take and whether it may be used for this column type, NaN bounds.
StatisticsTrust statistics_value_trust(const ColumnDescriptor& column, const Statistics& statistics);

/// True when a chunk's data pages use a dictionary (a dictionary page offset,
/// or PLAIN_DICTIONARY / RLE_DICTIONARY among its encodings).
bool chunk_dictionary_encoded(const ColumnMetaData& chunk);

}  // namespace parquetry
