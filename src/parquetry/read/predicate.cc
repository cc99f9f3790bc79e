// Predicate building, parsing, NOT push-down and row evaluation.
//
// Evaluation binds each leaf's literal to the column's type once, then runs
// one tight loop per (value type, operator) writing a byte per row; AND/OR
// combine byte masks and the result is packed into a bitmap at the end.
#include "parquetry/predicate.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#ifdef __AVX512F__
#include <immintrin.h>
#endif

#include "parquetry/error.h"
#include "parquetry/read/predicate_bind.h"
#include "parquetry/util/bit_util.h"

namespace parquetry {

// ---------------------------------------------------------------------------
// Literals and builders

std::string Literal::number_text(double value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

std::string Literal::to_string() const {
  switch (kind) {
    case Kind::kNull: return "NULL";
    case Kind::kBool: return bool_value ? "TRUE" : "FALSE";
    case Kind::kInt:
    case Kind::kDouble: return text;
    case Kind::kString: {
      std::string out = "'";
      for (char c : text) {
        if (c == '\'') out += '\'';
        out += c;
      }
      return out + "'";
    }
  }
  return "NULL";
}

namespace {

const char* op_text(CompareOp op) {
  switch (op) {
    case CompareOp::kEq: return "=";
    case CompareOp::kNe: return "!=";
    case CompareOp::kLt: return "<";
    case CompareOp::kLe: return "<=";
    case CompareOp::kGt: return ">";
    case CompareOp::kGe: return ">=";
  }
  return "=";
}

CompareOp negate(CompareOp op) {
  switch (op) {
    case CompareOp::kEq: return CompareOp::kNe;
    case CompareOp::kNe: return CompareOp::kEq;
    case CompareOp::kLt: return CompareOp::kGe;
    case CompareOp::kLe: return CompareOp::kGt;
    case CompareOp::kGt: return CompareOp::kLe;
    case CompareOp::kGe: return CompareOp::kLt;
  }
  return op;
}

// A column path as parse_predicate reads it back: bare when every dotted
// part is a non-empty run of name bytes and the first is no keyword, else
// the whole path quoted (its joined form is what the parser returns).
std::string quote_column(const std::string& name) {
  bool plain =
      !name.empty() && name.front() != '.' && name.back() != '.' && name.find("..") == std::string::npos;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (!std::isalnum(u) && c != '_' && c != '.' && u < 0x80) plain = false;
  }
  if (plain) {
    std::string first = name.substr(0, name.find('.'));
    for (char& c : first) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (const char* keyword : {"NOT", "TRUE", "FALSE", "NULL", "AND", "OR", "IS", "IN", "BETWEEN"}) {
      if (first == keyword) plain = false;
    }
  }
  if (plain) return name;
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

Predicate combine(Predicate::Kind kind, Predicate a, Predicate b) {
  Predicate out;
  out.kind = kind;
  for (Predicate* part : {&a, &b}) {
    if (part->kind == kind) {
      for (Predicate& child : part->children) out.children.push_back(std::move(child));
    } else {
      out.children.push_back(std::move(*part));
    }
  }
  return out;
}

}  // namespace

Predicate operator&&(Predicate a, Predicate b) {
  return combine(Predicate::Kind::kAnd, std::move(a), std::move(b));
}
Predicate operator||(Predicate a, Predicate b) {
  return combine(Predicate::Kind::kOr, std::move(a), std::move(b));
}
Predicate operator!(Predicate a) {
  Predicate out;
  out.kind = Predicate::Kind::kNot;
  out.children.push_back(std::move(a));
  return out;
}

Predicate ColumnRef::compare(CompareOp op, Literal value) const {
  Predicate out;
  out.kind = Predicate::Kind::kCompare;
  out.column = path_;
  out.op = op;
  out.values.push_back(std::move(value));
  return out;
}

Predicate ColumnRef::in(std::vector<Literal> values) const {
  Predicate out;
  out.kind = Predicate::Kind::kIn;
  out.column = path_;
  out.values = std::move(values);
  return out;
}

Predicate ColumnRef::between(Literal low, Literal high) const {
  return compare(CompareOp::kGe, std::move(low)) && compare(CompareOp::kLe, std::move(high));
}

Predicate ColumnRef::is_null() const {
  Predicate out;
  out.kind = Predicate::Kind::kIsNull;
  out.column = path_;
  return out;
}

Predicate ColumnRef::is_not_null() const {
  Predicate out;
  out.kind = Predicate::Kind::kIsNotNull;
  out.column = path_;
  return out;
}

std::vector<std::string> Predicate::columns() const {
  std::vector<std::string> out;
  auto visit = [&](const Predicate& p, auto&& self) -> void {
    if (!p.column.empty() && std::find(out.begin(), out.end(), p.column) == out.end())
      out.push_back(p.column);
    for (const Predicate& child : p.children) self(child, self);
  };
  visit(*this, visit);
  return out;
}

std::string Predicate::to_string() const {
  switch (kind) {
    case Kind::kTrue: return "TRUE";
    case Kind::kFalse: return "FALSE";
    case Kind::kCompare: return quote_column(column) + " " + op_text(op) + " " + values.at(0).to_string();
    case Kind::kIn: {
      std::string out = quote_column(column) + " IN (";
      for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + values[i].to_string();
      return out + ")";
    }
    case Kind::kIsNull: return quote_column(column) + " IS NULL";
    case Kind::kIsNotNull: return quote_column(column) + " IS NOT NULL";
    case Kind::kNot: return "NOT (" + children.at(0).to_string() + ")";
    case Kind::kAnd:
    case Kind::kOr: {
      std::string out = "(";
      for (size_t i = 0; i < children.size(); ++i) {
        if (i) out += kind == Kind::kAnd ? " AND " : " OR ";
        out += children[i].to_string();
      }
      return out + ")";
    }
  }
  return "TRUE";
}

// ---------------------------------------------------------------------------
// NOT push-down

namespace {

Predicate push(const Predicate& p, bool negated) {
  using Kind = Predicate::Kind;
  switch (p.kind) {
    case Kind::kTrue:
    case Kind::kFalse: {
      Predicate out = p;
      if (negated) out.kind = p.kind == Kind::kTrue ? Kind::kFalse : Kind::kTrue;
      return out;
    }
    case Kind::kNot: return push(p.children.at(0), !negated);
    case Kind::kAnd:
    case Kind::kOr: {
      Predicate out;
      out.kind = (p.kind == Kind::kAnd) != negated ? Kind::kAnd : Kind::kOr;
      for (const Predicate& child : p.children) out.children.push_back(push(child, negated));
      return out;
    }
    case Kind::kCompare: {
      Predicate out = p;
      if (negated) out.op = negate(p.op);
      return out;
    }
    case Kind::kIsNull:
    case Kind::kIsNotNull: {
      Predicate out = p;
      if (negated) out.kind = p.kind == Kind::kIsNull ? Kind::kIsNotNull : Kind::kIsNull;
      return out;
    }
    case Kind::kIn: {
      if (!negated) return p;
      // NOT IN: every value differs (and, as in SQL, a NULL in the list or in
      // the row makes the row unknown, i.e. not selected).
      Predicate out;
      out.kind = Kind::kAnd;
      for (const Literal& value : p.values) out.children.push_back(col(p.column) != value);
      if (out.children.empty()) {
        out = col(p.column).is_not_null();
      }
      return out;
    }
  }
  return p;
}

}  // namespace

Predicate push_down_not(const Predicate& predicate) { return push(predicate, false); }

// ---------------------------------------------------------------------------
// Parser

namespace {

// A bare name part: ASCII letters, digits, '_', and any byte of a
// multi-byte UTF-8 sequence (so non-ASCII names need no quotes).
bool bare_name_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isalnum(u) || c == '_' || u >= 0x80;
}

// Reads a column path at `pos`: parts separated by '.', each bare or quoted
// with "..." or `...` (the quote doubled inside). Returns the parts joined
// by '.', or nullopt with `error` set.
std::optional<std::string> read_column_path(std::string_view text, size_t& pos, std::string& error) {
  std::string path;
  for (bool first = true;; first = false) {
    if (!first) path += '.';
    if (pos < text.size() && (text[pos] == '"' || text[pos] == '`')) {
      const char quote = text[pos++];
      while (true) {
        if (pos >= text.size()) {
          error = "unterminated quote";
          return std::nullopt;
        }
        const char c = text[pos++];
        if (c == quote) {
          if (pos < text.size() && text[pos] == quote) {
            path += quote;
            ++pos;
            continue;
          }
          break;
        }
        path += c;
      }
    } else {
      const size_t start = pos;
      while (pos < text.size() && bare_name_byte(text[pos])) ++pos;
      if (start == pos) {
        error = first ? "expected a column name" : "expected a name after '.'";
        return std::nullopt;
      }
      path.append(text.substr(start, pos - start));
    }
    if (pos >= text.size() || text[pos] != '.') return path;
    ++pos;
  }
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Predicate parse() {
    Predicate out = parse_or();
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text");
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    throw_invalid("predicate: " + what + " at offset " + std::to_string(pos_) + " in \"" +
                  std::string(text_) + "\"");
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool keyword(std::string_view word) {
    skip_space();
    if (text_.size() - pos_ < word.size()) return false;
    for (size_t i = 0; i < word.size(); ++i) {
      if (std::toupper(static_cast<unsigned char>(text_[pos_ + i])) != word[i]) return false;
    }
    size_t end = pos_ + word.size();
    if (end < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_')) {
      return false;
    }
    pos_ = end;
    return true;
  }
  bool symbol(std::string_view s) {
    skip_space();
    if (text_.substr(pos_, s.size()) == s) {
      pos_ += s.size();
      return true;
    }
    return false;
  }

  Predicate parse_or() {
    Predicate out = parse_and();
    while (keyword("OR")) out = std::move(out) || parse_and();
    return out;
  }
  Predicate parse_and() {
    Predicate out = parse_not();
    while (keyword("AND")) out = std::move(out) && parse_not();
    return out;
  }
  Predicate parse_not() {
    if (keyword("NOT")) return !parse_not();
    return parse_primary();
  }
  Predicate parse_primary() {
    if (symbol("(")) {
      Predicate out = parse_or();
      if (!symbol(")")) fail("expected ')'");
      return out;
    }
    if (keyword("TRUE")) return Predicate{};
    if (keyword("FALSE")) {
      Predicate out;
      out.kind = Predicate::Kind::kFalse;
      return out;
    }
    ColumnRef column(parse_column());
    if (keyword("IS")) {
      bool is_not = keyword("NOT");
      if (!keyword("NULL")) fail("expected NULL");
      return is_not ? column.is_not_null() : column.is_null();
    }
    bool negated = keyword("NOT");
    if (keyword("IN")) {
      if (!symbol("(")) fail("expected '('");
      std::vector<Literal> values;
      do {
        values.push_back(parse_literal());
      } while (symbol(","));
      if (!symbol(")")) fail("expected ')'");
      Predicate out = column.in(std::move(values));
      return negated ? !std::move(out) : out;
    }
    if (keyword("BETWEEN")) {
      Literal low = parse_literal();
      if (!keyword("AND")) fail("expected AND");
      Literal high = parse_literal();
      Predicate out = column.between(std::move(low), std::move(high));
      return negated ? !std::move(out) : out;
    }
    if (negated) fail("expected IN or BETWEEN after NOT");
    static constexpr std::pair<std::string_view, CompareOp> kOps[] = {
        {"<=", CompareOp::kLe}, {">=", CompareOp::kGe}, {"!=", CompareOp::kNe}, {"<>", CompareOp::kNe},
        {"==", CompareOp::kEq}, {"=", CompareOp::kEq},  {"<", CompareOp::kLt},  {">", CompareOp::kGt}};
    for (const auto& [text, op] : kOps) {
      if (symbol(text)) return column.compare(op, parse_literal());
    }
    fail("expected a comparison, IN, BETWEEN or IS");
  }

  std::string parse_column() {
    skip_space();
    std::string error;
    std::optional<std::string> path = read_column_path(text_, pos_, error);
    if (!path) fail(error);
    return std::move(*path);
  }

  std::string parse_quoted(char quote) {
    ++pos_;
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) fail("unterminated quote");
      char c = text_[pos_++];
      if (c == quote) {
        if (pos_ < text_.size() && text_[pos_] == quote) {
          out += quote;
          ++pos_;
          continue;
        }
        return out;
      }
      out += c;
    }
  }

  Literal parse_literal() {
    skip_space();
    if (keyword("NULL")) return Literal{};
    if (keyword("TRUE")) return Literal(true);
    if (keyword("FALSE")) return Literal(false);
    // DATE '...' and TIMESTAMP '...': the text is typed by the column.
    if (keyword("DATE") || keyword("TIMESTAMP") || keyword("TIME")) skip_space();
    if (pos_ < text_.size() && text_[pos_] == '\'') return Literal(parse_quoted('\''));
    size_t start = pos_;
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) ++pos_;
    bool is_double = false;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (c == '.' || c == 'e' || c == 'E' ||
                 ((c == '-' || c == '+') && (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E'))) {
        is_double = true;
        ++pos_;
      } else {
        break;
      }
    }
    std::string number(text_.substr(start, pos_ - start));
    if (number.empty() || number == "-" || number == "+") fail("expected a literal");
    const char* first = number.data() + (number[0] == '+' ? 1 : 0);
    const char* last = number.data() + number.size();
    Literal out;
    if (!is_double) {
      int64_t value = 0;
      auto result = std::from_chars(first, last, value);
      if (result.ec == std::errc() && result.ptr == last) {
        out = Literal(value);
        out.text = number;
        return out;
      }
    }
    double value = 0;
    auto result = std::from_chars(first, last, value);
    if (result.ec != std::errc() || result.ptr != last) fail("malformed number '" + number + "'");
    out = Literal(value);
    out.text = number;
    return out;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

Predicate parse_predicate(std::string_view text) { return Parser(text).parse(); }

std::string parse_column_path(std::string_view text) {
  size_t pos = 0;
  std::string error;
  std::optional<std::string> path = read_column_path(text, pos, error);
  if (path && pos != text.size()) error = "unexpected text after the column";
  if (!path || pos != text.size()) {
    throw_invalid("column path: " + error + " at offset " + std::to_string(pos) + " in \"" +
                  std::string(text) + "\"");
  }
  return std::move(*path);
}

std::vector<std::string> parse_column_list(std::string_view text) {
  std::vector<std::string> out;
  size_t pos = 0;
  auto space = [&] {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
  };
  while (pos < text.size()) {
    space();
    if (pos < text.size() && text[pos] == ',') {  // an empty item: "a,,b"
      ++pos;
      continue;
    }
    if (pos >= text.size()) break;
    std::string error;
    std::optional<std::string> path = read_column_path(text, pos, error);
    space();
    if (path && pos < text.size() && text[pos] != ',') error = "expected ',' after a column";
    if (!path || (pos < text.size() && text[pos] != ',')) {
      throw_invalid("column list: " + error + " at offset " + std::to_string(pos) + " in \"" +
                    std::string(text) + "\"");
    }
    out.push_back(std::move(*path));
    if (pos < text.size()) ++pos;  // the comma
  }
  return out;
}

std::string quote_column_path(std::span<const std::string> parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i != 0) out += '.';
    const std::string& part = parts[i];
    bool bare = !part.empty();
    for (char c : part) bare = bare && bare_name_byte(c);
    if (bare) {
      out += part;
      continue;
    }
    out += '"';
    for (char c : part) {
      if (c == '"') out += '"';
      out += c;
    }
    out += '"';
  }
  return out;
}

// ---------------------------------------------------------------------------
// Calendar parsing

namespace {

int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool read_digits(std::string_view text, size_t& pos, size_t count, int64_t& out) {
  if (pos + count > text.size()) return false;
  out = 0;
  for (size_t i = 0; i < count; ++i) {
    char c = text[pos + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  pos += count;
  return true;
}

// Parses the date part and leaves `pos` after it.
bool parse_date_prefix(std::string_view text, size_t& pos, int64_t& days) {
  int64_t y = 0, m = 0, d = 0;
  bool negative = pos < text.size() && text[pos] == '-';
  if (negative) ++pos;
  if (!read_digits(text, pos, 4, y)) return false;
  if (pos >= text.size() || text[pos++] != '-' || !read_digits(text, pos, 2, m)) return false;
  if (pos >= text.size() || text[pos++] != '-' || !read_digits(text, pos, 2, d)) return false;
  if (m < 1 || m > 12 || d < 1 || d > 31) return false;
  days = days_from_civil(negative ? -y : y, m, d);
  return true;
}

// "HH:MM[:SS[.fraction]]" as nanoseconds since midnight.
bool parse_time_nanos(std::string_view text, size_t& pos, int64_t& nanos) {
  int64_t h = 0, mi = 0, s = 0;
  if (!read_digits(text, pos, 2, h) || pos >= text.size() || text[pos++] != ':' ||
      !read_digits(text, pos, 2, mi)) {
    return false;
  }
  if (pos < text.size() && text[pos] == ':') {
    ++pos;
    if (!read_digits(text, pos, 2, s)) return false;
  }
  if (h > 23 || mi > 59 || s > 60) return false;
  int64_t fraction = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    int digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (digits < 9) {
        fraction = fraction * 10 + (text[pos] - '0');
        ++digits;
      }
      ++pos;
    }
    if (digits == 0) return false;
    for (; digits < 9; ++digits) fraction *= 10;
  }
  nanos = ((h * 60 + mi) * 60 + s) * 1'000'000'000 + fraction;
  return true;
}

}  // namespace

std::optional<int64_t> parse_date_days(std::string_view text) {
  size_t pos = 0;
  int64_t days = 0;
  if (!parse_date_prefix(text, pos, days) || pos != text.size()) return std::nullopt;
  return days;
}

std::optional<int64_t> parse_timestamp_nanos_per(std::string_view text, int64_t units_per_second) {
  size_t pos = 0;
  int64_t days = 0;
  if (!parse_date_prefix(text, pos, days)) return std::nullopt;
  int64_t nanos = 0;
  if (pos < text.size() && (text[pos] == ' ' || text[pos] == 'T')) {
    ++pos;
    if (!parse_time_nanos(text, pos, nanos)) return std::nullopt;
  }
  if (pos < text.size() && text[pos] == 'Z') ++pos;
  if (pos != text.size()) return std::nullopt;
  // Truncates sub-unit digits toward negative infinity so that bounds stay ordered.
  const int64_t nanos_per_unit = 1'000'000'000 / units_per_second;
  int64_t sub = nanos / nanos_per_unit;
  return days * 86400 * units_per_second + sub;
}

std::optional<int64_t> parse_timestamp(std::string_view text, TimeUnit unit) {
  return parse_timestamp_nanos_per(text, units_per_second(unit));
}

std::optional<int64_t> parse_time_of_day(std::string_view text, int64_t units_per_second) {
  size_t pos = 0;
  int64_t nanos = 0;
  if (!parse_time_nanos(text, pos, nanos) || pos != text.size()) return std::nullopt;
  return nanos / (1'000'000'000 / units_per_second);
}

int64_t units_per_second(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::MILLIS: return 1000;
    case TimeUnit::MICROS: return 1'000'000;
    case TimeUnit::NANOS: return 1'000'000'000;
  }
  return 1'000'000;
}

// ---------------------------------------------------------------------------
// Binding literals

namespace {

// Decimal text -> unscaled integer at `scale`; nullopt when the text has
// non-zero digits beyond the scale (no exact decimal of the column equals it)
// or does not fit in 38 digits.
std::optional<__int128> decimal_unscaled(std::string_view text, int32_t scale, bool& inexact) {
  inexact = false;
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) negative = text[pos++] == '-';
  __int128 value = 0;
  int digits = 0, fraction_digits = 0;
  bool seen_point = false, any = false;
  for (; pos < text.size(); ++pos) {
    char c = text[pos];
    if (c == '.' && !seen_point) {
      seen_point = true;
      continue;
    }
    if (c < '0' || c > '9') return std::nullopt;
    any = true;
    if (seen_point) {
      if (fraction_digits >= scale) {
        if (c != '0') inexact = true;
        continue;
      }
      ++fraction_digits;
    }
    value = value * 10 + (c - '0');
    if (++digits > 38) return std::nullopt;
  }
  if (!any) return std::nullopt;
  for (; fraction_digits < scale; ++fraction_digits) value *= 10;
  return negative ? -value : value;
}

}  // namespace

