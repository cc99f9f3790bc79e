// A small partitioned table written by the test table writer, with every
// kind of delete across four snapshots, and a naive model of its rows.
//
// Schema: id long (1), part int (2), name string (3, optional; null when
// id % 10 == 9). Spec 0: identity(part); spec 1: unpartitioned.
//   S1 (seq 1): data A (part 0, ids 0..99), B (part 1, ids 100..199)
//   S2 (seq 2): position deletes P0 (part 0: A pos 3, 5, 7), P1 (part 1:
//               B pos 0); equality deletes E1 (part 0, on id: 10, 11, 150)
//   S3 (seq 3): data C (part 0, ids 200..249 and 10); deletion vector D
//               (B pos 50..59); global equality deletes E2 (on name: NULL, "n120")
//   S4 (seq 4): global equality deletes E3 (on id, name: (200, "n200"), (201, "x"))
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../iceberg_read/delete_file_support.h"
#include "parquetry/iceberg.h"
#include "parquetry/iceberg_table.h"
#include "parquetry/writer.h"
#include "table_writer.h"

namespace parquetry::testing {

struct ModelRow {
  int64_t id;
  int32_t part;
  std::optional<std::string> name;
  bool operator<(const ModelRow& o) const { return std::tie(id, part, name) < std::tie(o.id, o.part, o.name); }
  bool operator==(const ModelRow& o) const = default;
};

inline std::optional<std::string> name_of(int64_t id) {
  if (id % 10 == 9) return std::nullopt;
  return "n" + std::to_string(id);
}

inline void write_data_file(const std::string& path, const std::vector<ModelRow>& rows, int64_t row_group_rows = 1000) {
  BatchSchema schema;
  schema.fields = {Field{"id", DataType::make(TypeId::kInt64), false, 1, {}},
                   Field{"part", DataType::make(TypeId::kInt32), false, 2, {}},
                   Field{"name", DataType::make(TypeId::kString), true, 3, {}}};
  std::vector<int64_t> ids;
  std::vector<int32_t> parts;
  std::vector<int32_t> offsets{0};
  std::string bytes;
  std::vector<uint8_t> valid((rows.size() + 7) / 8 + 1, 0);
  int64_t nulls = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    ids.push_back(rows[i].id);
    parts.push_back(rows[i].part);
    if (rows[i].name) {
      bytes += *rows[i].name;
      valid[i / 8] |= uint8_t(1u << (i % 8));
    } else {
      ++nulls;
    }
    offsets.push_back(int32_t(bytes.size()));
  }
  auto make = [&](const Field& f) {
    auto a = std::make_shared<ArrayData>();
    a->type = std::make_shared<DataType>(f.type);
    a->length = int64_t(rows.size());
    return a;
  };
  auto id_array = make(schema.fields[0]);
  id_array->buffers = {BufferRef{}, copy_to_buffer(ids.data(), ids.size() * 8)};
  auto part_array = make(schema.fields[1]);
  part_array->buffers = {BufferRef{}, copy_to_buffer(parts.data(), parts.size() * 4)};
  auto name_array = make(schema.fields[2]);
  name_array->null_count = nulls;
  name_array->buffers = {copy_to_buffer(valid.data(), valid.size()), copy_to_buffer(offsets.data(), offsets.size() * 4),
                         copy_to_buffer(bytes.data(), bytes.size() + 1)};
  RecordBatch batch;
  batch.schema = std::make_shared<BatchSchema>(schema);
  batch.columns = {id_array, part_array, name_array};
  batch.num_rows = int64_t(rows.size());
  WriterOptions options;
  options.row_group_rows = row_group_rows;
  auto writer = FileWriter::open(path, schema, options);
  writer->write(batch);
  writer->close();
}

