// Row predicates over primitive leaf columns, and what they let a reader skip.
//
//   using namespace parquetry;
//   Predicate p = col("fare_amount") > 10.0 && col("payment_type").in({3, 4});
//   Predicate q = parse_predicate("PULocationID = 132 AND fare_amount > 10");
//
// Semantics follow SQL WHERE: a comparison with a null value is unknown and
// unknown rows are not selected (NOT is pushed down to the leaves, so
// NOT (x > 5) keeps only non-null x <= 5). Literals are typed by the column
// they meet: integers signed or unsigned as annotated, decimals at the
// column's scale, strings compared by unsigned bytes, dates and timestamps
// from text ('2022-01-15', '2022-01-15 08:30:00.25') in the column's unit,
// floats with IEEE rules (NaN compares false except for !=).
#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "parquetry/schema.h"
#include "parquetry/table.h"
#include "parquetry/writer_quirks.h"

namespace parquetry {

/// A literal as written: numbers keep their text so decimals stay exact.
struct Literal {
  enum class Kind : uint8_t { kNull, kBool, kInt, kDouble, kString };
  Kind kind = Kind::kNull;
  bool bool_value = false;
  int64_t int_value = 0;
  double double_value = 0;
  std::string text;  ///< kString: the string; numbers: their written form

  Literal() = default;
  Literal(bool value) : kind(Kind::kBool), bool_value(value), text(value ? "true" : "false") {}
  template <std::integral T>
  requires(!std::same_as<T, bool>) Literal(T value)
      : kind(Kind::kInt), int_value(static_cast<int64_t>(value)), text(std::to_string(value)) {}
  template <std::floating_point T>
  Literal(T value)
      : kind(Kind::kDouble), double_value(static_cast<double>(value)), text(number_text(double(value))) {}
  Literal(const char* value) : kind(Kind::kString), text(value) {}
  Literal(std::string value) : kind(Kind::kString), text(std::move(value)) {}
  Literal(std::string_view value) : kind(Kind::kString), text(value) {}

  std::string to_string() const;  ///< SQL form: 42, 1.5, 'text', NULL
  bool operator==(const Literal&) const = default;

 private:
  static std::string number_text(double value);
};

enum class CompareOp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };

/// An expression tree. Leaves name a column by dotted path.
struct Predicate {
  enum class Kind : uint8_t { kTrue, kFalse, kCompare, kIn, kIsNull, kIsNotNull, kAnd, kOr, kNot };
  Kind kind = Kind::kTrue;
  std::string column;               ///< leaves
  CompareOp op = CompareOp::kEq;    ///< kCompare
  std::vector<Literal> values;      ///< kCompare: one; kIn: the set
  std::vector<Predicate> children;  ///< kAnd / kOr: two or more; kNot: one

  /// Distinct column paths the predicate reads, in first-use order.
  std::vector<std::string> columns() const;
  /// SQL-like text that parse_predicate reads back.
  std::string to_string() const;
  bool is_leaf() const { return kind != Kind::kAnd && kind != Kind::kOr && kind != Kind::kNot; }
};

Predicate operator&&(Predicate a, Predicate b);
Predicate operator||(Predicate a, Predicate b);
Predicate operator!(Predicate a);

/// Builder for leaf predicates on one column.
class ColumnRef {
 public:
  explicit ColumnRef(std::string path) : path_(std::move(path)) {}
  Predicate operator==(Literal v) const { return compare(CompareOp::kEq, std::move(v)); }
  Predicate operator!=(Literal v) const { return compare(CompareOp::kNe, std::move(v)); }
  Predicate operator<(Literal v) const { return compare(CompareOp::kLt, std::move(v)); }
  Predicate operator<=(Literal v) const { return compare(CompareOp::kLe, std::move(v)); }
  Predicate operator>(Literal v) const { return compare(CompareOp::kGt, std::move(v)); }
  Predicate operator>=(Literal v) const { return compare(CompareOp::kGe, std::move(v)); }
  Predicate in(std::vector<Literal> values) const;
  Predicate in(std::initializer_list<Literal> values) const { return in(std::vector<Literal>(values)); }
  /// low <= x AND x <= high.
  Predicate between(Literal low, Literal high) const;
  Predicate is_null() const;
  Predicate is_not_null() const;
  Predicate compare(CompareOp op, Literal value) const;

 private:
  std::string path_;
};

inline ColumnRef col(std::string path) { return ColumnRef(std::move(path)); }

/// Parses "a = 1 AND (b IN ('x', 'y') OR c IS NULL) AND NOT d BETWEEN 1 AND 5".
/// Keywords are case-insensitive; columns are paths as parse_column_path
/// reads them (dotted names, any part "quoted" or `quoted`);
/// literals: numbers, 'strings' ('' escapes a quote), TRUE/FALSE, NULL, and
/// DATE '...' / TIMESTAMP '...' (read as strings, typed by the column).
/// Throws kInvalidArgument naming the offset of a syntax error.
Predicate parse_predicate(std::string_view text);

