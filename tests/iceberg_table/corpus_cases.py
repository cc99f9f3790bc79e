#!/usr/bin/env python3
"""Runs the Iceberg corpus cases (../shared/testdata/iceberg/cases.jsonl)
through `parquetry iceberg scan` and compares the rows with the expected
results as the corpus README says: multisets unless the case is sorted,
floats approximately, values by type (booleans as 1/0, blobs as \\xNN,
timestamptz in the session time zone).

Each case's DuckDB SQL is translated to CLI arguments: the projection
(`*`, a column list, `* EXCLUDE (...)`, count(*) or the TPC-H Q6 sum), the
WHERE clause (the predicate syntax parse_predicate reads; `'...'::BLOB`
becomes the raw bytes), `iceberg_scan` options (`version`, `snapshot_from_id`,
`snapshot_from_timestamp`, a metadata file path), and ORDER BY (applied here
to our rows before an ordered comparison). A few cases are rewritten by hand
into an equivalent scan (joins with a constant VALUES list, CASE). Cases that
exercise DuckDB-only behaviour are skipped with the reason printed.

Exit status 1 when any case fails; prints run / passed / skipped counts.
"""
import argparse
import base64
import datetime
import decimal
import json
import os
import re
import subprocess
import sys

try:
    from zoneinfo import ZoneInfo
except ImportError:  # pragma: no cover
    ZoneInfo = None

SKIP_TAGS = {
    "duckdb_filename_column": "DuckDB's virtual `filename` column",
    "describe_schema": "DESCRIBE prints DuckDB type names",
}


def skip_reason(case):
    if case["kind"] == "error":
        return "error case: the expected text is DuckDB's own error message / option check"
    for tag, why in SKIP_TAGS.items():
        if tag in case.get("tags", []):
            return why
    return None


SCAN_RE = re.compile(
    r"^\s*select\s+(?P<select>.*?)\s+from\s+(?P<from>.*?)iceberg_scan\s*\(\s*'(?P<target>[^']*)'(?P<args>[^)]*)\)(?:\s+(?!where\b|order\b|join\b|limit\b)(?P<alias>\w+))?"
    r"(?P<rest>.*)$",
    re.IGNORECASE | re.DOTALL,
)


def split_rest(rest):
    rest = rest.strip().rstrip(";").strip()
    where = order = None
    m = re.search(r"\border\s+by\s+(.*)$", rest, re.IGNORECASE | re.DOTALL)
    if m:
        order = m.group(1).strip()
        rest = rest[: m.start()].strip()
    m = re.search(r"\blimit\s+\d+\s*$", rest, re.IGNORECASE)
    if m:
        rest = rest[: m.start()].strip()
    m = re.match(r"^where\s+(.*)$", rest, re.IGNORECASE | re.DOTALL)
    if m:
        where = m.group(1).strip()
    elif rest:
        raise ValueError("cannot translate: " + rest)
    return where, order


def blob_literal(match):
    text = match.group(1)
    out = bytearray()
    i = 0
    while i < len(text):
        if text.startswith("\\x", i):
            out.append(int(text[i + 2 : i + 4], 16))
            i += 4
        else:
            out += text[i].encode()
            i += 1
    return out


def where_bytes(where):
    """The WHERE text as bytes, with '...'::BLOB literals as raw bytes."""
    out = bytearray()
    pos = 0
    for m in re.finditer(r"'((?:[^']|'')*)'::BLOB", where, re.IGNORECASE):
        out += where[pos : m.start()].encode()
        out += b"'" + bytes(blob_literal(m)) + b"'"
        pos = m.end()
    out += where[pos:].encode()
    return bytes(out)


# Hand translations: case id -> (select, where, order, post) where post
# computes extra columns from the scanned ones.
def case_role(row):
    return ["not null" if row.get("value") == "foo" else None]


MANUAL = {
    # JOIN (VALUES (1), (4), (5), (6)) USING (id) WHERE id >= 4: a semi-join on constants.
    "c026": dict(columns=["id", "name"], where="id IN (1, 4, 5, 6) AND id >= 4", order="ALL"),
    # A cross join with one constant row changes nothing.
    "c034": dict(columns=["bir"], where=None, order="ALL"),
    "c035": dict(columns=["bir"], where=None, order="ALL"),
    # role = CASE WHEN value = 'foo' THEN 'not null' END; WHERE role IS NULL / IS NOT NULL.
    "c038": dict(columns=["id", "value"], where="value IS NULL OR value <> 'foo'", order="id",
                 post=lambda r: [r["id"]] + case_role(r)),
    "c039": dict(columns=["id", "value"], where="value = 'foo'", order="id",
                 post=lambda r: [r["id"]] + case_role(r)),
}


