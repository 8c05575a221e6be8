import { cliStartSection, type CliStartFigures } from './cli-start';
import type { CopyUpFigures } from './copy-up';
import type { OverheadFigures } from './overhead';
import type { LimitFigures, ParallelFigures } from './parallel';
import type { HypothesisFigures } from './per-hypothesis';
import type { ProjectStats } from './projects/project';
import type { WorktreeFigures } from './worktree';

export interface BenchResults {
  readonly startedAt: string;
  readonly quick: boolean;
  readonly machine: {
    readonly cores: number;
    readonly kernel: string;
    readonly loadAtStart: number[];
  };
  /** 1-minute load average when each part started: other processes share this machine. */
  readonly loadByPart: Readonly<Record<string, number>>;
  readonly projects: Readonly<Record<string, ProjectStats>>;
  readonly perHypothesis: readonly HypothesisFigures[];
  readonly copyUp: CopyUpFigures | null;
  readonly worktree: readonly WorktreeFigures[];
  readonly parallel: readonly ParallelFigures[];
  readonly limits: readonly LimitFigures[];
  readonly overhead: OverheadFigures;
  readonly cliStart: CliStartFigures;
  readonly totalSeconds: number;
}

export const targets = {
  perHypothesis: 1.15,
  worktreeSpeedup: 4,
  parallel: { cargo: 0.8, pytest: 0.6 },
  // Issue 27: shadows within 5% of the same work in plain copies with no Shadowbox ("the limit").
  limit: 1.05,
  // Issue 27: a hardened run (the sandbox boundary's every protection) within 20 ms of a bare one.
  overheadMs: 20,
};

const s = (ms: number): string =>
  ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 1000).toFixed(2)} s`;
const msText = (ms: number): string => `${ms.toFixed(1)} ms`;
const x = (ratio: number): string => `${ratio.toFixed(2)}×`;
const verdict = (ok: boolean): string => (ok ? 'PASS' : 'MISS');
const mb = (bytes: number): string => (bytes / 1e6).toFixed(0);

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function geomean(values: readonly number[]): number {
  return Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);
}

function perHypothesisSection(r: BenchResults): string {
  const t = targets.perHypothesis;
  const upperOf = (h: string): string => {
    const run = r.copyUp?.perHypothesis.find((p) => p.hypothesis === h);
    return run?.upper === null || run === undefined ? '' : mb(run.upper.bytes);
  };
  const rows: string[][] = [];
  for (const f of r.perHypothesis) {
    const disk = f.diskMs / f.inplaceMs;
    const tmpfs = f.tmpfsMs / f.inplaceMs;
    rows.push([
      f.project,
      f.hypothesis,
      String(f.exitCode),
      s(f.inplaceMs),
      s(f.diskMs),
      x(disk),
      verdict(disk <= t),
      s(f.tmpfsMs),
      x(tmpfs),
      verdict(tmpfs <= t),
      f.project === 'cargo' ? upperOf(f.hypothesis) : '',
    ]);
  }
  for (const project of [...new Set(r.perHypothesis.map((f) => f.project))]) {
    const mine = r.perHypothesis.filter((f) => f.project === project);
    const disk = geomean(mine.map((f) => f.diskMs / f.inplaceMs));
    const tmpfs = geomean(mine.map((f) => f.tmpfsMs / f.inplaceMs));
    rows.push([
      project,
      '(geomean)',
      '',
      '',
      '',
      x(disk),
      verdict(disk <= t),
      '',
      x(tmpfs),
      verdict(tmpfs <= t),
      '',
    ]);
  }
  return [
    `1. Per hypothesis: shadow vs in-place edit-run-revert of the same change (target ≤ ${t}×)`,
    table(
      [
        'project',
        'hypothesis',
        'exit',
        'in-place',
        'shadow/disk',
        'ratio',
        '',
        'shadow/tmpfs',
        'ratio',
        '',
        'upper MB',
      ],
      rows,
    ),
  ].join('\n');
}

function cpuSection(r: BenchResults): string {
  const c = (cpu: { user: number; sys: number } | null): string =>
    cpu === null ? '?' : `${cpu.user.toFixed(2)}+${cpu.sys.toFixed(2)}`;
  return [
    'CPU seconds of the command, user+system (medians; steadier than wall time on a shared machine):',
    table(
      ['project', 'hypothesis', 'in-place', 'shadow/disk', 'shadow/tmpfs', 'sys disk − in-place'],
      r.perHypothesis.map((f) => [
        f.project,
        f.hypothesis,
        c(f.cpu.inplace),
        c(f.cpu.disk),
        c(f.cpu.tmpfs),
        f.cpu.disk === null || f.cpu.inplace === null
          ? ''
          : `${((f.cpu.disk.sys - f.cpu.inplace.sys) * 1000).toFixed(0)} ms`,
      ]),
    ),
  ].join('\n');
}

function copyUpSection(r: BenchResults): string {
  const c = r.copyUp;
  if (c === null) return '';
  const lines = [
    '1b. Where the time goes (cargo; shadows run by hand with the engine argv, upper kept)',
  ];
  const areas = ['incremental', 'deps', 'target-other', 'sources'];
  lines.push(
    table(
      ['hypothesis', '', 'upper MB', ...areas, 'files'],
      c.perHypothesis.map((p) => [
        p.hypothesis,
        '',
        p.upper === null ? '' : mb(p.upper.bytes),
        ...areas.map((a) => (p.upper === null ? '' : mb(p.upper.areas[a] ?? 0))),
        p.upper === null ? '' : String(p.upper.files),
      ]),
    ),
  );
  const cargo = r.perHypothesis.filter((f) => f.project === 'cargo');
  lines.push(
    '',
    `cargo test with no change: in place ${s(c.noopInplaceMs)}, in a shadow ${s(c.noopShadowMs)}` +
      ` (${c.noopShadowMs >= c.noopInplaceMs ? '+' : '−'}${msText(Math.abs(c.noopShadowMs - c.noopInplaceMs))})`,
    `process time of cargo inside the engine's shadow vs in place (part 1 medians): ` +
      cargo
        .map((f) => `${f.hypothesis} ${s(f.diskProcessMs)} vs ${s(f.inplaceProcessMs)}`)
        .join('; '),
    c.copyMBps === null
      ? ''
      : `cp -a of one upper layer on this disk: ${c.copyMBps.toFixed(0)} MB/s`,
    '',
    "Variants of the mount (by hand; ratio against the same hypotheses' in-place medians from part 1):",
  );
  const inplaceOf = (names: readonly string[]): number =>
    geomean(cargo.filter((f) => names.includes(f.hypothesis)).map((f) => f.inplaceMs));
  lines.push(
    table(
      ['variant', 'hypotheses', 'run', 'rm upper', 'total', 'in-place', 'ratio', 'upper MB'],
      Object.entries(c.variants).map(([name, v]) => {
        const base = inplaceOf(v.hypotheses);
        return [
          name,
          v.hypotheses.join(','),
          s(v.runMs),
          msText(v.rmMs),
          s(v.runMs + v.rmMs),
          s(base),
          x((v.runMs + v.rmMs) / base),
          v.mb === null ? '' : v.mb.toFixed(0),
        ];
      }),
    ),
  );
  return lines.join('\n');
}

