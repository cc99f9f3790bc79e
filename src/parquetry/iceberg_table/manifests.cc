// Manifest lists and manifests (format/spec.md "Manifests", "Manifest
// Lists") decoded from Avro into ManifestFile / ManifestEntry, by field id
// (names for writers that left ids out), with sequence-number and snapshot-id
// inheritance.
#include <algorithm>
#include <limits>

#include "parquetry/iceberg_table.h"
#include "parquetry/iceberg_table/avro.h"

namespace parquetry::iceberg {
namespace {

constexpr int64_t kUnset = std::numeric_limits<int64_t>::min();

// Field ids of format/spec.md, with the names older writers used.
struct NamedId {
  std::string_view name;
  int32_t id;
};

constexpr NamedId kManifestListNames[] = {
    {"manifest_path", 500},          {"manifest_length", 501},         {"partition_spec_id", 502},
    {"content", 517},                {"sequence_number", 515},         {"min_sequence_number", 516},
    {"added_snapshot_id", 503},      {"added_files_count", 504},       {"added_data_files_count", 504},
    {"existing_files_count", 505},   {"existing_data_files_count", 505}, {"deleted_files_count", 506},
    {"deleted_data_files_count", 506}, {"added_rows_count", 512},      {"existing_rows_count", 513},
    {"deleted_rows_count", 514},     {"partitions", 507},              {"key_metadata", 519},
    {"first_row_id", 520}};
constexpr NamedId kSummaryNames[] = {
    {"contains_null", 509}, {"contains_nan", 518}, {"lower_bound", 510}, {"upper_bound", 511}};
constexpr NamedId kEntryNames[] = {
    {"status", 0}, {"snapshot_id", 1}, {"sequence_number", 3}, {"file_sequence_number", 4}, {"data_file", 2}};
constexpr NamedId kDataFileNames[] = {
    {"content", 134},           {"file_path", 100},          {"file_format", 101},
    {"partition", 102},         {"record_count", 103},       {"file_size_in_bytes", 104},
    {"column_sizes", 108},      {"value_counts", 109},       {"null_value_counts", 110},
    {"nan_value_counts", 137},  {"lower_bounds", 125},       {"upper_bounds", 128},
    {"equality_ids", 135},      {"referenced_data_file", 143}, {"content_offset", 144},
    {"content_size_in_bytes", 145}};

template <size_t N>
int32_t known_id(const NamedId (&names)[N], std::string_view name, int32_t id) {
  for (const NamedId& n : names) {
    if (id >= 0 ? n.id == id : n.name == name) return n.id;
  }
  // An id we do not know may still carry a known name (ids renumbered).
  if (id >= 0) {
    for (const NamedId& n : names) {
      if (n.name == name) return n.id;
    }
  }
  return -1;
}

[[noreturn]] void wrong_type(const std::string& what, int slot, const char* got) {
  throw_corrupt(what + ": field " + std::to_string(slot) + " holds a " + got + " value");
}

// --- manifest lists -----------------------------------------------------------

constexpr int kSummarySlot = 508;

struct ManifestListSink {
  std::vector<ManifestFile>& out;
  const std::string& what;
  bool has_sequence = false;