ValueKind value_kind(const ColumnDescriptor& column) {
  ValueKind out;
  const LogicalType* logical = column.logical_type ? &*column.logical_type : nullptr;
  if (logical != nullptr) {
    if (const auto* decimal = logical->get_if<DecimalType>()) {
      // Wider than Arrow's decimals: read as bytes, never pruned on.
      if (decimal->precision > kMaxArrowDecimalPrecision) return out;
      out.kind = ValueKind::kDecimal;
      out.scale = decimal->scale;
      return out;
    }
  }
  switch (column.physical_type) {
    case Type::BOOLEAN: out.kind = ValueKind::kBool; return out;
    case Type::INT32:
    case Type::INT64:
      out.kind = ValueKind::kSigned;
      if (logical != nullptr) {
        if (const auto* integer = logical->get_if<IntType>(); integer && !integer->is_signed) {
          out.kind = ValueKind::kUnsigned;
        } else if (logical->is<DateType>()) {
          out.kind = ValueKind::kDate;
        } else if (const auto* ts = logical->get_if<TimestampType>()) {
          out.kind = ValueKind::kTimestamp;
          out.units_per_second = units_per_second(ts->unit);
        } else if (const auto* time = logical->get_if<TimeType>()) {
          out.kind = ValueKind::kTime;
          out.units_per_second = units_per_second(time->unit);
        }
      }
      return out;
    case Type::FLOAT:
    case Type::DOUBLE: out.kind = ValueKind::kFloat; return out;
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (logical != nullptr && logical->is<Float16Type>()) {
        out.kind = ValueKind::kUnsupported;
        return out;
      }
      out.kind = ValueKind::kBytes;
      return out;
    case Type::INT96: out.kind = ValueKind::kUnsupported; return out;
  }
  out.kind = ValueKind::kUnsupported;
  return out;
}

