// The full-scan fold as one DuckDB aggregate query: for every column of a
// Parquet file the count of values, nulls, min and max (lists: element count
// and sum), in the harness's scan-result form (bench/harness/scan_result.h).
// Shared by the peers whose result is a fold (full_scan.js, filtered_scan.js,
// copy_write.js).
'use strict';

const { sqlString, sqlIdent } = require('./common');

/** Maps a DuckDB column type to the scan-result kind, or null when the workload does not cover it. */
function kindOf(type) {
  switch (type) {
    case 'BIGINT': case 'INTEGER': case 'SMALLINT': case 'TINYINT': return 'int64';
    case 'DOUBLE': case 'FLOAT': return 'double';
    case 'VARCHAR': return 'string';
    case 'TIMESTAMP': return 'timestamp';
    case 'BIGINT[]': case 'INTEGER[]': return 'list<int64>';
    case 'DOUBLE[]': case 'FLOAT[]': return 'list<double>';
    default: return null;
  }
}

/** The select list for one column: [count, nulls, min, max] or [count, nulls, sum]. */
function aggregatesFor(name, kind) {
  const c = sqlIdent(name);
  const nulls = `(count(*) - count(${c}))::VARCHAR`;
  switch (kind) {
    case 'int64': return [`count(${c})::VARCHAR`, nulls, `min(${c})::VARCHAR`, `max(${c})::VARCHAR`];
    case 'timestamp':
      return [`count(${c})::VARCHAR`, nulls, `epoch_us(min(${c}))::VARCHAR`, `epoch_us(max(${c}))::VARCHAR`];
    case 'double': return [`count(${c})::VARCHAR`, nulls, `min(${c})::DOUBLE`, `max(${c})::DOUBLE`];
    case 'string': return [`count(${c})::VARCHAR`, nulls, `min(${c})`, `max(${c})`];
    case 'list<int64>': return [`sum(len(${c}))::VARCHAR`, nulls, `sum(list_sum(${c}))::VARCHAR`];
    case 'list<double>': return [`sum(len(${c}))::VARCHAR`, nulls, `sum(list_sum(${c}))::DOUBLE`];
    default: throw new Error(`no aggregates for ${kind}`);
  }
}

/** The fold query over `file` (only rows matching `where`, when given) and the columns it covers. */
async function foldQuery(connection, file, where) {
  const source = `read_parquet(${sqlString(file)})`;
  const described = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRowObjects();
  const columns = described.map((row) => {
    const kind = kindOf(String(row.column_type));
    if (!kind) throw new Error(`column ${row.column_name} has type ${row.column_type}, not covered by the full scan`);
    return { name: String(row.column_name), kind };
  });
  const selectList = ['count(*)::VARCHAR'];
  for (const column of columns) selectList.push(...aggregatesFor(column.name, column.kind));
  const filter = where ? ` WHERE ${where}` : '';
  return { query: `SELECT ${selectList.join(', ')} FROM ${source}${filter}`, columns };
}

/** The scan result from the fold query's one row. */
function foldResult(columns, row) {
  let at = 1;
  const result = { rows: String(row[0]), columns: [] };
  for (const column of columns) {
    const entry = { name: column.name, kind: column.kind, count: String(row[at++] ?? '0'), nulls: String(row[at++]) };
    if (column.kind.startsWith('list<')) {
      const sum = row[at++];
      entry.sum = sum === null ? null : column.kind === 'list<double>' ? Number(sum) : String(sum);
    } else {
      const min = row[at++];
      const max = row[at++];
      entry.min = min === null ? null : column.kind === 'double' ? Number(min) : String(min);
      entry.max = max === null ? null : column.kind === 'double' ? Number(max) : String(max);
    }
    result.columns.push(entry);
  }
  return result;
}

module.exports = { foldQuery, foldResult };