class Case:
    def __init__(self, case, corpus, cli):
        self.case = case
        self.corpus = corpus
        self.cli = cli


# Threads of every `iceberg scan` (--threads): above 1 each data file is
# read by a worker of its own, and the results must not change.
SCAN_THREADS = 1


def run_cli(cli, args):
    proc = subprocess.run([cli] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError("parquetry exited %d: %s" % (proc.returncode, proc.stderr.decode(errors="replace").strip()))
    return proc.stdout.decode()


def table_args(case, corpus, target):
    args = [os.path.join(corpus, target).encode()]
    opts = case.get("options") or {}
    if "version" in opts:
        args += [b"--version", str(opts["version"]).encode()]
    if "snapshot_from_id" in opts:
        args += [b"--snapshot", str(opts["snapshot_from_id"]).encode()]
    if "snapshot_from_timestamp" in opts:
        args += [b"--as-of", str(opts["snapshot_from_timestamp"]).encode()]
    return args


def schema_columns(cli, table_arg):
    info = json.loads(run_cli(cli, [b"iceberg", b"info", b"--json"] + table_arg))
    current = [s for s in info["schemas"] if s["schema-id"] == info["current-schema-id"]][0]
    return [f["name"] for f in current["fields"]]


# --- value comparison -------------------------------------------------------

def duck_blob(raw):
    out = []
    for b in raw:
        if 32 <= b < 127 and b != ord("\\"):
            out.append(chr(b))
        else:
            out.append("\\x%02X" % b)
    return "".join(out)


def render_timestamp(text, tz):
    t = text.replace("Z", "+00:00")
    try:
        dt = datetime.datetime.fromisoformat(t)
    except ValueError:
        return None
    frac = ""
    if dt.tzinfo is not None:
        if tz and ZoneInfo is not None:
            dt = dt.astimezone(ZoneInfo(tz))
        off = dt.utcoffset()
        minutes = int(off.total_seconds() // 60)
        sign = "+" if minutes >= 0 else "-"
        minutes = abs(minutes)
        suffix = "%s%02d" % (sign, minutes // 60) + (":%02d" % (minutes % 60) if minutes % 60 else "")
    else:
        suffix = ""
    if dt.microsecond:
        frac = (".%06d" % dt.microsecond).rstrip("0")
    # strftime drops the leading zeros of years below 1000; DuckDB prints four digits.
    return "%04d-%02d-%02d %02d:%02d:%02d" % (dt.year, dt.month, dt.day, dt.hour, dt.minute,
                                             dt.second) + frac + suffix


def value_matches(ours, expected, tz):
    if expected is None or ours is None:
        return expected is None and ours is None
    if isinstance(ours, bool):
        return expected.lower() in (("true", "1") if ours else ("false", "0"))
    if isinstance(ours, (int,)):
        return str(ours) == expected
    if isinstance(ours, float):
        try:
            e = float(expected)
        except ValueError:
            return False
        return abs(ours - e) <= 1e-6 * max(1.0, abs(e))
    if isinstance(ours, (list, dict)):
        return json.dumps(ours) == expected
    s = str(ours)
    if s == expected:
        return True
    # Times print with microseconds; DuckDB drops a zero fraction.
    if re.fullmatch(r"\d\d:\d\d:\d\d\.\d+", s) and s.rstrip("0").rstrip(".") == expected:
        return True
    # Decimals print as text; compare exactly as numbers.
    try:
        return decimal.Decimal(s) == decimal.Decimal(expected)
    except (decimal.InvalidOperation, ValueError):
        pass
    ts = render_timestamp(s, tz) if re.match(r"^\d{4}-\d\d-\d\dT", s) else None
    if ts is not None and ts == expected:
        return True
    if "\\x" in expected or True:
        try:
            raw = base64.b64decode(s, validate=True)
            if duck_blob(raw) == expected:
                return True
            if len(raw) == 16:
                h = raw.hex()
                if "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:]) == expected:
                    return True
        except (ValueError, base64.binascii.Error):
            pass
    return False


def sort_key(row):
    def one(v):
        if v is None:
            return (1, 0, "")
        if isinstance(v, bool):
            return (0, int(v), "")
        if isinstance(v, (int, float)):
            return (0, v, "")
        try:
            return (0, decimal.Decimal(str(v)), "")
        except (decimal.InvalidOperation, ValueError):
            return (0, 0, str(v))
    return [one(v) for v in row]


def rows_match(ours, expected, ordered, tz):
    if len(ours) != len(expected):
        return "row count %d, expected %d" % (len(ours), len(expected))
    if ordered:
        for i, (o, e) in enumerate(zip(ours, expected)):
            if len(o) != len(e) or not all(value_matches(a, b, tz) for a, b in zip(o, e)):
                return "row %d: %r, expected %r" % (i, o, e)
        return None
    unused = list(range(len(ours)))
    for e in expected:
        hit = None
        for k in unused:
            o = ours[k]
            if len(o) == len(e) and all(value_matches(a, b, tz) for a, b in zip(o, e)):
                hit = k
                break
        if hit is None:
            return "expected row %r not found among %r" % (e, ours)
        unused.remove(hit)
    return None


def run_case(case, corpus, cli):
    sql = case["sql"].replace("${CORPUS}/", "")
    m = SCAN_RE.match(sql)
    if not m:
        raise ValueError("cannot translate SQL")
    target = m.group("target")
    table_arg = table_args(case, corpus, target)
    manual = MANUAL.get(case["id"])
    select = m.group("select").strip()
    where, order = split_rest(m.group("rest")) if not manual else (None, None)
    post = None
    aggregate = None
    if manual:
        columns, where, order, post = manual["columns"], manual["where"], manual["order"], manual.get("post")
    elif re.fullmatch(r"count\(\*\)", select, re.IGNORECASE):
        columns = "count"
    elif re.fullmatch(r"sum\(l_extendedprice \* l_discount\) AS revenue", select, re.IGNORECASE):
        columns = ["l_extendedprice", "l_discount"]
        aggregate = "q6"
    elif select == "*":
        columns = None
    elif re.fullmatch(r"\*\s+EXCLUDE\s*\(([^)]*)\)", select, re.IGNORECASE):
        excluded = [c.strip() for c in re.fullmatch(r"\*\s+EXCLUDE\s*\(([^)]*)\)", select, re.IGNORECASE).group(1).split(",")]
        columns = [c for c in schema_columns(cli, table_arg) if c not in excluded]
    else:
        columns = [c.strip().strip('"') for c in select.split(",")]
        if not all(re.fullmatch(r"\w+", c) for c in columns):
            raise ValueError("cannot translate projection " + select)
    args = [b"iceberg", b"scan"] + table_arg + [b"--threads", str(SCAN_THREADS).encode()]
    if where:
        args += [b"--where", where_bytes(where)]
    if columns == "count":
        args.append(b"--count")
        out = run_cli(cli, args)
        rows = [[int(out.strip())]]
    else:
        if columns:
            args += [b"--columns", ",".join(columns).encode()]
        out = run_cli(cli, args)
        rows = []
        for line in out.splitlines():
            obj = json.loads(line, parse_float=float)
            if post:
                rows.append(post(obj))
            elif columns:
                rows.append([obj.get(c) for c in columns])
            else:
                rows.append(list(obj.values()))
        if aggregate == "q6":
            total = sum((decimal.Decimal(str(r[0])) * decimal.Decimal(str(r[1])) for r in rows), decimal.Decimal(0))
            rows = [[str(total)]]
    ordered = bool(case.get("sorted"))
    if order:
        if order.strip().upper() == "ALL":
            rows.sort(key=sort_key)
        else:
            names = [o.strip() for o in order.split(",")]
            cols = columns if isinstance(columns, list) else None
            if cols is None:
                cols = schema_columns(cli, table_arg)
            if post:
                cols = ["id", "role"]
            idx = [cols.index(n.split()[0]) for n in names]
            rows.sort(key=lambda r: sort_key([r[i] for i in idx]))
    settings = case.get("settings") or {}
    tz = settings.get("TimeZone") or settings.get("timezone") or "UTC"
    return rows_match(rows, case["expected"], ordered, tz)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--only", default="")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--threads", type=int, default=1)
    a = parser.parse_args()
    global SCAN_THREADS
    SCAN_THREADS = a.threads
    cases_path = os.path.join(a.corpus, "cases.jsonl")
    if not os.path.exists(cases_path):
        print("corpus not found at %s: nothing to run" % a.corpus)
        return 1
    cases = [json.loads(l) for l in open(cases_path)]
    run = passed = 0
    skipped = []
    failed = []
    for case in cases:
        if a.only and case["id"] not in a.only.split(","):
            continue
        reason = skip_reason(case)
        if reason:
            skipped.append((case["id"], reason))
            continue
        run += 1
        try:
            problem = run_case(case, a.corpus, a.cli)
        except Exception as e:  # noqa: BLE001 - report every failure
            problem = "%s: %s" % (type(e).__name__, e)
        if problem:
            failed.append((case["id"], problem))
        else:
            passed += 1
            if a.verbose:
                print("PASS %s" % case["id"])
    for cid, why in skipped:
        print("SKIP %s: %s" % (cid, why))
    for cid, why in failed:
        print("FAIL %s: %s" % (cid, why[:600]))
    print("cases: %d run, %d passed, %d failed, %d skipped" % (run, passed, len(failed), len(skipped)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