ValueKind value_kind(const DataType& type) {
  ValueKind out;
  auto per_second = [](ArrowTimeUnit unit) -> int64_t {
    switch (unit) {
      case ArrowTimeUnit::kSecond: return 1;
      case ArrowTimeUnit::kMilli: return 1000;
      case ArrowTimeUnit::kMicro: return 1'000'000;
      case ArrowTimeUnit::kNano: return 1'000'000'000;
    }
    return 1;
  };
  switch (type.id) {
    case TypeId::kBool: out.kind = ValueKind::kBool; break;
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64: out.kind = ValueKind::kSigned; break;
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64: out.kind = ValueKind::kUnsigned; break;
    case TypeId::kFloat32:
    case TypeId::kFloat64: out.kind = ValueKind::kFloat; break;
    case TypeId::kDate32: out.kind = ValueKind::kDate; break;
    case TypeId::kTime32:
    case TypeId::kTime64:
      out.kind = ValueKind::kTime;
      out.units_per_second = per_second(type.unit);
      break;
    case TypeId::kTimestamp:
      out.kind = ValueKind::kTimestamp;
      out.units_per_second = per_second(type.unit);
      break;
    case TypeId::kDecimal128:
      out.kind = ValueKind::kDecimal;
      out.scale = type.scale;
      break;
    case TypeId::kBinary:
    case TypeId::kString:
    case TypeId::kLargeBinary:
    case TypeId::kLargeString:
    case TypeId::kFixedSizeBinary: out.kind = ValueKind::kBytes; break;
    case TypeId::kDictionary:
      if (type.dictionary_value) return value_kind(*type.dictionary_value);
      out.kind = ValueKind::kUnsupported;
      break;
    default: out.kind = ValueKind::kUnsupported; break;
  }
  return out;
}

