// Cross-check writer: DuckDB builds a seeded random table (every type its
// Parquet writer produces, nested up to depth 4, nulls at every level),
// writes it as Parquet with the requested codec / format version /
// dictionary setting, reads the file back and dumps its rows as JSON lines.
// tests/xcheck compares parquetry's reading of the same file with that dump.
//
//   node xcheck_write.js --spec spec.json --out DIR
// spec.json: {"cases": [{"name": "c0", "seed": 7, "rows": 4500, "codec": "zstd",
//              "version": "V2", "dictionary": true}, ...]}
// Writes DIR/<name>.parquet and DIR/<name>.jsonl, prints one JSON line:
// {"version": "...", "cases": [{"name", "rows", "columns": [[name, type], ...]}]}.
// Exit code 3 means the DuckDB module is not installed (the test skips).
'use strict';

const fs = require('fs');
const path = require('path');

let duckdb;
try {
  duckdb = require('@duckdb/node-api');
} catch (e) {
  process.stderr.write(`xcheck: @duckdb/node-api is not installed (${e.message.split('\n')[0]})\n`);
  process.exit(3);
}
const { parseArgs, sqlString, sqlIdent, emit, fail } = require('./lib/common');

// --- seeded choices (mulberry32) -------------------------------------------

function makeRandom(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (items) => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
  };
}

// --- value expressions --------------------------------------------------------
//
// Every value is an SQL expression of the row number `i` (and of the lambda
// variables of the enclosing lists), made pseudo-random by DuckDB's hash()
// salted with the seed and a per-node counter, so the whole table is one
// CREATE TABLE ... AS SELECT over range(rows) and costs no literal parsing.

const SCALARS = ['BOOLEAN', 'TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'UTINYINT', 'USMALLINT', 'UINTEGER',
  'UBIGINT', 'FLOAT', 'DOUBLE', 'DECIMAL(4,2)', 'DECIMAL(18,3)', 'DECIMAL(38,10)', 'DATE', 'TIME', 'TIMESTAMP',
  'TIMESTAMP_MS', 'TIMESTAMP_NS', 'TIMESTAMPTZ', 'VARCHAR', 'BLOB', 'UUID'];

// Fixed strings that stress the UTF-8 and JSON paths: empty, multi-byte, escapes, control bytes, long.
const STRING_POOL = ['', 'a', 'ü', '日本語テキスト', '🦆 duck', 'line\nbreak', 'tab\there', 'quote"d', "apos'trophe",
  'back\\slash', '\u0001ctl', 'x'.repeat(300), 'Ωmega ∑ ≠ ∞', 'mixed ascii and ✓'];

// Labels of the ENUM column (DuckDB writes ENUMs dictionary-encoded whatever the settings).
const ENUM_LABELS = ['sad', 'ok', 'happy', 'überglücklich', '😐', ''];
const ENUM_TYPE = 'xcheck_mood';

class Builder {
  constructor(random, seed) {
    this.random = random;
    this.seed = seed;
    this.salt = 0;
  }

  // A fresh hash draw over the enclosing variables.
  hasher(vars) {
    const salt = ++this.salt;
    let draw = 0;
    return () => `hash(${this.seed}, ${salt}, ${++draw}, ${vars.join(', ')})`;
  }

  // CASE over special values (each drawn with probability 1/(2 * count)) falling back to `general`.
  withSpecials(h, specials, general) {
    if (specials.length === 0) return general;
    const slots = specials.length * 2;
    const key = h();
    const arms = specials.map((s, k) => `WHEN ${k} THEN ${s}`).join(' ');
    return `CASE ${key} % ${slots} ${arms} ELSE ${general} END`;
  }

  // Integer in [lo, hi] (as HUGEINT literals) with a distribution chosen per column.
  integer(h, lo, hi, style) {
    const span = hi - lo + 1n;
    switch (style) {
      case 'sequential': return `(${lo}::HUGEINT + (i * 3 + 1) % ${span})`;
      case 'lowcard': return `(${lo}::HUGEINT + ${h()} % 5)`;
      case 'narrow': return `(${lo}::HUGEINT + ${h()} % ${span < 1000n ? span : 1000n})`;
      default: {
        if (span > 18446744073709551615n) return `(${h()}::HUGEINT + ${lo})`;
        return `(${h()} % ${span}::HUGEINT + ${lo})`;
      }
    }
  }

