// Shared helpers of the peer scripts: argument parsing, one DuckDB instance
// with a matched thread count, and the timing loop every peer uses.
'use strict';

const { DuckDBInstance } = require('@duckdb/node-api');

/** Parses "--key value" pairs (and bare "--flag") into an object. */
function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const key = a.slice(2);
    if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) {
      args[key] = argv[++i];
    } else {
      args[key] = true;
    }
  }
  return args;
}

/** Quotes a string as an SQL literal. */
function sqlString(text) {
  return `'${String(text).replace(/'/g, "''")}'`;
}

/** Quotes an identifier. */
function sqlIdent(name) {
  return `"${String(name).replace(/"/g, '""')}"`;
}

/** An in-memory DuckDB connection running on `threads` threads. */
async function connect(threads) {
  const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const connection = await instance.connect();
  await connection.run(`SET threads = ${Number(threads)}`);
  const version = (await connection.runAndReadAll('SELECT version()')).getRows()[0][0];
  return { instance, connection, version: `${version}` };
}

/**
 * Runs `work` `warmup` times untimed, then `reps` times timed with the
 * monotonic clock; returns the timings in nanoseconds and the last value.
 */
async function timeRepetitions(work, warmup, reps) {
  let last;
  for (let i = 0; i < warmup; i++) last = await work();
  const timings = [];
  for (let i = 0; i < reps; i++) {
    const start = process.hrtime.bigint();
    last = await work();
    timings.push(Number(process.hrtime.bigint() - start));
  }
  return { timings, last };
}

/** Prints the one JSON line the harness reads, then exits. */
function emit(object) {
  process.stdout.write(JSON.stringify(object) + '\n');
}

function fail(error) {
  process.stderr.write(`peer: ${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
}

module.exports = { parseArgs, sqlString, sqlIdent, connect, timeRepetitions, emit, fail };
