// The table scan: data files of a plan read through FileReader (and
// MergeOnReadReader for position deletes and deletion vectors), projected by
// field id into the snapshot's schema, then equality deletes and the filter
// applied as one keep bitmap per batch.
#include <simdjson.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "parquetry/error.h"
#include "parquetry/iceberg_scan.h"
#include "parquetry/iceberg_table.h"
#include "parquetry/iceberg_table/arrays.h"
#include "parquetry/iceberg_table/deletes.h"
#include "parquetry/iceberg_table/name_mapping.h"
#include "parquetry/reader.h"
#include "parquetry/schema.h"
#include "parquetry/table/filter_rows.h"

namespace parquetry::iceberg {
namespace {

// Where one table column of a data file comes from.
struct Source {
  const SchemaField* field = nullptr;
  std::string file_column;  // empty: a constant
  Value constant;
  std::shared_ptr<const DataType> type;  // of the constant
};

// One data file's read: its reader (through MergeOnReadReader when it has
// position deletes), where each working column comes from, its equality
// deletes, and the scratch of the batches built from it. A file's columns are
// resolved on the scan's thread (open_file); its read and deletes are opened
// (start_file) and its batches produced on a worker when there are several
// threads.
struct FileScan {
  const FileTask* task = nullptr;
  ReaderOptions reader_options;  // the projected columns, set on opening
  std::unique_ptr<FileReader> reader;
  PositionDeleteIndex positions;
  std::unique_ptr<BatchReader> batches;
  std::vector<Source> sources;
  std::vector<std::shared_ptr<const EqualityDeleteSet>> equality;
  std::vector<std::vector<int>> equality_columns;  // per set: working indexes
  std::shared_ptr<const BatchSchema> file_schema;  // working schema with this file's types
  std::vector<uint8_t> filter_bits;
  std::string key;
};

// A file whose batches a worker thread produces ahead of the consumer, up
// to a byte budget; the consumer takes them in file order.
struct FileAhead {
  struct Ready {
    RecordBatch batch;
    int64_t bytes = 0;  // counted once, by the worker
  };
  std::unique_ptr<FileScan> scan;
  std::deque<Ready> ready;
  int64_t ready_bytes = 0;
  bool done = false;
  std::exception_ptr error;
  std::thread worker;
};

void add_buffer_bytes(const ArrayData& array, int64_t& total) {
  for (const BufferRef& buffer : array.buffers) total += buffer.size;
  for (const auto& child : array.children) add_buffer_bytes(*child, total);
}

int64_t batch_bytes(const RecordBatch& batch) {
  int64_t total = 0;
  for (const auto& column : batch.columns) add_buffer_bytes(*column, total);
  return total;
}

}  // namespace

// Hidden: a nested class takes the visibility of the exported class around it.
struct PARQUETRY_LOCAL TableScan::Impl {
  const Table* table = nullptr;
  TableScanOptions options;
  ScanPlan plan;
  std::string snapshot_what;
  std::unique_ptr<DeleteCache> deletes;
  std::optional<std::unordered_map<int32_t, std::vector<std::string>>> name_mapping;
  bool filter_is_true = true;

  std::vector<const SchemaField*> working;  // read for the batch: output first
  size_t output_count = 0;
  std::shared_ptr<const BatchSchema> output_schema;

  size_t next_task = 0;
  // One thread: the data file being read.
  std::unique_ptr<FileScan> current;
  // Several threads: files read by workers, one each, in plan order; the
  // front one is the consumer's.
  std::deque<std::unique_ptr<FileAhead>> ahead;
  std::mutex ahead_mutex;
  std::condition_variable ahead_changed;
  bool stopping = false;

  ~Impl() { stop_workers(); }

  std::string file_what(const FileTask* task) const {
    return snapshot_what + ", data file " + (task ? task->local_path : std::string("?"));
  }

