// The catalogue of statistics that writers got wrong, and the per-file,
// per-chunk verdicts the readers act on. Each rule is one row of kCatalogue
// (the text `parquetry meta` prints and docs/limits.md lists) plus one test
// below; the rules are conservative: when a defect may apply, the field it
// spoils is not used, which costs pruning, never a wrong row.
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <string_view>

#include "parquetry/writer_quirks.h"

namespace parquetry {
namespace {

using D = StatisticsDefect;
using F = StatisticsField;

constexpr std::array<StatisticsDefectInfo, kStatisticsDefectCount> kCatalogue = {{
    {D::kDictionaryNullCount, "dictionary-null-count", F::kNullCount, "ARROW-12513",
     "parquet-cpp (Arrow before 4.0) and parquet-cpp-arrow before 5.0.0 wrote null_count = 0 for "
     "dictionary-encoded arrays with nulls"},
    {D::kNestedNullCount, "nested-null-count", F::kNullCount, "PARQUET-2067",
     "parquet-cpp and parquet-cpp-arrow before 6.0.0 left null and empty enclosing lists out of the "
     "null_count of repeated columns"},
    {D::kCorruptBinaryMinMax, "binary-min-max", F::kMinMax, "PARQUET-251",
     "parquet-mr before 1.8.0 wrote BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY min/max from reused buffers and "
     "in signed byte order"},
    {D::kSignedOrderWriter, "signed-order-writer", F::kMinMax, "PARQUET-686",
     "parquet-mr before 1.10.0 and parquet-cpp before 1.3.0 compared every type as signed, wrong for "
     "strings, binary, unsigned integers"},
    {D::kLegacyMinMaxOrder, "legacy-min-max-order", F::kMinMax,
     "PARQUET-686, parquet.thrift Statistics.min/max",
     "the deprecated min/max fields are ordered as signed values; not used for binary, decimal in "
     "byte arrays or unsigned columns"},
    {D::kNoColumnOrder, "no-column-order", F::kMinMax, "parquet.thrift FileMetaData.column_orders",
     "min_value/max_value without column_orders have no defined order; used only where every order "
     "agrees (signed types)"},
    {D::kUnknownColumnOrder, "unknown-column-order", F::kMinMax, "parquet.thrift ColumnOrder",
     "the file declares a column order this reader does not know or that does not fit the type"},
    {D::kUndefinedSortOrder, "undefined-sort-order", F::kMinMax,
     "parquet.thrift ColumnOrder (TypeDefinedOrder)",
     "the column's type has no defined sort order (INT96, INTERVAL, geospatial, unknown annotations)"},
    {D::kNanBound, "nan-bound", F::kMinMax, "PARQUET-1222",
     "a FLOAT/DOUBLE min or max is NaN; writers were told to leave NaN out, so the bounds prove nothing"},
}};

bool binary(Type type) { return type == Type::BYTE_ARRAY || type == Type::FIXED_LEN_BYTE_ARRAY; }

bool nan_value(Type type, std::string_view bytes) {
  if (type == Type::FLOAT && bytes.size() == 4) {
    float v;
    std::memcpy(&v, bytes.data(), 4);
    return std::isnan(v);
  }
  if (type == Type::DOUBLE && bytes.size() == 8) {
    double v;
    std::memcpy(&v, bytes.data(), 8);
    return std::isnan(v);
  }
  return type == Type::FLOAT || type == Type::DOUBLE;  // a float bound of the wrong size is unusable too
}

constexpr uint32_t mask_of(StatisticsField field) {
  uint32_t mask = 0;
  for (const StatisticsDefectInfo& info : kCatalogue) {
    if (info.field == field) mask |= 1u << static_cast<int>(info.defect);
  }
  return mask;
}

}  // namespace

std::span<const StatisticsDefectInfo> statistics_defect_catalogue() { return kCatalogue; }

const StatisticsDefectInfo& statistics_defect_info(StatisticsDefect defect) {
  return kCatalogue[static_cast<size_t>(defect)];
}

bool StatisticsTrust::min_max_usable() const { return (defects & mask_of(F::kMinMax)) == 0; }
bool StatisticsTrust::null_count_usable() const { return (defects & mask_of(F::kNullCount)) == 0; }

std::vector<StatisticsDefect> StatisticsTrust::list() const {
  std::vector<StatisticsDefect> out;
  for (const StatisticsDefectInfo& info : kCatalogue) {
    if (has(info.defect)) out.push_back(info.defect);
  }
  return out;
}

bool chunk_dictionary_encoded(const ColumnMetaData& chunk) {
  if (chunk.dictionary_page_offset && *chunk.dictionary_page_offset > 0) return true;
  for (Encoding encoding : chunk.encodings) {
    if (encoding == Encoding::PLAIN_DICTIONARY || encoding == Encoding::RLE_DICTIONARY) return true;
  }
  for (const PageEncodingStats& page : chunk.encoding_stats) {
    if (page.page_type == PageType::DICTIONARY_PAGE) return true;
  }
  return false;
}

StatisticsTrust statistics_value_trust(const ColumnDescriptor& column, const Statistics& statistics) {
  StatisticsTrust trust;
  std::optional<std::string_view> min, max;
  if (statistics.min_value && statistics.max_value) {
    min = *statistics.min_value;
    max = *statistics.max_value;
  } else if (statistics.min && statistics.max) {
    // The deprecated pair was written with signed comparison: right for
    // signed numbers, and for booleans (0 < 1 either way); wrong for bytes
    // and unsigned integers.
    min = *statistics.min;
    max = *statistics.max;
    const bool signed_agnostic = column.physical_type == Type::BOOLEAN ||
                                 (column.sort_order == SortOrder::kSigned && !binary(column.physical_type));
    if (!signed_agnostic) trust.add(D::kLegacyMinMaxOrder);
  }
  if (!min) return trust;
  if (column.sort_order == SortOrder::kUnknown) trust.add(D::kUndefinedSortOrder);
  if ((column.physical_type == Type::FLOAT || column.physical_type == Type::DOUBLE) &&
      (nan_value(column.physical_type, *min) || nan_value(column.physical_type, *max))) {
    trust.add(D::kNanBound);
  }
  return trust;
}

StatisticsCatalogue::StatisticsCatalogue(const FileMetaData& metadata)
    : writer_(parse_created_by(metadata.created_by ? std::string_view(*metadata.created_by) : "")) {
  column_orders_present_ = !metadata.column_orders.empty();
  column_orders_ = metadata.column_orders;
}

StatisticsTrust StatisticsCatalogue::writer_trust(const ColumnDescriptor& column,
                                                  bool dictionary_encoded) const {
  StatisticsTrust trust;
  const bool arrow_cpp_old = writer_.is("parquet-cpp");  // Arrow 0.x-3.x named itself so
  const bool arrow_cpp = writer_.is("parquet-cpp-arrow");
  if (dictionary_encoded && (arrow_cpp_old || (arrow_cpp && writer_.before(5, 0, 0)))) {
    trust.add(D::kDictionaryNullCount);
  }
  if (column.max_repetition_level > 0 && (arrow_cpp_old || (arrow_cpp && writer_.before(6, 0, 0)))) {
    trust.add(D::kNestedNullCount);
  }
  const bool parquet_mr = writer_.is("parquet-mr");
  if (parquet_mr && writer_.before(1, 8, 0) && binary(column.physical_type)) {
    trust.add(D::kCorruptBinaryMinMax);
  }
  if (((parquet_mr && writer_.before(1, 10, 0)) || (arrow_cpp_old && writer_.before(1, 3, 0))) &&
      column.sort_order != SortOrder::kSigned && column.physical_type != Type::BOOLEAN) {
    trust.add(D::kSignedOrderWriter);
  }
  return trust;
}

namespace {

// The rule for min_value/max_value and column-index bounds: they follow the
// file's column order for the column, which must exist and be one we know.
void check_column_order(const ColumnDescriptor& column, bool present, const std::vector<ColumnOrder>& orders,
                        StatisticsTrust& trust) {
  if (column.sort_order == SortOrder::kUnknown) {
    trust.add(D::kUndefinedSortOrder);
    return;
  }
  if (!present) {
    if (column.sort_order != SortOrder::kSigned) trust.add(D::kNoColumnOrder);
    return;
  }
  if (column.index < 0 || size_t(column.index) >= orders.size()) {
    // One order per leaf is required; a list of the wrong length tells us nothing.
    if (column.sort_order != SortOrder::kSigned) trust.add(D::kNoColumnOrder);
    return;
  }
  switch (orders[size_t(column.index)]) {
    case ColumnOrder::TYPE_ORDER: return;
    case ColumnOrder::IEEE_754_TOTAL_ORDER:
      if (column.physical_type == Type::FLOAT || column.physical_type == Type::DOUBLE) return;
      break;
    default: break;
  }
  trust.add(D::kUnknownColumnOrder);
}

}  // namespace

StatisticsTrust StatisticsCatalogue::chunk_trust(const ColumnDescriptor& column,
                                                 const ColumnMetaData& chunk) const {
  StatisticsTrust trust = writer_trust(column, chunk_dictionary_encoded(chunk));
  if (!chunk.statistics) return trust;
  const Statistics& statistics = *chunk.statistics;
  trust.defects |= statistics_value_trust(column, statistics).defects;
  if (statistics.min_value && statistics.max_value) {
    check_column_order(column, column_orders_present_, column_orders_, trust);
  }
  return trust;
}

StatisticsTrust StatisticsCatalogue::column_index_trust(const ColumnDescriptor& column,
                                                        const ColumnMetaData& chunk) const {
  StatisticsTrust trust = writer_trust(column, chunk_dictionary_encoded(chunk));
  check_column_order(column, column_orders_present_, column_orders_, trust);
  return trust;
}

}  // namespace parquetry
