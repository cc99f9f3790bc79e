// Peer of the footer-decoding table (bench/bench_metadata.cc): DuckDB's
// parquet_metadata() table function opens the file and decodes its whole
// footer, one row per column chunk. The query folds the rows like the
// parquetry cases do: the number of column chunks (as `rows`) and count,
// nulls, min and max of three chunk fields, so the harness can check that
// both sides read the same footer before the timing counts.
//
// DuckDB takes ~20 us per chunk here, so the 2M-chunk footer costs it ~45 s
// per query: the script runs only as many warmups and repetitions as fit in
// --budget-seconds each (default 300; at least one repetition), judged from
// the first run, and says so in "capped_reps" (the harness counts the
// timings it prints).
//
//   node footer_metadata.js --file F [--budget-seconds S] --warmup W --reps R
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
  const run = async () => (await connection.runAndReadAll(query)).getRows()[0];
  const budgetNs = Number(args['budget-seconds'] || 300) * 1e9;
  const reps = Math.max(1, Number(args.reps || 1));
  // The first run (the first warmup, or else the first timed repetition)
  // tells what the others would cost.
  const probe = await timeRepetitions(run, 0, 1);
  const fit = Math.max(1, Math.floor(budgetNs / Math.max(1, probe.timings[0])));
  const warmup = Number(args.warmup || 0);
  let timings;
  let last;
  if (warmup > 0) {
    ({ timings, last } = await timeRepetitions(run, Math.min(warmup - 1, fit), Math.min(reps, fit)));
  } else {
    const rest = await timeRepetitions(run, 0, Math.min(reps, fit) - 1);
    timings = probe.timings.concat(rest.timings);
    last = rest.timings.length > 0 ? rest.last : probe.last;
  }
  const text = (v) => (v === null || v === undefined ? null : String(v));
  const result = { rows: String(last[0]), columns: [] };
  FIELDS.forEach((name, i) => {
    const at = 1 + 4 * i;
    result.columns.push({ name, kind: 'int64', count: String(last[at]), nulls: String(last[at + 1]),
      min: text(last[at + 2]), max: text(last[at + 3]) });
  });
  emit({ timings_ns: timings, result, version, query, capped_reps: timings.length < reps });
}

main().catch(fail);