  void choose_columns(bool count_only) {
    working.clear();
    const IcebergSchema& schema = *plan.schema;
    auto add = [&](const SchemaField* f) {
      for (const SchemaField* w : working) {
        if (w == f) return;
      }
      working.push_back(f);
    };
    if (!count_only) {
      if (options.columns.empty()) {
        for (const SchemaField& f : schema.fields) add(&f);
      } else {
        for (const std::string& name : options.columns) {
          const SchemaField* f = schema.find_top_level(name);
          if (f == nullptr)
            throw_invalid(snapshot_what + ": no column '" + name + "' in schema " +
                          std::to_string(schema.schema_id));
          add(f);
        }
      }
    }
    output_count = working.size();
    for (const std::string& name : options.filter.columns()) {
      const SchemaField* f = schema.find_top_level(name);
      if (f == nullptr) throw_invalid(snapshot_what + ": the filter names unknown column '" + name + "'");
      add(f);
    }
    for (const DeleteFile& d : plan.delete_files) {
      for (int32_t id : d.file.equality_ids) {
        const SchemaField* f = nullptr;
        for (const SchemaField& top : schema.fields) {
          if (top.id == id) f = &top;
        }
        if (f == nullptr) {
          // A column dropped since the delete was written still identifies
          // rows in older files; it is then looked up in the file by id.
          if (schema.find(id) != nullptr)
            throw_unsupported(snapshot_what + ": equality deletes on nested field " + std::to_string(id));
          continue;
        }
        add(f);
      }
    }
    std::vector<Field> fields;
    for (size_t i = 0; i < output_count; ++i) {
      const SchemaField* f = working[i];
      fields.push_back(Field{f->name, arrow_type(f->type), !f->required, f->id, {}});
    }
    auto s = std::make_shared<BatchSchema>();
    s->fields = std::move(fields);
    output_schema = std::move(s);
  }

  // Resolves the working columns against the file and opens the read.
  // `threads` decode the file's columns (1 when files are read in parallel).
  std::unique_ptr<FileScan> open_file(const FileTask& t, int threads) {
    auto file = std::make_unique<FileScan>();
    FileScan& scan = *file;
    scan.task = &t;
    auto file_what = [&] { return this->file_what(&t); };
    std::vector<Source>& sources = scan.sources;
    const PartitionSpec* spec = table->metadata().spec(t.file.spec_id);
    auto probe = FileReader::open(t.local_path);
    const SchemaNode& root = probe->schema().root();
    bool has_ids = false;
    for (const SchemaNode* child : root.children()) has_ids = has_ids || child->field_id().has_value();
    sources.clear();
    std::vector<std::string> columns;
    for (const SchemaField* f : working) {
      Source src;
      src.field = f;
      const SchemaNode* node = nullptr;
      if (has_ids) {
        for (const SchemaNode* child : root.children()) {
          if (child->field_id() && *child->field_id() == f->id) node = child;
        }
      } else if (name_mapping) {
        auto it = name_mapping->find(f->id);
        if (it != name_mapping->end()) {
          for (const std::string& n : it->second) {
            if (node == nullptr) node = root.child(n);
          }
        }
      } else {
        node = root.child(f->name);
      }
      if (node != nullptr) {
        src.file_column = node->name();
        columns.push_back(node->name());
      } else {
        src.type = std::make_shared<DataType>(arrow_type(f->type));
        bool set = false;
        if (spec != nullptr) {
          for (size_t i = 0; i < spec->fields.size() && i < t.file.partition.size(); ++i) {
            const PartitionField& pf = spec->fields[i];
            if (pf.source_id == f->id && pf.transform.kind == Transform::Kind::kIdentity) {
              src.constant = from_partition(f->type, t.file.partition[i]);
              set = true;
              break;
            }
          }
        }
        if (!set && !f->initial_default_json.empty())
          src.constant =
              from_default_json(f->type, f->initial_default_json, file_what() + ", column " + f->name);
      }
      sources.push_back(std::move(src));
    }
    // A read needs some column to count rows by: the first leaf.
    if (columns.empty() && !root.children().empty()) {
      const SchemaNode* first = root.children().front();
      columns.push_back(first->name());
    }
    scan.reader_options.columns = columns;
    scan.reader_options.threads = threads;
    scan.reader_options.read_ahead_budget = options.read_ahead_budget;
    scan.reader_options.batch_size = options.batch_size;
    return file;
  }