BoundLiteral bind_literal(const ValueKind& kind, const Literal& literal, const std::string& column) {
  BoundLiteral out;
  using Kind = Literal::Kind;
  if (literal.kind == Kind::kNull) return out;  // compares unknown: matches nothing
  auto bad = [&]() -> BoundLiteral {
    throw_invalid("predicate: literal " + literal.to_string() + " does not fit column " + column);
  };
  auto from_number = [&]() {
    if (literal.kind == Kind::kInt) {
      out.domain = BoundLiteral::kInt;
      out.int_value = literal.int_value;
    } else if (literal.kind == Kind::kBool) {
      out.domain = BoundLiteral::kInt;
      out.int_value = literal.bool_value ? 1 : 0;
    } else if (literal.kind == Kind::kDouble) {
      double d = literal.double_value;
      if (std::isfinite(d) && d == std::trunc(d) && std::fabs(d) < 9.0e18) {
        out.domain = BoundLiteral::kInt;
        out.int_value = static_cast<int64_t>(d);
      } else {
        out.domain = BoundLiteral::kDouble;
        out.double_value = d;
      }
    } else {
      bad();
    }
  };
  switch (kind.kind) {
    case ValueKind::kSigned:
    case ValueKind::kUnsigned:
    case ValueKind::kBool: from_number(); break;
    case ValueKind::kFloat:
      if (literal.kind == Kind::kString) bad();
      out.domain = BoundLiteral::kDouble;
      out.double_value = literal.kind == Kind::kDouble ? literal.double_value
                         : literal.kind == Kind::kBool ? (literal.bool_value ? 1.0 : 0.0)
                                                       : static_cast<double>(literal.int_value);
      break;
    case ValueKind::kDate:
      if (literal.kind == Kind::kString) {
        auto days = parse_date_days(literal.text);
        if (!days) {
          auto ts = parse_timestamp_nanos_per(literal.text, 1);
          if (!ts) bad();
          days = *ts / 86400 - (*ts % 86400 < 0);
        }
        out.domain = BoundLiteral::kInt;
        out.int_value = *days;
      } else {
        from_number();
      }
      break;
    case ValueKind::kTimestamp:
      if (literal.kind == Kind::kString) {
        auto value = parse_timestamp_nanos_per(literal.text, kind.units_per_second);
        if (!value) bad();
        out.domain = BoundLiteral::kInt;
        out.int_value = *value;
      } else {
        from_number();
      }
      break;
    case ValueKind::kTime:
      if (literal.kind == Kind::kString) {
        auto value = parse_time_of_day(literal.text, kind.units_per_second);
        if (!value) bad();
        out.domain = BoundLiteral::kInt;
        out.int_value = *value;
      } else {
        from_number();
      }
      break;
    case ValueKind::kDecimal: {
      if (literal.kind == Kind::kBool) bad();
      bool inexact = false;
      auto unscaled = decimal_unscaled(literal.text, kind.scale, inexact);
      if (!unscaled || inexact) {
        // Not a decimal of the column's scale: compare by value as double.
        double value = 0;
        const char* first = literal.text.data() + (literal.text.starts_with('+') ? 1 : 0);
        auto result = std::from_chars(first, literal.text.data() + literal.text.size(), value);
        if (result.ec != std::errc()) bad();
        out.domain = BoundLiteral::kDouble;
        out.double_value = value;
      } else {
        out.domain = BoundLiteral::kInt128;
        out.int128_value = *unscaled;
      }
      break;
    }
    case ValueKind::kBytes:
      out.domain = BoundLiteral::kBytes;
      out.bytes = literal.text;
      break;
    case ValueKind::kUnsupported:
      throw_unsupported("predicate: column " + column + " has a type predicates do not support");
  }
  return out;
}

