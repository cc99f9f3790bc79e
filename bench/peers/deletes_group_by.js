// Peer of the delete-file indexing table (BENCHMARKS.md §5): DuckDB groups a
// position-delete Parquet file by file_path and counts the positions of each
// data file, the work toPositionIndexes does. The result is reported in the
// scan-result form: rows = data files, one column "cardinality" whose count
// is the total number of deletes and whose min/max are the smallest and
// largest per-file counts.
//
//   node deletes_group_by.js --data-dir DIR --files N [--deletes 1000000] --warmup W --reps R
//   node deletes_group_by.js --data-dir DIR --files N --write   (creates the file only)
//
// The file is <data-dir>/deletes_<deletes>_<files>.parquet: rows sorted by
// file_path then pos, N data files with long s3 paths, the columns carrying
// Iceberg's field ids. --write creates it when missing.
'use strict';

const fs = require('fs');
const path = require('path');
const { parseArgs, sqlString, connect, timeRepetitions, emit, fail } = require('./lib/common');

const kTemplate =
  's3://pretty-long-bucket-name/pretty-long-namespace-name/pretty-long-table-name/data/%07d-data.parquet';

function deleteFilePath(dataDir, deletes, files) {
  return path.join(dataDir, `deletes_${deletes}_${files}.parquet`);
}

async function writeDeleteFile(connection, file, deletes, files) {
  const perFile = Math.floor(deletes / files);
  const tmp = `${file}.tmp-${process.pid}`;
  // Row i belongs to data file i / perFile at position i % perFile, as in the
  // seed's benchmark: already in (file_path, pos) order.
  await connection.run(
    `COPY (SELECT printf(${sqlString(kTemplate)}, (i // ${perFile})::INTEGER) AS file_path, ` +
      `(i % ${perFile})::BIGINT AS pos FROM range(${deletes}) t(i) ORDER BY i) ` +
      `TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION snappy, ` +
      `FIELD_IDS {file_path: 2147483546, pos: 2147483545})`);
  fs.renameSync(tmp, file);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const dataDir = args['data-dir'];
  const files = Number(args.files);
  const deletes = Number(args.deletes || 1000000);
  if (!dataDir || !(files > 0) || !(deletes >= files)) throw new Error('need --data-dir and --files <= --deletes');
  const file = deleteFilePath(dataDir, deletes, files);
  const { connection, version } = await connect(Number(args.threads || 1));
  if (args.write) {
    if (!fs.existsSync(file)) await writeDeleteFile(connection, file, deletes, files);
    emit({ file, version });
    return;
  }
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run with --write first`);
  const query =
    `SELECT count(*)::VARCHAR, sum(c)::VARCHAR, min(c)::VARCHAR, max(c)::VARCHAR FROM ` +
    `(SELECT file_path, count(*) AS c FROM read_parquet(${sqlString(file)}) GROUP BY file_path)`;
  const warmup = Number(args.warmup || 0);
  const reps = Math.max(1, Number(args.reps || 1));
  const { timings, last } = await timeRepetitions(
    async () => (await connection.runAndReadAll(query)).getRows()[0], warmup, reps);
  const result = {
    rows: String(last[0]),
    columns: [{ name: 'cardinality', kind: 'int64', count: String(last[1]), nulls: '0',
      min: String(last[2]), max: String(last[3]) }],
  };
  emit({ timings_ns: timings, result, version, query });
}

main().catch(fail);