  // Opens the file's read and loads its deletes. With several threads this
  // runs on the file's worker, not on the scan's thread, so that reading a
  // position-delete file no longer holds back the start of the next data
  // file (the delete cache loads each delete file once, whichever thread
  // asks first).
  void start_file(FileScan& scan) {
    const FileTask& t = *scan.task;
    auto file_what = [&] { return this->file_what(&t); };
    scan.reader = FileReader::open(t.local_path, scan.reader_options);
    scan.positions = deletes->positions_for(t);
    if (scan.positions.empty()) {
      scan.batches = scan.reader->batches();
    } else {
      MergeOnReadOptions mor;
      mor.batch_size = options.batch_size;
      scan.batches = std::make_unique<MergeOnReadReader>(*scan.reader, scan.positions, mor);
    }
    scan.equality = deletes->equality_for(t);
    for (const auto& set : scan.equality) {
      std::vector<int> cols;
      for (int32_t id : set->field_ids) {
        int index = -1;
        for (size_t w = 0; w < working.size(); ++w) {
          if (working[w]->id == id) index = int(w);
        }
        if (index < 0)
          throw_unsupported(file_what() + ": equality delete on field " + std::to_string(id) +
                            ", which the current schema dropped");
        cols.push_back(index);
      }
      scan.equality_columns.push_back(std::move(cols));
    }
  }

  // Runs `step` on task `t`, naming the data file in an error that does not
  // already name the table.
  template <typename Step>
  auto naming_file(const FileTask& t, Step&& step) {
    try {
      return step();
    } catch (const Error& e) {
      if (e.message().starts_with("table ")) throw;
      throw Error(e.code(), file_what(&t) + ": " + e.message(), e.where());
    }
  }

  // The working batch: one column per working field, in order.
  RecordBatch build(FileScan& f, const RecordBatch& in) const {
    const std::vector<Source>& sources = f.sources;
    std::shared_ptr<const BatchSchema>& file_schema = f.file_schema;
    RecordBatch out;
    out.num_rows = in.num_rows;
    const bool new_schema = file_schema == nullptr;
    std::shared_ptr<BatchSchema> schema;
    if (new_schema) schema = std::make_shared<BatchSchema>();
    for (const Source& src : sources) {
      std::shared_ptr<ArrayData> column;
      if (!src.file_column.empty()) {
        const int index = in.schema->field_index(src.file_column);
        if (index < 0)
          throw Error(ErrorCode::kInternal,
                      file_what(f.task) + ": column " + src.file_column + " missing from the read");
        column = promote_array(in.columns[size_t(index)], src.field->type);
      } else {
        column = constant_array(src.type, src.constant, in.num_rows);
      }
      if (new_schema)
        schema->fields.push_back(
            Field{src.field->name, *column->type, !src.field->required, src.field->id, {}});
      out.columns.push_back(std::move(column));
    }
    if (new_schema) file_schema = std::move(schema);
    out.schema = file_schema;
    return out;
  }

  // Applies equality deletes and the filter; returns the output batch
  // (possibly empty).
  RecordBatch finish(FileScan& f, RecordBatch batch) const {
    std::vector<uint8_t>& filter_bits = f.filter_bits;
    const auto& equality = f.equality;
    const auto& equality_columns = f.equality_columns;
    std::string& key = f.key;
    const int64_t rows = batch.num_rows;
    int64_t kept = rows;
    bool filtered = false;
    // filter_rows reads the keep bitmap in 64-bit words: pad it.
    const size_t padded = size_t((rows + 63) / 64) * 8 + 8;
    if (!filter_is_true) {
      kept = evaluate_predicate(options.filter, batch, filter_bits);
      filter_bits.resize(padded, 0);
      filtered = true;
    }
    if (!equality.empty()) {
      if (!filtered) {
        filter_bits.assign(padded, 0);
        std::memset(filter_bits.data(), 0xff, size_t(rows / 8));
        if (rows % 8) filter_bits[size_t(rows / 8)] = uint8_t((1u << (rows % 8)) - 1);
        filtered = true;
      }
      auto drop = [&](int64_t r) {
        filter_bits[size_t(r >> 3)] &= uint8_t(~(1u << (r & 7)));
        --kept;
      };
      auto is_kept = [&](int64_t r) { return ((filter_bits[size_t(r >> 3)] >> (r & 7)) & 1) != 0; };
      // Sets of integer keys look the column's values up directly (a column
      // of another type can only match their NULL key); the others key each
      // row as a string (arrays.h append_key).
      std::vector<size_t> keyed;
      for (size_t s = 0; s < equality.size(); ++s) {
        const EqualityDeleteSet& set = *equality[s];
        if (!set.integer_keys) {
          keyed.push_back(s);
          continue;
        }
        const ArrayData& column = *batch.columns[size_t(equality_columns[s].at(0))];
        const IntegerValues values = integer_values(column);
        for (int64_t r = 0; r < rows; ++r) {
          if (!is_kept(r)) continue;
          if (!column.is_valid(r)) {
            if (set.null_key) drop(r);
          } else if (values.valid && set.ints.contains(values.at(r))) {
            drop(r);
          }
        }
      }
      for (int64_t r = 0; r < rows && !keyed.empty(); ++r) {
        if (!is_kept(r)) continue;
        for (size_t s : keyed) {
          key.clear();
          for (int c : equality_columns[s]) append_key(key, *batch.columns[size_t(c)], r);
          if (equality[s]->keys.find(std::string_view(key)) != equality[s]->keys.end()) {
            drop(r);
            break;
          }
        }
      }
    }
    RecordBatch out;
    out.num_rows = rows;
    out.columns.assign(batch.columns.begin(), batch.columns.begin() + long(output_count));
    auto schema = std::make_shared<BatchSchema>();
    schema->fields.assign(batch.schema->fields.begin(), batch.schema->fields.begin() + long(output_count));
    out.schema = schema;
    if (filtered && kept != rows) {
      if (kept == 0) {
        out.columns.clear();
        out.num_rows = 0;
        return out;
      }
      out = filter_rows(out, filter_bits.data(), kept);
      out.num_rows = kept;
    }
    return out;
  }

