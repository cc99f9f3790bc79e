#!/usr/bin/env bash
# The HTML report opens in headless Chromium without network and draws one
# chart per suite, with bars, from a small fixed results file.
set -euo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/results.json" <<'JSON'
{"schema":"parquetry-bench/1","created":"2026-01-02T03:04:05Z",
 "settings":{"profile":"test","warmup":1,"measure":3,"forks":1,"iteration_seconds":0.1,"mode_override":""},
 "machine":{"cpu_model":"Test CPU","cores":2,"memory_kb":1000,"kernel":"Linux","compiler":"gcc 12","cxx_flags":"-O3",
            "build_type":"Release","git_commit":"0123456789abcdef","git_dirty":false,"node":"v20",
            "benchmark_library":"Google Benchmark 1.7.1","peers":"duckdb v1.5.6"},
 "datasets":[{"name":"taxi","path":"/dev/shm/x","rows":2463931,"bytes":40000000,"params":"generator=1",
              "content_checksum":"aa","file_checksum":"bb"}],
 "cases":[
  {"benchmark":"reader.full_scan:columnar/dataset=taxi","suite":"reader","table":"reader.full_scan","case":"columnar",
   "params":{"dataset":"taxi"},"params_text":"dataset=taxi","engine":"parquetry","peer":false,"mode":"avgt","status":"ok",
   "message":"","verified":true,"cnt":3,"score_ns":2.0e8,"error_ns":1.0e7,"mean_ns":2.0e8,"stddev_ns":5e6,"min_ns":1.9e8,
   "max_ns":2.1e8,"samples_ns":[1.9e8,2.0e8,2.1e8],"bytes_per_op":1048576,"allocs_per_op":12,"peak_rss_kb":300000,
   "baseline":"reader.full_scan:duckdb/dataset=taxi","ratio_vs_baseline":2.04},
  {"benchmark":"reader.full_scan:duckdb/dataset=taxi","suite":"reader","table":"reader.full_scan","case":"duckdb",
   "params":{"dataset":"taxi"},"params_text":"dataset=taxi","engine":"duckdb","peer":true,"mode":"avgt","status":"ok",
   "message":"","verified":false,"cnt":3,"score_ns":4.08e8,"error_ns":2.0e7,"mean_ns":4.08e8,"stddev_ns":1e7,"min_ns":4.0e8,
   "max_ns":4.2e8,"samples_ns":[4.0e8,4.08e8,4.2e8],"bytes_per_op":null,"allocs_per_op":null,"peak_rss_kb":500000,
   "baseline":"reader.full_scan:duckdb/dataset=taxi","ratio_vs_baseline":1.0},
  {"benchmark":"encoding:BM_Encoding_Plain/1024","suite":"encoding","table":"encoding","case":"BM_Encoding_Plain",
   "params":{},"params_text":"1024","engine":"parquetry","peer":false,"mode":"avgt","status":"ok","message":"",
   "verified":false,"cnt":3,"score_ns":850,"error_ns":40,"mean_ns":850,"stddev_ns":20,"min_ns":830,"max_ns":870,
   "samples_ns":[830,850,870],"bytes_per_op":0,"allocs_per_op":0,"peak_rss_kb":20000,
   "baseline":"encoding:BM_Encoding_Plain/1024","ratio_vs_baseline":1.0},
  {"benchmark":"encoding:BM_Encoding_Rle/1024","suite":"encoding","table":"encoding","case":"BM_Encoding_Rle",
   "params":{},"params_text":"1024","engine":"parquetry","peer":false,"mode":"avgt","status":"failed",
   "message":"fork 1 exited with status 134 without a result","verified":false,"cnt":0,"score_ns":null,"error_ns":null,
   "mean_ns":null,"stddev_ns":null,"min_ns":null,"max_ns":null,"samples_ns":[],"bytes_per_op":null,"allocs_per_op":null,
   "peak_rss_kb":0,"baseline":"encoding:BM_Encoding_Plain/1024","ratio_vs_baseline":null}
 ]}
JSON

node "$src/bench/report/report.js" --results "$tmp/results.json" --html "$tmp/report.html"
if grep -Eq '(src|href)="https?:' "$tmp/report.html"; then
  echo "report references the network" >&2
  exit 1
fi

chrome=(chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
        --disable-sync --no-first-run --user-data-dir="$tmp/profile")
timeout 40 "${chrome[@]}" --dump-dom "file://$tmp/report.html" > "$tmp/dom.html" 2> "$tmp/chrome.log" || {
  cat "$tmp/chrome.log" >&2
  exit 1
}
timeout 40 "${chrome[@]}" --window-size=1000,1600 --screenshot="$tmp/shot.png" "file://$tmp/report.html" \
  >> "$tmp/chrome.log" 2>&1 || {
  cat "$tmp/chrome.log" >&2
  exit 1
}

node - "$tmp/dom.html" "$(node "$src/tests/bench/png_stats.js" "$tmp/shot.png")" <<'NODE'
const fs = require('fs');
const dom = fs.readFileSync(process.argv[2], 'utf8');
const shot = JSON.parse(process.argv[3]);
const fail = (message) => { console.error(`report test: ${message}`); process.exit(1); };
const charts = [...dom.matchAll(/<svg class="chart" data-suite="([^"]+)"[\s\S]*?<\/svg>/g)];
const suites = charts.map((m) => m[1]);
if (JSON.stringify(suites) !== JSON.stringify(['reader', 'encoding'])) fail(`charts for ${suites}, want reader, encoding`);
for (const [chart, suite] of charts.map((m) => [m[0], m[1]])) {
  const bars = (chart.match(/<rect class="bar"/g) || []).length;
  const want = suite === 'reader' ? 2 : 1;
  if (bars !== want) fail(`suite ${suite}: ${bars} bars, want ${want}`);
  if (suite === 'reader' && !/data-peer="true"/.test(chart)) fail('reader chart has no peer bar');
  if (suite === 'reader' && (chart.match(/class="error-bar"/g) || []).length !== 2) fail('reader chart lacks error bars');
  if (suite === 'encoding' && !/FAILED/.test(chart)) fail('failed case not marked in the encoding chart');
}
if (!/2\.04x/.test(dom)) fail('ratio column missing');
if (shot.width < 900 || shot.height < 1000) fail(`screenshot ${shot.width}x${shot.height}`);
if (shot.colors < 8 || shot.non_white < 5000) fail(`screenshot looks blank: ${JSON.stringify(shot)}`);
console.log(`report test: ${charts.length} charts, screenshot ${JSON.stringify(shot)}`);
NODE
