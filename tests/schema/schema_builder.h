// Terse construction of flat SchemaElement lists for the schema tests.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "parquetry/metadata.h"

namespace parquetry::testing {

constexpr auto kRequired = FieldRepetitionType::REQUIRED;
constexpr auto kOptional = FieldRepetitionType::OPTIONAL;
constexpr auto kRepeated = FieldRepetitionType::REPEATED;

inline SchemaElement root(int32_t children, std::string name = "schema") {
  SchemaElement e;
  e.name = std::move(name);
  e.num_children = children;
  return e;
}

inline SchemaElement group(FieldRepetitionType repetition, std::string name, int32_t children,
                           std::optional<ConvertedType> converted = std::nullopt,
                           std::optional<LogicalType> logical = std::nullopt) {
  SchemaElement e;
  e.name = std::move(name);
  e.repetition_type = repetition;
  e.num_children = children;
  e.converted_type = converted;
  e.logical_type = std::move(logical);
  return e;
}

inline SchemaElement leaf(FieldRepetitionType repetition, Type type, std::string name,
                          std::optional<ConvertedType> converted = std::nullopt,
                          std::optional<LogicalType> logical = std::nullopt) {
  SchemaElement e;
  e.name = std::move(name);
  e.repetition_type = repetition;
  e.type = type;
  e.converted_type = converted;
  e.logical_type = std::move(logical);
  return e;
}

inline SchemaElement with_field_id(SchemaElement e, int32_t id) {
  e.field_id = id;
  return e;
}

inline SchemaElement with_length(SchemaElement e, int32_t length) {
  e.type_length = length;
  return e;
}

inline SchemaElement with_decimal(SchemaElement e, int32_t precision, int32_t scale) {
  e.precision = precision;
  e.scale = scale;
  return e;
}

inline LogicalType logical(LogicalType::Value value) { return LogicalType{std::move(value)}; }

}  // namespace parquetry::testing
