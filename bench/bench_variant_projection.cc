// Variant projection matrix (BENCHMARKS.md section 4, seed 000): 1,000,000
// rows of `id, category, nested {idstr, varid, varcategory, col4, uuid}`
// written by parquetry once shredded (schema inferred from the first 4096
// rows: every field in its typed column) and once unshredded, then
// nested.varcategory read four ways, each folded to count/nulls/min/max and
// checked against DuckDB extracting the same field from the same file:
//   readAllRecords           every column, every variant rebuilt, field looked up
//   readProjectedFileSchema  only `nested` with the file's own schema (all its
//                            leaves), rebuilt, field looked up
//   readProjectedLean        the lean requested schema of parquet-java's
//                            benchmark: metadata, value and
//                            typed_value.varcategory (when the file has it);
//                            the field group answers, else the top-level value
//   readProjectedAuto        variant_get_each(): the plan parquetry picks from
//                            the file's shredding and statistics
// Table variant.write times writing the same 1M rows shredded and unshredded.
// Files are generated into the data dir on first use, with a stamp naming the
// generator version so later runs reuse them.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "harness.h"
#include "parquetry/reader.h"
#include "parquetry/variant.h"
#include "parquetry/variant_builder.h"
#include "parquetry/variant_parquet.h"
#include "parquetry/variant_writer.h"
#include "parquetry/writer.h"

namespace parquetry::bench {
namespace {

constexpr int64_t kRows = 1'000'000;
constexpr int64_t kBatchRows = 65'536;
// Row groups of 122,880 rows (DuckDB's default): readers reuse their buffers
// from one row group to the next instead of faulting in one 1M-row group.
constexpr int64_t kRowGroupRows = 122'880;
constexpr const char* kStamp =
    "variant seed-000 generator v3, 1000000 rows, row groups of 122880, unshredded value required";

uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::string file_for(const std::string& layout) {
  return data_dir() + "/variant_seed000." + layout + ".parquet";
}

// Row i of `nested`: varcategory is a small int (int8 through append_int),
// varid an int64, col4 a 120-byte string, uuid 16 random bytes.
void build_nested(VariantBuilder& b, int64_t i) {
  char idstr[32];
  std::snprintf(idstr, sizeof(idstr), "id-%08lld", static_cast<long long>(i));
  static const std::string lorem =
      "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et "
      "dolore magna aliqua";
  std::string col4 = std::to_string(mix(uint64_t(i)) % 100000) + " " + lorem;
  col4.resize(120, '.');
  std::array<uint8_t, 16> uuid;
  for (int k = 0; k < 16; ++k) uuid[size_t(k)] = uint8_t(mix(uint64_t(i) * 16 + uint64_t(k)));
  b.start_object();
  b.field("idstr");
  b.append_string(idstr);
  b.field("varid");
  b.append_int64(int64_t(mix(uint64_t(i)) >> 20));
  b.field("varcategory");
  b.append_int(int64_t(mix(uint64_t(i) + 1) % 50));
  b.field("col4");
  b.append_string(col4);
  b.field("uuid");
  b.append_uuid(uuid);
  b.finish_object();
}

std::shared_ptr<ArrayData> int64_array(const std::vector<int64_t>& values) {
  auto a = std::make_shared<ArrayData>();
  a->type = std::make_shared<DataType>(DataType::make(TypeId::kInt64));
  a->length = int64_t(values.size());
  Buffer data(values.size() * sizeof(int64_t));
  std::memcpy(data.data(), values.data(), data.size());
  a->buffers = {BufferRef{}, BufferRef::adopt(std::move(data))};
  return a;
}

std::shared_ptr<ArrayData> string_array(const std::vector<int32_t>& offsets, const std::string& chars) {
  auto a = std::make_shared<ArrayData>();
  a->type = std::make_shared<DataType>(DataType::make(TypeId::kString));
  a->length = int64_t(offsets.size()) - 1;
  Buffer o(offsets.size() * sizeof(int32_t));
  std::memcpy(o.data(), offsets.data(), o.size());
  Buffer d(chars.size());
  std::memcpy(d.data(), chars.data(), chars.size());
  a->buffers = {BufferRef{}, BufferRef::adopt(std::move(o)), BufferRef::adopt(std::move(d))};
  return a;
}

void write_file(const std::string& path, const VariantShredding& shredding) {
  VariantShredder shredder(shredding);
  auto schema = std::make_shared<BatchSchema>();
  schema->fields.push_back(Field{"id", DataType::make(TypeId::kInt64), false, -1, {}});
  schema->fields.push_back(Field{"category", DataType::make(TypeId::kString), false, -1, {}});
  schema->fields.push_back(Field{"nested", shredder.type(), true, -1, {}});
  WriterOptions options;
  options.row_group_rows = kRowGroupRows;
  auto writer = FileWriter::open(path, *schema, options);
  VariantBuilder builder;
  std::vector<int64_t> ids;
  std::vector<int32_t> offsets;
  std::string chars;
  for (int64_t begin = 0; begin < kRows; begin += kBatchRows) {
    const int64_t end = std::min(kRows, begin + kBatchRows);
    ids.clear();
    offsets.assign(1, 0);
    chars.clear();
    for (int64_t i = begin; i < end; ++i) {
      ids.push_back(i);
      chars += "category-" + std::to_string(mix(uint64_t(i) + 7) % 20);
      offsets.push_back(int32_t(chars.size()));
      builder.clear();
      build_nested(builder, i);
      shredder.append(Variant(VariantMetadata(builder.metadata()), builder.value()));
    }
    RecordBatch batch;
    batch.schema = schema;
    batch.num_rows = end - begin;
    batch.columns = {int64_array(ids), string_array(offsets, chars), shredder.finish()};
    writer->write(batch);
  }
  writer->close();
}

// The shredding inferred from the first 4096 rows, as a writer without a
// declared schema would pick it.
VariantShredding inferred_shredding() {
  std::vector<std::vector<uint8_t>> metadata, values;
  VariantBuilder builder;
  for (int64_t i = 0; i < 4096; ++i) {
    builder.clear();
    build_nested(builder, i);
    metadata.emplace_back(builder.metadata().begin(), builder.metadata().end());
    values.emplace_back(builder.value().begin(), builder.value().end());
  }
  std::vector<std::optional<Variant>> sample;
  for (size_t i = 0; i < values.size(); ++i)
    sample.emplace_back(Variant(VariantMetadata(metadata[i]), values[i]));
  return infer_variant_shredding(sample);
}

// Writes both files unless their stamps say they are current.
void ensure_files() {
  static bool checked = false;
  if (checked) return;
  std::filesystem::create_directories(data_dir());
  for (const std::string layout : {"shredded", "unshredded"}) {
    const std::string path = file_for(layout);
    const std::string stamp_path = path + ".stamp";
    std::string stamp;
    if (std::ifstream in(stamp_path); in) std::getline(in, stamp);
    if (stamp == kStamp && std::filesystem::exists(path)) continue;
    write_file(path, layout == "shredded" ? inferred_shredding() : VariantShredding{});
    std::ofstream(stamp_path) << kStamp << "\n";
  }
  checked = true;
}

// The fold DuckDB's peer computes: rows, varcategory values, nulls, min, max.
struct Fold {
  int64_t rows = 0;
  int64_t count = 0;
  int64_t min = std::numeric_limits<int64_t>::max();
  int64_t max = std::numeric_limits<int64_t>::min();

