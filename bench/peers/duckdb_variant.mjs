// DuckDB's view of VARIANT columns, for the variant interop tests:
//   node duckdb_variant.mjs read FILE COLUMN   one line per row: the column cast to JSON
//                                              (SQL NULL prints as the word NULL), in file order
//   node duckdb_variant.mjs write FILE ROWS    DuckDB writes ROWS generated variants (objects of
//                                              ints, strings, doubles, decimals, uuids, dates,
//                                              nested objects and arrays, some type changes and
//                                              NULLs) to FILE as column `var` with its default
//                                              (inferred) shredding
//   node duckdb_variant.mjs write-typed FILE ROWS
//                                              DuckDB writes ROWS objects {id, ts, tz, t, b} (timestamp,
//                                              timestamptz, time, blob) with an explicit SHREDDING of
//                                              every key into its typed column
//   node duckdb_variant.mjs extract FILE COLUMN PATH
//                                              one line per row: COLUMN.PATH cast to VARCHAR
//   node duckdb_variant.mjs query FILE EXPR    one line per row: EXPR (SQL over the file's columns)
//                                              cast to VARCHAR
// Exit status 1 with the error on stderr when DuckDB fails.
import { DuckDBInstance } from '@duckdb/node-api';

const [mode, file, arg, path] = process.argv.slice(2);
if (!mode || !file) {
  process.stderr.write('usage: node duckdb_variant.mjs read|write|extract FILE ...\n');
  process.exit(2);
}
const literal = `'${file.replace(/'/g, "''")}'`;
const ident = (name) => `"${String(name).replace(/"/g, '""')}"`;

// A deterministic mix: mostly-stable types per key, so DuckDB shreds them,
// with type changes and missing keys every few rows.
const generated = (rows) => `
  SELECT CASE WHEN i % 53 = 7 THEN NULL ELSE
    CASE WHEN i % 41 = 3 THEN ('[1, "two", ' || i || ']')::JSON::VARIANT
    ELSE {
      'id': i,
      'name': 'n' || (i % 100),
      'score': CASE WHEN i % 13 = 0 THEN ('"high"')::JSON::VARIANT ELSE (i * 0.5)::DOUBLE::VARIANT END,
      'price': ((i % 1000) / 100)::DECIMAL(9, 2),
      'uuid': ('00000000-0000-4000-8000-' || lpad(i::VARCHAR, 12, '0'))::UUID,
      'day': DATE '2024-01-01' + (i % 365)::INTEGER,
      'nested': {'a': i % 7, 'b': CASE WHEN i % 5 = 0 THEN NULL ELSE 'x' || i END},
      'tags': ['t' || (i % 3), 't' || (i % 4)]
    }::VARIANT END
  END AS var
  FROM range(${Number(rows)}) t(i)`;

let queries;
if (mode === 'read') {
  // A SQL NULL VARIANT casts to the JSON text 'null'; keep it NULL.
  const c = ident(arg);
  queries = [`SELECT CASE WHEN ${c} IS NULL THEN NULL ELSE ${c}::JSON::VARCHAR END FROM read_parquet(${literal})`];
} else if (mode === 'extract') {
  const steps = String(path).split('.').map((k) => `['${k.replace(/'/g, "''")}']`).join('');
  queries = [`SELECT (${ident(arg)}${steps})::VARCHAR FROM read_parquet(${literal})`];
} else if (mode === 'write') {
  queries = [`COPY (${generated(arg)}) TO ${literal} (FORMAT parquet)`];
} else if (mode === 'write-typed') {
  queries = [`COPY (SELECT CASE WHEN i % 10 = 9 THEN NULL ELSE {
      'id': i,
      'ts': TIMESTAMP '2024-01-01' + INTERVAL (i * 1000003) MICROSECOND,
      'tz': TIMESTAMPTZ '2024-01-01 00:00:00+00' - INTERVAL (i * 7) SECOND,
      't': TIME '10:00:00' + INTERVAL (i * 13) MICROSECOND,
      'b': from_hex(lpad(printf('%x', i * 2654435761 % 4294967296), 8, '0'))
    }::VARIANT END AS var FROM range(${Number(arg)}) t(i))
    TO ${literal} (FORMAT parquet, SHREDDING {var: 'STRUCT(id BIGINT, ts TIMESTAMP, tz TIMESTAMPTZ, t TIME, b BLOB)'})`];
} else if (mode === 'query') {
  queries = [`SELECT (${arg})::VARCHAR FROM read_parquet(${literal})`];
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
try {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  const out = [];
  for (const query of queries) {
    const result = await connection.runAndReadAll(query);
    if (!mode.startsWith('write')) for (const row of result.getRows()) out.push(row[0] === null ? 'NULL' : String(row[0]));
  }
  process.stdout.write(out.length ? out.join('\n') + '\n' : '');
} catch (error) {
  process.stderr.write(`duckdb: ${error && error.message ? error.message : error}\n`);
  process.exit(1);
}
