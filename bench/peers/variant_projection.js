// Peer of the variant projection matrix (bench/bench_variant_projection.cc):
// DuckDB extracts nested.varcategory from the same shredded or unshredded
// seed-000 file and folds it (rows, values, nulls, min, max), the fold the
// C++ cases report.
//
//   node variant_projection.js --file F --threads N --warmup W --reps R
// prints {"timings_ns": [...], "result": {...}, "version": "...", "query": "..."}
'use strict';

const { parseArgs, sqlString, connect, timeRepetitions, emit, fail } = require('./lib/common');

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!args.file) throw new Error('--file is required');
  const threads = Number(args.threads || 1);
  const warmup = Number(args.warmup || 0);
  const reps = Number(args.reps || 1);
  const { connection, version } = await connect(threads);
  const query =
    'SELECT count(*)::VARCHAR, count(v)::VARCHAR, (count(*) - count(v))::VARCHAR, min(v)::VARCHAR, max(v)::VARCHAR ' +
    `FROM (SELECT nested['varcategory']::BIGINT AS v FROM read_parquet(${sqlString(args.file)}))`;
  const { timings, last } = await timeRepetitions(
    async () => (await connection.runAndReadAll(query)).getRows()[0], warmup, Math.max(1, reps));
  const result = {
    rows: String(last[0]),
    columns: [{
      name: 'varcategory',
      kind: 'int64',
      count: String(last[1]),
      nulls: String(last[2]),
      min: last[3] === null ? null : String(last[3]),
      max: last[4] === null ? null : String(last[4]),
    }],
  };
  emit({ timings_ns: timings, result, version, threads, query });
}

main().catch(fail);
