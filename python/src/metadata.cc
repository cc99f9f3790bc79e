// parquetry.metadata(): what the footer says, as plain Python dicts (row
// groups with per-column statistics decoded to Python values).
#include <cmath>

#include "bindings.h"
#include "parquetry/reader.h"
#include "parquetry/schema/value_text.h"
#include "parquetry/writer_quirks.h"

namespace parquetry::python {
namespace {

py::object display_value(const DisplayValue& value) {
  switch (value.kind) {
    case DisplayValue::Kind::kBool: return py::bool_(value.bool_value);
    case DisplayValue::Kind::kInt: return py::int_(value.int_value);
    case DisplayValue::Kind::kUInt: return py::int_(value.uint_value);
    case DisplayValue::Kind::kDouble: return py::float_(value.double_value);
    case DisplayValue::Kind::kText:
    case DisplayValue::Kind::kInvalid: return py::str(value.text);
  }
  return py::none();
}

// min_value/max_value when present, else the deprecated signed-order min/max (as the CLI's meta).
void add_statistics(py::dict& out, const Statistics& stats, const ColumnDescriptor& column) {
  const OptionalBytes* min = nullptr;
  const OptionalBytes* max = nullptr;
  if (stats.min_value || stats.max_value) {
    min = &stats.min_value;
    max = &stats.max_value;
  } else if (column.sort_order == SortOrder::kSigned) {
    min = &stats.min;
    max = &stats.max;
  }
  out["min"] = min != nullptr && *min ? display_value(decode_plain_value(column, **min)) : py::none();
  out["max"] = max != nullptr && *max ? display_value(decode_plain_value(column, **max)) : py::none();
  out["null_count"] = stats.null_count ? py::object(py::int_(*stats.null_count)) : py::none();
  out["distinct_count"] = stats.distinct_count ? py::object(py::int_(*stats.distinct_count)) : py::none();
}

py::dict file_metadata(const std::string& path) {
  std::unique_ptr<FileReader> reader;
  {
    py::gil_scoped_release unlocked;
    reader = FileReader::open(path);
  }
  const FileMetaData& meta = reader->metadata();
  const Schema& schema = reader->schema();
  py::dict out;
  out["path"] = path;
  out["num_rows"] = meta.num_rows;
  out["version"] = meta.version;
  out["created_by"] = meta.created_by ? py::object(py::str(*meta.created_by)) : py::none();
  out["num_columns"] = schema.num_columns();
  py::dict key_values;
  for (const KeyValue& kv : meta.key_value_metadata)
    key_values[py::str(kv.key)] = kv.value ? py::object(py::str(*kv.value)) : py::none();
  out["key_value_metadata"] = key_values;
  const StatisticsCatalogue catalogue(meta);  // which statistics the writer got wrong
  py::list row_groups;
  for (const RowGroup& group : meta.row_groups) {
    py::dict rg;
    rg["num_rows"] = group.num_rows;
    rg["total_byte_size"] = group.total_byte_size;
    py::list columns;
    int64_t compressed = 0;
    for (size_t i = 0; i < group.columns.size() && i < schema.num_columns(); ++i) {
      const ColumnChunk& chunk = group.columns[i];
      const ColumnDescriptor& column = schema.column(i);
      py::dict c;
      c["path"] = column.path;
      c["physical_type"] = std::string(type_name(column.physical_type));
      if (chunk.meta_data) {
        const ColumnMetaData& cm = *chunk.meta_data;
        c["codec"] = std::string(codec_name(cm.codec));
        c["num_values"] = cm.num_values;
        c["total_compressed_size"] = cm.total_compressed_size;
        c["total_uncompressed_size"] = cm.total_uncompressed_size;
        compressed += cm.total_compressed_size;
        if (cm.statistics) {
          add_statistics(c, *cm.statistics, column);
          // The catalogue's defects: these statistics are as stored, but
          // parquetry does not prune on them.
          py::list not_used;
          for (StatisticsDefect defect : catalogue.chunk_trust(column, cm).list())
            not_used.append(std::string(statistics_defect_info(defect).name));
          c["statistics_not_used"] = not_used;
        }
      }
      if (!c.contains("min")) {
        c["min"] = py::none();
        c["max"] = py::none();
        c["null_count"] = py::none();
        c["distinct_count"] = py::none();
        c["statistics_not_used"] = py::list();
      }
      columns.append(c);
    }
    rg["total_compressed_size"] = compressed;
    rg["columns"] = columns;
    row_groups.append(rg);
  }
  out["row_groups"] = row_groups;
  out["schema"] = schema.to_string();
  return out;
}

}  // namespace

void bind_metadata(py::module_& m) {
  m.def("metadata", &file_metadata, py::arg("path"), "The footer of a file as a dict");
}

}  // namespace parquetry::python
