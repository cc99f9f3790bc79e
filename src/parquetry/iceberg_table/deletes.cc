// Loading delete files for the table scan (see deletes.h).
#include "parquetry/iceberg_table/deletes.h"

#include "parquetry/error.h"
#include "parquetry/iceberg_scan.h"
#include "parquetry/iceberg_table/arrays.h"
#include "parquetry/iceberg_table/files.h"
#include "parquetry/reader.h"

namespace parquetry::iceberg {

std::string DeleteCache::what(const DeleteFile& d) const {
  return "table " + table_->name() + ", snapshot " + std::to_string(plan_->snapshot->snapshot_id) + ", delete file " +
         d.local_path;
}

void DeleteCache::load(uint32_t index) {
  Slot& slot = slots_[index];
  std::call_once(slot.once, [&] {
    const DeleteFile& d = plan_->delete_files[index];
    const std::string context = what(d);
    try {
      if (d.file.content == FileContent::kPositionDeletes) {
        PositionIndexMap map;
        const bool vector = d.file.file_format == "puffin" || d.file.file_format == "PUFFIN" || d.file.content_offset;
        if (vector) {
          // A deletion vector: content_size bytes at content_offset (a
          // Puffin blob, or a legacy file that is the bare blob).
          if (!d.file.referenced_data_file) throw_corrupt("deletion vector without referenced_data_file");
          const std::vector<uint8_t> bytes = read_whole_file(d.local_path, context);
          const int64_t offset = d.file.content_offset.value_or(0);
          const int64_t size = d.file.content_size_in_bytes.value_or(int64_t(bytes.size()) - offset);
          if (offset < 0 || size < 0 || uint64_t(offset) > bytes.size() || uint64_t(size) > bytes.size() - uint64_t(offset))
            throw_corrupt("deletion vector range [" + std::to_string(offset) + ", +" + std::to_string(size) +
                          ") outside the file's " + std::to_string(bytes.size()) + " bytes");
          map.get_or_add(*d.file.referenced_data_file) =
              deserialize_deletion_vector({bytes.data() + offset, size_t(size)}, d.file.record_count);
        } else {
          map = read_position_delete_file(d.local_path);
        }
        slot.positions = std::make_shared<PositionIndexMap>(std::move(map));
        return;
      }
      // Equality deletes: the equality columns by field id (names from the
      // table schema when the file has no ids).
      auto set = std::make_shared<EqualityDeleteSet>();
      set->field_ids = d.file.equality_ids;
      auto reader = FileReader::open(d.local_path);
      const Schema& schema = reader->schema();
      std::vector<std::string> names;
      for (int32_t id : set->field_ids) {
        std::string name;
        for (const SchemaNode* child : schema.root().children()) {
          if (child->field_id() && *child->field_id() == id) name = child->name();
        }
        if (name.empty()) {
          if (const SchemaField* f = plan_->schema->find(id)) {
            if (schema.root().child(f->name) != nullptr) name = f->name;
          }
        }
        if (name.empty()) throw_corrupt("equality field id " + std::to_string(id) + " is not a column of the file");
        names.push_back(std::move(name));
      }
      ReaderOptions options;
      options.columns = names;
      reader = FileReader::open(d.local_path, options);
      const auto batch_schema = reader->batch_schema();
      std::vector<int> order;
      for (const std::string& n : names) order.push_back(batch_schema->field_index(n));
      auto batches = reader->batches();
      RecordBatch batch;
      std::string key;
      std::vector<int64_t> ints;
      while (batches->next(batch)) {
        if (order.size() == 1) {
          // One integer column: flat int64 keys, as append_key widens them.
          const ArrayData& column = *batch.columns[size_t(order[0])];
          const IntegerValues values = integer_values(column);
          if (values.valid && (set->integer_keys || set->keys.empty())) {
            set->integer_keys = true;
            for (int64_t r = 0; r < batch.num_rows; ++r) {
              if (column.is_valid(r)) {
                ints.push_back(values.at(r));
              } else {
                set->null_key = true;
              }
            }
            continue;
          }
        }
        for (int64_t r = 0; r < batch.num_rows; ++r) {
          key.clear();
          for (int c : order) append_key(key, *batch.columns[size_t(c)], r);
          set->keys.insert(key);
        }
      }
      if (set->integer_keys) set->ints = FlatInt64Set(ints);
      slot.equality = std::move(set);
    } catch (const Error& e) {
      throw Error(e.code(), context + ": " + e.message(), e.where());
    }
  });
}

PositionDeleteIndex DeleteCache::positions_for(const FileTask& task) {
  PositionDeleteIndex out;
  for (uint32_t d : task.deletes) {
    if (plan_->delete_files[d].file.content != FileContent::kPositionDeletes) continue;
    load(d);
    if (const PositionDeleteIndex* index = slots_[d].positions->find(task.file.file_path)) out.merge(*index);
  }
  return out;
}

std::vector<std::shared_ptr<const EqualityDeleteSet>> DeleteCache::equality_for(const FileTask& task) {
  std::vector<std::shared_ptr<const EqualityDeleteSet>> out;
  for (uint32_t d : task.deletes) {
    if (plan_->delete_files[d].file.content != FileContent::kEqualityDeletes) continue;
    load(d);
    out.push_back(slots_[d].equality);
  }
  return out;
}

}  // namespace parquetry::iceberg