  scalar(type, vars) {
    const h = this.hasher(vars);
    const style = this.random.pick(['full', 'full', 'narrow', 'lowcard', 'sequential']);
    const ints = {
      TINYINT: [-128n, 127n], SMALLINT: [-32768n, 32767n], INTEGER: [-2147483648n, 2147483647n],
      BIGINT: [-9223372036854775808n, 9223372036854775807n], UTINYINT: [0n, 255n], USMALLINT: [0n, 65535n],
      UINTEGER: [0n, 4294967295n], UBIGINT: [0n, 18446744073709551615n],
    };
    if (ints[type]) {
      const [lo, hi] = ints[type];
      const specials = style === 'full' ? [`(${lo})::${type}`, `(${hi})::${type}`, `0::${type}`] : [];
      return this.withSpecials(h, specials, `${this.integer(h, lo, hi, style)}::${type}`);
    }
    const decimal = /^DECIMAL\((\d+),(\d+)\)$/.exec(type);
    if (decimal) {
      const whole = Number(decimal[1]) - Number(decimal[2]);
      const scale = Number(decimal[2]);
      const digits = (count) => {
        const low = Math.min(count, 18);
        let text = `lpad((${h()} % ${10n ** BigInt(low)})::VARCHAR, ${low}, '0')`;
        if (count > low) text = `(${h()} % ${10n ** BigInt(count - low)})::VARCHAR || ${text}`;
        return text;
      };
      const wholeDigits = style === 'full' ? whole : Math.min(whole, 2);
      const text = `(CASE ${h()} % 2 WHEN 0 THEN '-' ELSE '' END || ${digits(wholeDigits)} || '.' || ${digits(scale)})`;
      return `${text}::${type}`;
    }
    switch (type) {
      case 'BOOLEAN':
        return style === 'sequential' ? `(i % 3 = 0)` : `(${h()} % 2 = 0)`;
      case 'FLOAT':
      case 'DOUBLE': {
        const specials = ["'NaN'", "'Infinity'", "'-Infinity'", "'-0.0'", '0', '1.5',
          type === 'FLOAT' ? "'3.4028235e38'" : "'1.7976931348623157e308'",
          type === 'FLOAT' ? "'1.4e-45'" : "'5e-324'"].map((s) => `${s}::${type}`);
        const general = style === 'lowcard' ? `((${h()} % 5)::${type} / 4)`
          : `((${h()} % 2000001)::BIGINT - 1000000)::${type} / ${style === 'narrow' ? 8 : 997}`;
        return this.withSpecials(h, style === 'full' ? specials : [], general);
      }
      case 'DATE': {
        const specials = ["DATE '0001-01-01'", "DATE '9999-12-31'", "DATE '1970-01-01'", "DATE '1969-12-31'",
          "DATE '0045-03-15 (BC)'"];
        return this.withSpecials(h, style === 'full' ? specials : [],
          `(DATE '1970-01-01' + ${this.integer(h, -100000n, 100000n, style)}::INTEGER)`);
      }
      case 'TIME':
        return this.withSpecials(h, ["TIME '00:00:00'", "TIME '23:59:59.999999'"],
          `(TIME '00:00:00' + to_microseconds(${this.integer(h, 0n, 86399999999n, style)}::BIGINT))`);
      case 'TIMESTAMP':
      case 'TIMESTAMPTZ':
      case 'TIMESTAMP_MS': {
        const micros = this.integer(h, -10000000000000000n, 10000000000000000n, style);
        const specials = ["TIMESTAMP '0001-01-01 00:00:00'", "TIMESTAMP '9999-12-31 23:59:59.999'",
          "TIMESTAMP '1970-01-01 00:00:00'", "TIMESTAMP '1969-12-31 23:59:59.999'"];
        return `${this.withSpecials(h, specials, `make_timestamp(${micros}::BIGINT)`)}::${type}`;
      }
      case 'TIMESTAMP_NS': {
        const nanos = this.integer(h, -9000000000000000000n, 9000000000000000000n, style);
        return this.withSpecials(h, ["'1970-01-01 00:00:00'::TIMESTAMP_NS", "'1677-09-22 00:00:00'::TIMESTAMP_NS"],
          `make_timestamp_ns(${nanos}::BIGINT)`);
      }
      case 'VARCHAR': {
        const pool = `[${STRING_POOL.map(sqlString).join(', ')}]`;
        const fromPool = `${pool}[(1 + ${h()} % ${STRING_POOL.length})::BIGINT]`;
        if (style === 'lowcard') return fromPool;
        // High cardinality: hex of a random length plus two random code points outside the surrogates.
        const random = `(substr(md5(${h()}::VARCHAR) || md5(${h()}::VARCHAR), 1, (${h()} % 65)::INTEGER) || ` +
          `chr((160 + ${h()} % 20000)::INTEGER) || chr((65536 + ${h()} % 1000)::INTEGER))`;
        return `CASE ${h()} % 4 WHEN 0 THEN ${fromPool} ELSE ${random} END`;
      }
      case 'BLOB': {
        const specials = ["''::BLOB", "'\\x00'::BLOB", "'\\xFF\\x00ab\\x22\\x27\\x5C'::BLOB"];
        const general = `unhex(substr(md5(${h()}::VARCHAR) || md5(${h()}::VARCHAR), 1, 2 * (${h()} % 33)::INTEGER))`;
        return this.withSpecials(h, specials, general);
      }
      case ENUM_TYPE:
        return `[${ENUM_LABELS.map(sqlString).join(', ')}][(1 + ${h()} % ${ENUM_LABELS.length})::BIGINT]::${ENUM_TYPE}`;
      case 'UUID': {
        const specials = ["'00000000-0000-0000-0000-000000000000'::UUID", "'ffffffff-ffff-ffff-ffff-ffffffffffff'::UUID",
          "'80000000-0000-0000-0000-000000000000'::UUID", "'7fffffff-ffff-ffff-ffff-ffffffffffff'::UUID"];
        return this.withSpecials(h, specials, `md5(${h()}::VARCHAR)::UUID`);
      }
      default:
        throw new Error(`no generator for ${type}`);
    }
  }

