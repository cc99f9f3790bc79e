// Has DuckDB read pairs of Parquet files and say whether each pair holds the
// same values, for the rewrite fidelity test (one process for all pairs, so
// the test does not pay DuckDB's start-up per file):
//   node duckdb_same.mjs LIST
// LIST holds one pair per line, "A<TAB>B". For each pair one line is printed:
//   SAME <rows>                     every row of A renders (to_json) as B's
//   DIFF <row> <A's row> <B's row>  the first row that differs (or a missing row)
//   ERROR <A|B> <message>           DuckDB could not read that file
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [list] = process.argv.slice(2);
if (!list) {
  process.stderr.write('usage: node duckdb_same.mjs LIST\n');
  process.exit(2);
}
const pairs = readFileSync(list, 'utf8')
  .split('\n')
  .filter((line) => line.length > 0)
  .map((line) => line.split('\t'));

let instance;
let connection;
async function open() {
  instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  connection = await instance.connect();
}
await open();

// An INTERNAL or FATAL error invalidates the database: the file is reported
// and a fresh one serves the next pairs.
async function rows(file) {
  const literal = `'${file.replace(/'/g, "''")}'`;
  try {
    const result = await connection.runAndReadAll(`SELECT to_json(t)::VARCHAR FROM read_parquet(${literal}) t`);
    return result.getRows().map((row) => String(row[0]));
  } catch (error) {
    if (/^(INTERNAL|FATAL) Error/.test(String(error && error.message ? error.message : error))) await open();
    throw error;
  }
}

for (const [a, b] of pairs) {
  let left;
  let right;
  try {
    left = await rows(a);
  } catch (error) {
    process.stdout.write(`ERROR A ${String(error && error.message ? error.message : error).split('\n')[0]}\n`);
    continue;
  }
  try {
    right = await rows(b);
  } catch (error) {
    process.stdout.write(`ERROR B ${String(error && error.message ? error.message : error).split('\n')[0]}\n`);
    continue;
  }
  const n = Math.max(left.length, right.length);
  let diff = -1;
  for (let i = 0; i < n && diff < 0; ++i) {
    if (left[i] !== right[i]) diff = i;
  }
  if (diff < 0) {
    process.stdout.write(`SAME ${left.length}\n`);
  } else {
    process.stdout.write(`DIFF ${diff} ${left[diff] ?? '<none>'} ${right[diff] ?? '<none>'}\n`);
  }
}
