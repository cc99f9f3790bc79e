// Random messages of schemas covering every field kind -> Parquet -> messages,
// through the reflection path (ProtoWriter/ProtoReader, DynamicMessage too)
// and the generated path (protoc-gen-parquetry), for several option sets:
// the messages come back equal and both paths write the same bytes.
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "parquetry/proto.h"
#include "proto2_types.parquetry.h"
#include "proto3_types.parquetry.h"
#include "random_message.h"
#include "test_support.h"

namespace parquetry::proto {
namespace {

using google::protobuf::util::MessageDifferencer;

std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

struct NamedOptions {
  std::string name;
  ProtoOptions options;
};

std::vector<NamedOptions> option_sets() {
  std::vector<NamedOptions> sets;
  ProtoOptions base;
  base.batch_rows = 37;  // batches cut mid-file, several per row group
  sets.push_back({"default", base});
  ProtoOptions legacy = ProtoOptions::legacy();
  legacy.batch_rows = 37;
  sets.push_back({"legacy", legacy});
  ProtoOptions numbers = base;
  numbers.enums_as_strings = false;
  numbers.unwrap_well_known_types = true;
  sets.push_back({"enum_numbers_unwrapped", numbers});
  ProtoOptions shallow = base;
  shallow.max_recursion = 0;
  shallow.unwrap_well_known_types = true;
  sets.push_back({"max_recursion_0", shallow});
  return sets;
}

template <typename Msg, typename GeneratedWriter, typename GeneratedReader>
void round_trip(uint64_t seed) {
  testing::RandomMessages random(seed);
  std::vector<Msg> messages(300);
  for (Msg& m : messages) random.fill(&m);
  WriterOptions writer_options;
  writer_options.row_group_rows = 100;
  for (const NamedOptions& set : option_sets()) {
    SCOPED_TRACE(set.name);
    const auto dir = parquetry::testing::temp_dir();
    const std::string reflect_path = (dir / "reflect.parquet").string();
    const std::string generated_path = (dir / "generated.parquet").string();
    const std::string dynamic_path = (dir / "dynamic.parquet").string();
    {
      auto writer = ProtoWriter::open(reflect_path, Msg::descriptor(), set.options, writer_options);
      for (const Msg& m : messages) writer->write(m);
      EXPECT_EQ(writer->num_rows(), 300);
      writer->close();
    }
    {
      GeneratedWriter writer(generated_path, set.options, writer_options);
      for (const Msg& m : messages) writer.write(m);
      writer.close();
    }
    {
      // DynamicMessage: the same rows through a descriptor known only at run time.
      google::protobuf::DynamicMessageFactory factory;
      const google::protobuf::Message* prototype = factory.GetPrototype(Msg::descriptor());
      auto writer = ProtoWriter::open(dynamic_path, Msg::descriptor(), set.options, writer_options);
      for (const Msg& m : messages) {
        std::unique_ptr<google::protobuf::Message> dynamic(prototype->New());
        ASSERT_TRUE(dynamic->ParseFromString(m.SerializeAsString()));
        writer->write(*dynamic);
      }
      writer->close();
    }
    const std::string reflect_bytes = file_bytes(reflect_path);
    EXPECT_GT(reflect_bytes.size(), 1000u);
    EXPECT_TRUE(reflect_bytes == file_bytes(generated_path)) << "generated and reflection files differ";
    // (The DynamicMessage file is not compared byte for byte: reparsing rebuilds
    // each map, whose entries then come in another order.)

    {
      auto reader = ProtoReader::open(reflect_path, Msg::descriptor(), set.options);
      Msg back;
      for (size_t i = 0; i < messages.size(); ++i) {
        ASSERT_TRUE(reader->next(&back)) << "row " << i;
        std::string diff;
        MessageDifferencer differencer;
        differencer.ReportDifferencesToString(&diff);
        ASSERT_TRUE(differencer.Compare(messages[i], back)) << "reflection reader, row " << i << ":\n"
                                                            << diff;
      }
      EXPECT_FALSE(reader->next(&back));
    }
    {
      GeneratedReader reader(generated_path, set.options);
      Msg back;
      for (size_t i = 0; i < messages.size(); ++i) {
        ASSERT_TRUE(reader.next(&back)) << "row " << i;
        std::string diff;
        MessageDifferencer differencer;
        differencer.ReportDifferencesToString(&diff);
        ASSERT_TRUE(differencer.Compare(messages[i], back)) << "generated reader, row " << i << ":\n" << diff;
      }
      EXPECT_FALSE(reader.next(&back));
    }
    {
      google::protobuf::DynamicMessageFactory factory;
      std::unique_ptr<google::protobuf::Message> back(factory.GetPrototype(Msg::descriptor())->New());
      auto reader = ProtoReader::open(dynamic_path, Msg::descriptor(), set.options);
      for (size_t i = 0; i < messages.size(); ++i) {
        ASSERT_TRUE(reader->next(back.get())) << "row " << i;
        Msg typed;
        ASSERT_TRUE(typed.ParseFromString(back->SerializeAsString()));
        ASSERT_TRUE(MessageDifferencer::Equals(messages[i], typed)) << "DynamicMessage reader, row " << i;
      }
    }
  }
}

TEST(ProtoRoundTrip, Proto3EveryFieldKind) {
  round_trip<parquetry::test::AllTypes3, parquetry::test::AllTypes3ParquetWriter,
             parquetry::test::AllTypes3ParquetReader>(3);
}

TEST(ProtoRoundTrip, Proto2EveryFieldKind) {
  round_trip<parquetry::test2::AllTypes2, parquetry::test2::AllTypes2ParquetWriter,
             parquetry::test2::AllTypes2ParquetReader>(2);
}

TEST(ProtoRoundTrip, DeepRecursionStoredSerializedPastTheLimit) {
  parquetry::test::Recursive chain;
  parquetry::test::Recursive* at = &chain;
  for (int depth = 0; depth < 8; ++depth) {
    at->set_value(depth + 1);
    at = at->mutable_child();
  }
  ProtoOptions options;
  options.max_recursion = 2;
  const auto schema = schema_for(parquetry::test::Recursive::descriptor(), options);
  // Recursive { value, child { value, child { value, child: binary } } }
  const DataType* type = &schema.fields[1].type;
  ASSERT_EQ(type->id, TypeId::kStruct);
  type = &type->children[1].type;
  ASSERT_EQ(type->id, TypeId::kStruct);
  EXPECT_EQ(type->children[1].type.id, TypeId::kBinary);
  const std::string path = (parquetry::testing::temp_dir() / "rec.parquet").string();
  {
    parquetry::test::RecursiveParquetWriter writer(path, options);
    writer.write(chain);
    writer.close();
  }
  parquetry::test::RecursiveParquetReader reader(path, options);
  parquetry::test::Recursive back;
  ASSERT_TRUE(reader.next(&back));
  EXPECT_TRUE(MessageDifferencer::Equals(chain, back));
  EXPECT_EQ(back.child().child().child().child().child().value(), 6);
}

}  // namespace
}  // namespace parquetry::proto