  // A random type tree: {kind: 'scalar'|'list'|'struct'|'map', ...}, at most `depth` levels below.
  randomType(depth) {
    const r = this.random;
    if (depth <= 1 || r.chance(0.35)) return { kind: 'scalar', type: r.pick(SCALARS) };
    const kind = r.pick(['list', 'list', 'struct', 'struct', 'map']);
    if (kind === 'list') return { kind, element: this.randomType(depth - 1) };
    if (kind === 'map') {
      return { kind, key: { kind: 'scalar', type: r.pick(['VARCHAR', 'INTEGER', 'BIGINT']) },
        value: this.randomType(depth - 1) };
    }
    const fields = [];
    const count = 1 + r.int(3);
    for (let k = 0; k < count; k++) fields.push({ name: `f${k}`, type: this.randomType(depth - 1) });
    return { kind, fields };
  }

  nullRate() {
    return this.random.pick([0, 0, 5, 10, 30, 60]);
  }

  // Expression for a value of `spec` (possibly NULL with the node's null rate).
  value(spec, vars, nullRate = this.nullRate()) {
    const body = this.body(spec, vars);
    const h = this.hasher(vars);
    const nullable = nullRate === 0 ? body : `CASE WHEN ${h()} % 100 < ${nullRate} THEN NULL ELSE ${body} END`;
    // DuckDB's CASE cannot produce ARRAY values: an array is built as a list and cast last.
    return spec.kind === 'array' ? `(${nullable})::${spec.element.type}[${spec.size}]` : nullable;
  }

  body(spec, vars) {
    const variable = `x${vars.length}`;
    const inner = [...vars, variable];
    const length = (max) => `range((${this.hasher(vars)()} % ${max + 1})::BIGINT)`;
    switch (spec.kind) {
      case 'scalar': return this.scalar(spec.type, vars);
      case 'list':
        return `list_transform(${length(this.random.pick([1, 3, 6]))}, lambda ${variable}: ` +
          `${this.value(spec.element, inner)})`;
      case 'array': {
        // A fixed-size ARRAY (DuckDB writes it as a LIST): each slot drawn, and possibly null, on its own.
        const slots = Array.from({ length: spec.size }, () => this.value(spec.element, vars));
        return `[${slots.join(', ')}]::${spec.element.type}[]`;
      }
      case 'struct':
        return `struct_pack(${spec.fields.map((f) => `${sqlIdent(f.name)} := ${this.value(f.type, vars)}`).join(', ')})`;
      case 'map': {
        // Keys must be unique and not null: the lambda variable makes them so.
        const h = this.hasher(inner);
        const key = spec.key.type === 'VARCHAR' ? `('k' || ${variable} || '_' || ${h()} % 3)`
          : `(${variable} * 1000 + ${h()} % 1000)::${spec.key.type}`;
        return `map_from_entries(list_transform(${length(4)}, lambda ${variable}: ` +
          `{'key': ${key}, 'value': ${this.value(spec.value, inner)}}))`;
      }
      default: throw new Error(`bad spec ${spec.kind}`);
    }
  }
}