double pow10(int32_t scale) {
  double out = 1;
  for (int32_t i = 0; i < scale; ++i) out *= 10;
  return out;
}

// ---------------------------------------------------------------------------
// Row evaluation

namespace {

// One loop per operator so the compiler vectorises each. `Load` maps the
// stored value to the comparison type.
template <typename T, typename L>
void compare_loop(const T* values, int64_t n, CompareOp op, L literal, uint8_t* out) {
  switch (op) {
    case CompareOp::kEq:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<L>(values[i]) == literal;
      break;
    case CompareOp::kNe:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<L>(values[i]) != literal;
      break;
    case CompareOp::kLt:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<L>(values[i]) < literal;
      break;
    case CompareOp::kLe:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<L>(values[i]) <= literal;
      break;
    case CompareOp::kGt:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<L>(values[i]) > literal;
      break;
    case CompareOp::kGe:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<L>(values[i]) >= literal;
      break;
  }
}

// The result of comparing every value with a literal outside the value
// type's range: `above` when the literal is larger than any value.
void constant_result(int64_t n, CompareOp op, bool above, uint8_t* out) {
  bool value = false;
  switch (op) {
    case CompareOp::kEq: value = false; break;
    case CompareOp::kNe: value = true; break;
    case CompareOp::kLt:
    case CompareOp::kLe: value = above; break;
    case CompareOp::kGt:
    case CompareOp::kGe: value = !above; break;
  }
  std::memset(out, value ? 1 : 0, static_cast<size_t>(n));
}

template <typename T>
void compare_integers(const T* values, int64_t n, CompareOp op, const BoundLiteral& literal, uint8_t* out) {
  if (literal.domain == BoundLiteral::kDouble) {
    compare_loop<T, double>(values, n, op, literal.double_value, out);
    return;
  }
  const __int128 wide = literal.domain == BoundLiteral::kInt128 ? literal.int128_value : literal.int_value;
  if (wide > static_cast<__int128>(std::numeric_limits<T>::max())) return constant_result(n, op, true, out);
  if (wide < static_cast<__int128>(std::numeric_limits<T>::min())) return constant_result(n, op, false, out);
  compare_loop<T, T>(values, n, op, static_cast<T>(wide), out);
}

template <typename Offset>
void compare_binary(const ArrayData& array, int64_t n, CompareOp op, std::string_view literal, uint8_t* out) {
  const Offset* offsets = array.buffers[1].as<Offset>() + array.offset;
  const char* data = array.buffers.size() > 2 && array.buffers[2] ? array.buffers[2].as<char>() : "";
  for (int64_t i = 0; i < n; ++i) {
    std::string_view value(data + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
    int c = value.compare(literal);
    bool r = false;
    switch (op) {
      case CompareOp::kEq: r = c == 0; break;
      case CompareOp::kNe: r = c != 0; break;
      case CompareOp::kLt: r = c < 0; break;
      case CompareOp::kLe: r = c <= 0; break;
      case CompareOp::kGt: r = c > 0; break;
      case CompareOp::kGe: r = c >= 0; break;
    }
    out[i] = r;
  }
}

// Compares every row of `array` (its own offset applied) with the literal;
// validity is applied by the caller.
void compare_array(const ArrayData& array, const ValueKind& kind, CompareOp op, const BoundLiteral& literal,
                   uint8_t* out, const std::string& column) {
  const int64_t n = array.length;
  if (literal.domain == BoundLiteral::kNone) {
    std::memset(out, 0, static_cast<size_t>(n));
    return;
  }
  const DataType& type = *array.type;
  auto values = [&]<typename T>(T*) { return array.buffers[1].as<T>() + array.offset; };
  switch (type.id) {
    case TypeId::kInt8: return compare_integers(values((int8_t*)nullptr), n, op, literal, out);
    case TypeId::kInt16: return compare_integers(values((int16_t*)nullptr), n, op, literal, out);
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32: return compare_integers(values((int32_t*)nullptr), n, op, literal, out);
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp: return compare_integers(values((int64_t*)nullptr), n, op, literal, out);
    case TypeId::kUInt8: return compare_integers(values((uint8_t*)nullptr), n, op, literal, out);
    case TypeId::kUInt16: return compare_integers(values((uint16_t*)nullptr), n, op, literal, out);
    case TypeId::kUInt32: return compare_integers(values((uint32_t*)nullptr), n, op, literal, out);
    case TypeId::kUInt64: return compare_integers(values((uint64_t*)nullptr), n, op, literal, out);
    case TypeId::kFloat32:
      return compare_loop<float, double>(values((float*)nullptr), n, op, literal.double_value, out);
    case TypeId::kFloat64:
      return compare_loop<double, double>(values((double*)nullptr), n, op, literal.double_value, out);
    case TypeId::kBool: {
      std::vector<uint8_t> unpacked(static_cast<size_t>(n));
      const uint8_t* bits = array.buffers[1].data;
      for (int64_t i = 0; i < n; ++i)
        unpacked[size_t(i)] = (bits[(array.offset + i) >> 3] >> ((array.offset + i) & 7)) & 1;
      return compare_integers(unpacked.data(), n, op, literal, out);
    }
    case TypeId::kDecimal128: {
      std::vector<__int128> unpacked(static_cast<size_t>(n));
      std::memcpy(unpacked.data(), array.buffers[1].data + array.offset * 16, static_cast<size_t>(n) * 16);
      if (literal.domain == BoundLiteral::kDouble) {
        const double scale = pow10(kind.scale);
        std::vector<double> scaled(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) scaled[size_t(i)] = static_cast<double>(unpacked[size_t(i)]) / scale;
        return compare_loop<double, double>(scaled.data(), n, op, literal.double_value, out);
      }
      return compare_loop<__int128, __int128>(
          unpacked.data(), n, op,
          literal.domain == BoundLiteral::kInt128 ? literal.int128_value : literal.int_value, out);
    }
    case TypeId::kBinary:
    case TypeId::kString: return compare_binary<int32_t>(array, n, op, literal.bytes, out);
    case TypeId::kLargeBinary:
    case TypeId::kLargeString: return compare_binary<int64_t>(array, n, op, literal.bytes, out);
    case TypeId::kFixedSizeBinary: {
      const size_t width = static_cast<size_t>(type.byte_width);
      const char* data = array.buffers[1].as<char>() + array.offset * type.byte_width;
      for (int64_t i = 0; i < n; ++i) {
        int c = std::string_view(data + size_t(i) * width, width).compare(literal.bytes);
        bool r = false;
        switch (op) {
          case CompareOp::kEq: r = c == 0; break;
          case CompareOp::kNe: r = c != 0; break;
          case CompareOp::kLt: r = c < 0; break;
          case CompareOp::kLe: r = c <= 0; break;
          case CompareOp::kGt: r = c > 0; break;
          case CompareOp::kGe: r = c >= 0; break;
        }
        out[i] = r;
      }
      return;
    }
    default:
      throw_unsupported("predicate: column " + column + " of type " + type.to_string() +
                        " cannot be compared");
  }
}

// The array a dotted path names, with the validity of every enclosing struct
// folded in (a null struct makes its children null).
struct ResolvedColumn {
  std::shared_ptr<ArrayData> leaf;
  std::vector<const ArrayData*> parents;  ///< enclosing structs, outermost first
};

ResolvedColumn resolve(const RecordBatch& batch, const std::string& path) {
  ResolvedColumn out;
  const auto& fields = batch.schema->fields;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == path) {
      out.leaf = batch.columns[i];
      return out;
    }
  }
  // Longest top-level name that prefixes the path, then struct children.
  std::shared_ptr<ArrayData> current;
  const Field* field = nullptr;
  size_t consumed = 0;
  for (size_t i = 0; i < fields.size(); ++i) {
    const std::string& name = fields[i].name;
    if (path.size() > name.size() && path.compare(0, name.size(), name) == 0 && path[name.size()] == '.' &&
        name.size() > consumed) {
      current = batch.columns[i];
      field = &fields[i];
      consumed = name.size();
    }
  }
  while (current && consumed < path.size()) {
    if (field->type.id != TypeId::kStruct) {
      throw_unsupported("predicate: column " + path + " is inside a " + field->type.to_string() +
                        "; only struct children can be filtered");
    }
    size_t start = consumed + 1;
    const Field* next_field = nullptr;
    size_t next_consumed = 0;
    size_t child_index = 0;
    for (size_t c = 0; c < field->type.children.size(); ++c) {
      const std::string& name = field->type.children[c].name;
      size_t end = start + name.size();
      if (path.compare(start, name.size(), name) == 0 && (end == path.size() || path[end] == '.') &&
          end > next_consumed) {
        next_field = &field->type.children[c];
        next_consumed = end;
        child_index = c;
      }
    }
    if (next_field == nullptr) break;
    out.parents.push_back(current.get());
    current = current->children.at(child_index);
    field = next_field;
    consumed = next_consumed;
  }
  if (!current || consumed != path.size()) throw_invalid("predicate: no column " + path + " in the batch");
  out.leaf = current;
  return out;
}