/// Writes an equality-delete file with the given columns (by field id).
inline void write_equality_file(const std::string& path, const std::vector<int32_t>& ids,
                                const std::vector<ModelRow>& rows) {
  BatchSchema schema;
  std::vector<std::shared_ptr<ArrayData>> columns;
  for (int32_t id : ids) {
    auto a = std::make_shared<ArrayData>();
    a->length = int64_t(rows.size());
    if (id == 1) {
      schema.fields.push_back(Field{"id", DataType::make(TypeId::kInt64), false, 1, {}});
      std::vector<int64_t> v;
      for (const ModelRow& r : rows) v.push_back(r.id);
      a->type = std::make_shared<DataType>(DataType::make(TypeId::kInt64));
      a->buffers = {BufferRef{}, copy_to_buffer(v.data(), v.size() * 8)};
    } else {
      schema.fields.push_back(Field{"name", DataType::make(TypeId::kString), true, 3, {}});
      std::vector<int32_t> offsets{0};
      std::string bytes;
      std::vector<uint8_t> valid((rows.size() + 7) / 8 + 1, 0);
      for (size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].name) {
          bytes += *rows[i].name;
          valid[i / 8] |= uint8_t(1u << (i % 8));
        } else {
          ++a->null_count;
        }
        offsets.push_back(int32_t(bytes.size()));
      }
      a->type = std::make_shared<DataType>(DataType::make(TypeId::kString));
      a->buffers = {copy_to_buffer(valid.data(), valid.size()), copy_to_buffer(offsets.data(), offsets.size() * 4),
                    copy_to_buffer(bytes.data(), bytes.size() + 1)};
    }
    columns.push_back(a);
  }
  RecordBatch batch;
  batch.schema = std::make_shared<BatchSchema>(schema);
  batch.columns = columns;
  batch.num_rows = int64_t(rows.size());
  auto writer = FileWriter::open(path, schema, WriterOptions{});
  writer->write(batch);
  writer->close();
}

inline int64_t file_size(const std::string& path) { return int64_t(std::filesystem::file_size(path)); }

struct TestTable {
  std::string root;
  std::string location = "s3://bucket/wh/t";
  std::map<int64_t, std::vector<ModelRow>> expected;  // snapshot id -> live rows (sorted)
  std::vector<ModelRow> a, b, c;

  std::string written(const std::string& rel) const { return location + "/" + rel; }
  std::string local(const std::string& rel) const { return root + "/" + rel; }