  void add(const Variant* value) {
    ++rows;
    if (value == nullptr || value->is_null()) return;
    const int64_t v = value->get_int();
    ++count;
    min = std::min(min, v);
    max = std::max(max, v);
  }
  void add(const std::optional<Variant>& value) { add(value ? &*value : nullptr); }

  ScanResult result() const {
    ScanResult out;
    out.rows = rows;
    ColumnStats stats;
    stats.name = "varcategory";
    stats.kind = ValueKind::kInt64;
    stats.count = count;
    stats.nulls = rows - count;
    if (count > 0) {
      stats.min = min;
      stats.max = max;
    }
    out.columns.push_back(stats);
    return out;
  }
};

const std::vector<std::string> kField = {"varcategory"};

// Rebuilds every `nested` variant of the batches the reader yields and looks the field up.
Fold rebuild_all(const std::string& path, std::vector<std::string> columns) {
  ReaderOptions options;
  options.columns = std::move(columns);
  auto reader = FileReader::open(path, options);
  const auto variants = find_variant_columns(reader->schema());
  VariantColumnReader rebuild(variants.at(0));
  Fold fold;
  OwnedVariant scratch;
  auto batches = reader->batches();
  RecordBatch batch;
  while (batches->next(batch)) {
    const ArrayData& nested = *batch.columns[size_t(batch.schema->field_index("nested"))];
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      if (!rebuild.read(nested, row, scratch)) {
        fold.add(nullptr);
        continue;
      }
      fold.add(scratch.view().get_field("varcategory"));
    }
  }
  return fold;
}

const ArrayData* child(const ArrayData& group, std::string_view name) {
  const DataType& type = *group.type;
  for (size_t i = 0; i < type.children.size(); ++i) {
    if (type.children[i].name == name) return group.children[i].get();
  }
  return nullptr;
}

std::span<const uint8_t> bytes_at(const ArrayData& binary, int64_t row) {
  const int32_t* offsets = binary.buffers[1].as<int32_t>() + binary.offset;
  return {binary.buffers[2].data + offsets[row], size_t(offsets[row + 1] - offsets[row])};
}

// parquet-java's lean requested schema: metadata, value, typed_value.varcategory.
Fold read_lean(const std::string& path) {
  auto probe = FileReader::open(path);
  const auto variants = find_variant_columns(probe->schema());
  const VariantShredNode* level = variants.at(0).root.field("varcategory");
  ReaderOptions options;
  options.columns = {"nested.metadata", "nested.value"};
  if (level != nullptr) options.columns.push_back("nested.typed_value.varcategory");
  auto reader = FileReader::open(path, options);
  VariantColumnReader rebuild(variants.at(0));
  Fold fold;
  OwnedVariant scratch;
  auto batches = reader->batches();
  RecordBatch batch;
  while (batches->next(batch)) {
    const ArrayData& nested = *batch.columns[0];
    const ArrayData& metadata = *child(nested, "metadata");
    const ArrayData& value = *child(nested, "value");
    const ArrayData* typed = child(nested, "typed_value");
    const ArrayData* field = typed != nullptr ? child(*typed, "varcategory") : nullptr;
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      if (!nested.is_valid(row)) {
        fold.add(nullptr);
        continue;
      }
      const int64_t r = row + nested.offset;  // children rows are relative to the parent's slice
      const auto md = bytes_at(metadata, r);
      if (field != nullptr && typed->is_valid(r) &&
          rebuild.read_level(*level, *field, r + typed->offset, md, scratch)) {
        const Variant v = scratch.view();
        fold.add(&v);
      } else if (value.is_valid(r)) {
        fold.add(Variant(VariantMetadata(md), bytes_at(value, r)).get_field("varcategory"));
      } else {
        fold.add(nullptr);
      }
    }
  }
  return fold;
}