  void begin_object() { out.emplace_back(); }
  void end_object() {}
  void begin_record(int) {}
  void begin_item(int slot) {
    if (slot == 507) out.back().partitions.emplace_back();
  }
  FieldSummary& summary() {
    if (out.back().partitions.empty()) wrong_type(what, 507, "summary without an item");
    return out.back().partitions.back();
  }
  void set_null(int slot) {
    if (slot == 518) summary().contains_nan.reset();
    if (slot == 510) summary().lower_bound.reset();
    if (slot == 511) summary().upper_bound.reset();
  }
  void set_int(int slot, int64_t v) {
    ManifestFile& m = out.back();
    switch (slot) {
      case 501: m.length = v; return;
      case 502:
        if (v < INT32_MIN || v > INT32_MAX) throw_corrupt(what + ": partition_spec_id out of range");
        m.partition_spec_id = int32_t(v);
        return;
      case 517:
        if (v != 0 && v != 1) throw_corrupt(what + ": manifest content " + std::to_string(v));
        m.content = ManifestContent(v);
        return;
      case 515: m.sequence_number = v; return;
      case 516: m.min_sequence_number = v; return;
      case 503: m.added_snapshot_id = v; return;
      case 504: m.added_files_count = v; return;
      case 505: m.existing_files_count = v; return;
      case 506: m.deleted_files_count = v; return;
      case 512: m.added_rows_count = v; return;
      case 513: m.existing_rows_count = v; return;
      case 514: m.deleted_rows_count = v; return;
      case 509: summary().contains_null = v != 0; return;
      case 518: summary().contains_nan = v != 0; return;
      default: wrong_type(what, slot, "integer");
    }
  }
  void set_double(int slot, double) { wrong_type(what, slot, "floating-point"); }
  void set_bytes(int slot, std::string_view b) {
    switch (slot) {
      case 500: out.back().path.assign(b); return;
      case 510: summary().lower_bound.emplace(b); return;
      case 511: summary().upper_bound.emplace(b); return;
      default: wrong_type(what, slot, "bytes");
    }
  }
};

int manifest_list_slot(int parent, std::string_view name, int32_t id) {
  if (parent == -1) {
    const int32_t known = known_id(kManifestListNames, name, id);
    return known == 519 || known == 520 ? -1 : known;
  }
  if (parent == 507) return kSummarySlot;
  if (parent == kSummarySlot) return known_id(kSummaryNames, name, id);
  return -1;
}

// --- manifests ------------------------------------------------------------------

constexpr int kPartitionBase = 100000;
// Map-like arrays (column_sizes...) are arrays of {key, value} records.
constexpr int kMapElement = 20000;
constexpr int kMapKey = 30000;
constexpr int kMapValue = 40000;

bool is_stats_map(int id) { return id == 108 || id == 109 || id == 110 || id == 137 || id == 125 || id == 128; }

struct ManifestSink {
  std::vector<ManifestEntry>& out;
  const ManifestFile& manifest;
  size_t partition_fields;
  const std::string& what;
  int64_t sequence = kUnset;
  int64_t file_sequence = kUnset;
  int64_t snapshot = kUnset;
  // The map being read and its current item.
  int32_t current_key = 0;
  size_t item_index = 0;
  size_t item_counts[6] = {};
  static size_t map_index(int id) {
    switch (id) {
      case 109: return 0;
      case 110: return 1;
      case 137: return 2;
      case 125: return 3;
      default: return 4;
    }
  }

  void begin_object() {
    out.emplace_back();
    out.back().file.partition.resize(partition_fields);
    out.back().file.spec_id = manifest.partition_spec_id;
    sequence = file_sequence = snapshot = kUnset;
    for (size_t& c : item_counts) c = 0;
  }
  void end_object() {
    ManifestEntry& e = out.back();
    e.snapshot_id = snapshot != kUnset ? snapshot : manifest.added_snapshot_id;
    // Sequence numbers are inherited from the manifest when null; only
    // ADDED entries may leave them null in v2 (v1 manifests have none: 0).
    e.sequence_number = sequence != kUnset ? sequence : manifest.sequence_number;
    e.file_sequence_number = file_sequence != kUnset ? file_sequence : manifest.sequence_number;
    if (e.file.file_path.empty()) throw_corrupt(what + ": manifest entry without file_path");
    if (e.file.record_count < 0) throw_corrupt(what + ": negative record_count for " + e.file.file_path);
    std::sort(e.file.stats.begin(), e.file.stats.end(),
              [](const ColumnStats& a, const ColumnStats& b) { return a.field_id < b.field_id; });
  }
  void begin_record(int) {}
  void begin_item(int slot) {
    if (is_stats_map(slot)) {
      if (slot == 108) return;
      current_key = 0;
      item_index = item_counts[map_index(slot)]++;
    }
  }
  ColumnStats& stats_for(int32_t field_id) {
    std::vector<ColumnStats>& stats = out.back().file.stats;
    // Maps list columns in the same order, so the item's position usually hits.
    if (item_index < stats.size() && stats[item_index].field_id == field_id) return stats[item_index];
    for (ColumnStats& s : stats) {
      if (s.field_id == field_id) return s;
    }
    if (stats.size() >= 100000) throw_limit(what + ": more than 100000 column statistics in one entry");
    stats.emplace_back();
    stats.back().field_id = field_id;
    return stats.back();
  }
  DataFile& file() { return out.back().file; }