  // The file's next output batch (equality deletes and the filter applied;
  // never empty); false at its end. Errors name the file.
  bool produce(FileScan& f, RecordBatch& out) const {
    RecordBatch in;
    try {
      for (;;) {
        if (!f.batches->next(in)) return false;
        if (in.num_rows == 0) continue;
        RecordBatch result = finish(f, build(f, in));
        if (result.num_rows == 0) continue;
        out = std::move(result);
        return true;
      }
    } catch (const Error& e) {
      if (e.message().starts_with("table ")) throw;
      throw Error(e.code(), file_what(f.task) + ": " + e.message(), e.where());
    }
  }

  // The next planned file, opened (null at the end of the plan).
  std::unique_ptr<FileScan> open_next(int threads) {
    const size_t total = options.tasks ? options.tasks->size() : plan.tasks.size();
    if (next_task >= total) return nullptr;
    const size_t index = options.tasks ? size_t((*options.tasks)[next_task]) : next_task;
    ++next_task;
    if (index >= plan.tasks.size())
      throw_invalid(snapshot_what + ": task " + std::to_string(index) + " is not in the plan");
    const FileTask& t = plan.tasks[index];
    return naming_file(t, [&] { return open_file(t, threads); });
  }

  bool next(RecordBatch& out) {
    if (options.threads > 1) return next_parallel(out);
    for (;;) {
      if (!current) {
        current = open_next(options.threads);
        if (!current) return false;
        naming_file(*current->task, [&] { start_file(*current); });
      }
      if (produce(*current, out)) return true;
      current.reset();
    }
  }

  // Several threads: workers read whole files side by side (one worker a
  // file, so decoding and delete filtering of one run beside the other's),
  // a file's batches waiting for the consumer up to read_ahead_budget /
  // threads bytes. Files are opened here, in plan order, and handed out in
  // that order; with fewer files than threads the spare threads decode
  // columns within a file.
  bool next_parallel(RecordBatch& out) {
    for (;;) {
      while (int(ahead.size()) < options.threads) {
        // Threads not taken by a file of their own decode this one's columns
        // (a table of one large file still uses them all).
        const size_t total = options.tasks ? options.tasks->size() : plan.tasks.size();
        const size_t files =
            std::min(size_t(options.threads), ahead.size() + (total - std::min(total, next_task)));
        const int reader_threads = std::max(1, options.threads / int(std::max<size_t>(files, 1)));
        std::unique_ptr<FileScan> file = open_next(reader_threads);
        if (!file) break;
        auto entry = std::make_unique<FileAhead>();
        entry->scan = std::move(file);
        FileAhead* raw = entry.get();
        {
          std::lock_guard<std::mutex> lock(ahead_mutex);
          ahead.push_back(std::move(entry));
        }
        raw->worker = std::thread([this, raw] { work(*raw); });
      }
      if (ahead.empty()) return false;
      FileAhead& front = *ahead.front();
      std::unique_lock<std::mutex> lock(ahead_mutex);
      ahead_changed.wait(lock, [&] { return !front.ready.empty() || front.done; });
      if (!front.ready.empty()) {
        out = std::move(front.ready.front().batch);
        front.ready_bytes -= front.ready.front().bytes;
        front.ready.pop_front();
        ahead_changed.notify_all();
        return true;
      }
      std::exception_ptr error = front.error;
      lock.unlock();
      front.worker.join();
      {
        std::lock_guard<std::mutex> relock(ahead_mutex);
        ahead.pop_front();
      }
      if (error) {
        stop_workers();
        std::rethrow_exception(error);
      }
    }
  }

