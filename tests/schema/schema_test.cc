#include "parquetry/schema.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "parquetry/error.h"
#include "schema_builder.h"

namespace parquetry {
namespace {

using namespace parquetry::testing;

Schema build(const std::vector<SchemaElement>& elements, const Limits& limits = {}) {
  return Schema::from_elements(elements, limits);
}

// Expects building to fail with `code` and a message containing `fragment`.
void expect_error(const std::vector<SchemaElement>& elements, ErrorCode code, const std::string& fragment,
                  const Limits& limits = {}) {
  try {
    Schema::from_elements(elements, limits);
    FAIL() << "expected an error containing: " << fragment;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_NE(e.message().find(fragment), std::string::npos) << e.message();
  }
}

TEST(SchemaTest, FlatSchemaColumnsAndPrinter) {
  Schema schema = build({
      root(3),
      with_field_id(leaf(kRequired, Type::INT32, "id", ConvertedType::INT_32), 1),
      leaf(kOptional, Type::BYTE_ARRAY, "name", ConvertedType::UTF8),
      group(kOptional, "tags", 1, ConvertedType::LIST),
      group(kRepeated, "list", 1),
      leaf(kOptional, Type::BYTE_ARRAY, "element", ConvertedType::UTF8),
  });
  EXPECT_EQ(schema.to_string(),
            "message schema {\n"
            "  required int32 id (INTEGER(32,true)) = 1;\n"
            "  optional binary name (STRING);\n"
            "  optional group tags (LIST) {\n"
            "    repeated group list {\n"
            "      optional binary element (STRING);\n"
            "    }\n"
            "  }\n"
            "}\n");
  ASSERT_EQ(schema.num_columns(), 3u);
  const ColumnDescriptor& id = schema.column(0);
  EXPECT_EQ(id.path, "id");
  EXPECT_EQ(id.physical_type, Type::INT32);
  EXPECT_EQ(id.field_id, 1);
  EXPECT_EQ(id.max_definition_level, 0);
  EXPECT_EQ(id.max_repetition_level, 0);
  ASSERT_TRUE(id.logical_type);
  EXPECT_EQ(*id.logical_type->get_if<IntType>(), (IntType{32, true}));
  EXPECT_EQ(id.sort_order, SortOrder::kSigned);

  const ColumnDescriptor& name = schema.column(1);
  EXPECT_EQ(name.max_definition_level, 1);
  EXPECT_TRUE(name.logical_type->is<StringType>());
  EXPECT_EQ(name.converted_type, ConvertedType::UTF8);
  EXPECT_EQ(name.sort_order, SortOrder::kUnsigned);

  const ColumnDescriptor& element = schema.column(2);
  EXPECT_EQ(element.index, 2);
  EXPECT_EQ(element.path, "tags.list.element");
  EXPECT_EQ(element.path_parts, (std::vector<std::string>{"tags", "list", "element"}));
  EXPECT_EQ(element.max_definition_level, 3);
  EXPECT_EQ(element.max_repetition_level, 1);
  EXPECT_EQ(element.path_repetitions, (std::vector<FieldRepetitionType>{kOptional, kRepeated, kOptional}));

  const SchemaNode* tags = schema.find_node("tags");
  ASSERT_NE(tags, nullptr);
  EXPECT_EQ(tags->kind(), NodeKind::kList);
  EXPECT_EQ(tags->list_repeated()->name(), "list");
  EXPECT_EQ(tags->list_element()->name(), "element");
  EXPECT_TRUE(tags->list_element_nullable());
  EXPECT_EQ(tags->list_repeated()->kind(), NodeKind::kStruct);
  EXPECT_FALSE(tags->list_repeated()->is_bare_repeated());
  EXPECT_EQ(tags->first_column(), 2);
  EXPECT_EQ(tags->num_columns(), 1);
  EXPECT_EQ(schema.root().num_columns(), 3);
  EXPECT_EQ(schema.root().kind(), NodeKind::kStruct);
}

TEST(SchemaTest, PrinterShowsEveryTypeAndParameterisedAnnotations) {
  SchemaElement ts =
      leaf(kOptional, Type::INT64, "ts", std::nullopt, logical(TimestampType{false, TimeUnit::NANOS}));
  SchemaElement t = leaf(kRequired, Type::INT32, "t", ConvertedType::TIME_MILLIS);
  SchemaElement d = with_decimal(
      with_length(leaf(kOptional, Type::FIXED_LEN_BYTE_ARRAY, "d", ConvertedType::DECIMAL), 11), 25, 2);
  SchemaElement u =
      with_length(leaf(kRequired, Type::FIXED_LEN_BYTE_ARRAY, "u", std::nullopt, logical(UuidType{})), 16);
  SchemaElement iv =
      with_length(leaf(kOptional, Type::FIXED_LEN_BYTE_ARRAY, "iv", ConvertedType::INTERVAL), 12);
  Schema schema = build({
      root(10, "spark_schema"),
      leaf(kRequired, Type::BOOLEAN, "b"),
      leaf(kOptional, Type::INT96, "legacy_ts"),
      leaf(kOptional, Type::FLOAT, "f"),
      leaf(kOptional, Type::DOUBLE, "g"),
      ts,
      t,
      d,
      u,
      iv,
      with_field_id(group(kOptional, "s", 2), 7),
      leaf(kRequired, Type::INT32, "day", ConvertedType::DATE),
      leaf(kOptional, Type::INT64, "big", ConvertedType::UINT_64),
  });
  EXPECT_EQ(schema.to_string(),
            "message spark_schema {\n"
            "  required boolean b;\n"
            "  optional int96 legacy_ts;\n"
            "  optional float f;\n"
            "  optional double g;\n"
            "  optional int64 ts (TIMESTAMP(NANOS,false));\n"
            "  required int32 t (TIME(MILLIS,true));\n"
            "  optional fixed_len_byte_array(11) d (DECIMAL(25,2));\n"
            "  required fixed_len_byte_array(16) u (UUID);\n"
            "  optional fixed_len_byte_array(12) iv (INTERVAL);\n"
            "  optional group s = 7 {\n"
            "    required int32 day (DATE);\n"
            "    optional int64 big (INTEGER(64,false));\n"
            "  }\n"
            "}\n");
  EXPECT_EQ(schema.find_column("d")->precision, 25);
  EXPECT_EQ(schema.find_column("d")->scale, 2);
  EXPECT_EQ(schema.find_column("iv")->converted_type, ConvertedType::INTERVAL);
  EXPECT_FALSE(schema.find_column("iv")->logical_type);
  EXPECT_EQ(schema.find_column("iv")->sort_order, SortOrder::kUnknown);
  EXPECT_EQ(schema.find_column("legacy_ts")->sort_order, SortOrder::kUnknown);
  EXPECT_EQ(schema.find_column("s.big")->sort_order, SortOrder::kUnsigned);
  EXPECT_EQ(schema.find_column("d")->sort_order, SortOrder::kSigned);
  EXPECT_EQ(schema.find_node_by_field_id(7)->name(), "s");
}

TEST(SchemaTest, EmptyMessagePrints) {
  Schema schema = build({root(0)});
  EXPECT_EQ(schema.num_columns(), 0u);
  EXPECT_EQ(schema.to_string(), "message schema {\n}\n");
}

TEST(SchemaTest, ConvertedTypesMapToLogicalTypes) {
  struct Case {
    ConvertedType converted;
    Type physical;
    LogicalType expected;
  };
  const Case cases[] = {
      {ConvertedType::UTF8, Type::BYTE_ARRAY, logical(StringType{})},
      {ConvertedType::ENUM, Type::BYTE_ARRAY, logical(EnumType{})},
      {ConvertedType::JSON, Type::BYTE_ARRAY, logical(JsonType{})},
      {ConvertedType::BSON, Type::BYTE_ARRAY, logical(BsonType{})},
      {ConvertedType::DATE, Type::INT32, logical(DateType{})},
      {ConvertedType::TIME_MILLIS, Type::INT32, logical(TimeType{true, TimeUnit::MILLIS})},
      {ConvertedType::TIME_MICROS, Type::INT64, logical(TimeType{true, TimeUnit::MICROS})},
      {ConvertedType::TIMESTAMP_MILLIS, Type::INT64, logical(TimestampType{true, TimeUnit::MILLIS})},
      {ConvertedType::TIMESTAMP_MICROS, Type::INT64, logical(TimestampType{true, TimeUnit::MICROS})},
      {ConvertedType::INT_8, Type::INT32, logical(IntType{8, true})},
      {ConvertedType::INT_16, Type::INT32, logical(IntType{16, true})},
      {ConvertedType::INT_32, Type::INT32, logical(IntType{32, true})},
      {ConvertedType::INT_64, Type::INT64, logical(IntType{64, true})},
      {ConvertedType::UINT_8, Type::INT32, logical(IntType{8, false})},
      {ConvertedType::UINT_16, Type::INT32, logical(IntType{16, false})},
      {ConvertedType::UINT_32, Type::INT32, logical(IntType{32, false})},
      {ConvertedType::UINT_64, Type::INT64, logical(IntType{64, false})},
  };
  for (const Case& c : cases) {
    Schema schema = build({root(1), leaf(kOptional, c.physical, "x", c.converted)});
    const ColumnDescriptor& x = schema.column(0);
    ASSERT_TRUE(x.logical_type) << converted_type_name(c.converted);
    EXPECT_EQ(*x.logical_type, c.expected) << converted_type_name(c.converted);
    EXPECT_EQ(x.converted_type, c.converted);
  }
  Schema decimal =
      build({root(1), with_decimal(leaf(kOptional, Type::INT64, "x", ConvertedType::DECIMAL), 18, 4)});
  EXPECT_EQ(*decimal.column(0).logical_type, logical(DecimalType{4, 18}));
  EXPECT_EQ(decimal.column(0).precision, 18);
  EXPECT_EQ(decimal.column(0).scale, 4);
  EXPECT_FALSE(logical_type_from_converted(ConvertedType::MAP_KEY_VALUE, 0, 0));
  EXPECT_FALSE(logical_type_from_converted(ConvertedType::INTERVAL, 0, 0));
}

TEST(SchemaTest, LogicalTypeWinsOverConvertedTypeAndUnknownFallsBack) {
  // A writer that knows TIMESTAMP(NANOS) writes no converted type; one that
  // writes both must agree, but the LogicalType decides.
  Schema schema = build({
      root(2),
      leaf(kOptional, Type::INT64, "local", ConvertedType::TIMESTAMP_MICROS,
           logical(TimestampType{false, TimeUnit::MICROS})),
      leaf(kOptional, Type::BYTE_ARRAY, "future", ConvertedType::UTF8, logical(UnrecognizedLogicalType{42})),
  });
  EXPECT_EQ(*schema.column(0).logical_type, logical(TimestampType{false, TimeUnit::MICROS}));
  EXPECT_EQ(*schema.column(1).logical_type, logical(StringType{}));
  Schema bare = build({root(1), leaf(kOptional, Type::BYTE_ARRAY, "future", std::nullopt,
                                     logical(UnrecognizedLogicalType{42}))});
  EXPECT_FALSE(bare.column(0).logical_type);
  // The column reads as its physical type, and `schema` says why.
  EXPECT_EQ(bare.to_string(),
            "message schema {\n  optional binary future /* unknown logical type (union field 42); read as "
            "BYTE_ARRAY */;\n}\n");
}

TEST(SchemaTest, LevelsOfNestedOptionalAndRepeatedGroups) {
  // message m { optional group a { repeated group b { optional int32 c; required int32 d; } } required int64
  // e; }
  Schema schema = build({
      root(2, "m"),
      group(kOptional, "a", 1),
      group(kRepeated, "b", 2),
      leaf(kOptional, Type::INT32, "c"),
      leaf(kRequired, Type::INT32, "d"),
      leaf(kRequired, Type::INT64, "e"),
  });
  ASSERT_EQ(schema.num_columns(), 3u);
  EXPECT_EQ(schema.column(0).path, "a.b.c");
  EXPECT_EQ(schema.column(0).max_definition_level, 3);
  EXPECT_EQ(schema.column(0).max_repetition_level, 1);
  EXPECT_EQ(schema.column(1).max_definition_level, 2);
  EXPECT_EQ(schema.column(1).max_repetition_level, 1);
  EXPECT_EQ(schema.column(2).max_definition_level, 0);
  EXPECT_EQ(schema.column(2).max_repetition_level, 0);
  const SchemaNode* b = schema.find_node("a.b");
  EXPECT_TRUE(b->is_bare_repeated());
  EXPECT_EQ(b->kind(), NodeKind::kStruct);
  EXPECT_EQ(b->max_definition_level(), 2);
  EXPECT_EQ(b->depth(), 2);
  EXPECT_EQ(b->first_column(), 0);
  EXPECT_EQ(b->num_columns(), 2);
  EXPECT_EQ(schema.find_node("e")->first_column(), 2);
}

// ---------------------------------------------------------------------------
// Lists: every example of LogicalTypes.md, "Lists" and its backward-compatibility rules.

TEST(SchemaListTest, StandardThreeLevelListsOfNullableAndRequiredElements) {
  // required group my_list (LIST) { repeated group list { optional binary element (STRING); } }
  Schema nullable_elements =
      build({root(1), group(kRequired, "my_list", 1, ConvertedType::LIST), group(kRepeated, "list", 1),
             leaf(kOptional, Type::BYTE_ARRAY, "element", ConvertedType::UTF8)});
  const SchemaNode& a = *nullable_elements.find_node("my_list");
  EXPECT_EQ(a.kind(), NodeKind::kList);
  EXPECT_EQ(a.list_element()->name(), "element");
  EXPECT_TRUE(a.list_element_nullable());
  EXPECT_EQ(nullable_elements.column(0).max_definition_level, 2);
  EXPECT_EQ(nullable_elements.column(0).max_repetition_level, 1);

  // optional group my_list (LIST) { repeated group list { required binary element (STRING); } }
  Schema required_elements =
      build({root(1), group(kOptional, "my_list", 1, std::nullopt, logical(ListType{})),
             group(kRepeated, "list", 1), leaf(kRequired, Type::BYTE_ARRAY, "element", ConvertedType::UTF8)});
  const SchemaNode& b = *required_elements.find_node("my_list");
  EXPECT_EQ(b.kind(), NodeKind::kList);
  EXPECT_FALSE(b.list_element_nullable());
  EXPECT_EQ(b.list_element()->kind(), NodeKind::kLeaf);
  EXPECT_EQ(required_elements.column(0).max_definition_level, 2);
}

TEST(SchemaListTest, ListOfLists) {
  // optional group array_of_arrays (LIST) { repeated group list { required group element (LIST) {
  //   repeated group list { required int32 element; } } } }
  Schema schema = build({root(1), group(kOptional, "array_of_arrays", 1, ConvertedType::LIST),
                         group(kRepeated, "list", 1), group(kRequired, "element", 1, ConvertedType::LIST),
                         group(kRepeated, "list", 1), leaf(kRequired, Type::INT32, "element")});
  const SchemaNode& outer = *schema.find_node("array_of_arrays");
  ASSERT_EQ(outer.kind(), NodeKind::kList);
  const SchemaNode& inner = *outer.list_element();
  EXPECT_EQ(inner.kind(), NodeKind::kList);
  EXPECT_FALSE(outer.list_element_nullable());
  EXPECT_EQ(inner.list_element()->kind(), NodeKind::kLeaf);
  EXPECT_EQ(schema.column(0).path, "array_of_arrays.list.element.list.element");
  EXPECT_EQ(schema.column(0).max_definition_level, 3);
  EXPECT_EQ(schema.column(0).max_repetition_level, 2);
}

TEST(SchemaListTest, RepeatedGroupNamedElementIsStillTheMiddleLevel) {
  // optional group my_list (LIST) { repeated group element { required binary str (STRING); }; }
  // -> a nullable list of non-null strings.
  Schema schema =
      build({root(1), group(kOptional, "my_list", 1, ConvertedType::LIST), group(kRepeated, "element", 1),
             leaf(kRequired, Type::BYTE_ARRAY, "str", ConvertedType::UTF8)});
  const SchemaNode& list = *schema.find_node("my_list");
  EXPECT_EQ(list.kind(), NodeKind::kList);
  EXPECT_EQ(list.list_element()->name(), "str");
  EXPECT_EQ(list.list_element()->kind(), NodeKind::kLeaf);
  EXPECT_FALSE(list.list_element_nullable());
  EXPECT_EQ(list.list_repeated()->kind(), NodeKind::kStruct);
}

TEST(SchemaListTest, Rule1RepeatedPrimitiveIsTheElement) {
  // optional group my_list (LIST) { repeated int32 element; }
  Schema schema = build({root(1), group(kOptional, "my_list", 1, ConvertedType::LIST),
                         leaf(kRepeated, Type::INT32, "element")});
  const SchemaNode& list = *schema.find_node("my_list");
  EXPECT_EQ(list.kind(), NodeKind::kList);
  EXPECT_EQ(list.list_element(), list.list_repeated());
  EXPECT_EQ(list.list_element()->kind(), NodeKind::kLeaf);
  EXPECT_FALSE(list.list_element_nullable());
  EXPECT_FALSE(list.list_element()->is_bare_repeated());
  EXPECT_EQ(schema.column(0).max_definition_level, 2);
  EXPECT_EQ(schema.column(0).max_repetition_level, 1);
}

TEST(SchemaListTest, Rule2RepeatedGroupWithSeveralFieldsIsATupleElement) {
  // optional group my_list (LIST) { repeated group element { required binary str (STRING); required int32
  // num; }; }
  Schema schema = build(
      {root(1), group(kOptional, "my_list", 1, ConvertedType::LIST), group(kRepeated, "element", 2),
       leaf(kRequired, Type::BYTE_ARRAY, "str", ConvertedType::UTF8), leaf(kRequired, Type::INT32, "num")});
  const SchemaNode& list = *schema.find_node("my_list");
  EXPECT_EQ(list.list_element(), list.list_repeated());
  EXPECT_EQ(list.list_element()->kind(), NodeKind::kStruct);
  EXPECT_EQ(list.list_element()->children().size(), 2u);
  EXPECT_FALSE(list.list_element_nullable());
  EXPECT_EQ(schema.column(1).path, "my_list.element.num");
  EXPECT_EQ(schema.column(1).max_definition_level, 2);
}

TEST(SchemaListTest, Rule3RepeatedGroupWithOneRepeatedFieldIsTheElement) {
  // optional group my_list (LIST) { repeated group array (LIST) { repeated int32 array; }; }
  Schema schema =
      build({root(1), group(kOptional, "my_list", 1, ConvertedType::LIST),
             group(kRepeated, "array", 1, ConvertedType::LIST), leaf(kRepeated, Type::INT32, "array")});
  const SchemaNode& outer = *schema.find_node("my_list");
  const SchemaNode& inner = *outer.list_element();
  EXPECT_EQ(&inner, outer.list_repeated());
  EXPECT_EQ(inner.kind(), NodeKind::kList);
  EXPECT_FALSE(inner.is_bare_repeated());
  EXPECT_EQ(inner.list_element()->kind(), NodeKind::kLeaf);
  EXPECT_EQ(inner.list_element(), inner.list_repeated());
  EXPECT_FALSE(inner.list_element()->is_bare_repeated());
  EXPECT_EQ(schema.column(0).max_definition_level, 3);
  EXPECT_EQ(schema.column(0).max_repetition_level, 2);
}

TEST(SchemaListTest, Rule4OneFieldTuplesNamedArrayOrTuple) {
  // optional group my_list (LIST) { repeated group array { required binary str (STRING); }; }
  Schema array =
      build({root(1), group(kOptional, "my_list", 1, ConvertedType::LIST), group(kRepeated, "array", 1),
             leaf(kRequired, Type::BYTE_ARRAY, "str", ConvertedType::UTF8)});
  const SchemaNode& a = *array.find_node("my_list");
  EXPECT_EQ(a.list_element()->name(), "array");
  EXPECT_EQ(a.list_element()->kind(), NodeKind::kStruct);
  // optional group my_list (LIST) { repeated group my_list_tuple { required binary str (STRING); }; }
  Schema tuple = build({root(1), group(kOptional, "my_list", 1, ConvertedType::LIST),
                        group(kRepeated, "my_list_tuple", 1),
                        leaf(kRequired, Type::BYTE_ARRAY, "str", ConvertedType::UTF8)});
  const SchemaNode& t = *tuple.find_node("my_list");
  EXPECT_EQ(t.list_element()->name(), "my_list_tuple");
  EXPECT_EQ(t.list_element()->kind(), NodeKind::kStruct);
  EXPECT_FALSE(t.list_element_nullable());
}

TEST(SchemaListTest, Rule5OtherwiseTheSingleFieldIsTheElement) {
  // optional group my_list (LIST) { repeated group element { optional binary str (STRING); }; }
  Schema schema =
      build({root(1), group(kOptional, "my_list", 1, ConvertedType::LIST), group(kRepeated, "element", 1),
             leaf(kOptional, Type::BYTE_ARRAY, "str", ConvertedType::UTF8)});
  const SchemaNode& list = *schema.find_node("my_list");
  EXPECT_EQ(list.list_element()->name(), "str");
  EXPECT_TRUE(list.list_element_nullable());
  EXPECT_EQ(schema.column(0).max_definition_level, 3);
}

TEST(SchemaListTest, LegacyTwoLevelListOfLists) {
  // old_list_structure.parquet: required group a (LIST) { repeated group array (LIST) { repeated int32 array;
  // } }
  Schema schema =
      build({root(1, "my_record"), group(kRequired, "a", 1, ConvertedType::LIST),
             group(kRepeated, "array", 1, ConvertedType::LIST), leaf(kRepeated, Type::INT32, "array")});
  const SchemaNode& a = *schema.find_node("a");
  EXPECT_EQ(a.kind(), NodeKind::kList);
  EXPECT_EQ(a.list_element()->kind(), NodeKind::kList);
  EXPECT_EQ(schema.column(0).path, "a.array.array");
  EXPECT_EQ(schema.column(0).max_definition_level, 2);
  EXPECT_EQ(schema.column(0).max_repetition_level, 2);
  EXPECT_EQ(schema.to_string(),
            "message my_record {\n"
            "  required group a (LIST) {\n"
            "    repeated group array (LIST) {\n"
            "      repeated int32 array;\n"
            "    }\n"
            "  }\n"
            "}\n");
}

TEST(SchemaListTest, UnannotatedRepeatedFieldsAreRequiredListsOfRequiredElements) {
  // repeated int32 num;  repeated group my_list { required int32 num; optional binary str (STRING); }
  Schema schema = build({root(2), leaf(kRepeated, Type::INT32, "num"), group(kRepeated, "my_list", 2),
                         leaf(kRequired, Type::INT32, "num"),
                         leaf(kOptional, Type::BYTE_ARRAY, "str", ConvertedType::UTF8)});
  const SchemaNode& num = *schema.find_node("num");
  EXPECT_TRUE(num.is_bare_repeated());
  EXPECT_EQ(num.kind(), NodeKind::kLeaf);
  const SchemaNode& tuples = *schema.find_node("my_list");
  EXPECT_TRUE(tuples.is_bare_repeated());
  EXPECT_EQ(tuples.kind(), NodeKind::kStruct);
  EXPECT_FALSE(tuples.child("num")->is_bare_repeated());
  EXPECT_EQ(schema.column(0).max_definition_level, 1);
  EXPECT_EQ(schema.column(0).max_repetition_level, 1);
  EXPECT_EQ(schema.column(2).max_definition_level, 2);
  EXPECT_EQ(schema.column(2).max_repetition_level, 1);
}

// ---------------------------------------------------------------------------
// Maps

TEST(SchemaMapTest, StandardMap) {
  // required group my_map (MAP) { repeated group key_value { required binary key (STRING); optional int32
  // value; } }
  Schema schema = build(
      {root(1), group(kRequired, "my_map", 1, ConvertedType::MAP), group(kRepeated, "key_value", 2),
       leaf(kRequired, Type::BYTE_ARRAY, "key", ConvertedType::UTF8), leaf(kOptional, Type::INT32, "value")});
  const SchemaNode& map = *schema.find_node("my_map");
  EXPECT_EQ(map.kind(), NodeKind::kMap);
  EXPECT_EQ(map.map_key_value()->name(), "key_value");
  EXPECT_EQ(map.map_key_value()->kind(), NodeKind::kStruct);
  EXPECT_FALSE(map.map_key_value()->is_bare_repeated());
  EXPECT_EQ(map.map_key()->name(), "key");
  EXPECT_EQ(map.map_value()->name(), "value");
  EXPECT_EQ(schema.column(0).max_definition_level, 1);
  EXPECT_EQ(schema.column(0).max_repetition_level, 1);
  EXPECT_EQ(schema.column(1).max_definition_level, 2);
}

TEST(SchemaMapTest, MisnamedKeyAndValueAreFoundByPosition) {
  // optional group my_map (MAP) { repeated group map { required binary str (STRING); required int32 num; } }
  Schema schema = build(
      {root(1), group(kOptional, "my_map", 1, std::nullopt, logical(MapType{})), group(kRepeated, "map", 2),
       leaf(kRequired, Type::BYTE_ARRAY, "str", ConvertedType::UTF8), leaf(kRequired, Type::INT32, "num")});
  const SchemaNode& map = *schema.find_node("my_map");
  EXPECT_EQ(map.kind(), NodeKind::kMap);
  EXPECT_EQ(map.map_key()->name(), "str");
  EXPECT_EQ(map.map_value()->name(), "num");
}

TEST(SchemaMapTest, StrayMapKeyValueIsAMap) {
  // optional group my_map (MAP_KEY_VALUE) { repeated group map { required binary key (STRING); optional int32
  // value; } }
  Schema schema = build(
      {root(1), group(kOptional, "my_map", 1, ConvertedType::MAP_KEY_VALUE), group(kRepeated, "map", 2),
       leaf(kRequired, Type::BYTE_ARRAY, "key", ConvertedType::UTF8), leaf(kOptional, Type::INT32, "value")});
  const SchemaNode& map = *schema.find_node("my_map");
  EXPECT_EQ(map.kind(), NodeKind::kMap);
  EXPECT_FALSE(map.logical_type());
  EXPECT_EQ(map.map_value()->name(), "value");
  EXPECT_EQ(schema.to_string(),
            "message schema {\n"
            "  optional group my_map (MAP_KEY_VALUE) {\n"
            "    repeated group map {\n"
            "      required binary key (STRING);\n"
            "      optional int32 value;\n"
            "    }\n"
            "  }\n"
            "}\n");
}

TEST(SchemaMapTest, MapKeyValueInsideMapIsTheKeyValueLevel) {
  // The layout older parquet-java wrote: MAP { repeated group map (MAP_KEY_VALUE) { key; value; } }
  Schema schema = build({root(1), group(kOptional, "m", 1, ConvertedType::MAP),
                         group(kRepeated, "map", 2, ConvertedType::MAP_KEY_VALUE),
                         leaf(kRequired, Type::BYTE_ARRAY, "key", ConvertedType::UTF8),
                         leaf(kOptional, Type::INT64, "value")});
  const SchemaNode& map = *schema.find_node("m");
  EXPECT_EQ(map.kind(), NodeKind::kMap);
  EXPECT_EQ(map.map_key_value()->kind(), NodeKind::kStruct);
  EXPECT_EQ(map.map_key_value()->converted_type(), ConvertedType::MAP_KEY_VALUE);
}

TEST(SchemaMapTest, MapWithoutValuesIsASetOfKeys) {
  Schema schema = build({root(1), group(kOptional, "keys", 1, ConvertedType::MAP),
                         group(kRepeated, "key_value", 1), leaf(kRequired, Type::INT32, "key")});
  const SchemaNode& map = *schema.find_node("keys");
  EXPECT_EQ(map.kind(), NodeKind::kMap);
  EXPECT_EQ(map.map_value(), nullptr);
  EXPECT_EQ(map.map_key()->name(), "key");
}

TEST(SchemaMapTest, MapOfMapsHasTwoRepetitionLevels) {
  // nested_maps.snappy.parquet: optional group a (MAP) { repeated group key_value { required binary key
  // (STRING);
  //   optional group value (MAP) { repeated group key_value { required int32 key; optional boolean value; } }
  //   } }
  Schema schema = build({
      root(1),
      group(kOptional, "a", 1, ConvertedType::MAP),
      group(kRepeated, "key_value", 2),
      leaf(kRequired, Type::BYTE_ARRAY, "key", ConvertedType::UTF8),
      group(kOptional, "value", 1, ConvertedType::MAP),
      group(kRepeated, "key_value", 2),
      leaf(kRequired, Type::INT32, "key"),
      leaf(kOptional, Type::BOOLEAN, "value"),
  });
  const SchemaNode& outer = *schema.find_node("a");
  ASSERT_EQ(outer.kind(), NodeKind::kMap);
  EXPECT_EQ(outer.map_value()->kind(), NodeKind::kMap);
  ASSERT_EQ(schema.num_columns(), 3u);
  EXPECT_EQ(schema.column(0).max_definition_level, 2);
  EXPECT_EQ(schema.column(0).max_repetition_level, 1);
  EXPECT_EQ(schema.column(1).path, "a.key_value.value.key_value.key");
  EXPECT_EQ(schema.column(1).max_definition_level, 4);
  EXPECT_EQ(schema.column(1).max_repetition_level, 2);
  EXPECT_EQ(schema.column(2).max_definition_level, 5);
  EXPECT_EQ(schema.column(2).max_repetition_level, 2);
}

// ---------------------------------------------------------------------------
// Lookup and projection

class SchemaLookupTest : public ::testing::Test {
 protected:
  Schema schema_ = build({
      root(3),
      with_field_id(leaf(kRequired, Type::INT64, "id"), 1),
      with_field_id(group(kOptional, "a", 2), 2),
      with_field_id(leaf(kOptional, Type::INT32, "b"), 3),
      group(kOptional, "c", 1),
      with_field_id(leaf(kOptional, Type::DOUBLE, "d"), 4),
      leaf(kOptional, Type::INT32, "ab"),
  });
};

TEST_F(SchemaLookupTest, ByPathPartsAndFieldId) {
  EXPECT_EQ(schema_.find_column("a.c.d")->index, 2);
  EXPECT_EQ(schema_.find_column("a.b")->index, 1);
  EXPECT_EQ(schema_.find_column("a"), nullptr);  // a group, not a leaf
  EXPECT_EQ(schema_.find_column("a.x"), nullptr);
  std::vector<std::string> parts = {"a", "c", "d"};
  EXPECT_EQ(schema_.find_column(parts)->index, 2);
  std::vector<std::string> group_parts = {"a", "c"};
  EXPECT_EQ(schema_.find_column(group_parts), nullptr);
  EXPECT_EQ(schema_.find_column_by_field_id(4)->path, "a.c.d");
  EXPECT_EQ(schema_.find_column_by_field_id(2), nullptr);  // field 2 is a group
  EXPECT_EQ(schema_.find_node_by_field_id(2)->name(), "a");
  EXPECT_EQ(schema_.find_node_by_field_id(99), nullptr);
  EXPECT_EQ(schema_.find_node("a.c")->num_columns(), 1);
  EXPECT_TRUE(schema_.find_node("")->is_root());
  EXPECT_EQ(schema_.find_node("a")->child("c")->child("d")->max_definition_level(), 3);
}

TEST_F(SchemaLookupTest, ProjectionByPrefixRespectsNameBoundaries) {
  EXPECT_EQ(schema_.columns_under("a"), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(schema_.columns_under("a.c"), (std::vector<int32_t>{2}));
  EXPECT_EQ(schema_.columns_under("ab"), (std::vector<int32_t>{3}));
  EXPECT_EQ(schema_.columns_under(""), (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_TRUE(schema_.columns_under("a.c.d.e").empty());
  std::vector<std::string> prefixes = {"ab", "id", "a.c", "ab"};
  EXPECT_EQ(schema_.select_columns(prefixes), (std::vector<int32_t>{0, 2, 3}));
  std::vector<std::string> bad = {"id", "nope"};
  try {
    schema_.select_columns(bad);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(e.message().find("'nope'"), std::string::npos);
  }
}

TEST_F(SchemaLookupTest, CopiesAndMovesKeepNodesConsistent) {
  Schema copy = schema_;
  EXPECT_EQ(copy.to_string(), schema_.to_string());
  EXPECT_NE(&copy.root(), &schema_.root());
  EXPECT_EQ(copy.column(2).node, copy.find_node("a.c.d"));
  EXPECT_EQ(copy.column(2).node->parent()->parent(), copy.find_node("a"));
  Schema moved = std::move(copy);
  EXPECT_EQ(moved.column(2).node, moved.find_node("a.c.d"));
  EXPECT_EQ(moved.find_column("a.c.d")->node->name(), "d");
}

// ---------------------------------------------------------------------------
// Hostile and malformed schemas

TEST(SchemaErrorTest, ChildCountsThatLie) {
  expect_error({}, ErrorCode::kCorrupt, "no schema elements");
  expect_error({root(3), leaf(kOptional, Type::INT32, "a")}, ErrorCode::kCorrupt,
               "declares 3 children but only 1 schema elements follow");
  expect_error({root(1), group(kOptional, "g", 2), leaf(kOptional, Type::INT32, "a")}, ErrorCode::kCorrupt,
               "declares 2 children but only 1");
  expect_error({root(1), leaf(kOptional, Type::INT32, "a"), leaf(kOptional, Type::INT32, "b")},
               ErrorCode::kCorrupt, "the tree is complete after 2 of 3");
  expect_error({root(-1)}, ErrorCode::kCorrupt, "negative num_children");
  // A group whose count swallows its parent's remaining siblings is caught at the end.
  expect_error(
      {root(2), group(kOptional, "g", 1), group(kOptional, "h", 1), leaf(kOptional, Type::INT32, "x")},
      ErrorCode::kCorrupt, "ends 1 short");
  expect_error({root(1), group(kOptional, "g", 0)}, ErrorCode::kCorrupt, "has no children");
  expect_error({leaf(kRequired, Type::INT32, "root")}, ErrorCode::kCorrupt, "not a group");
}

TEST(SchemaErrorTest, DepthBeyondTheLimit) {
  auto chain = [](int depth) {
    std::vector<SchemaElement> elements = {root(1)};
    for (int i = 1; i < depth; ++i) elements.push_back(group(kOptional, "g" + std::to_string(i), 1));
    elements.push_back(leaf(kOptional, Type::INT32, "leaf"));
    return elements;
  };
  Limits limits;
  limits.max_nesting_depth = 64;
  Schema deepest = build(chain(64), limits);
  EXPECT_EQ(deepest.column(0).max_definition_level, 64);
  EXPECT_EQ(deepest.column(0).path_parts.size(), 64u);
  expect_error(chain(65), ErrorCode::kLimitExceeded, "nested 65 levels deep; the limit is 64", limits);
  // Construction, classification and printing do not recurse: a raised
  // limit and a deep chain work.
  limits.max_nesting_depth = 1000;
  Schema deep = build(chain(1000), limits);
  EXPECT_EQ(deep.column(0).max_definition_level, 1000);
  std::string text = deep.to_string();
  EXPECT_NE(text.find(std::string(2 * 1000, ' ') + "optional int32 leaf;\n"), std::string::npos);
  EXPECT_EQ(text.substr(text.size() - 6), "  }\n}\n");
}

TEST(SchemaErrorTest, LeavesNeedTypesAndGroupsMustNotHaveThem) {
  SchemaElement untyped;
  untyped.name = "x";
  untyped.repetition_type = kOptional;
  expect_error({root(1), untyped}, ErrorCode::kCorrupt, "leaf 'x' (schema element 1) has no physical type");
  SchemaElement typed_group = group(kOptional, "g", 1);
  typed_group.type = Type::INT32;
  expect_error({root(1), typed_group, leaf(kOptional, Type::INT32, "x")}, ErrorCode::kCorrupt,
               "group 'g' (schema element 1) has a physical type");
  SchemaElement bad_type = leaf(kOptional, Type::INT32, "x");
  bad_type.type = static_cast<Type>(9);
  expect_error({root(1), bad_type}, ErrorCode::kCorrupt, "unknown physical type 9");
  expect_error({root(1), leaf(kOptional, Type::FIXED_LEN_BYTE_ARRAY, "f")}, ErrorCode::kCorrupt,
               "no type_length");
  expect_error({root(1), with_length(leaf(kOptional, Type::FIXED_LEN_BYTE_ARRAY, "f"), -4)},
               ErrorCode::kCorrupt, "invalid type_length -4");
  // A leaf written with num_children = 0 (some old writers) is still a leaf.
  SchemaElement zero_children = leaf(kOptional, Type::INT32, "z");
  zero_children.num_children = 0;
  EXPECT_EQ(build({root(1), zero_children}).column(0).physical_type, Type::INT32);
}

TEST(SchemaErrorTest, RepetitionAndNames) {
  SchemaElement no_repetition = leaf(kOptional, Type::INT32, "x");
  no_repetition.repetition_type.reset();
  expect_error({root(1), no_repetition}, ErrorCode::kCorrupt, "has no repetition type");
  expect_error({root(1), leaf(static_cast<FieldRepetitionType>(7), Type::INT32, "x")}, ErrorCode::kCorrupt,
               "invalid repetition type 7");
  expect_error({root(1), leaf(static_cast<FieldRepetitionType>(3), Type::INT32, "x")},
               ErrorCode::kUnsupported, "VECTOR");
  // Any byte string names a column, the empty one too (other readers open such files).
  Schema unnamed = build({root(1), leaf(kOptional, Type::INT32, "")});
  EXPECT_EQ(unnamed.column(0).path_parts, std::vector<std::string>{""});
  EXPECT_EQ(unnamed.column(0).physical_type, Type::INT32);
}

TEST(SchemaErrorTest, AnnotationsThatDoNotFit) {
  expect_error({root(1), leaf(kOptional, Type::INT32, "s", ConvertedType::UTF8)}, ErrorCode::kCorrupt,
               "STRING cannot annotate INT32");
  expect_error({root(1), leaf(kOptional, Type::INT64, "d", ConvertedType::DATE)}, ErrorCode::kCorrupt,
               "DATE cannot annotate INT64");
  expect_error({root(1), leaf(kOptional, Type::INT32, "i", ConvertedType::INT_64)}, ErrorCode::kCorrupt,
               "INTEGER(64,true) cannot annotate INT32");
  expect_error({root(1), leaf(kOptional, Type::INT32, "d", ConvertedType::DECIMAL)}, ErrorCode::kCorrupt,
               "has no precision");
  expect_error({root(1), with_decimal(leaf(kOptional, Type::INT32, "d", ConvertedType::DECIMAL), 10, 2)},
               ErrorCode::kCorrupt, "precision 10 does not fit INT32");
  expect_error({root(1), with_decimal(leaf(kOptional, Type::INT64, "d", ConvertedType::DECIMAL), 5, 6)},
               ErrorCode::kCorrupt, "invalid DECIMAL precision 5 / scale 6");
  expect_error(
      {root(1),
       with_decimal(with_length(leaf(kOptional, Type::FIXED_LEN_BYTE_ARRAY, "d", ConvertedType::DECIMAL), 4),
                    10, 0)},
      ErrorCode::kCorrupt, "at most 9 digits");
  expect_error(
      {root(1),
       with_length(leaf(kOptional, Type::FIXED_LEN_BYTE_ARRAY, "u", std::nullopt, logical(UuidType{})), 8)},
      ErrorCode::kCorrupt, "UUID cannot annotate FIXED_LEN_BYTE_ARRAY(8)");
  expect_error({root(1), leaf(kOptional, Type::INT32, "l", ConvertedType::LIST)}, ErrorCode::kCorrupt,
               "only applies to groups");
  expect_error({root(1), group(kOptional, "g", 1, ConvertedType::UTF8), leaf(kOptional, Type::INT32, "x")},
               ErrorCode::kCorrupt, "only applies to primitive columns");
  // A converted type newer than this code is ignored: the column reads as INT32.
  Schema newer = build({root(1), leaf(kOptional, Type::INT32, "x", static_cast<ConvertedType>(77))});
  EXPECT_EQ(newer.column(0).physical_type, Type::INT32);
  EXPECT_FALSE(newer.column(0).logical_type);
  expect_error({root(1), leaf(kOptional, Type::INT32, "x", std::nullopt, logical(IntType{12, true}))},
               ErrorCode::kCorrupt, "invalid bit width 12");
  // FLBA(16) holds floor(log10(2^127 - 1)) = 38 digits.
  Schema widest = build(
      {root(1),
       with_decimal(with_length(leaf(kOptional, Type::FIXED_LEN_BYTE_ARRAY, "d", ConvertedType::DECIMAL), 16),
                    38, 10)});
  EXPECT_EQ(widest.column(0).precision, 38);
}

TEST(SchemaErrorTest, RandomElementListsBuildOrThrowButNeverBreak) {
  // Hostile footers in miniature: random counts, types, repetitions and
  // annotations. Each list must either build a consistent tree or throw
  // parquetry::Error; ASan/UBSan catch anything worse.
  std::mt19937 rng(20240607);
  auto pick = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(rng); };
  const LogicalType logicals[] = {logical(StringType{}),       logical(ListType{}),
                                  logical(MapType{}),          logical(DecimalType{2, 5}),
                                  logical(IntType{16, false}), logical(TimestampType{true, TimeUnit::NANOS}),
                                  logical(NullType{}),         logical(Float16Type{}),
                                  logical(VariantType{}),      logical(UnrecognizedLogicalType{99})};
  int built = 0;
  for (int iteration = 0; iteration < 20000; ++iteration) {
    std::vector<SchemaElement> elements(static_cast<size_t>(pick(1, 12)));
    for (size_t i = 0; i < elements.size(); ++i) {
      SchemaElement& e = elements[i];
      e.name = pick(0, 20) == 0 ? "" : (pick(0, 3) == 0 ? "array" : "f" + std::to_string(i));
      bool group = pick(0, 2) == 0 || i == 0;
      if (group || pick(0, 20) == 0) e.num_children = pick(-1, 4);
      if (!group || pick(0, 20) == 0) e.type = static_cast<Type>(pick(0, 8));
      if (i != 0 || pick(0, 3) == 0) e.repetition_type = static_cast<FieldRepetitionType>(pick(0, 3));
      if (pick(0, 3) == 0) e.converted_type = static_cast<ConvertedType>(pick(0, 22));
      if (pick(0, 4) == 0) e.logical_type = logicals[pick(0, 9)];
      if (pick(0, 3) == 0) e.type_length = pick(-2, 17);
      if (pick(0, 3) == 0) e.precision = pick(-1, 40);
      if (pick(0, 3) == 0) e.scale = pick(-1, 10);
    }
    try {
      Schema schema = Schema::from_elements(elements);
      ++built;
      std::string text = schema.to_string();
      ASSERT_EQ(text.rfind("message ", 0), 0u);
      int32_t leaves = 0;
      for (const SchemaNode& node : schema.nodes()) {
        if (node.is_leaf()) ++leaves;
        ASSERT_GE(node.max_definition_level(), node.max_repetition_level());
        ASSERT_EQ(node.kind() == NodeKind::kList, node.list_element() != nullptr);
        ASSERT_EQ(node.kind() == NodeKind::kMap, node.map_key() != nullptr);
      }
      ASSERT_EQ(static_cast<size_t>(leaves), schema.num_columns());
      for (const ColumnDescriptor& column : schema.columns()) {
        ASSERT_TRUE(column.node->is_leaf());
        // Sibling names may repeat (the first one wins a lookup), so compare paths.
        ASSERT_EQ(schema.find_column(column.path_parts)->path, column.path);
      }
    } catch (const Error&) {
      // Rejected cleanly.
    }
  }
  EXPECT_GT(built, 100);  // the generator also produces valid schemas
}

TEST(SchemaErrorTest, MalformedListsAndMaps) {
  expect_error({root(1), group(kOptional, "l", 2, ConvertedType::LIST), leaf(kRepeated, Type::INT32, "a"),
                leaf(kRepeated, Type::INT32, "b")},
               ErrorCode::kCorrupt, "must have exactly one (repeated) child, not 2");
  expect_error({root(1), group(kOptional, "l", 1, ConvertedType::LIST), leaf(kOptional, Type::INT32, "a")},
               ErrorCode::kCorrupt, "that is optional, not repeated");
  expect_error({root(1), group(kOptional, "m", 1, ConvertedType::MAP), leaf(kRepeated, Type::INT32, "k")},
               ErrorCode::kCorrupt, "not a repeated group");
  expect_error({root(1), group(kOptional, "m", 1, ConvertedType::MAP), group(kRepeated, "key_value", 3),
                leaf(kRequired, Type::INT32, "k"), leaf(kOptional, Type::INT32, "v"),
                leaf(kOptional, Type::INT32, "w")},
               ErrorCode::kCorrupt, "with 3 fields");
}

}  // namespace
}  // namespace parquetry
