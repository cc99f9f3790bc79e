// Has DuckDB read a Parquet file and print what it sees, one JSON object per
// line, for the writer's cross-check tests:
//   node duckdb_check.mjs FILE              rows of read_parquet(FILE), via to_json
//   node duckdb_check.mjs FILE --metadata   rows of parquet_metadata(FILE)
//   node duckdb_check.mjs FILE --schema     rows of parquet_schema(FILE)
// Exit status 1 with the error on stderr when DuckDB cannot read the file.
import { DuckDBInstance } from '@duckdb/node-api';

const [file, mode] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node duckdb_check.mjs FILE [--metadata|--schema]\n');
  process.exit(2);
}
const literal = `'${file.replace(/'/g, "''")}'`;
let query;
if (mode === '--metadata') {
  query = `SELECT to_json(m)::VARCHAR FROM parquet_metadata(${literal}) m ORDER BY row_group_id, column_id`;
} else if (mode === '--schema') {
  query = `SELECT to_json(s)::VARCHAR FROM parquet_schema(${literal}) s`;
} else {
  query = `SELECT to_json(t)::VARCHAR FROM read_parquet(${literal}) t`;
}
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