  void set_null(int slot) {
    if (slot >= kPartitionBase) file().partition[size_t(slot - kPartitionBase)] = PartitionValue{};
  }
  void set_int(int slot, int64_t v) {
    ManifestEntry& e = out.back();
    if (slot >= kPartitionBase) {
      PartitionValue& p = e.file.partition[size_t(slot - kPartitionBase)];
      p.kind = PartitionValue::Kind::kInt;
      p.int_value = v;
      return;
    }
    if (slot >= kMapKey && slot < kMapValue) {
      if (v < INT32_MIN || v > INT32_MAX) throw_corrupt(what + ": column id out of range");
      current_key = int32_t(v);
      return;
    }
    if (slot >= kMapValue) {
      const int map = slot - kMapValue;
      ColumnStats& s = stats_for(current_key);
      if (map == 109) s.value_count = v;
      if (map == 110) s.null_count = v;
      if (map == 137) s.nan_count = v;
      return;
    }
    switch (slot) {
      case 0:
        if (v < 0 || v > 2) throw_corrupt(what + ": entry status " + std::to_string(v));
        e.status = EntryStatus(v);
        return;
      case 1: snapshot = v; return;
      case 3: sequence = v; return;
      case 4: file_sequence = v; return;
      case 134:
        if (v < 0 || v > 2) throw_corrupt(what + ": file content " + std::to_string(v));
        e.file.content = FileContent(v);
        return;
      case 103: e.file.record_count = v; return;
      case 104: e.file.file_size_in_bytes = v; return;
      case 136:
        if (v < INT32_MIN || v > INT32_MAX || e.file.equality_ids.size() >= 10000)
          throw_corrupt(what + ": bad equality_ids");
        e.file.equality_ids.push_back(int32_t(v));
        return;
      case 144: e.file.content_offset = v; return;
      case 145: e.file.content_size_in_bytes = v; return;
      default: wrong_type(what, slot, "integer");
    }
  }
  void set_double(int slot, double v) {
    if (slot >= kPartitionBase) {
      PartitionValue& p = file().partition[size_t(slot - kPartitionBase)];
      p.kind = PartitionValue::Kind::kDouble;
      p.double_value = v;
      return;
    }
    wrong_type(what, slot, "floating-point");
  }
  void set_bytes(int slot, std::string_view b) {
    if (slot >= kPartitionBase) {
      PartitionValue& p = file().partition[size_t(slot - kPartitionBase)];
      p.kind = PartitionValue::Kind::kBytes;
      p.bytes.assign(b);
      return;
    }
    if (slot >= kMapValue) {
      const int map = slot - kMapValue;
      ColumnStats& s = stats_for(current_key);
      if (map == 125) s.lower_bound.emplace(b);
      if (map == 128) s.upper_bound.emplace(b);
      return;
    }
    switch (slot) {
      case 100: file().file_path.assign(b); return;
      case 101: file().file_format.assign(b); return;
      case 143: file().referenced_data_file.emplace(b); return;
      default: wrong_type(what, slot, "bytes");
    }
  }
};

}  // namespace

std::vector<ManifestFile> read_manifest_list(std::span<const uint8_t> bytes, const std::string& what) {
  avro::ContainerReader reader(bytes, what);
  const avro::Op op = avro::bind(reader.schema(), manifest_list_slot);
  std::vector<ManifestFile> out;
  ManifestListSink sink{out, what};
  try {
    reader.decode_all(op, sink);
  } catch (const Error& e) {
    if (e.message().starts_with(what)) throw;
    throw Error(e.code(), what + ": " + e.message(), e.where());
  }
  for (const ManifestFile& m : out) {
    if (m.path.empty()) throw_corrupt(what + ": manifest list entry without manifest_path");
  }
  return out;
}

std::vector<ManifestEntry> read_manifest(std::span<const uint8_t> bytes, const ManifestFile& manifest,
                                         const PartitionSpec& spec, const std::string& what) {
  avro::ContainerReader reader(bytes, what);
  const size_t partition_fields = spec.fields.size();
  auto slots = [&](int parent, std::string_view name, int32_t id) -> int {
    if (parent == -1) return known_id(kEntryNames, name, id);
    if (parent == 2) {
      const int32_t known = known_id(kDataFileNames, name, id);
      return known;
    }
    if (parent == 102) {
      for (size_t i = 0; i < spec.fields.size(); ++i) {
        if (id >= 0 ? spec.fields[i].field_id == id : spec.fields[i].name == name) return kPartitionBase + int(i);
      }
      for (size_t i = 0; i < spec.fields.size(); ++i) {
        if (spec.fields[i].name == name) return kPartitionBase + int(i);
      }
      return -1;
    }
    if (is_stats_map(parent)) return parent == 108 ? -1 : kMapElement + parent;
    if (parent >= kMapElement && parent < kMapKey) {
      const int map = parent - kMapElement;
      if (name == "key" || id == 117 || id == 119 || id == 121 || id == 138 || id == 126 || id == 129) {
        if (name == "value") return kMapValue + map;
        return kMapKey + map;
      }
      if (name == "value") return kMapValue + map;
      return -1;
    }
    if (parent == 135) return 136;
    return -1;
  };
  const avro::Op op = avro::bind(reader.schema(), slots);
  std::vector<ManifestEntry> out;
  ManifestSink sink{out, manifest, partition_fields, what};
  try {
    reader.decode_all(op, sink);
  } catch (const Error& e) {
    if (e.message().starts_with(what)) throw;
    throw Error(e.code(), what + ": " + e.message(), e.where());
  }
  return out;
}

const ColumnStats* DataFile::column_stats(int32_t field_id) const {
  auto it = std::lower_bound(stats.begin(), stats.end(), field_id,
                             [](const ColumnStats& s, int32_t id) { return s.field_id < id; });
  return it != stats.end() && it->field_id == field_id ? &*it : nullptr;
}

}  // namespace parquetry::iceberg