  explicit TestTable(const std::string& dir) : root(dir) {
    std::filesystem::remove_all(root);
    std::filesystem::create_directories(root + "/data");
    std::filesystem::create_directories(root + "/metadata");
    for (int64_t id = 0; id < 100; ++id) a.push_back({id, 0, name_of(id)});
    for (int64_t id = 100; id < 200; ++id) b.push_back({id, 1, name_of(id)});
    for (int64_t id = 200; id < 250; ++id) c.push_back({id, 0, name_of(id)});
    c.push_back({10, 0, name_of(10)});
    // Small row groups so position deletes cross row-group boundaries.
    write_data_file(local("data/a.parquet"), a, 16);
    write_data_file(local("data/b.parquet"), b, 16);
    write_data_file(local("data/c.parquet"), c);
    write_delete_file(local("data/p0.parquet"), {{written("data/a.parquet"), 3}, {written("data/a.parquet"), 5}, {written("data/a.parquet"), 7}});
    write_delete_file(local("data/p1.parquet"), {{written("data/b.parquet"), 0}});
    write_equality_file(local("data/e1.parquet"), {1}, {{10, 0, {}}, {11, 0, {}}, {150, 0, {}}});
    write_equality_file(local("data/e2.parquet"), {3}, {{0, 0, std::nullopt}, {0, 0, std::string("n120")}});
    write_equality_file(local("data/e3.parquet"), {1, 3}, {{200, 0, std::string("n200")}, {201, 0, std::string("x")}});
    iceberg::PositionDeleteIndex dv;
    dv.add_range(50, 60);
    iceberg::PuffinWriter puffin;
    const iceberg::PuffinBlobMetadata blob = puffin.add_deletion_vector(written("data/b.parquet"), dv);
    const std::vector<uint8_t> puffin_bytes = puffin.finish();
    write_text(local("data/d.puffin"), std::string_view(reinterpret_cast<const char*>(puffin_bytes.data()), puffin_bytes.size()));

    auto bounds = [](const std::vector<ModelRow>& rows, EntrySpec& e) {
      int64_t lo = rows[0].id, hi = rows[0].id;
      for (const ModelRow& r : rows) {
        lo = std::min(lo, r.id);
        hi = std::max(hi, r.id);
      }
      e.lower = {{1, le64(lo)}, {2, le32(rows[0].part)}};
      e.upper = {{1, le64(hi)}, {2, le32(rows[0].part)}};
      int64_t nulls = 0;
      for (const ModelRow& r : rows) nulls += !r.name;
      e.null_counts = {{1, 0}, {2, 0}, {3, nulls}};
    };
    EntrySpec ea{.snapshot_id = 101, .path = written("data/a.parquet"), .part = 0, .record_count = 100, .file_size = file_size(local("data/a.parquet"))};
    bounds(a, ea);
    EntrySpec eb{.snapshot_id = 101, .path = written("data/b.parquet"), .part = 1, .record_count = 100, .file_size = file_size(local("data/b.parquet"))};
    bounds(b, eb);
    EntrySpec ec{.snapshot_id = 103, .path = written("data/c.parquet"), .part = 0, .record_count = 51, .file_size = file_size(local("data/c.parquet"))};
    bounds(c, ec);
    write_text(local("metadata/m1.avro"), manifest_bytes({ea, eb}, 0, 0));
    EntrySpec p0{.snapshot_id = 102, .content = 1, .path = written("data/p0.parquet"), .part = 0, .record_count = 3};
    EntrySpec p1{.snapshot_id = 102, .content = 1, .path = written("data/p1.parquet"), .part = 1, .record_count = 1};
    EntrySpec e1{.snapshot_id = 102, .content = 2, .path = written("data/e1.parquet"), .part = 0, .record_count = 3, .equality_ids = {1}};
    write_text(local("metadata/m2.avro"), manifest_bytes({p0, p1, e1}, 0, 1));
    write_text(local("metadata/m3.avro"), manifest_bytes({ec}, 0, 0));
    EntrySpec d{.snapshot_id = 103, .content = 1, .path = written("data/d.puffin"), .format = "PUFFIN", .part = 1, .record_count = 10,
                .referenced_data_file = written("data/b.parquet"), .content_offset = blob.offset, .content_size = blob.length};
    write_text(local("metadata/m4d.avro"), manifest_bytes({d}, 0, 1));
    EntrySpec e2{.snapshot_id = 103, .content = 2, .path = written("data/e2.parquet"), .record_count = 2, .equality_ids = {3}};
    write_text(local("metadata/m4.avro"), manifest_bytes({e2}, 1, 1));
    EntrySpec e3{.snapshot_id = 104, .content = 2, .path = written("data/e3.parquet"), .record_count = 2, .equality_ids = {1, 3}};
    write_text(local("metadata/m5.avro"), manifest_bytes({e3}, 1, 1));

    const ManifestSpec m1{written("metadata/m1.avro"), 0, 0, 0, 1, 101, 0, 1};
    const ManifestSpec m2{written("metadata/m2.avro"), 0, 0, 1, 2, 102, 0, 1};
    const ManifestSpec m3{written("metadata/m3.avro"), 0, 0, 0, 3, 103, 0, 0};
    const ManifestSpec m4d{written("metadata/m4d.avro"), 0, 0, 1, 3, 103, 1, 1};
    const ManifestSpec m4{written("metadata/m4.avro"), 0, 1, 1, 3, 103};
    const ManifestSpec m5{written("metadata/m5.avro"), 0, 1, 1, 4, 104};
    write_text(local("metadata/snap-101.avro"), manifest_list_bytes({m1}));
    write_text(local("metadata/snap-102.avro"), manifest_list_bytes({m1, m2}));
    write_text(local("metadata/snap-103.avro"), manifest_list_bytes({m1, m2, m3, m4d, m4}));
    write_text(local("metadata/snap-104.avro"), manifest_list_bytes({m1, m2, m3, m4d, m4, m5}));
    write_metadata(1, 104);
    build_model();
  }

  std::string metadata_json(int64_t current) const {
    std::string snapshots;
    for (int s = 1; s <= 4; ++s) {
      if (!snapshots.empty()) snapshots += ",";
      snapshots += R"({"snapshot-id":)" + std::to_string(100 + s) + R"(,"sequence-number":)" + std::to_string(s) +
                    R"(,"timestamp-ms":)" + std::to_string(s * 1000) + R"(,"summary":{"operation":"append"},"manifest-list":")" +
                    written("metadata/snap-" + std::to_string(100 + s) + ".avro") + R"(","schema-id":0})";
    }
    return R"({"format-version":2,"table-uuid":"00000000-0000-0000-0000-000000000001","location":")" + location +
           R"(","last-sequence-number":4,"last-updated-ms":4000,"last-column-id":3,"current-schema-id":0,
