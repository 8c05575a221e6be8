/**
 * Part 5 of `npm run bench:shadow`: how long the `shadowbox` command takes to start, against a bare
 * `node -e 0` measured in the same rounds (the ratio is what the target is on: ≤ 3×). Also the
 * same commands run from the sources through tsx (`SHADOWBOX_CLI_SOURCE=1`, what every start cost
 * before the build) and through npx. Runs alone with `npx tsx bench/shadow/cli-start.ts [runs]`.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(repoRoot, 'bin', 'shadowbox.mjs');
export const cliStartTarget = 3;

/** What an agent pipes into `shadowbox parse`: a short cargo test run, one failure. */
const cargoOutput = [
  'running 3 tests',
  'test tests::adds ... ok',
  'test tests::subtracts ... ok',
  'test tests::divides ... FAILED',
  '',
  'test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
  '',
].join('\n');

interface Way {
  readonly name: string;
  readonly argv: readonly string[];
  readonly input?: string;
  readonly env?: Readonly<Record<string, string>>;
}

const fromSource = { SHADOWBOX_CLI_SOURCE: '1' };
const ways: readonly Way[] = [
  { name: 'node -e 0', argv: [process.execPath, '-e', '0'] },
  { name: 'node bin/shadowbox.mjs --help', argv: [process.execPath, bin, '--help'] },
  {
    name: 'node bin/shadowbox.mjs parse --runner auto',
    argv: [process.execPath, bin, 'parse', '--runner', 'auto'],
    input: cargoOutput,
  },
  { name: 'npx shadowbox --help', argv: ['npx', 'shadowbox', '--help'] },
  {
    name: 'the same --help from the sources (tsx)',
    argv: [process.execPath, bin, '--help'],
    env: fromSource,
  },
  {
    name: 'the same parse from the sources (tsx)',
    argv: [process.execPath, bin, 'parse', '--runner', 'auto'],
    input: cargoOutput,
    env: fromSource,
  },
];

export interface CliStartFigures {
  readonly runs: number;
  /** The build was current when measured (else the bin would have run the sources). */
  readonly built: boolean;
  readonly load: number;
  readonly medians: readonly { readonly name: string; readonly ms: number }[];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? NaN)
    : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

function timeOnce(way: Way): number {
  const [file, ...args] = way.argv;
  const started = performance.now();
  const result = spawnSync(file ?? 'node', args, {
    cwd: repoRoot,
    env: { ...process.env, ...way.env },
    input: way.input ?? '',
    encoding: 'utf8',
  });
  const ms = performance.now() - started;
  if (result.status !== 0) {
    throw new Error(`${way.name} exited ${String(result.status)}: ${result.stderr}`);
  }
  return ms;
}

/** Builds the CLI (as `npm run build` does), then times every way `runs` times, interleaved. */
export function measureCliStart(runs = 20): CliStartFigures {
  const build = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-cli.mjs')], {
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`the CLI build failed: ${build.stderr}`);
  const check = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { currentBuild } = await import(${JSON.stringify(path.join(repoRoot, 'bin', 'cli-build.mjs'))});` +
        `process.stdout.write(String(currentBuild(${JSON.stringify(repoRoot)}) !== null));`,
    ],
    { encoding: 'utf8' },
  );
  const load = os.loadavg()[0] ?? 0;
  for (const way of ways) timeOnce(way); // warm the page cache and npm's own caches
  const samples = ways.map(() => [] as number[]);
  for (let run = 0; run < runs; run += 1) {
    ways.forEach((way, i) => samples[i]?.push(timeOnce(way)));
  }
  return {
    runs,
    built: check.stdout === 'true',
    load,
    medians: ways.map((way, i) => ({ name: way.name, ms: median(samples[i] ?? []) })),
  };
}

export function cliStartSection(f: CliStartFigures): string {
  const bare = f.medians[0]?.ms ?? NaN;
  const width = Math.max(...f.medians.map((m) => m.name.length));
  const lines = f.medians.map((m, i) => {
    const ratio = m.ms / bare;
    const judged = i === 1 || i === 2;
    const verdict = judged ? (ratio <= cliStartTarget ? '  PASS' : '  MISS') : '';
    return `${m.name.padEnd(width)}  ${m.ms.toFixed(0).padStart(5)} ms  ${ratio.toFixed(2)}×${verdict}`;
  });
  return [
    `5. CLI start, median of ${f.runs} interleaved runs each, ratio against \`node -e 0\` (target ≤ ${cliStartTarget}× for --help and parse; load ${f.load.toFixed(1)}${f.built ? '' : '; NO CURRENT BUILD: the bin ran the sources'})`,
    ...lines,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 20);
  process.stdout.write(`${cliStartSection(measureCliStart(runs))}\n`);
}