class Evaluator {
 public:
  explicit Evaluator(const RecordBatch& batch) : batch_(batch), n_(batch.num_rows) {}

  std::vector<uint8_t> eval(const Predicate& p) {
    using Kind = Predicate::Kind;
    switch (p.kind) {
      case Kind::kTrue: return std::vector<uint8_t>(static_cast<size_t>(n_), 1);
      case Kind::kFalse: return std::vector<uint8_t>(static_cast<size_t>(n_), 0);
      case Kind::kAnd:
      case Kind::kOr: {
        std::vector<uint8_t> mask = eval(p.children.at(0));
        for (size_t c = 1; c < p.children.size(); ++c) {
          std::vector<uint8_t> other = eval(p.children[c]);
          if (p.kind == Kind::kAnd) {
            for (int64_t i = 0; i < n_; ++i) mask[size_t(i)] &= other[size_t(i)];
          } else {
            for (int64_t i = 0; i < n_; ++i) mask[size_t(i)] |= other[size_t(i)];
          }
        }
        return mask;
      }
      case Kind::kNot: throw_invalid("predicate: evaluate after push_down_not");
      default: break;
    }
    ResolvedColumn column = resolve(batch_, p.column);
    if (column.leaf->length != n_)
      throw_invalid("predicate: column " + p.column + " length differs from the batch");
    // Empty when every row is valid: no pass over the rows is spent on it.
    const std::vector<uint8_t> valid = validity(column);
    if (p.kind == Kind::kIsNull || p.kind == Kind::kIsNotNull) {
      const uint8_t want = p.kind == Kind::kIsNotNull;
      if (valid.empty()) return std::vector<uint8_t>(static_cast<size_t>(n_), want);
      std::vector<uint8_t> mask(static_cast<size_t>(n_));
      for (int64_t i = 0; i < n_; ++i) mask[size_t(i)] = valid[size_t(i)] == want;
      return mask;
    }
    // Dictionary-encoded columns: evaluate once per dictionary entry.
    const ArrayData& leaf = *column.leaf;
    if (leaf.type->id == TypeId::kDictionary) {
      const DictionaryAnswers answers = dictionary_answers(p, leaf);
      const uint32_t limit = answers.limit;
      const int32_t* indices = leaf.buffers[1].as<int32_t>() + leaf.offset;
      const uint8_t* hit = answers.hit.data();
      std::vector<uint8_t> mask(static_cast<size_t>(n_));
      uint8_t* selected = mask.data();
      // A local count: n_ is a member, and the byte stores could alias it,
      // which would reload it on every row.
      const int64_t n = n_;
      if (valid.empty()) {
        for (int64_t i = 0; i < n; ++i) selected[i] = hit[std::min(uint32_t(indices[i]), limit)];
      } else {
        const uint8_t* row_valid = valid.data();
        for (int64_t i = 0; i < n; ++i)
          selected[i] = row_valid[i] & hit[std::min(uint32_t(indices[i]), limit)];
      }
      return mask;
    }
    std::vector<uint8_t> mask = compare_leaf(p, leaf);
    if (!valid.empty()) {
      for (int64_t i = 0; i < n_; ++i) mask[size_t(i)] &= valid[size_t(i)];
    }
    return mask;
  }

