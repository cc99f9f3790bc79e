// Peer of the writer suite's rewrite table: DuckDB's COPY of a Parquet file
// into a new Parquet file (read_parquet -> COPY ... TO, snappy, row groups
// of 1,048,576 rows like parquetry's writer default) at the given thread
// count, into the dataset folder (tmpfs). The result is the full-scan fold
// of the file written, so the harness checks both rewrites hold the same data.
//
//   node rewrite_copy.js --input FILE --output FILE --threads N --warmup W --reps R
// prints {"timings_ns": [...], "result": {...}, "version": "...", "file_bytes": N}
'use strict';

const fs = require('fs');
const { parseArgs, sqlString, connect, timeRepetitions, emit, fail } = require('./lib/common');
const { foldQuery, foldResult } = require('./lib/fold');

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const threads = Number(args.threads || 1);
  const { connection, version } = await connect(threads);
  const copy = `COPY (SELECT * FROM read_parquet(${sqlString(args.input)})) TO ${sqlString(args.output)} ` +
    '(FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 1048576)';
  const { timings } = await timeRepetitions(async () => connection.run(copy), Number(args.warmup || 0),
    Math.max(1, Number(args.reps || 1)));
  const { query, columns } = await foldQuery(connection, args.output);
  const row = (await connection.runAndReadAll(query)).getRows()[0];
  emit({ timings_ns: timings, result: foldResult(columns, row), version, threads,
    file_bytes: fs.statSync(args.output).size });
}

main().catch(fail);
