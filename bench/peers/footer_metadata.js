// Peer of the footer-decoding table (bench/bench_metadata.cc): DuckDB's
// parquet_metadata() table function opens the file and decodes its whole
// footer, one row per column chunk. The query folds the rows like the
// parquetry cases do: the number of column chunks (as `rows`) and count,
// nulls, min and max of three chunk fields, so the harness can check that
// both sides read the same footer before the timing counts.
//
//   node footer_metadata.js --file F --warmup W --reps R
// prints {"timings_ns": [...], "result": {...}, "version": "...", "query": "..."}
'use strict';

const { parseArgs, sqlString, sqlIdent, connect, timeRepetitions, emit, fail } = require('./lib/common');

const FIELDS = ['stats_null_count', 'total_compressed_size', 'data_page_offset'];

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!args.file) throw new Error('need --file');
  // One thread: parquetry's decode is single-threaded, and one footer is one
  // sequential Thrift stream on either side.
  const { connection, version } = await connect(1);
  const folds = FIELDS.map((f) => {
    const c = sqlIdent(f);
    return `count(${c}), count(*) - count(${c}), min(${c}), max(${c})`;
  });
  const query = `SELECT count(*), ${folds.join(', ')} FROM parquet_metadata(${sqlString(args.file)})`;
  const { timings, last } = await timeRepetitions(
    async () => (await connection.runAndReadAll(query)).getRows()[0], Number(args.warmup || 0),
    Math.max(1, Number(args.reps || 1)));
  const text = (v) => (v === null || v === undefined ? null : String(v));
  const result = { rows: String(last[0]), columns: [] };
  FIELDS.forEach((name, i) => {
    const at = 1 + 4 * i;
    result.columns.push({ name, kind: 'int64', count: String(last[at]), nulls: String(last[at + 1]),
      min: text(last[at + 2]), max: text(last[at + 3]) });
  });
  emit({ timings_ns: timings, result, version, query });
}

main().catch(fail);
