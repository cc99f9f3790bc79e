// DuckDB's side of the predicate cross-check (tests/scan):
//   node predicate_check.mjs --generate DIR
//       writes DIR/duckdb_types.parquet (every type the predicates cover,
//       nulls, several row groups) and prints {"file": ..., "literals":
//       {column: [SQL literal, ...]}} with three literals per column taken
//       from the data (low, middle, high).
//   node predicate_check.mjs --queries FILE.json
//       FILE.json is [{"file": ..., "where": ...}, ...]; prints one JSON array
//       per query: the file row numbers DuckDB selects, ascending.
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [mode, arg] = process.argv.slice(2);
const quote = (text) => `'${String(text).replace(/'/g, "''")}'`;

// Every column is null on its own stride so null handling is exercised
// everywhere; floats are multiples of 1/4 (exact in float and double, no NaN:
// DuckDB orders NaN above every number, SQL-standard IEEE semantics do not).
const COLUMNS = {
  id: 'i::BIGINT',
  b: 'CASE WHEN i % 7 = 0 THEN NULL ELSE i % 3 = 0 END',
  i8: 'CASE WHEN i % 11 = 0 THEN NULL ELSE ((i * 37) % 256 - 128)::TINYINT END',
  i16: 'CASE WHEN i % 13 = 0 THEN NULL ELSE ((i * 7919) % 65536 - 32768)::SMALLINT END',
  i32: 'CASE WHEN i % 17 = 0 THEN NULL ELSE ((i * 104729) % 2000000 - 1000000)::INTEGER END',
  i64: 'CASE WHEN i % 19 = 0 THEN NULL ELSE (i::BIGINT * 9007199254740 - 20000000000000000)::BIGINT END',
  u8: 'CASE WHEN i % 23 = 0 THEN NULL ELSE ((i * 31) % 256)::UTINYINT END',
  u16: 'CASE WHEN i % 29 = 0 THEN NULL ELSE ((i * 7907) % 65536)::USMALLINT END',
  u32: 'CASE WHEN i % 31 = 0 THEN NULL ELSE ((i::BIGINT * 1299709) % 4294967296)::UINTEGER END',
  u64: 'CASE WHEN i % 37 = 0 THEN NULL ELSE (i::UBIGINT * 3689348814741910)::UBIGINT END',
  f32: 'CASE WHEN i % 41 = 0 THEN NULL ELSE (((i * 613) % 4000) - 2000)::FLOAT / 4 END',
  f64: 'CASE WHEN i % 43 = 0 THEN NULL ELSE (((i * 7727) % 400000) - 200000)::DOUBLE / 4 END',
  d9: 'CASE WHEN i % 47 = 0 THEN NULL ELSE ((((i * 4241) % 2000000) - 1000000)::DOUBLE / 100)::DECIMAL(9,2) END',
  d18: 'CASE WHEN i % 53 = 0 THEN NULL ELSE (((i::BIGINT * 15485863) % 100000000000 - 50000000000)::DOUBLE / 10000)::DECIMAL(18,4) END',
  d38: "CASE WHEN i % 59 = 0 THEN NULL ELSE ((CASE WHEN i % 2 = 0 THEN '-' ELSE '' END) || ((i::BIGINT * 982451653) % 1000000000000)::VARCHAR || ((i * 7) % 10)::VARCHAR || '.' || lpad(((i::BIGINT * 1000003) % 10000000000)::VARCHAR, 10, '0'))::DECIMAL(38,10) END",
  s: "CASE WHEN i % 61 = 0 THEN NULL ELSE (['alpha', 'Beta', 'gamma', 'éclair', 'zeta', ''][i % 6 + 1] || ((i * 7) % 500)::VARCHAR) END",
  bl: "CASE WHEN i % 67 = 0 THEN NULL ELSE ('blob' || ((i * 13) % 700)::VARCHAR)::BLOB END",
  dt: "CASE WHEN i % 71 = 0 THEN NULL ELSE DATE '1969-06-01' + ((i * 97) % 30000)::INTEGER END",
  ts: "CASE WHEN i % 73 = 0 THEN NULL ELSE TIMESTAMP '2022-01-01 00:00:00' + to_microseconds(((i * 7919) % 400000000)::BIGINT * 1000) END",
  ts_ms: "CASE WHEN i % 79 = 0 THEN NULL ELSE (TIMESTAMP '1999-12-31 23:00:00' + to_seconds((i * 3571) % 100000))::TIMESTAMP_MS END",
  ts_ns: "CASE WHEN i % 83 = 0 THEN NULL ELSE (TIMESTAMP '2020-02-29 12:00:00' + to_microseconds((i * 7001) % 90000000))::TIMESTAMP_NS END",
  tm: "CASE WHEN i % 89 = 0 THEN NULL ELSE TIME '00:00:00' + to_microseconds(((i * 104723) % 86400000)::BIGINT * 1000) END",
};
const ROWS = 5000;

async function connect() {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  return instance.connect();
}

async function generate(dir) {
  const connection = await connect();
  const select = Object.entries(COLUMNS).map(([name, expr]) => `${expr} AS ${name}`).join(', ');
  await connection.run(`CREATE TABLE t AS SELECT ${select} FROM range(${ROWS}) r(i)`);
  const file = `${dir}/duckdb_types.parquet`;
  await connection.run(`COPY t TO ${quote(file)} (FORMAT parquet, ROW_GROUP_SIZE 2048)`);
  const literals = {};
  for (const name of Object.keys(COLUMNS)) {
    // Low, middle and high non-null values by the column's own order.
    const result = await connection.runAndReadAll(
      `SELECT CAST(v AS VARCHAR) FROM (SELECT ${name} AS v, row_number() OVER (ORDER BY ${name}) AS k,
              count(*) OVER () AS n FROM t WHERE ${name} IS NOT NULL)
       WHERE k IN (greatest(1, n // 10), greatest(1, n // 2), greatest(1, n - n // 10)) ORDER BY k`);
    literals[name] = result.getRows().map((row) => String(row[0]));
  }
  process.stdout.write(JSON.stringify({ file, literals }) + '\n');
}

async function queries(path) {
  const connection = await connect();
  const list = JSON.parse(readFileSync(path, 'utf8'));
  const out = [];
  for (const { file, where } of list) {
    const result = await connection.runAndReadAll(
      `SELECT file_row_number FROM read_parquet(${quote(file)}, file_row_number = true)
       WHERE ${where} ORDER BY 1`);
    out.push(JSON.stringify(result.getRows().map((row) => Number(row[0]))));
  }
  process.stdout.write(out.join('\n') + (out.length ? '\n' : ''));
}

try {
  if (mode === '--generate' && arg) {
    await generate(arg);
  } else if (mode === '--queries' && arg) {
    await queries(arg);
  } else {
    process.stderr.write('usage: node predicate_check.mjs --generate DIR | --queries FILE.json\n');
    process.exit(2);
  }
} catch (error) {
  process.stderr.write(`duckdb: ${error && error.message ? error.message : error}\n`);
  process.exit(1);
}