  void work(FileAhead& entry) {
    const int64_t budget = std::max<int64_t>(options.read_ahead_budget / options.threads, 1);
    try {
      naming_file(*entry.scan->task, [&] { start_file(*entry.scan); });
      RecordBatch batch;
      while (produce(*entry.scan, batch)) {
        const int64_t bytes = batch_bytes(batch);
        std::unique_lock<std::mutex> lock(ahead_mutex);
        ahead_changed.wait(lock,
                           [&] { return stopping || entry.ready.empty() || entry.ready_bytes < budget; });
        if (stopping) break;
        entry.ready.push_back({std::move(batch), bytes});
        entry.ready_bytes += bytes;
        ahead_changed.notify_all();
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(ahead_mutex);
      entry.error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(ahead_mutex);
    entry.done = true;
    ahead_changed.notify_all();
  }

  void stop_workers() {
    {
      std::lock_guard<std::mutex> lock(ahead_mutex);
      stopping = true;
      ahead_changed.notify_all();
    }
    for (auto& entry : ahead) {
      if (entry->worker.joinable()) entry->worker.join();
    }
    ahead.clear();
    std::lock_guard<std::mutex> lock(ahead_mutex);
    stopping = false;
  }
};

TableScan::TableScan(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TableScan::~TableScan() = default;

std::unique_ptr<TableScan> TableScan::open(const Table& table, TableScanOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->table = &table;
  impl->filter_is_true = options.filter.kind == Predicate::Kind::kTrue;
  if (!impl->filter_is_true)
    options.filter = type_literals(options.filter, table.metadata().current_schema());
  impl->plan = plan_scan(table, options.snapshot, options.filter);
  impl->snapshot_what =
      "table " + table.name() + ", snapshot " +
      (impl->plan.snapshot ? std::to_string(impl->plan.snapshot->snapshot_id) : std::string("(none)"));
  impl->options = std::move(options);
  impl->deletes = std::make_unique<DeleteCache>(table, impl->plan);
  impl->name_mapping = parse_name_mapping(table.metadata(), "table " + table.name());
  impl->choose_columns(false);
  return std::unique_ptr<TableScan>(new TableScan(std::move(impl)));
}

std::shared_ptr<const BatchSchema> TableScan::schema() const { return impl_->output_schema; }
bool TableScan::next(RecordBatch& out) { return impl_->next(out); }
const ScanPlan& TableScan::plan() const { return impl_->plan; }

int64_t TableScan::count() {
  Impl& s = *impl_;
  // The count reads other columns than next() (none but the filter's and
  // deletes'), and files already handed to workers were opened for next().
  if (s.next_task != 0 || s.current || !s.ahead.empty())
    throw_invalid(s.snapshot_what + ": count() of a scan that next() has started");
  bool any_deletes = false;
  for (const FileTask& t : s.plan.tasks) any_deletes = any_deletes || !t.deletes.empty();
  if (s.filter_is_true && !any_deletes && !s.options.tasks) {
    // Every planned row survives: the manifests' record counts are exact.
    int64_t total = 0;
    for (const FileTask& t : s.plan.tasks) total += t.file.record_count;
    s.next_task = s.plan.tasks.size();
    return total;
  }
  s.choose_columns(true);
  int64_t total = 0;
  RecordBatch batch;
  while (s.next(batch)) total += batch.num_rows;
  return total;
}

}  // namespace parquetry::iceberg
