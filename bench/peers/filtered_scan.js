// Peer of the filtered-scan workload (bench/bench_scan.cc): the full-scan
// aggregates of full_scan.js (count, nulls, min, max per column) over only the
// rows a WHERE clause keeps. Filters are named; the names and their SQL match
// the C++ suite's table.
//
//   node filtered_scan.js (--file F | --dataset NAME --data-dir DIR) --filter NAME --threads N --warmup W --reps R
// prints {"timings_ns": [...], "result": {...}, "version": "...", "query": "..."}
'use strict';

const path = require('path');
const { parseArgs, connect, timeRepetitions, emit, fail } = require('./lib/common');
const { foldQuery, foldResult } = require('./lib/fold');

const FILTERS = {
  pu_132: 'PULocationID = 132',
  payment_3_4: 'payment_type IN (3, 4)',
  one_day: "tpep_pickup_datetime >= TIMESTAMP '2022-01-15 00:00:00' AND tpep_pickup_datetime < TIMESTAMP '2022-01-16 00:00:00'",
  fare_gt_0: 'fare_amount > 0',
};

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const file = args.file || path.join(args['data-dir'], `${args.dataset}.duckdb.parquet`);
  const where = FILTERS[args.filter];
  if (!where) throw new Error(`unknown filter ${args.filter}`);
  const threads = Number(args.threads || 1);
  const warmup = Number(args.warmup || 0);
  const reps = Number(args.reps || 1);
  const { connection, version } = await connect(threads);
  const { query, columns } = await foldQuery(connection, file, where);
  const { timings, last } = await timeRepetitions(
    async () => (await connection.runAndReadAll(query)).getRows()[0], warmup, Math.max(1, reps));
  emit({ timings_ns: timings, result: foldResult(columns, last), version, threads, query });
}

main().catch(fail);
