// Peer of the filtered-scan workload (bench/bench_scan.cc): the full-scan
// aggregates of full_scan.js (count, nulls, min, max per column) over only the
// rows a WHERE clause keeps. Filters are named; the names and their SQL match
// the C++ suite's table.
//
//   node filtered_scan.js (--file F | --dataset NAME --data-dir DIR) --filter NAME --threads N --warmup W --reps R
// prints {"timings_ns": [...], "result": {...}, "version": "...", "query": "..."}
'use strict';

const path = require('path');
const { parseArgs, sqlString, sqlIdent, connect, timeRepetitions, emit, fail } = require('./lib/common');

const FILTERS = {
  pu_132: 'PULocationID = 132',
  payment_3_4: 'payment_type IN (3, 4)',
  one_day: "tpep_pickup_datetime >= TIMESTAMP '2022-01-15 00:00:00' AND tpep_pickup_datetime < TIMESTAMP '2022-01-16 00:00:00'",
  fare_gt_0: 'fare_amount > 0',
};

function kindOf(type) {
  switch (type) {
    case 'BIGINT': case 'INTEGER': case 'SMALLINT': case 'TINYINT': return 'int64';
    case 'DOUBLE': case 'FLOAT': return 'double';
    case 'VARCHAR': return 'string';
    case 'TIMESTAMP': return 'timestamp';
    default: return null;
  }
}

function aggregatesFor(name, kind) {
  const c = sqlIdent(name);
  const nulls = `(count(*) - count(${c}))::VARCHAR`;
  switch (kind) {
    case 'int64': return [`count(${c})::VARCHAR`, nulls, `min(${c})::VARCHAR`, `max(${c})::VARCHAR`];
    case 'timestamp':
      return [`count(${c})::VARCHAR`, nulls, `epoch_us(min(${c}))::VARCHAR`, `epoch_us(max(${c}))::VARCHAR`];
    case 'double': return [`count(${c})::VARCHAR`, nulls, `min(${c})::DOUBLE`, `max(${c})::DOUBLE`];
    case 'string': return [`count(${c})::VARCHAR`, nulls, `min(${c})`, `max(${c})`];
    default: throw new Error(`no aggregates for ${kind}`);
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const file = args.file || path.join(args['data-dir'], `${args.dataset}.duckdb.parquet`);
  const where = FILTERS[args.filter];
  if (!where) throw new Error(`unknown filter ${args.filter}`);
  const threads = Number(args.threads || 1);
  const warmup = Number(args.warmup || 0);
  const reps = Number(args.reps || 1);
  const { connection, version } = await connect(threads);
  const source = `read_parquet(${sqlString(file)})`;
  const described = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRowObjects();
  const columns = described.map((row) => {
    const kind = kindOf(String(row.column_type));
    if (!kind) throw new Error(`column ${row.column_name} has type ${row.column_type}, not covered`);
    return { name: String(row.column_name), kind };
  });
  const selectList = ['count(*)::VARCHAR'];
  for (const column of columns) selectList.push(...aggregatesFor(column.name, column.kind));
  const query = `SELECT ${selectList.join(', ')} FROM ${source} WHERE ${where}`;
  const { timings, last } = await timeRepetitions(
    async () => (await connection.runAndReadAll(query)).getRows()[0], warmup, Math.max(1, reps));

  let at = 1;
  const result = { rows: String(last[0]), columns: [] };
  for (const column of columns) {
    const entry = { name: column.name, kind: column.kind, count: String(last[at++] ?? '0'), nulls: String(last[at++]) };
    const min = last[at++];
    const max = last[at++];
    entry.min = min === null ? null : column.kind === 'double' ? Number(min) : String(min);
    entry.max = max === null ? null : column.kind === 'double' ? Number(max) : String(max);
    result.columns.push(entry);
  }
  emit({ timings_ns: timings, result, version, threads, query });
}

main().catch(fail);
