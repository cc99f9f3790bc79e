// Has DuckDB run one query and print its rows, one line each, columns
// separated by tabs (for checks whose rows are too large to render whole,
// such as digests of gigabyte strings):
//   node duckdb_query.mjs SQL
// Exit status 1 with DuckDB's error on stderr when the query fails.
import { DuckDBInstance } from '@duckdb/node-api';

const [query] = process.argv.slice(2);
if (!query) {
  process.stderr.write('usage: node duckdb_query.mjs SQL\n');
  process.exit(2);
}
try {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  const result = await connection.runAndReadAll(query);
  const lines = result.getRows().map((row) => row.map((cell) => String(cell)).join('\t'));
  process.stdout.write(lines.length ? lines.join('\n') + '\n' : '');
} catch (error) {
  process.stderr.write(`duckdb: ${error && error.message ? error.message : error}\n`);
  process.exit(1);
}
