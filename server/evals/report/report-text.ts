import type { RunFile } from '../run/run-file';
import { compareRuns, dollars, instanceRows, percent, runLabel, seconds } from './report-model';

// `shadowbox eval report` on a terminal: a table per run (each instance, then the total) and, for
// two runs, which instances one resolves and the other does not. A run's strings come from a set
// anyone may have written: control characters (terminal escapes) are shown as `?`.

// eslint-disable-next-line no-control-regex -- control characters are what is replaced
const controls = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const clean = (text: string): string => text.replace(controls, '?');

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) =>
        i === 0 || i === cells.length - 1
          ? cell.padEnd(widths[i] ?? 0)
          : cell.padStart(widths[i] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function renderRunText(run: RunFile, label = run.model): string {
  const rows = instanceRows(run).map((row) => [
    clean(row.instanceId),
    `${row.c}/${row.n}`,
    row.passAtK === null ? '-' : percent(row.passAtK),
    String(row.tokens),
    dollars(row.costUsd),
    seconds(row.durationMs),
    String(row.iterations),
    row.why === null ? '' : clean(row.why).slice(0, 100),
  ]);
  const s = run.summary;
  const w = s.wilson;
  const interval = (key: 'pass@1' | 'pass@k' | 'pass^k'): string =>
    w === undefined ? '' : ` [${percent(w[key].low)}–${percent(w[key].high)}]`;
  rows.push([
    'TOTAL',
    `${s.resolved}/${s.attempts}`,
    percent(s['pass@k']),
    String(s.tokens),
    dollars(s.costUsd),
    seconds(s.durationMs ?? 0),
    '',
    '',
  ]);
  return [
    `${clean(label)}: fixer ${clean(run.fixer)}, k = ${run.k}, ${s.instances} instances, ${s.attempts} attempts`,
    '',
    table(
      ['instance', 'resolved', `pass@${run.k}`, 'tokens', 'cost', 'time', 'iter', 'why not'],
      rows,
    ),
    '',
    `pass@1 ${percent(s['pass@1'])}${interval('pass@1')}   pass@${run.k} ${percent(s['pass@k'])}${interval('pass@k')}   pass^${run.k} ${percent(s['pass^k'])}${interval('pass^k')}   (95% Wilson)`,
    `spend: ${s.tokens} tokens, ${dollars(s.costUsd)}`,
    '',
  ].join('\n');
}

export function renderComparisonText(first: RunFile, second: RunFile): string {
  const runs = [first, second];
  const [a, b] = runs.map((run, i) => clean(runLabel(run, i, runs)));
  const diff = compareRuns(first, second);
  const list = (ids: readonly string[]) =>
    ids.length === 0 ? '  (none)' : ids.map((id) => `  ${clean(id)}`).join('\n');
  return [
    renderRunText(first, a),
    renderRunText(second, b),
    `${diff.shared} instances in both runs.`,
    `Resolved by ${a ?? ''} only:`,
    list(diff.onlyFirst),
    `Resolved by ${b ?? ''} only:`,
    list(diff.onlySecond),
    '',
  ].join('\n');
}
