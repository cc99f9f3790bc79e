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
const { parseArgs, connect, timeRepetitions, emit, fail } = require('./lib/common');
const { foldQuery, foldResult } = require('./lib/fold');

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const file = args.file || path.join(args['data-dir'], `${args.dataset}.duckdb.parquet`);
  const threads = Number(args.threads || 1);
  const warmup = Number(args.warmup || 0);
  const reps = Number(args.reps || 1);
  const { connection, version } = await connect(threads);
  const { query, columns } = await foldQuery(connection, file);
  const { timings, last } = await timeRepetitions(
    async () => (await connection.runAndReadAll(query)).getRows()[0], warmup, Math.max(1, reps));
  emit({ timings_ns: timings, result: foldResult(columns, last), version, threads, query });
}

main().catch(fail);