  // A comparison or IN on a top-level dictionary column, the usual filter
  // of a scan: each row's answer is its entry's, looked up straight into
  // 64-bit bitmap words (no byte per row, no packing pass after). Returns
  // the rows selected, or -1 when `p` is not such a leaf.
  int64_t dictionary_leaf_bitmap(const Predicate& p, std::vector<uint8_t>& bitmap) {
    if (p.kind != Predicate::Kind::kCompare && p.kind != Predicate::Kind::kIn) return -1;
    const ResolvedColumn column = resolve(batch_, p.column);
    if (!column.parents.empty() || column.leaf->type->id != TypeId::kDictionary) return -1;
    const ArrayData& leaf = *column.leaf;
    if (leaf.length != n_) throw_invalid("predicate: column " + p.column + " length differs from the batch");
    const DictionaryAnswers answers = dictionary_answers(p, leaf);
    const uint32_t limit = answers.limit;
    const uint8_t* hit = answers.hit.data();
    const int32_t* indices = leaf.buffers[1].as<int32_t>() + leaf.offset;
    const uint8_t* validity = leaf.null_count > 0 && leaf.buffers[0] ? leaf.buffers[0].data : nullptr;
    const int64_t n = n_;
    bitmap.assign(size_t(bits::bytes_for_bits(n)), 0);
    int64_t count = 0;
    int64_t block = 0;
#ifdef __AVX512F__
    // Sixteen rows per gather of the answers widened to 32 bits; a lane
    // mask of the gathered answers is sixteen bits of the word.
    if (n >= 64) {
      const std::vector<uint32_t> wide(answers.hit.begin(), answers.hit.end());
      const __m512i top = _mm512_set1_epi32(int32_t(limit));
      const __m512i one = _mm512_set1_epi32(1);
      const __m512i zero = _mm512_setzero_si512();
      for (; block + 64 <= n; block += 64) {
        uint64_t word = 0;
        for (int k = 0; k < 4; ++k) {
          const __m512i index = _mm512_loadu_si512(indices + block + 16 * k);
          const __m512i entry = _mm512_mask_min_epu32(top, __mmask16(0xFFFF), index, top);
          const __m512i answer = _mm512_mask_i32gather_epi32(zero, __mmask16(0xFFFF), entry, wide.data(), 4);
          word |= uint64_t(_mm512_test_epi32_mask(answer, one)) << (16 * k);
        }
        word &= bits::word_at(validity, leaf.offset + block, 64);
        bits::store<uint64_t>(bitmap.data() + (block >> 3), word);
        count += std::popcount(word);
      }
    }
#endif
    for (; block < n; block += 64) {
      const int64_t rows = std::min<int64_t>(64, n - block);
      // The answers as bytes first (independent loads), then packed eight
      // at a time: the multiply moves byte k's low bit to bit 56 + k.
      alignas(8) uint8_t answer[64] = {};
      for (int64_t j = 0; j < rows; ++j) answer[j] = hit[std::min(uint32_t(indices[block + j]), limit)];
      uint64_t word = 0;
      for (int k = 0; k < 8; ++k) {
        const uint64_t eight = bits::load<uint64_t>(answer + 8 * k) & 0x0101010101010101ULL;
        word |= ((eight * 0x0102040810204080ULL) >> 56) << (8 * k);
      }
      word &= bits::word_at(validity, leaf.offset + block, rows);
      std::memcpy(bitmap.data() + (block >> 3), &word, size_t(bits::bytes_for_bits(rows)));
      count += std::popcount(word);
    }
    return count;
  }

