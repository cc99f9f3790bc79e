// Peer of the writer table: DuckDB's COPY ... TO of the taxi dataset from
// an in-memory table (loaded from the DuckDB-written file, not timed) at the
// given thread count and codec, to a file beside the datasets (tmpfs). The
// result is the full-scan fold of the file written, so the harness checks
// that parquetry wrote the same data.
//
//   node copy_write.js --data-dir DIR --codec snappy|zstd|gzip|none --threads N --warmup W --reps R
// prints {"timings_ns": [...], "result": {...}, "version": "...", "file_bytes": N}
'use strict';

const fs = require('fs');
const path = require('path');
const { parseArgs, sqlString, connect, timeRepetitions, emit, fail } = require('./lib/common');
const { foldQuery, foldResult } = require('./lib/fold');

const CODECS = { snappy: 'snappy', zstd: 'zstd', gzip: 'gzip', none: 'uncompressed' };

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const codec = CODECS[args.codec];
  if (!codec) throw new Error(`unknown codec ${args.codec}`);
  const threads = Number(args.threads || 1);
  const { connection, version } = await connect(threads);
  const input = path.join(args['data-dir'], 'taxi.duckdb.parquet');
  await connection.run(`CREATE TABLE taxi AS SELECT * FROM read_parquet(${sqlString(input)})`);
  const out = path.join(args['data-dir'], `writer_duckdb_${args.codec}.parquet`);
  // zstd at level 3 like parquetry's case; DuckDB takes no level for gzip
  // (it compresses at zlib's default, 6, which is what parquetry's case uses).
  const level = args.codec === 'zstd' ? ', COMPRESSION_LEVEL 3' : '';
  const copy = `COPY taxi TO ${sqlString(out)} (FORMAT parquet, COMPRESSION ${codec}${level})`;
  const { timings } = await timeRepetitions(async () => connection.run(copy), Number(args.warmup || 0),
    Math.max(1, Number(args.reps || 1)));
  const { query, columns } = await foldQuery(connection, out);
  const row = (await connection.runAndReadAll(query)).getRows()[0];
  emit({ timings_ns: timings, result: foldResult(columns, row), version, threads, file_bytes: fs.statSync(out).size });
}

main().catch(fail);
