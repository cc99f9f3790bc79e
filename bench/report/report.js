#!/usr/bin/env node
// Turns a parquetry-bench results file (bench-results/results.json, schema in
// docs/benchmarks.md) into a self-contained HTML report: no script, font or
// style is fetched at view time; every chart is inline SVG drawn here. One
// chart per suite, one panel per table, bars grouped by parameter set with
// peer bars beside ours and 99.9% error whiskers.
//
//   node report.js --results results.json [--html report.html] [--markdown-into docs/benchmarks.md]
'use strict';

const fs = require('fs');

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || i + 1 >= argv.length) throw new Error(`bad arguments near ${argv[i]}`);
    args[argv[i].slice(2)] = argv[i + 1];
  }
  return args;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** Largest unit whose smallest score stays >= 1, like the terminal tables. */
function unitFor(cases) {
  const scores = cases.filter((c) => c.status === 'ok' && Number.isFinite(c.score_ns)).map((c) => c.score_ns);
  const smallest = scores.length ? Math.min(...scores) : 1;
  if (smallest >= 1e9) return { name: 's/op', ns: 1e9 };
  if (smallest >= 1e6) return { name: 'ms/op', ns: 1e6 };
  if (smallest >= 1e3) return { name: 'us/op', ns: 1e3 };
  return { name: 'ns/op', ns: 1 };
}

/** Three decimals, one for large values; `like` picks the decimals (an error follows its score). */
function fmt(value, digits = 3, like = value) {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return Math.abs(like) >= 1000 ? value.toFixed(1) : value.toFixed(digits);
}

function fmtBytes(bytes) {
  if (bytes === null || bytes === undefined || bytes < 0) return '-';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let u = 0;
  while (bytes >= 1024 && u < units.length - 1) { bytes /= 1024; u++; }
  return u === 0 ? `${Math.round(bytes)} B` : `${bytes.toFixed(2)} ${units[u]}`;
}

function groupBy(items, key) {
  const map = new Map();
  for (const item of items) {
    const k = key(item);
    if (!map.has(k)) map.set(k, []);
    map.get(k).push(item);
  }
  return map;
}

const PALETTE = ['#2f6db5', '#5b9bd5', '#1f4e79', '#70ad47', '#7f6000', '#8e7cc3'];
const PEER_COLOR = '#e07b39';