function worktreeSection(r: BenchResults): string {
  const t = targets.worktreeSpeedup;
  const cells = (w: WorktreeFigures, shadow: number): string[] => {
    const speedup = w.worktreeMs / shadow;
    return [s(shadow), x(speedup), w.project === 'cargo' ? verdict(speedup >= t) : ''];
  };
  return [
    `2. Fresh git worktree per attempt (add, write, run, remove) vs a shadow of the same change (target: shadow ≥ ${t}× faster)`,
    table(
      ['project', '', 'worktree', 'shadow/disk', 'speed-up', '', 'shadow/tmpfs', 'speed-up', ''],
      r.worktree.map((w) => [
        w.project,
        '',
        s(w.worktreeMs),
        ...cells(w, w.shadowMs),
        ...cells(w, w.tmpfsShadowMs),
      ]),
    ),
  ].join('\n');
}

function parallelSection(r: BenchResults): string {
  const t = targets.parallel;
  return [
    `3. Four hypotheses in parallel shadows vs four serial in-place runs (target ≤ ${t.cargo}× cargo, ≤ ${t.pytest}× pytest)`,
    table(
      ['project', 'upper', 'parallel', '4 in place, serial', 'one shadow run', 'ratio', ''],
      r.parallel.map((p) => {
        const ratio = p.parallelMs / p.serialMs;
        const target = p.project === 'cargo' ? t.cargo : p.project === 'pytest' ? t.pytest : null;
        return [
          p.project,
          p.upper,
          String(p.parallel),
          s(p.serialMs),
          s(p.parallelMs),
          x(ratio),
          target === null ? '' : verdict(ratio <= target),
        ];
      }),
    ),
  ].join('\n');
}