 private:
  // The predicate's answer for each entry of a dictionary column's
  // dictionary, and one more slot, `limit`, answering 0 (not selected): an
  // index clamped to `limit` needs no branch per row to be safe.
  struct DictionaryAnswers {
    std::vector<uint8_t> hit;
    uint32_t limit = 0;
  };
  DictionaryAnswers dictionary_answers(const Predicate& p, const ArrayData& leaf) {
    DictionaryAnswers answers;
    answers.hit = compare_leaf(p, *leaf.dictionary);
    answers.hit.push_back(0);
    answers.limit = uint32_t(std::min<int64_t>(leaf.dictionary->length, std::numeric_limits<int32_t>::max()));
    return answers;
  }

  std::vector<uint8_t> compare_leaf(const Predicate& p, const ArrayData& array) {
    const ValueKind kind = value_kind(*array.type);
    std::vector<uint8_t> out(static_cast<size_t>(array.length), 0);
    if (p.kind == Predicate::Kind::kCompare) {
      compare_array(array, kind, p.op, bind_literal(kind, p.values.at(0), p.column), out.data(), p.column);
      return out;
    }
    std::vector<uint8_t> one(static_cast<size_t>(array.length));
    for (const Literal& value : p.values) {
      compare_array(array, kind, CompareOp::kEq, bind_literal(kind, value, p.column), one.data(), p.column);
      for (size_t i = 0; i < out.size(); ++i) out[i] |= one[i];
    }
    return out;
  }

  // A byte per row, 1 when the row and its parents are valid; empty when
  // no array on the path has a null.
  std::vector<uint8_t> validity(const ResolvedColumn& column) {
    std::vector<uint8_t> valid;
    // Arrow: a child of a struct is indexed with the parent's offset added.
    int64_t base = 0;
    auto apply = [&](const ArrayData& array) {
      if (!array.buffers.empty() && array.buffers[0] && array.null_count != 0) {
        if (valid.empty()) valid.assign(static_cast<size_t>(n_), 1);
        const uint8_t* bits = array.buffers[0].data;
        const int64_t start = base + array.offset;
        for (int64_t i = 0; i < n_; ++i)
          valid[size_t(i)] &= (bits[(start + i) >> 3] >> ((start + i) & 7)) & 1;
      }
    };
    for (const ArrayData* parent : column.parents) {
      apply(*parent);
      base += parent->offset;
    }
    if (base != 0) throw_unsupported("predicate: sliced struct columns are not supported");
    apply(*column.leaf);
    return valid;
  }

  const RecordBatch& batch_;
  int64_t n_;
};

}  // namespace

int64_t evaluate_predicate(const Predicate& predicate, const RecordBatch& batch,
                           std::vector<uint8_t>& bitmap) {
  Predicate normal = push_down_not(predicate);
  Evaluator evaluator(batch);
  const int64_t direct = evaluator.dictionary_leaf_bitmap(normal, bitmap);
  if (direct >= 0) return direct;
  std::vector<uint8_t> mask = evaluator.eval(normal);
  const int64_t n = batch.num_rows;
  bitmap.assign(static_cast<size_t>((n + 7) / 8), 0);
  int64_t count = 0;
  int64_t i = 0;
  // Eight 0/1 bytes -> one bitmap byte: the multiply moves byte j's low bit
  // to bit 56 + j without carries (each partial product lands on its own bit).
  for (; i + 8 <= n; i += 8) {
    const uint64_t bytes = bits::load<uint64_t>(mask.data() + i);
    bitmap[size_t(i >> 3)] = static_cast<uint8_t>((bytes * 0x0102040810204080ULL) >> 56);
    count += std::popcount(bytes);
  }
  for (; i < n; ++i) {
    const uint8_t bit = mask[size_t(i)];
    bitmap[size_t(i >> 3)] |= static_cast<uint8_t>(bit << (i & 7));
    count += bit;
  }
  return count;
}

}  // namespace parquetry
