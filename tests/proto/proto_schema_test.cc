// The Parquet schema and key-value metadata a descriptor maps to, against
// parquet-java's parquet-protobuf layout (docs/proto.md): field ids, repetitions,
// logical types, both list/map layouts, enums, well-known types, metadata.
#include <gtest/gtest.h>

#include "parquetry/proto.h"
#include "proto2_types.pb.h"
#include "proto3_types.pb.h"
#include "test_support.h"

namespace parquetry::proto {
namespace {

// The elements of a schema by dotted path ("r_int32.list.element").
class Elements {
 public:
  explicit Elements(const BatchSchema& schema) : elements_(parquet_schema_for(schema)) {
    size_t at = 1;
    while (at < elements_.size()) walk(at, "");
  }
  const SchemaElement& at(const std::string& path) const {
    for (const auto& [name, index] : paths_) {
      if (name == path) return elements_[index];
    }
    ADD_FAILURE() << "no element " << path;
    return elements_[0];
  }
  bool has(const std::string& path) const {
    for (const auto& entry : paths_) {
      if (entry.first == path) return true;
    }
    return false;
  }

 private:
  void walk(size_t& at, const std::string& prefix) {
    const size_t index = at++;
    const std::string path = prefix.empty() ? elements_[index].name : prefix + "." + elements_[index].name;
    paths_.emplace_back(path, index);
    for (int32_t c = 0; c < elements_[index].num_children.value_or(0); ++c) walk(at, path);
  }
  std::vector<SchemaElement> elements_;
  std::vector<std::pair<std::string, size_t>> paths_;
};

std::string metadata_value(const BatchSchema& schema, const std::string& key) {
  for (const auto& [k, v] : schema.metadata) {
    if (k == key) return v;
  }
  return "<absent>";
}

TEST(ProtoSchema, ScalarsCarryFieldNumbersAndLogicalTypes) {
  const BatchSchema schema = schema_for(parquetry::test::AllTypes3::descriptor());
  Elements e(schema);
  EXPECT_EQ(e.at("f_int32").field_id, 1);
  EXPECT_EQ(e.at("f_int32").type, Type::INT32);
  EXPECT_EQ(e.at("f_int32").repetition_type, FieldRepetitionType::OPTIONAL);  // proto3 scalars
  EXPECT_EQ(e.at("f_sint64").type, Type::INT64);
  EXPECT_EQ(e.at("f_sint64").field_id, 6);
  EXPECT_EQ(e.at("f_uint32").type, Type::INT32);
  EXPECT_EQ(e.at("f_uint32").logical_type, (LogicalType{IntType{32, false}}));
  EXPECT_EQ(e.at("f_fixed64").type, Type::INT64);
  EXPECT_EQ(e.at("f_fixed64").logical_type, (LogicalType{IntType{64, false}}));
  EXPECT_EQ(e.at("f_sfixed32").type, Type::INT32);
  EXPECT_FALSE(e.at("f_sfixed32").logical_type.has_value());
  EXPECT_EQ(e.at("f_float").type, Type::FLOAT);
  EXPECT_EQ(e.at("f_double").type, Type::DOUBLE);
  EXPECT_EQ(e.at("f_bool").type, Type::BOOLEAN);
  EXPECT_EQ(e.at("f_string").logical_type, LogicalType{StringType{}});
  EXPECT_EQ(e.at("f_bytes").type, Type::BYTE_ARRAY);
  EXPECT_FALSE(e.at("f_bytes").logical_type.has_value());
  EXPECT_EQ(e.at("f_enum").type, Type::BYTE_ARRAY);
  EXPECT_EQ(e.at("f_enum").logical_type, LogicalType{EnumType{}});
  EXPECT_EQ(e.at("f_enum").converted_type, ConvertedType::ENUM);
  // Messages are groups; oneof members plain optional fields.
  EXPECT_EQ(e.at("inner").num_children, 4);
  EXPECT_EQ(e.at("inner").field_id, 19);
  EXPECT_EQ(e.at("inner.c").field_id, 3);
  EXPECT_EQ(e.at("c_inner").repetition_type, FieldRepetitionType::OPTIONAL);
  EXPECT_EQ(e.at("c_int").field_id, 29);
  // Well-known types stay groups by default.
  EXPECT_EQ(e.at("ts").num_children, 2);
  EXPECT_EQ(e.at("w_int32.value").type, Type::INT32);
}

TEST(ProtoSchema, ThreeLevelListsAndMapsByDefault) {
  Elements e(schema_for(parquetry::test::AllTypes3::descriptor()));
  EXPECT_EQ(e.at("r_int32").converted_type, ConvertedType::LIST);
  EXPECT_EQ(e.at("r_int32").repetition_type, FieldRepetitionType::OPTIONAL);
  EXPECT_EQ(e.at("r_int32").field_id, 20);
  EXPECT_EQ(e.at("r_int32.list").repetition_type, FieldRepetitionType::REPEATED);
  EXPECT_EQ(e.at("r_int32.list.element").repetition_type, FieldRepetitionType::REQUIRED);
  EXPECT_EQ(e.at("r_inner.list.element").repetition_type, FieldRepetitionType::OPTIONAL);
  EXPECT_EQ(e.at("m_str_int").converted_type, ConvertedType::MAP);
  EXPECT_EQ(e.at("m_str_int.key_value").repetition_type, FieldRepetitionType::REPEATED);
  EXPECT_EQ(e.at("m_str_int.key_value.key").repetition_type, FieldRepetitionType::REQUIRED);
  EXPECT_EQ(e.at("m_str_int.key_value.key").logical_type, LogicalType{StringType{}});
  EXPECT_EQ(e.at("m_int_inner.key_value.value").num_children, 4);
}

TEST(ProtoSchema, LegacyLayoutIsBareRepeated) {
  Elements e(schema_for(parquetry::test::AllTypes3::descriptor(), ProtoOptions::legacy()));
  EXPECT_EQ(e.at("r_int32").repetition_type, FieldRepetitionType::REPEATED);
  EXPECT_EQ(e.at("r_int32").type, Type::INT32);
  EXPECT_EQ(e.at("r_int32").field_id, 20);
  EXPECT_FALSE(e.at("r_int32").converted_type.has_value());
  EXPECT_FALSE(e.has("r_int32.list"));
  EXPECT_EQ(e.at("r_inner").repetition_type, FieldRepetitionType::REPEATED);
  EXPECT_EQ(e.at("r_inner").num_children, 4);
  EXPECT_EQ(e.at("r_inner.b").field_id, 2);
  EXPECT_EQ(e.at("m_str_int").repetition_type, FieldRepetitionType::REPEATED);
  EXPECT_FALSE(e.at("m_str_int").converted_type.has_value());
  EXPECT_EQ(e.at("m_str_int.key").type, Type::BYTE_ARRAY);
  EXPECT_EQ(e.at("m_str_int.value").type, Type::INT32);
  // parquet-java writes no unsigned annotations.
  EXPECT_FALSE(e.at("f_uint32").logical_type.has_value());
}

TEST(ProtoSchema, Proto2RequiredAndOptional) {
  Elements e(schema_for(parquetry::test2::AllTypes2::descriptor()));
  EXPECT_EQ(e.at("req_int32").repetition_type, FieldRepetitionType::REQUIRED);
  EXPECT_EQ(e.at("req_string").repetition_type, FieldRepetitionType::REQUIRED);
  EXPECT_EQ(e.at("o_int32").repetition_type, FieldRepetitionType::OPTIONAL);
  EXPECT_EQ(e.at("req_node").repetition_type, FieldRepetitionType::REQUIRED);
  EXPECT_EQ(e.at("req_node.id").repetition_type, FieldRepetitionType::REQUIRED);
  EXPECT_EQ(e.at("grp.g").field_id, 28);
}

TEST(ProtoSchema, UnwrappedWellKnownTypesAndEnumNumbers) {
  ProtoOptions options;
  options.unwrap_well_known_types = true;
  options.enums_as_strings = false;
  Elements e(schema_for(parquetry::test::AllTypes3::descriptor(), options));
  EXPECT_EQ(e.at("ts").type, Type::INT64);
  EXPECT_EQ(e.at("ts").logical_type, (LogicalType{TimestampType{true, TimeUnit::NANOS}}));
  EXPECT_EQ(e.at("w_int32").type, Type::INT32);
  EXPECT_EQ(e.at("w_int32").repetition_type, FieldRepetitionType::OPTIONAL);
  EXPECT_EQ(e.at("w_string").logical_type, LogicalType{StringType{}});
  EXPECT_EQ(e.at("w_uint64").logical_type, (LogicalType{IntType{64, false}}));
  EXPECT_EQ(e.at("r_ts.list.element").type, Type::INT64);
  EXPECT_EQ(e.at("f_enum").type, Type::INT32);
  EXPECT_FALSE(e.at("f_enum").logical_type.has_value());
  EXPECT_EQ(e.at("date").type, Type::INT32);
  EXPECT_EQ(e.at("date").logical_type, LogicalType{DateType{}});
  EXPECT_EQ(e.at("time").type, Type::INT64);
  EXPECT_EQ(e.at("time").logical_type, (LogicalType{TimeType{false, TimeUnit::NANOS}}));
  EXPECT_EQ(e.at("r_dates.list.element").logical_type, LogicalType{DateType{}});
}

TEST(ProtoSchema, RecursionLimitStoresTheMessageSerialized) {
  ProtoOptions options;
  options.max_recursion = 1;
  Elements e(schema_for(parquetry::test::Recursive::descriptor(), options));
  EXPECT_EQ(e.at("child.value").type, Type::INT32);
  EXPECT_EQ(e.at("child.child").type, Type::BYTE_ARRAY);
  EXPECT_EQ(e.at("child.child").repetition_type, FieldRepetitionType::OPTIONAL);
  // Node recurses through a repeated field.
  Elements nodes(schema_for(parquetry::test2::Node::descriptor(), options));
  EXPECT_EQ(nodes.at("children.list.element.children.list.element").type, Type::BYTE_ARRAY);
}

TEST(ProtoSchema, KeyValueMetadataAsParquetJavaWritesIt) {
  const BatchSchema schema = schema_for(parquetry::test::AllTypes3::descriptor());
  EXPECT_EQ(metadata_value(schema, "parquet.proto.class"), "parquetry.test.AllTypes3");
  EXPECT_EQ(metadata_value(schema, "parquet.proto.enum.parquetry.test.Color"),
            "COLOR_UNSPECIFIED:0,RED:1,GREEN:2,BLUE:3");
  EXPECT_EQ(metadata_value(schema, "parquet.proto.writeSpecsCompliant"), "true");
  EXPECT_EQ(metadata_value(schema, "parquet.proto.unwrapProtoWrappers"), "false");
  const std::string descriptor = metadata_value(schema, "parquet.proto.descriptor");
  EXPECT_NE(descriptor.find("name: \"AllTypes3\""), std::string::npos) << descriptor;
  EXPECT_NE(descriptor.find("name: \"f_sint32\""), std::string::npos);
  EXPECT_EQ(metadata_value(schema_for(parquetry::test::AllTypes3::descriptor(), ProtoOptions::legacy()),
                           "parquet.proto.writeSpecsCompliant"),
            "false");
}

TEST(ProtoSchema, MetadataReachesTheFile) {
  const std::string path = (parquetry::testing::temp_dir() / "meta.parquet").string();
  auto writer = ProtoWriter::open(path, parquetry::test::Inner::descriptor());
  parquetry::test::Inner inner;
  inner.set_a(5);
  inner.set_color(parquetry::test::GREEN);
  writer->write(inner);
  writer->close();
  auto reader = FileReader::open(path);
  bool found = false;
  for (const KeyValue& kv : reader->metadata().key_value_metadata) {
    if (kv.key == "parquet.proto.enum.parquetry.test.Color")
      found = kv.value == "COLOR_UNSPECIFIED:0,RED:1,GREEN:2,BLUE:3";
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace parquetry::proto