/** Part 3b: every way against the limit row measured in the same rounds. */
export function limitSection(
  limits: readonly LimitFigures[],
  loadByPart: Readonly<Record<string, number>>,
): string {
  const t = targets.limit;
  const rows: string[][] = [];
  for (const f of limits) {
    rows.push([
      f.project,
      `the limit: ${f.hypotheses} plain cp -a copies, no sandbox`,
      s(f.limitMs),
      '1.00×',
      '',
    ]);
    for (const w of f.ways) {
      const ratio = w.ms / f.limitMs;
      rows.push([f.project, w.way, s(w.ms), x(ratio), verdict(ratio <= t)]);
    }
  }
  const loads = Object.entries(loadByPart)
    .filter(([part]) => part.startsWith('part 3b'))
    .map(([part, load]) => `${part.slice('part 3b '.length)} ${load.toFixed(1)}`)
    .join(', ');
  return [
    `3b. The limit: the same hypotheses in plain copies at once vs in shadows (medians, interleaved; target ≤ ${t}×; load ${loads})`,
    table(['project', 'way', 'wall', 'ratio', ''], rows),
  ].join('\n');
}

function overheadSection(r: BenchResults): string {
  const o = r.overhead;
  const m = o.medians;
  const labels: [keyof typeof m, string][] = [
    ['nodeSpawn', '`true` via bare child_process.spawn'],
    ['direct', '`true` via the engine process runner (execa)'],
    ['unshare', 'unshare -Urm true'],
    ['unshareMount', 'unshare -Urm + overlay mount + true'],
    ['rawSandbox', 'engine namespaces by hand (+net, pid, /proc, lo up)'],
    ['rawSandboxVolatile', 'the same, overlay mounted with volatile'],
    ['engineArgv', "the engine's sandbox argv + fstab (prepareSandbox) only"],
    ['engineDisk', 'engine: runner.run, one hypothesis, upper on disk'],
    ['engineTmpfs', 'engine: runner.run, one hypothesis, upper on tmpfs'],
  ];
  return [
    `4. Fixed overhead of a shadow around \`true\` (median of ${o.runs} runs; target ≤ ${targets.overheadMs} ms)`,
    table(
      ['how', '', 'median'],
      labels.map(([k, label]) => [label, '', msText(m[k])]),
    ),
    `shadow overhead (engine, disk) = ${msText(o.overheadMs)} ${verdict(o.overheadMs <= targets.overheadMs)};` +
      ` tmpfs ${msText(o.overheadTmpfsMs)} ${verdict(o.overheadTmpfsMs <= targets.overheadMs)};` +
      ` engine's own share (engine − by hand) = ${msText(o.engineShareMs)}` +
      ` (its extra sandbox steps ${msText(o.engineSandboxStepsMs)}, its JS ${msText(o.engineJsMs)});` +
      ` volatile saves ${msText(o.volatileSavesMs)} of the raw sandbox`,
    `a run's last disk measurement (after its exit, before its verdict): du ${msText(o.finalCheck.duMs)},` +
      ` in-process walk of the settled upper ${msText(o.finalCheck.walkMs)}` +
      ` (${x(o.finalCheck.walkMs / o.finalCheck.duMs)})`,
  ].join('\n');
}

export function formatReport(r: BenchResults): string {
  const projects = Object.entries(r.projects)
    .map(([k, p]) => `${k}: ${p.files} files, ${p.lines} lines, ${p.tests} tests`)
    .join('; ');
  return [
    `Shadowbox shadow benchmark, ${r.startedAt}${r.quick ? ' (--quick)' : ''}: ${r.machine.cores} cores, ` +
      `kernel ${r.machine.kernel}, load at start ${r.machine.loadAtStart.map((l) => l.toFixed(2)).join(' ')}`,
    `Projects: ${projects}`,
    '',
    perHypothesisSection(r),
    '',
    cpuSection(r),
    '',
    copyUpSection(r),
    '',
    worktreeSection(r),
    '',
    parallelSection(r),
    '',
    limitSection(r.limits, r.loadByPart),
    '',
    overheadSection(r),
    '',
    cliStartSection(r.cliStart),
    '',
    `1-minute load average at the start of each part (${r.machine.cores} cores; others' load is noise): ` +
      Object.entries(r.loadByPart)
        .map(([part, load]) => `${part} ${load.toFixed(1)}`)
        .join(', '),
    `Total benchmark time: ${r.totalSeconds.toFixed(0)} s`,
  ].join('\n');
}