// Every scalar type once, an ENUM and a fixed-size ARRAY, the nested shapes
// (list, list of list, struct, map, struct of list of struct) once, then
// seeded random trees.
function columnsFor(seed) {
  const random = makeRandom(seed);
  const builder = new Builder(random, seed);
  const s = (type) => ({ kind: 'scalar', type });
  const specs = SCALARS.map((type) => ({ name: type.toLowerCase().replace(/[^a-z0-9]+/g, '_'), spec: s(type) }));
  specs.push({ name: 'enum', spec: s(ENUM_TYPE) });
  specs.push({ name: 'array_int3', spec: { kind: 'array', size: 3, element: s('INTEGER') } });
  specs.push({ name: 'list_int', spec: { kind: 'list', element: s('INTEGER') } });
  specs.push({ name: 'list_list_str', spec: { kind: 'list', element: { kind: 'list', element: s('VARCHAR') } } });
  specs.push({ name: 'struct_mixed', spec: { kind: 'struct', fields: [
    { name: 'a', type: s('BIGINT') }, { name: 'b', type: s('VARCHAR') }, { name: 'c', type: s('DOUBLE') }] } });
  specs.push({ name: 'map_str_int', spec: { kind: 'map', key: s('VARCHAR'), value: s('INTEGER') } });
  specs.push({ name: 'struct_list_struct', spec: { kind: 'struct', fields: [
    { name: 'id', type: s('INTEGER') },
    { name: 'items', type: { kind: 'list', element: { kind: 'struct', fields: [
      { name: 'k', type: s('VARCHAR') }, { name: 'v', type: { kind: 'list', element: s('DECIMAL(18,3)') } }] } } }] } });
  const extra = 2 + random.int(4);
  // Now and then a random column is null in every row (a chunk with no values at all).
  for (let k = 0; k < extra; k++) {
    specs.push({ name: `random_${k}`, spec: builder.randomType(4), nullRate: random.chance(0.1) ? 100 : undefined });
  }
  return specs.map(({ name, spec, nullRate }) => `${builder.value(spec, ['i'], nullRate)} AS ${sqlIdent(name)}`);
}

// DuckDB renders TIMESTAMPTZ with its offset ("+00" in UTC); parquetry's SQL
// style prints the UTC instant bare, so the offset is dropped here, by type.
function normalise(value, type) {
  if (value === null || value === undefined) return null;
  switch (type.typeId) {
    case duckdb.DuckDBTypeId.TIMESTAMP_TZ: return String(value).replace(/\+00$/, '');
    case duckdb.DuckDBTypeId.LIST: return value.map((v) => normalise(v, type.valueType));
    case duckdb.DuckDBTypeId.STRUCT: {
      const out = {};
      type.entryNames.forEach((name, k) => { out[name] = normalise(value[name], type.entryTypes[k]); });
      return out;
    }
    case duckdb.DuckDBTypeId.MAP:
      return value.map((e) => ({ key: normalise(e.key, type.keyType), value: normalise(e.value, type.valueType) }));
    default: return value;
  }
}

async function writeCase(connection, c, dir) {
  const file = path.join(dir, `${c.name}.parquet`);
  await connection.run(`CREATE OR REPLACE TABLE generated AS SELECT ${columnsFor(c.seed).join(',\n ')} ` +
    `FROM range(${Number(c.rows)}) r(i) ORDER BY i`);
  const options = [`FORMAT parquet`, `COMPRESSION ${c.codec}`, `PARQUET_VERSION ${c.version}`, `ROW_GROUP_SIZE 2048`];
  if (!c.dictionary) options.push('DICTIONARY_SIZE_LIMIT 0');
  await connection.run(`COPY generated TO ${sqlString(file)} (${options.join(', ')})`);
  const result = await connection.runAndReadAll(`SELECT * FROM read_parquet(${sqlString(file)})`);
  const names = result.columnNames();
  const types = result.columnTypesJson();
  const rows = result.getRowsJson();
  const lines = rows.map((row) => {
    const object = {};
    names.forEach((name, k) => { object[name] = normalise(row[k], types[k]); });
    return JSON.stringify(object);
  });
  fs.writeFileSync(path.join(dir, `${c.name}.jsonl`), lines.length ? lines.join('\n') + '\n' : '');
  const described = result.columnTypes().map((t, k) => [names[k], t.toString()]);
  return { name: c.name, rows: rows.length, columns: described };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const spec = JSON.parse(fs.readFileSync(args.spec, 'utf8'));
  const instance = await duckdb.DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  await connection.run(`SET TimeZone = 'UTC'`);
  await connection.run(`CREATE TYPE ${ENUM_TYPE} AS ENUM (${ENUM_LABELS.map(sqlString).join(', ')})`);
  const version = `${(await connection.runAndReadAll('SELECT version()')).getRows()[0][0]}`;
  const cases = [];
  for (const c of spec.cases) cases.push(await writeCase(connection, c, args.out));
  emit({ version, cases });
}

main().catch(fail);
