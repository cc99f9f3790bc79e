// Peer of the full-scan workload: one aggregate query that computes, for
// every column of a Parquet file, what parquetry's fold computes (see
// bench/harness/scan_result.h): count of values, nulls, min and max; for list
// columns the number of elements and their sum. Integers come back as text
// (exact beyond 2^53), doubles as numbers.
//
//   node full_scan.js (--file F | --dataset NAME --data-dir DIR) --threads N --warmup W --reps R
// prints {"timings_ns": [...], "result": {...}, "version": "...", "query": "..."}
'use strict';

const path = require('path');
const { parseArgs, sqlString, sqlIdent, connect, timeRepetitions, emit, fail } = require('./lib/common');

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

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const file = args.file || path.join(args['data-dir'], `${args.dataset}.duckdb.parquet`);
  const threads = Number(args.threads || 1);
  const warmup = Number(args.warmup || 0);
  const reps = Number(args.reps || 1);
  const { connection, version } = await connect(threads);
  const source = `read_parquet(${sqlString(file)})`;
  const described = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRowObjects();
  const columns = described.map((row) => {
    const kind = kindOf(String(row.column_type));
    if (!kind) throw new Error(`column ${row.column_name} has type ${row.column_type}, not covered by the full scan`);
    return { name: String(row.column_name), kind };
  });
  const selectList = ['count(*)::VARCHAR'];
  for (const column of columns) selectList.push(...aggregatesFor(column.name, column.kind));
  const query = `SELECT ${selectList.join(', ')} FROM ${source}`;
  const { timings, last } = await timeRepetitions(
    async () => (await connection.runAndReadAll(query)).getRows()[0], warmup, Math.max(1, reps));

  let at = 1;
  const result = { rows: String(last[0]), columns: [] };
  for (const column of columns) {
    const entry = { name: column.name, kind: column.kind, count: String(last[at++] ?? '0'), nulls: String(last[at++]) };
    if (column.kind.startsWith('list<')) {
      const sum = last[at++];
      entry.sum = sum === null ? null : column.kind === 'list<double>' ? Number(sum) : String(sum);
    } else {
      const min = last[at++];
      const max = last[at++];
      entry.min = min === null ? null : column.kind === 'double' ? Number(min) : String(min);
      entry.max = max === null ? null : column.kind === 'double' ? Number(max) : String(max);
    }
    result.columns.push(entry);
  }
  emit({ timings_ns: timings, result, version, threads, query });
}

main().catch(fail);