/** One SVG for a suite: a panel per table, a group per parameter set, a bar per case. */
function suiteChart(suite, cases) {
  const width = 900, labelWidth = 300, barHeight = 16, gap = 4, groupGap = 12, panelGap = 28;
  const plotWidth = width - labelWidth - 90;
  let y = 10;
  const parts = [];
  const tables = groupBy(cases, (c) => c.table);
  const caseNames = [...new Set(cases.filter((c) => !c.peer).map((c) => c.case))];
  for (const [table, rows] of tables) {
    const unit = unitFor(rows);
    const ok = rows.filter((r) => r.status === 'ok' && Number.isFinite(r.score_ns));
    const max = Math.max(1e-12, ...ok.map((r) => (r.score_ns + (Number.isFinite(r.error_ns) ? r.error_ns : 0)) / unit.ns));
    const scale = (v) => (v / max) * plotWidth;
    parts.push(`<text class="panel-title" x="0" y="${y + 12}" font-weight="bold">${escapeHtml(table)} (${unit.name}, lower is better)</text>`);
    y += 22;
    const panelTop = y;
    for (const [params, group] of groupBy(rows, (r) => r.params_text)) {
      // A lone bar (plain benchmarks) carries its parameters on its own line.
      const lone = group.length === 1 && !group[0].peer;
      if (!lone) {
        parts.push(`<text class="group-label" x="0" y="${y + 12}" fill="#555">${escapeHtml(params || '(no params)')}</text>`);
        y += barHeight + gap;
      }
      for (const row of group) {
        const color = row.peer ? PEER_COLOR : PALETTE[caseNames.indexOf(row.case) % PALETTE.length];
        const label = row.peer ? `${row.engine} (peer)` : lone && params ? `${row.case} ${params}` : row.case;
        parts.push(`<text x="${lone ? 0 : 16}" y="${y + 12}">${escapeHtml(label.length > 48 ? label.slice(0, 47) + '…' : label)}</text>`);
        if (row.status !== 'ok' || !Number.isFinite(row.score_ns)) {
          parts.push(`<text class="failed" x="${labelWidth}" y="${y + 12}" fill="#c00000">FAILED</text>`);
        } else {
          const score = row.score_ns / unit.ns;
          const w = Math.max(1, scale(score));
          parts.push(`<rect class="bar" data-case="${escapeHtml(row.benchmark)}" data-peer="${row.peer}" x="${labelWidth}" y="${y}" width="${w.toFixed(1)}" height="${barHeight}" fill="${color}"><title>${escapeHtml(row.benchmark)}: ${fmt(score)} ${unit.name}</title></rect>`);
          let labelX = labelWidth + w + 6;
          if (Number.isFinite(row.error_ns) && row.error_ns > 0) {
            const lo = labelWidth + Math.max(0, scale(score - row.error_ns / unit.ns));
            const hi = labelWidth + scale(score + row.error_ns / unit.ns);
            const mid = y + barHeight / 2;
            labelX = Math.max(labelX, hi + 6);
            parts.push(`<path class="error-bar" d="M${lo.toFixed(1)} ${mid} H${hi.toFixed(1)} M${lo.toFixed(1)} ${mid - 5} V${mid + 5} M${hi.toFixed(1)} ${mid - 5} V${mid + 5}" stroke="#222" stroke-width="1.2" fill="none"/>`);
          }
          const ratio = Number.isFinite(row.ratio_vs_baseline) && row.baseline !== row.benchmark ? `  ${row.ratio_vs_baseline.toFixed(2)}x vs base` : '';
          parts.push(`<text x="${labelX.toFixed(1)}" y="${y + 12}" fill="#333">${fmt(score)}${ratio}</text>`);
        }
        y += barHeight + gap;
      }
      if (!lone) y += groupGap;
    }
    parts.push(`<line x1="${labelWidth}" y1="${panelTop}" x2="${labelWidth}" y2="${y - groupGap}" stroke="#999"/>`);
    y += panelGap;
  }
  return `<svg class="chart" data-suite="${escapeHtml(suite)}" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y}" viewBox="0 0 ${width} ${y}" font-family="sans-serif" font-size="12">${parts.join('')}</svg>`;
}

function suiteTable(cases) {
  const head = ['Benchmark', '(params)', 'Mode', 'Cnt', 'Score', 'Error', 'Units', 'alloc/op', 'allocs/op', 'peak RSS', 'x vs baseline', 'faults/op', 'sys/op'];
  const lines = [];
  for (const [, rows] of groupBy(cases, (c) => c.table)) {
    const unit = unitFor(rows);
    for (const r of rows) {
      const ok = r.status === 'ok';
      lines.push(`<tr class="${ok ? '' : 'failed'}"><td>${escapeHtml(r.table + ':' + r.case)}</td><td>${escapeHtml(r.params_text)}</td><td>${r.mode}</td><td>${r.cnt}</td>` +
        `<td>${ok ? fmt(r.score_ns / unit.ns) : 'FAILED'}</td><td>${ok && Number.isFinite(r.error_ns) ? '± ' + fmt(r.error_ns / unit.ns, 3, r.score_ns / unit.ns) : ''}</td><td>${unit.name}</td>` +
        `<td>${r.peer ? '-' : fmtBytes(r.bytes_per_op)}</td><td>${r.peer || r.allocs_per_op === null ? '-' : fmt(r.allocs_per_op, 1)}</td><td>${fmtBytes(r.peak_rss_kb * 1024)}</td>` +
        `<td>${r.baseline === r.benchmark ? '(base)' : Number.isFinite(r.ratio_vs_baseline) ? r.ratio_vs_baseline.toFixed(2) + 'x' : ''}</td>` +
        `<td>${Number.isFinite(r.minor_faults) ? Math.round(r.minor_faults) : '-'}</td><td>${Number.isFinite(r.kernel_seconds) ? r.kernel_seconds.toFixed(3) + ' s' : '-'}</td></tr>` +
        (ok ? '' : `<tr class="failed"><td colspan="13"><pre>${escapeHtml(r.message)}</pre></td></tr>`));
    }
  }
  return `<table class="results"><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${lines.join('')}</tbody></table>`;
}

/**
 * Cold rows (mode "cold": one operation per fresh process) beside the warm
 * rows of the same case and parameters: one entry per cold row, ours and the
 * peer's, with the warm score, the ratio to the peer in each mode and the
 * cold run's peak RSS, minor faults and kernel time.
 */