"schemas":[{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","required":true,"type":"long"},
{"id":2,"name":"part","required":true,"type":"int"},{"id":3,"name":"name","required":false,"type":"string"}]}],
"default-spec-id":0,"partition-specs":[{"spec-id":0,"fields":[{"name":"part","transform":"identity","source-id":2,"field-id":1000}]},
{"spec-id":1,"fields":[]}],"last-partition-id":1000,"default-sort-order-id":0,"sort-orders":[{"order-id":0,"fields":[]}],
"properties":{},"current-snapshot-id":)" + std::to_string(current) + R"(,"refs":{"main":{"snapshot-id":)" + std::to_string(current) +
           R"(,"type":"branch"},"first":{"snapshot-id":101,"type":"tag"}},"snapshots":[)" + snapshots + "]}";
  }

  void write_metadata(int version, int64_t current) const {
    write_text(local("metadata/v" + std::to_string(version) + ".metadata.json"), metadata_json(current));
    write_text(local("metadata/version-hint.text"), std::to_string(version));
  }

  // The naive model: every live row of each snapshot minus the deletes that
  // apply by the spec's rules, written out row by row.
  void build_model() {
    struct DataF {
      const std::vector<ModelRow>* rows;
      std::string path;
      int64_t seq;
      int32_t part;
      int64_t since;  // snapshot that added it
    };
    std::vector<DataF> files = {{&a, "a", 1, 0, 101}, {&b, "b", 1, 1, 101}, {&c, "c", 3, 0, 103}};
    for (int64_t snap = 101; snap <= 104; ++snap) {
      std::vector<ModelRow> live;
      for (const DataF& f : files) {
        if (f.since > snap) continue;
        for (size_t pos = 0; pos < f.rows->size(); ++pos) {
          const ModelRow& r = (*f.rows)[pos];
          bool deleted = false;
          // P0, P1 (seq 2, snapshot 102): positions, seq >= data seq.
          if (snap >= 102 && f.seq <= 2 && f.path == "a" && (pos == 3 || pos == 5 || pos == 7)) deleted = true;
          if (snap >= 102 && f.seq <= 2 && f.path == "b" && pos == 0) deleted = true;
          // E1 (seq 2, partition 0): id in {10, 11, 150}, data seq < 2.
          if (snap >= 102 && f.seq < 2 && f.part == 0 && (r.id == 10 || r.id == 11 || r.id == 150)) deleted = true;
          // D (seq 3): B positions 50..59.
          if (snap >= 103 && f.seq <= 3 && f.path == "b" && pos >= 50 && pos < 60) deleted = true;
          // E2 (seq 3, global): name NULL or "n120", data seq < 3.
          if (snap >= 103 && f.seq < 3 && (!r.name || *r.name == "n120")) deleted = true;
          // E3 (seq 4, global): (id, name) in {(200, n200), (201, x)}, data seq < 4.
          if (snap >= 104 && f.seq < 4 && ((r.id == 200 && r.name == std::optional<std::string>("n200")) ||
                                           (r.id == 201 && r.name == std::optional<std::string>("x"))))
            deleted = true;
          if (!deleted) live.push_back(r);
        }
      }
      std::sort(live.begin(), live.end());
      expected[snap] = std::move(live);
    }
  }
};

/// Rows of a scan as model rows (columns id, part, name by name), sorted.
inline std::vector<ModelRow> scan_rows(iceberg::TableScan& scan) {
  std::vector<ModelRow> out;
  RecordBatch batch;
  while (scan.next(batch)) {
    const int id = batch.schema->field_index("id");
    const int part = batch.schema->field_index("part");
    const int name = batch.schema->field_index("name");
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      ModelRow row{0, -1, std::nullopt};
      if (id >= 0) {
        const ArrayData& a = *batch.columns[size_t(id)];
        row.id = a.buffers[1].as<int64_t>()[a.offset + r];
      }
      if (part >= 0) {
        const ArrayData& a = *batch.columns[size_t(part)];
        row.part = a.buffers[1].as<int32_t>()[a.offset + r];
      }
      if (name >= 0) {
        const ArrayData& a = *batch.columns[size_t(name)];
        if (a.is_valid(r)) {
          const int32_t* o = a.buffers[1].as<int32_t>();
          const int64_t k = a.offset + r;
          row.name = std::string(a.buffers[2].as<char>() + o[k], size_t(o[k + 1] - o[k]));
        }
      }
      out.push_back(std::move(row));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace parquetry::testing