/// Parses one column path as the CLI's --columns and --where (and
/// parse_predicate) write it: name parts separated by '.', each either bare
/// (ASCII letters, digits, '_', and bytes >= 0x80, so UTF-8 names need no
/// quotes) or quoted with double quotes or backticks, the quote doubled
/// inside. Any byte string can so be named: `a.b` (struct a, field b),
/// `"a.b"` (one field whose name holds a dot), `""` (the empty name),
/// `"my col"."x ""y"""`. Returns the names joined by '.', the form
/// Schema::find_column and ColumnDescriptor::path use (two columns whose
/// joined names are equal, say a top-level "a.b" and a.b, resolve to the
/// first). Throws kInvalidArgument naming the offset of a syntax error.
std::string parse_column_path(std::string_view text);
/// Comma-separated column paths (commas inside quotes do not split; spaces
/// around items and empty items are ignored).
std::vector<std::string> parse_column_list(std::string_view text);
/// The text form of a path given as its name parts, quoting the parts that
/// need it (parse_column_path reads it back).
std::string quote_column_path(std::span<const std::string> parts);

/// The predicate with NOT pushed to the leaves (De Morgan, negated
/// comparisons, NOT IN as an AND of !=), which is what evaluation and pruning
/// work on. The result holds no kNot.
Predicate push_down_not(const Predicate& predicate);

/// Evaluates `predicate` on every row of `batch` (columns looked up by
/// dotted path: top-level names, then struct children). Writes a bitmap of
/// (num_rows + 7) / 8 bytes, bit i set when row i is selected, and returns the
/// number of selected rows. Throws kInvalidArgument for an unknown column or
/// a literal that does not fit the column's type, kUnsupported for list, map
/// or view columns.
int64_t evaluate_predicate(const Predicate& predicate, const RecordBatch& batch,
                           std::vector<uint8_t>& bitmap);

/// Statistics of a set of rows of one column (a column chunk or one page),
/// PLAIN-encoded as in the footer and the column index.
struct ValueBounds {
  std::optional<std::string> min;  ///< absent when unknown or not usable
  std::optional<std::string> max;
  std::optional<int64_t> null_count;
  int64_t num_values = -1;  ///< values including nulls; -1 unknown
  bool all_null = false;    ///< a page the column index marks null
};

/// Min/max and null count usable for pruning from a chunk's (or a page's)
/// Statistics, given what the writer catalogue says of them (`trust`, from
/// StatisticsCatalogue::chunk_trust or column_index_trust): min_value /
/// max_value when present, else the deprecated min/max; nothing of a field
/// the trust rules out. The value rules (deprecated fields only for
/// signed-order non-binary columns, NaN bounds, undefined sort order) are
/// applied here too, so a page's bounds are checked like a chunk's.
ValueBounds usable_bounds(const ColumnDescriptor& column, const Statistics& statistics, int64_t num_values,
                          const StatisticsTrust& trust);

/// True when no row with these bounds can satisfy `leaf` (a leaf predicate
/// on `column`, NOT already pushed down). Conservative: false when unsure.
bool bounds_exclude(const Predicate& leaf, const ColumnDescriptor& column, const ValueBounds& bounds);

/// True when `leaf_excluded` proves `predicate` (NOT pushed down) false for
/// every row: an AND when one child is excluded, an OR when all are.
bool predicate_excluded(const Predicate& predicate,
                        const std::function<bool(const Predicate&)>& leaf_excluded);

/// True when the chunk statistics of `group` prove no row of it satisfies
/// `predicate` (NOT pushed down; leaves name columns of `schema`), using only
/// what `catalogue` (built from the file's footer) says its writer got right.
bool row_group_excluded_by_statistics(const Predicate& predicate, const Schema& schema, const RowGroup& group,
                                      const StatisticsCatalogue& catalogue);

/// The PLAIN encoding of `value` as a value of `column` (byte arrays without
/// the length prefix), as Bloom filters hash it; nullopt when it has no
/// single PLAIN form the reader is sure of (callers then must not prune).
std::optional<std::string> plain_encode_literal(const ColumnDescriptor& column, const Literal& value);

/// Parses 'YYYY-MM-DD' as days since 1970-01-01; nullopt when malformed.
std::optional<int64_t> parse_date_days(std::string_view text);
/// Parses 'YYYY-MM-DD[ |T]HH:MM:SS[.fraction][Z]' (or a bare date) as a count
/// of `unit` since the epoch; nullopt when malformed.
std::optional<int64_t> parse_timestamp(std::string_view text, TimeUnit unit);

}  // namespace parquetry