function coldAndWarm(results) {
  const warmByKey = new Map();
  for (const c of results.cases) {
    if (c.mode !== 'cold') warmByKey.set(`${c.table}\n${c.case}\n${c.params_text}`, c);
  }
  const entries = [];
  for (const cold of results.cases.filter((c) => c.mode === 'cold')) {
    const warmTable = cold.table.replace(/_cold$/, '');
    const warm = warmByKey.get(`${warmTable}\n${cold.case}\n${cold.params_text}`);
    entries.push({ cold, warm, table: warmTable });
  }
  return entries;
}

function fmtSeconds(ns) {
  if (!Number.isFinite(ns)) return '';
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(2)} s`;
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(1)} ms`;
  return `${(ns / 1e3).toFixed(1)} us`;
}

function ratioText(row) {
  if (!row || row.status !== 'ok') return row ? 'FAILED' : '-';
  if (row.baseline === row.benchmark) return '(base)';
  return Number.isFinite(row.ratio_vs_baseline) ? `${row.ratio_vs_baseline.toFixed(2)}x` : '';
}

const COLD_HEAD = ['Benchmark', '(params)', 'warm', 'x vs baseline warm', 'cold', 'x vs baseline cold', 'cold peak RSS', 'cold faults/op', 'cold sys/op'];

function coldCells(entry) {
  const { cold, warm } = entry;
  const ok = cold.status === 'ok';
  return [`${entry.table}:${cold.case}${cold.peer ? ' (peer)' : ''}`, cold.params_text,
    warm && warm.status === 'ok' ? fmtSeconds(warm.score_ns) : '-', ratioText(warm),
    ok ? fmtSeconds(cold.score_ns) : 'FAILED', ratioText(cold), fmtBytes(cold.peak_rss_kb * 1024),
    ok && Number.isFinite(cold.minor_faults) ? String(Math.round(cold.minor_faults)) : '-',
    ok && Number.isFinite(cold.kernel_seconds) ? `${cold.kernel_seconds.toFixed(3)} s` : '-'];
}

