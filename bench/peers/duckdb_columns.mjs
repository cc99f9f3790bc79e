// Has DuckDB read only some columns of a Parquet file, one JSON object per
// row (for the encryption cross-check: the clear columns of a file whose
// other columns are encrypted):
//   node duckdb_columns.mjs FILE COLUMN [COLUMN...]
// Exit status 1 with DuckDB's error on stderr when it cannot read them.
import { DuckDBInstance } from '@duckdb/node-api';

const [file, ...columns] = process.argv.slice(2);
if (!file || columns.length === 0) {
  process.stderr.write('usage: node duckdb_columns.mjs FILE COLUMN [COLUMN...]\n');
  process.exit(2);
}
const literal = `'${file.replace(/'/g, "''")}'`;
const list = columns.map((c) => `"${c.replace(/"/g, '""')}"`).join(', ');
const query = `SELECT to_json(t)::VARCHAR FROM (SELECT ${list} FROM read_parquet(${literal})) t`;
try {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  const result = await connection.runAndReadAll(query);
  const lines = result.getRows().map((row) => String(row[0]));
  process.stdout.write(lines.length ? lines.join('\n') + '\n' : '');
} catch (error) {
  process.stderr.write(`duckdb: ${error && error.message ? error.message : error}\n`);
  process.exit(1);
}
