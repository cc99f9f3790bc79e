// Property tests: seeded random schemas (every writable type, nulls, nesting
// up to depth 4, empty and null lists) written with every encoding, codec and
// page version, then read back by FileReader and compared value by value.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>

#include "parquetry/error.h"
#include "write_test_support.h"

namespace parquetry {
namespace {

using testing::adopt_bytes;
using testing::adopt_vector;
using testing::validity_of;

class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) {}

  int64_t uniform(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  bool chance(int percent) { return uniform(0, 99) < percent; }

  DataType leaf_type() {
    switch (uniform(0, 30)) {
      case 0: return DataType::make(TypeId::kBool);
      case 1: return DataType::make(TypeId::kInt8);
      case 2: return DataType::make(TypeId::kInt16);
      case 3: return DataType::make(TypeId::kInt32);
      case 4: return DataType::make(TypeId::kInt64);
      case 5: return DataType::make(TypeId::kUInt8);
      case 6: return DataType::make(TypeId::kUInt16);
      case 7: return DataType::make(TypeId::kUInt32);
      case 8: return DataType::make(TypeId::kUInt64);
      case 9: return DataType::make(TypeId::kFloat16);
      case 10: return DataType::make(TypeId::kFloat32);
      case 11: return DataType::make(TypeId::kFloat64);
      case 12: return DataType::make(TypeId::kDate32);
      case 13: return DataType::time(ArrowTimeUnit::kMilli);
      case 14: return DataType::time(chance(50) ? ArrowTimeUnit::kMicro : ArrowTimeUnit::kNano);
      case 15: {
        static const ArrowTimeUnit units[] = {ArrowTimeUnit::kMilli, ArrowTimeUnit::kMicro,
                                              ArrowTimeUnit::kNano};
        return DataType::timestamp(units[uniform(0, 2)], chance(50) ? "UTC" : "");
      }
      case 16: {
        static const int precisions[] = {5, 9, 15, 18, 25, 38};
        return DataType::decimal(precisions[uniform(0, 5)], int32_t(uniform(0, 4)));
      }
      case 17: return DataType::decimal(int32_t(uniform(39, 76)), 2);
      case 18: return DataType::make(TypeId::kString);
      case 19: return DataType::make(TypeId::kBinary);
      case 20: return DataType::make(TypeId::kLargeString);
      case 21: return DataType::make(TypeId::kLargeBinary);
      case 22: return DataType::make(TypeId::kStringView);
      case 23: return DataType::make(TypeId::kBinaryView);
      case 24: return DataType::fixed_size_binary(int32_t(uniform(1, 20)));
      case 25: {
        DataType uuid = DataType::fixed_size_binary(16);
        uuid.extension_name = "arrow.uuid";
        return uuid;
      }
      case 26: return DataType::make(TypeId::kNull);
      case 27: return DataType::dictionary(DataType::make(TypeId::kString));
      case 28: return DataType::dictionary(DataType::make(TypeId::kInt64));
      default: return DataType::make(TypeId::kInt64);
    }
  }

  Field field(const std::string& name, int depth) {
    Field f;
    f.name = name;
    f.nullable = chance(70);
    const int64_t pick = depth >= 4 ? 0 : uniform(0, 9);
    if (pick <= 5) {
      f.type = leaf_type();
    } else if (pick <= 7) {
      Field item = field("element", depth + 1);
      f.type = chance(70) ? DataType::list(std::move(item)) : DataType::large_list(std::move(item));
    } else if (pick == 8) {
      std::vector<Field> children;
      const int64_t n = uniform(1, 3);
      for (int64_t i = 0; i < n; ++i) children.push_back(field("f" + std::to_string(i), depth + 1));
      f.type = DataType::struct_(std::move(children));
    } else {
      Field key{"key",
                chance(50) ? DataType::make(TypeId::kString) : DataType::make(TypeId::kInt32),
                false,
                -1,
                {}};
      Field value = field("value", depth + 1);
      f.type = DataType::map(std::move(key), std::move(value));
    }
    if (f.type.id == TypeId::kNull) f.nullable = true;
    if (chance(30)) f.field_id = int32_t(uniform(1, 1000));
    return f;
  }

  std::vector<bool> validity(int64_t n, bool nullable) {
    std::vector<bool> valid(size_t(n), true);
    if (nullable && chance(60)) {
      const int percent = int(uniform(5, 60));
      for (auto&& v : valid) v = !chance(percent);
    }
    return valid;
  }

  std::string bytes(bool text) {
    const int64_t length = chance(5) ? uniform(60, 120) : uniform(0, 16);
    std::string s(size_t(length), '\0');
    for (auto& c : s) c = text ? char('a' + uniform(0, 25)) : char(uniform(0, 255));
    if (text && chance(20) && !s.empty()) s[0] = 'z';
    return s;
  }

  std::shared_ptr<ArrayData> array(const DataType& type, int64_t n, bool nullable) {
    auto a = std::make_shared<ArrayData>();
    a->type = std::make_shared<DataType>(type);
    a->length = n;
    if (type.id == TypeId::kNull) {
      a->null_count = n;
      return a;
    }
    std::vector<bool> valid = validity(n, nullable);
    a->buffers.push_back(validity_of(valid, &a->null_count));
    switch (type.id) {
      case TypeId::kBool: {
        std::vector<uint8_t> bitmap(size_t((n + 7) / 8));
        for (auto& b : bitmap) b = uint8_t(uniform(0, 255));
        a->buffers.push_back(adopt_vector(bitmap));
        return a;
      }
      case TypeId::kString:
      case TypeId::kBinary:
      case TypeId::kLargeString:
      case TypeId::kLargeBinary: {
        const bool text = type.id == TypeId::kString || type.id == TypeId::kLargeString;
        const bool large = type.id == TypeId::kLargeString || type.id == TypeId::kLargeBinary;
        // A small vocabulary half of the time, so dictionaries are worthwhile.
        std::vector<std::string> vocabulary;
        if (chance(50)) {
          for (int i = 0; i < 5; ++i) vocabulary.push_back(bytes(text));
        }
        std::string data;
        std::vector<int64_t> offsets{0};
        for (int64_t i = 0; i < n; ++i) {
          if (valid[size_t(i)]) data += vocabulary.empty() ? bytes(text) : vocabulary[size_t(uniform(0, 4))];
          offsets.push_back(int64_t(data.size()));
        }
        if (large) {
          a->buffers.push_back(adopt_vector(offsets));
        } else {
          std::vector<int32_t> small(offsets.begin(), offsets.end());
          a->buffers.push_back(adopt_vector(small));
        }
        a->buffers.push_back(adopt_bytes(data.data(), data.size()));
        return a;
      }
      case TypeId::kStringView:
      case TypeId::kBinaryView: {
        std::string data;
        std::vector<uint8_t> views(size_t(n) * 16, 0);
        for (int64_t i = 0; i < n; ++i) {
          std::string s = bytes(type.id == TypeId::kStringView);
          uint8_t* view = views.data() + i * 16;
          bits::store<int32_t>(view, int32_t(s.size()));
          if (s.size() <= 12) {
            std::memcpy(view + 4, s.data(), s.size());
          } else {
            std::memcpy(view + 4, s.data(), 4);
            bits::store<int32_t>(view + 8, 0);
            bits::store<int32_t>(view + 12, int32_t(data.size()));
            data += s;
          }
        }
        a->buffers.push_back(adopt_vector(views));
        a->buffers.push_back(adopt_bytes(data.data(), data.size()));
        return a;
      }
      case TypeId::kDictionary: {
        const int64_t k = uniform(1, 6);
        a->dictionary = array(*type.dictionary_value, k, false);
        std::vector<int32_t> indices(static_cast<size_t>(n));
        for (auto& i : indices) i = int32_t(uniform(0, k - 1));
        a->buffers.push_back(adopt_vector(indices));
        return a;
      }
      case TypeId::kList:
      case TypeId::kLargeList:
      case TypeId::kMap: {
        std::vector<int64_t> offsets{0};
        for (int64_t i = 0; i < n; ++i) {
          int64_t length = valid[size_t(i)] ? uniform(0, 4) : (chance(10) ? 1 : 0);
          if (chance(15)) length = 0;
          offsets.push_back(offsets.back() + length);
        }
        if (type.id == TypeId::kLargeList) {
          a->buffers.push_back(adopt_vector(offsets));
        } else {
          std::vector<int32_t> small(offsets.begin(), offsets.end());
          a->buffers.push_back(adopt_vector(small));
        }
        const Field& item = type.children[0];
        if (type.id == TypeId::kMap) {
          auto entries = std::make_shared<ArrayData>();
          entries->type = std::make_shared<DataType>(item.type);
          entries->length = offsets.back();
          entries->buffers.push_back({});
          entries->children.push_back(array(item.type.children[0].type, offsets.back(), false));
          entries->children.push_back(
              array(item.type.children[1].type, offsets.back(), item.type.children[1].nullable));
          a->children.push_back(entries);
        } else {
          a->children.push_back(array(item.type, offsets.back(), item.nullable));
        }
        return a;
      }
      case TypeId::kStruct: {
        // Children one longer with the struct at offset 1 half of the time.
        const bool shifted = chance(50);
        for (const Field& child : type.children) {
          auto c = array(child.type, n + (shifted ? 1 : 0), child.nullable);
          a->children.push_back(c);
        }
        if (shifted) {
          // Re-express the struct with offset 1 over the longer children.
          std::vector<bool> longer(size_t(n + 1), true);
          for (int64_t i = 0; i < n; ++i) longer[size_t(i + 1)] = valid[size_t(i)];
          a->buffers[0] = validity_of(longer, &a->null_count);
          a->offset = 1;
          // Children of a non-nullable struct must not be null where the struct is valid: they
          // were generated with their own nullability, which already holds.
        }
        return a;
      }
      default: break;
    }
    const int width = type.fixed_width();
    std::vector<uint8_t> values(size_t(n * width));
    for (int64_t i = 0; i < n; ++i) {
      uint8_t* v = values.data() + i * width;
      switch (type.id) {
        case TypeId::kFloat32: {
          static const float specials[] = {0.0f, -0.0f, 1.5f, -2.25f, NAN, INFINITY, -INFINITY};
          float f = chance(20) ? specials[uniform(0, 6)] : float(uniform(-1000000, 1000000)) / 64.0f;
          std::memcpy(v, &f, 4);
          break;
        }
        case TypeId::kFloat64: {
          static const double specials[] = {0.0, -0.0, 1.5, -2.25, NAN, INFINITY, -INFINITY};
          double d = chance(20) ? specials[uniform(0, 6)] : double(uniform(-1000000000, 1000000000)) / 1024.0;
          std::memcpy(v, &d, 8);
          break;
        }
        case TypeId::kDate32: bits::store<int32_t>(v, int32_t(uniform(-20000, 40000))); break;
        case TypeId::kTime32: bits::store<int32_t>(v, int32_t(uniform(0, 86399999))); break;
        case TypeId::kTime64:
          bits::store<int64_t>(
              v, uniform(0, type.unit == ArrowTimeUnit::kMicro ? 86399999999LL : 86399999999999LL));
          break;
        case TypeId::kDecimal128:
        case TypeId::kDecimal256: {
          int64_t limit = 1;
          for (int d = 0; d < std::min(type.precision, 18); ++d) limit *= 10;
          int64_t x = uniform(-(limit - 1), limit - 1);
          std::memcpy(v, &x, 8);
          std::memset(v + 8, x < 0 ? 0xFF : 0, size_t(width - 8));
          break;
        }
        default:
          for (int b = 0; b < width; ++b) v[b] = uint8_t(uniform(0, 255));
          // Narrow domains half of the time, so dictionaries and deltas see repeats.
          if (width >= 4 && chance(50)) std::memset(v + 1, 0, size_t(width - 1));
      }
    }
    a->buffers.push_back(adopt_vector(values));
    return a;
  }

 private:
  std::mt19937_64 rng_;
};

struct Variant {
  const char* name;
  CompressionCodec codec;
  std::optional<Encoding> encoding;
  bool dictionary;
  bool v2;
};

const Variant kVariants[] = {
    {"plain-none-v1", CompressionCodec::UNCOMPRESSED, Encoding::PLAIN, false, false},
    {"dict-snappy-v1", CompressionCodec::SNAPPY, std::nullopt, true, false},
    {"dict-zstd-v2", CompressionCodec::ZSTD, std::nullopt, true, true},
    {"delta-gzip-v1", CompressionCodec::GZIP, Encoding::DELTA_BINARY_PACKED, false, false},
    {"dlba-lz4-v2", CompressionCodec::LZ4_RAW, Encoding::DELTA_LENGTH_BYTE_ARRAY, false, true},
    {"dba-brotli-v1", CompressionCodec::BROTLI, Encoding::DELTA_BYTE_ARRAY, false, false},
    {"bss-zstd-v2", CompressionCodec::ZSTD, Encoding::BYTE_STREAM_SPLIT, false, true},
    {"rle-snappy-v1", CompressionCodec::SNAPPY, Encoding::RLE, false, false},
    {"delta-dict-fallback-v2", CompressionCodec::SNAPPY, Encoding::DELTA_BYTE_ARRAY, true, true},
};

TEST(WriterRoundTrip, RandomSchemasEveryEncodingCodecAndPageVersion) {
  int files = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Generator gen(seed * 7919);
    BatchSchema schema;
    const int64_t num_fields = gen.uniform(1, 6);
    for (int64_t i = 0; i < num_fields; ++i) schema.fields.push_back(gen.field("c" + std::to_string(i), 1));
    auto shared_schema = std::make_shared<const BatchSchema>(schema);
    // Two or three batches, so pages and row groups span batch boundaries.
    std::vector<RecordBatch> batches;
    const int64_t num_batches = gen.uniform(1, 3);
    for (int64_t b = 0; b < num_batches; ++b) {
      const int64_t rows = gen.uniform(0, 400);
      std::vector<std::shared_ptr<ArrayData>> columns;
      for (const Field& f : schema.fields) {
        auto full = gen.array(f.type, rows + 2, f.nullable);
        columns.push_back(slice(full, 2, rows));  // a non-zero offset at the top
      }
      batches.push_back(testing::make_batch(shared_schema, std::move(columns)));
    }
    const std::vector<std::string> expected = testing::render_rows(batches);
    for (const Variant& variant : kVariants) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " " + variant.name + " schema " + [&] {
        std::string s;
        for (const Field& f : schema.fields)
          s += f.name + ":" + f.type.to_string() + (f.nullable ? "? " : " ");
        return s;
      }());
      WriterOptions options;
      options.codec = variant.codec;
      options.encoding = variant.encoding;
      options.dictionary = variant.dictionary;
      options.data_page_v2 = variant.v2;
      options.page_rows = gen.uniform(1, 300);
      options.page_bytes = gen.uniform(64, 4096);
      options.row_group_rows = gen.uniform(1, 700);
      if (gen.chance(50)) options.dictionary_page_bytes = gen.uniform(8, 200);  // force fallbacks
      options.threads = int(gen.uniform(1, 2));
      options.bloom_filter = gen.chance(30);
      std::vector<uint8_t> bytes;
      try {
        bytes = testing::write_to_memory(schema, batches, options);
      } catch (const Error& e) {
        FAIL() << "write failed: " << e.what();
      }
      std::unique_ptr<FileReader> reader;
      std::vector<RecordBatch> read;
      try {
        reader = testing::open_memory(bytes);
        read = reader->read_all();
      } catch (const Error& e) {
        if (const char* dump = std::getenv("PARQUETRY_DUMP_FAILED")) {
          std::FILE* f = std::fopen(dump, "wb");
          std::fwrite(bytes.data(), 1, bytes.size(), f);
          std::fclose(f);
        }
        FAIL() << "read failed: " << e.what();
      }
      const std::vector<std::string> actual = testing::render_rows(read);
      ASSERT_EQ(actual.size(), expected.size());
      for (size_t r = 0; r < expected.size(); ++r) {
        ASSERT_EQ(actual[r], expected[r]) << "row " << r;
      }
      // The read schema keeps names, nullability and field ids.
      const BatchSchema& read_schema = *reader->batch_schema();
      ASSERT_EQ(read_schema.fields.size(), schema.fields.size());
      for (size_t f = 0; f < schema.fields.size(); ++f) {
        EXPECT_EQ(read_schema.fields[f].name, schema.fields[f].name);
        EXPECT_EQ(read_schema.fields[f].nullable, schema.fields[f].nullable);
        EXPECT_EQ(read_schema.fields[f].field_id, schema.fields[f].field_id);
      }
      ++files;
    }
  }
  EXPECT_EQ(files, 40 * int(std::size(kVariants)));
}

}  // namespace
}  // namespace parquetry
