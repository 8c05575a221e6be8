import type { RunFile } from '../run/run-file';
import { compareRuns, dollars, instanceRows, percent, runLabel, seconds } from './report-model';

// `shadowbox eval report --html`: one self-contained page (inline CSS, an inline SVG chart, no
// script, font or request of any kind; the CSP says so too). Every string of a run is data from a
// set anyone may have written, so each one goes through `escapeHtml`, attributes included.

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const css = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem;color:#1f2328;background:#fff}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0}th,td{padding:.25rem .6rem;border-bottom:1px solid #d0d7de;text-align:right;vertical-align:top}
th:first-child,td:first-child,td.why,th.why{text-align:left}td{white-space:nowrap}td.why{white-space:normal}td.why{color:#59636e;max-width:40rem}
tr.total td{font-weight:600;border-top:2px solid #1f2328}
.yes{color:#1a7f37}.no{color:#cf222e}.ci{color:#59636e;font-size:.85em}
svg text{font:12px system-ui,sans-serif;fill:#1f2328}
`;

const palette = ['#0969da', '#cf222e', '#1a7f37', '#8250df', '#bf8700', '#1b7c83'];

/** pass@k against cost, one series per model (its runs joined by cost). */
function chart(runs: readonly RunFile[]): string {
  const width = 560;
  const height = 320;
  const pad = { left: 76, right: 160, top: 16, bottom: 44 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const maxCost = Math.max(...runs.map((r) => r.summary.costUsd), 0) || 1;
  const x = (cost: number) => pad.left + (cost / (maxCost * 1.1)) * plotW;
  const y = (rate: number) => pad.top + (1 - rate) * plotH;
  const models = [...new Set(runs.map((r) => r.model))];
  const parts: string[] = [];
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(
      `<line x1="${pad.left}" x2="${pad.left + plotW}" y1="${y(tick)}" y2="${y(tick)}" stroke="#d0d7de"/>`,
      `<text x="${pad.left - 6}" y="${y(tick) + 4}" text-anchor="end">${percent(tick)}</text>`,
    );
  }
  for (const tick of [0, 0.5, 1]) {
    const cost = tick * maxCost * 1.1;
    parts.push(
      `<text x="${x(cost)}" y="${pad.top + plotH + 18}" text-anchor="middle">${escapeHtml(dollars(cost))}</text>`,
    );
  }
  parts.push(
    `<text x="${pad.left + plotW / 2}" y="${height - 6}" text-anchor="middle">cost (USD)</text>`,
    `<text x="14" y="${pad.top + plotH / 2}" transform="rotate(-90 14 ${pad.top + plotH / 2})" text-anchor="middle">pass@k</text>`,
  );
  models.forEach((model, m) => {
    const colour = palette[m % palette.length] ?? '#000';
    const points = runs
      .filter((r) => r.model === model)
      .map((r) => ({ cx: x(r.summary.costUsd), cy: y(r.summary['pass@k']), run: r }))
      .sort((a, b) => a.cx - b.cx);
    if (points.length > 1) {
      const d = points.map((p) => `${p.cx.toFixed(1)},${p.cy.toFixed(1)}`).join(' ');
      parts.push(`<polyline points="${d}" fill="none" stroke="${colour}"/>`);
    }
    for (const p of points) {
      const title = `${model}: pass@${p.run.k} ${percent(p.run.summary['pass@k'])} at ${dollars(p.run.summary.costUsd)}`;
      parts.push(
        `<circle cx="${p.cx.toFixed(1)}" cy="${p.cy.toFixed(1)}" r="5" fill="${colour}"><title>${escapeHtml(title)}</title></circle>`,
      );
    }
    const ly = pad.top + 14 + m * 18;
    parts.push(
      `<circle cx="${width - pad.right + 16}" cy="${ly - 4}" r="5" fill="${colour}"/>`,
      `<text x="${width - pad.right + 26}" y="${ly}">${escapeHtml(model.slice(0, 24))}</text>`,
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="pass@k against cost per model">${parts.join('')}</svg>`;
}

function summaryTable(runs: readonly RunFile[]): string {
  const rate = (r: RunFile, key: 'pass@1' | 'pass@k' | 'pass^k') => {
    const ci = r.summary.wilson?.[key];
    const interval =
      ci === undefined ? '' : ` <span class="ci">[${percent(ci.low)}–${percent(ci.high)}]</span>`;
    return `${percent(r.summary[key])}${interval}`;
  };
  const rows = runs.map((r, i) => {
    const s = r.summary;
    return `<tr><td>${escapeHtml(runLabel(r, i, runs))}</td><td>${escapeHtml(r.fixer)}</td><td>${r.k}</td><td>${s.instances}</td><td>${s.resolved}/${s.attempts}</td><td>${rate(r, 'pass@1')}</td><td>${rate(r, 'pass@k')}</td><td>${rate(r, 'pass^k')}</td><td>${s.tokens}</td><td>${escapeHtml(dollars(s.costUsd))}</td></tr>`;
  });
  return `<table><thead><tr><th>run</th><th>fixer</th><th>k</th><th>instances</th><th>resolved</th><th>pass@1</th><th>pass@k</th><th>pass^k</th><th>tokens</th><th>cost</th></tr></thead><tbody>${rows.join('')}</tbody></table><p class="ci">Rates with their 95% Wilson intervals.</p>`;
}

function instanceTable(run: RunFile, label: string): string {
  const rows = instanceRows(run).map((row) => {
    const mark = row.n > 0 && row.c === row.n ? 'yes' : row.c === 0 ? 'no' : '';
    return `<tr><td>${escapeHtml(row.instanceId)}</td><td class="${mark}">${row.c}/${row.n}</td><td>${row.passAtK === null ? '-' : percent(row.passAtK)}</td><td>${row.tokens}</td><td>${escapeHtml(dollars(row.costUsd))}</td><td>${escapeHtml(seconds(row.durationMs))}</td><td>${row.iterations}</td><td class="why">${escapeHtml(row.why ?? '')}</td></tr>`;
  });
  const s = run.summary;
  rows.push(
    `<tr class="total"><td>Total</td><td>${s.resolved}/${s.attempts}</td><td>${percent(s['pass@k'])}</td><td>${s.tokens}</td><td>${escapeHtml(dollars(s.costUsd))}</td><td>${escapeHtml(seconds(s.durationMs ?? 0))}</td><td></td><td></td></tr>`,
  );
  return `<h2>${escapeHtml(label)}</h2><table><thead><tr><th>instance</th><th>resolved</th><th>pass@${run.k}</th><th>tokens</th><th>cost</th><th>time</th><th>iterations</th><th class="why">why not</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function comparison(first: RunFile, second: RunFile, labels: readonly string[]): string {
  const diff = compareRuns(first, second);
  const list = (ids: readonly string[]) =>
    ids.length === 0
      ? '<p>none</p>'
      : `<ul>${ids.map((id) => `<li>${escapeHtml(id)}</li>`).join('')}</ul>`;
  return `<h2>Side by side</h2><p>${diff.shared} instances in both runs.</p><h3>Resolved by ${escapeHtml(labels[0] ?? '')} only</h3>${list(diff.onlyFirst)}<h3>Resolved by ${escapeHtml(labels[1] ?? '')} only</h3>${list(diff.onlySecond)}`;
}

/** One or two runs as a self-contained HTML page. */
export function renderRunsHtml(runs: readonly RunFile[]): string {
  const labels = runs.map((r, i) => runLabel(r, i, runs));
  const [first, second] = runs;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Shadowbox eval report</title><style>${css}</style></head>
<body><h1>Eval report</h1>
${summaryTable(runs)}
<h2>pass@k against cost</h2>
${chart(runs)}
${runs.map((r, i) => instanceTable(r, labels[i] ?? r.model)).join('\n')}
${first !== undefined && second !== undefined ? comparison(first, second, labels) : ''}
</body></html>
`;
}