void projection_case(CaseContext& ctx, const std::string& how) {
  ensure_files();
  const std::string path = file_for(ctx.param("layout"));
  Fold fold;
  ctx.measure([&] {
    if (how == "readAllRecords") {
      fold = rebuild_all(path, {});
    } else if (how == "readProjectedFileSchema") {
      fold = rebuild_all(path, {"nested"});
    } else if (how == "readProjectedLean") {
      fold = read_lean(path);
    } else {
      Fold f;
      variant_get_each(path, "nested", "varcategory", "", [&](int64_t, const Variant* v) { f.add(v); });
      fold = f;
    }
  });
  ctx.set_result(fold.result());
}

// Writing the seed-000 table: building the 1M variants, shredding them (or
// not) and writing the file; the unshredded write is the baseline. Single
// shot: one iteration takes seconds.
void write_case(CaseContext& ctx, bool shredded) {
  const VariantShredding shredding = shredded ? inferred_shredding() : VariantShredding{};
  const std::string path = data_dir() + "/variant_seed000.write-bench.parquet";
  std::filesystem::create_directories(data_dir());
  ctx.measure([&] { write_file(path, shredding); });
  std::filesystem::remove(path);
}

}  // namespace

#define PARQUETRY_VARIANT_PROJECTION(how)                                             \
  PARQUETRY_BENCH_CASE(variant_projection_##how,                                      \
                       add_case("variant", "projection", #how, [](CaseContext& ctx) { \
                         projection_case(ctx, #how);                                  \
                       }).param("layout", {"shredded", "unshredded"}))
PARQUETRY_VARIANT_PROJECTION(readAllRecords);
PARQUETRY_VARIANT_PROJECTION(readProjectedFileSchema);
PARQUETRY_VARIANT_PROJECTION(readProjectedLean);
PARQUETRY_VARIANT_PROJECTION(readProjectedAuto);
#undef PARQUETRY_VARIANT_PROJECTION

PARQUETRY_BENCH_CASE(variant_write_shredded, add_case("variant", "write", "shredded", [](CaseContext& ctx) {
                                               write_case(ctx, true);
                                             }).single_shot());
PARQUETRY_BENCH_CASE(variant_write_unshredded, add_case("variant", "write", "unshredded",
                                                        [](CaseContext& ctx) { write_case(ctx, false); })
                                                   .single_shot()
                                                   .baseline());

PARQUETRY_BENCH_CASE(variant_projection_peer,
                     set_table_peer("variant", "projection",
                                    PeerSpec{"duckdb",
                                             "variant_projection.js",
                                             {"--file", "{data_dir}/variant_seed000.{layout}.parquet",
                                              "--threads", "1"}}));

}  // namespace parquetry::bench