function coldTable(results) {
  const entries = coldAndWarm(results);
  if (!entries.length) return '';
  const rows = entries.map((e) => `<tr class="${e.cold.status === 'ok' ? '' : 'failed'}">${coldCells(e).map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`);
  return `<h2>Cold and warm</h2><p>Warm: the case repeated in one process (median per op). Cold: ${results.settings.cold} samples, each one operation in a fresh process (our faults and kernel time are the operation's own; a peer's cover its whole fresh process, runtime start included). Peak RSS is the fresh process's.</p>` +
    `<table class="results cold"><thead><tr>${COLD_HEAD.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function keyValueTable(object) {
  return `<table class="facts">${Object.entries(object).map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>`;
}

function html(results) {
  const suites = groupBy(results.cases, (c) => c.suite);
  const sections = [...suites].map(([suite, cases]) =>
    `<section class="suite" id="suite-${escapeHtml(suite)}"><h2>${escapeHtml(suite)}</h2>${suiteChart(suite, cases)}${suiteTable(cases)}</section>`);
  const datasets = (results.datasets || []).map((d) => `<tr><td>${escapeHtml(d.name)}</td><td>${d.rows}</td><td>${fmtBytes(d.bytes)}</td><td>${escapeHtml(d.params)}</td><td><code>${escapeHtml(d.content_checksum)}</code></td><td><code>${escapeHtml(d.file_checksum)}</code></td></tr>`).join('');
  const failed = results.cases.filter((c) => c.status !== 'ok').length;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>parquetry benchmarks ${escapeHtml(results.created)}</title>
<style>
body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1200px; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 3px 6px; text-align: left; }
table.results td:nth-child(n+4) { text-align: right; font-variant-numeric: tabular-nums; }
tr.failed td { color: #c00000; }
.summary.bad { color: #c00000; font-weight: bold; }
svg.chart { display: block; margin: 8px 0; }
</style></head><body>
<h1>parquetry benchmarks</h1>
<p class="summary">${results.cases.length} cases, <span class="${failed ? 'bad' : ''}">${failed} failed</span>. Created ${escapeHtml(results.created)}, profile ${escapeHtml(results.settings.profile)}:
${results.settings.warmup} warmup + ${results.settings.measure} measured repetitions x ${results.settings.forks} fork(s).
Score = median time per operation; error = 99.9% confidence half-width (Student t); bars show score with error whiskers; ratio = baseline score / case score.</p>
<h2>Machine</h2>${keyValueTable(results.machine)}
<h2>Datasets</h2><table><tr><th>name</th><th>rows</th><th>size</th><th>params</th><th>content checksum</th><th>file checksum</th></tr>${datasets}</table>
${coldTable(results)}
${sections.join('\n')}
</body></html>
`;
}

function markdown(results) {
  const lines = [];
  const m = results.machine;
  const failed = results.cases.filter((c) => c.status !== 'ok');
  lines.push(`Generated by \`scripts/run-bench.sh ${results.settings.profile}\` on ${results.created}: ${m.cpu_model}, ${m.cores} cores, ${m.compiler}, commit \`${(m.git_commit || '').slice(0, 12)}\`${m.git_dirty ? ' (dirty)' : ''}, peers: ${m.peers || 'none'}${m.load_average ? `, load average ${m.load_average}` : ''}.`);
  lines.push(`${results.cases.length} cases, ${failed.length} failed; ${results.settings.warmup} warmup + ${results.settings.measure} measured repetitions x ${results.settings.forks} fork(s).`);
  lines.push('');
  const cold = coldAndWarm(results);
  if (cold.length) {
    lines.push('#### cold and warm');
    lines.push('');
    lines.push(`Warm: the case repeated in one process. Cold: ${results.settings.cold} samples, each one operation in a fresh process; our faults and kernel time are the operation's own, a peer's cover its whole fresh process (runtime start included); peak RSS is the fresh process's.`);
    lines.push('');
    lines.push(`| ${COLD_HEAD.join(' | ')} |`);
    lines.push(`|${COLD_HEAD.map(() => '---').join('|')}|`);
    for (const entry of cold) lines.push(`| ${coldCells(entry).join(' | ')} |`);
    lines.push('');
  }
  for (const [suite, cases] of groupBy(results.cases.filter((c) => c.mode !== 'cold'), (c) => c.suite)) {
    lines.push(`#### ${suite}`);
    lines.push('');
    lines.push('| Benchmark | (params) | Mode | Cnt | Score | Error | Units | alloc/op | x vs baseline |');
    lines.push('|---|---|---|---|---|---|---|---|---|');
    for (const [, rows] of groupBy(cases, (c) => c.table)) {
      const unit = unitFor(rows);
      for (const r of rows) {
        const ok = r.status === 'ok';
        lines.push(`| ${r.table}:${r.case} | ${r.params_text} | ${r.mode} | ${r.cnt} | ${ok ? fmt(r.score_ns / unit.ns) : 'FAILED'} | ${ok && Number.isFinite(r.error_ns) ? '± ' + fmt(r.error_ns / unit.ns, 3, r.score_ns / unit.ns) : ''} | ${unit.name} | ${r.peer ? '-' : fmtBytes(r.bytes_per_op)} | ${r.baseline === r.benchmark ? '(base)' : Number.isFinite(r.ratio_vs_baseline) ? r.ratio_vs_baseline.toFixed(2) + 'x' : ''} |`);
      }
    }
    const suiteFailures = cases.filter((c) => c.status !== 'ok');
    if (suiteFailures.length) {
      const reasons = [...new Set(suiteFailures.map((c) => c.message.split('\n')[0]))].slice(0, 3);
      lines.push(`${suiteFailures.length} failed: ${reasons.join('; ')}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

const BEGIN = '<!-- latest-results:begin (generated by bench/report/report.js; do not edit) -->';
const END = '<!-- latest-results:end -->';

function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!args.results) throw new Error('usage: report.js --results results.json [--html out.html] [--markdown-into doc.md]');
  const results = JSON.parse(fs.readFileSync(args.results, 'utf8'));
  if (results.schema !== 'parquetry-bench/1') throw new Error(`${args.results}: unknown schema ${results.schema}`);
  if (args.html) fs.writeFileSync(args.html, html(results));
  if (args['markdown-into']) {
    const doc = fs.readFileSync(args['markdown-into'], 'utf8');
    const begin = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    if (begin < 0 || end < begin) throw new Error(`${args['markdown-into']} has no latest-results markers`);
    fs.writeFileSync(args['markdown-into'], doc.slice(0, begin + BEGIN.length) + '\n' + markdown(results) + '\n' + doc.slice(end));
  }
}

try {
  main();
} catch (error) {
  process.stderr.write(`report: ${error.message}\n`);
  process.exit(1);
}
