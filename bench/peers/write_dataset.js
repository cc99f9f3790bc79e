// Has DuckDB write a generated dataset as Parquet (snappy): the generator's
// CSV hand-off is read with explicit column types (TIMESTAMP, BIGINT[],
// DOUBLE[] ...) so the file carries the intended schema.
//
//   node write_dataset.js --csv in.csv --columns columns.json --out out.parquet
// columns.json: [{"name": "VendorID", "type": "BIGINT"}, ...]
'use strict';

const fs = require('fs');
const { parseArgs, sqlString, connect, emit, fail } = require('./lib/common');

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const columns = JSON.parse(fs.readFileSync(args.columns, 'utf8'));
  const { connection, version } = await connect(Number(args.threads || 2));
  const types = columns.map((c) => `${sqlString(c.name)}: ${sqlString(c.type)}`).join(', ');
  const read = `read_csv(${sqlString(args.csv)}, header = true, delim = ',', quote = '"', escape = '"', ` +
    `nullstr = '', auto_detect = false, columns = {${types}})`;
  await connection.run(
    `COPY (SELECT * FROM ${read}) TO ${sqlString(args.out)} (FORMAT parquet, COMPRESSION snappy)`);
  const rows = (await connection.runAndReadAll(
    `SELECT count(*)::VARCHAR FROM read_parquet(${sqlString(args.out)})`)).getRows()[0][0];
  emit({ rows: String(rows), version });
}

main().catch(fail);
