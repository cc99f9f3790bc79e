// Planning support for parquetry.dask: one file's footer -> the row groups a
// filter may select. Only the footer is read; a row group whose chunk
// statistics prove that no row can match is dropped here, so it never
// becomes a task. Python calls this for many files from a thread pool (the
// GIL is released while the footer is read and evaluated).
#include <algorithm>
#include <functional>

#include "bindings.h"
#include "parquetry/error.h"
#include "parquetry/predicate.h"
#include "parquetry/reader.h"

namespace parquetry::python {
namespace {

struct RowGroupPlan {
  int32_t index = 0;
  int64_t rows = 0;
  int64_t bytes = 0;  // compressed bytes of the projected chunks
};

struct FilePlan {
  int64_t num_rows = 0;
  int32_t num_row_groups = 0;
  std::vector<RowGroupPlan> row_groups;  // the survivors
};

FilePlan plan(const std::string& path, const std::vector<std::string>& columns, const std::string& where) {
  auto reader = FileReader::open(path);
  const FileMetaData& meta = reader->metadata();
  const Schema& schema = reader->schema();
  const Predicate filter = push_down_not(where.empty() ? Predicate{} : parse_predicate(where));
  std::vector<const ColumnDescriptor*> leaves;
  for (const std::string& column : filter.columns()) {
    const ColumnDescriptor* leaf = schema.find_column(column);
    if (leaf == nullptr) throw_invalid("filter: no leaf column " + column + " in " + path);
    leaves.push_back(leaf);
  }
  std::vector<int32_t> projected;
  if (columns.empty()) {
    for (size_t i = 0; i < schema.num_columns(); ++i) projected.push_back(static_cast<int32_t>(i));
  } else {
    projected = schema.select_columns(columns);
  }
  FilePlan out;
  out.num_rows = meta.num_rows;
  out.num_row_groups = static_cast<int32_t>(meta.row_groups.size());
  const StatisticsCatalogue catalogue(meta);  // what this file's writer got right
  for (size_t rg = 0; rg < meta.row_groups.size(); ++rg) {
    const RowGroup& group = meta.row_groups[rg];
    const bool drop = row_group_excluded_by_statistics(filter, schema, group, catalogue);
    if (drop || group.num_rows == 0) continue;
    RowGroupPlan plan{static_cast<int32_t>(rg), group.num_rows, 0};
    for (int32_t column : projected) {
      if (size_t(column) < group.columns.size() && group.columns[size_t(column)].meta_data) {
        plan.bytes += group.columns[size_t(column)].meta_data->total_compressed_size;
      }
    }
    out.row_groups.push_back(plan);
  }
  return out;
}

}  // namespace

void bind_plan(py::module_& m) {
  m.def(
      "plan_file",
      [](const std::string& path, std::optional<std::vector<std::string>> columns,
         std::optional<std::string> where) {
        FilePlan result;
        {
          py::gil_scoped_release unlocked;
          result = plan(path, columns.value_or(std::vector<std::string>{}), where.value_or(""));
        }
        py::list row_groups;
        for (const RowGroupPlan& rg : result.row_groups)
          row_groups.append(py::make_tuple(rg.index, rg.rows, rg.bytes));
        py::dict out;
        out["path"] = path;
        out["num_rows"] = result.num_rows;
        out["num_row_groups"] = result.num_row_groups;
        out["row_groups"] = row_groups;
        return out;
      },
      py::arg("path"), py::arg("columns") = py::none(), py::arg("where") = py::none(),
      "Reads one footer: {path, num_rows, num_row_groups, row_groups: [(index, rows, bytes)]} "
      "with the row groups whose statistics exclude `where` left out");
}

}  // namespace parquetry::python
