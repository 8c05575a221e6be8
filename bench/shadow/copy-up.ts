import { lstat, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { runProcess } from '../../server/engine/process';
import {
  defaultRunLimits,
  sandboxEnv,
  prepareSandbox,
  type SandboxHost,
} from '../../server/engine/sandbox';
import type { Hypothesis } from '../../server/engine/shadow';
import { median, runIn, timed } from './measure';
import type { BenchProject } from './projects/project';

/**
 * Shadows run by hand with the engine's own sandbox command, so the upper layer can be inspected
 * before it is deleted, and with variants of the mount the engine does not make:
 * - engine: exactly the engine's argv (overlay mounted `userxattr,volatile`);
 * - no-volatile: without `volatile`, so the overlay fsyncs each copied-up file and syncs the upper
 *   file system at unmount (what the engine did before it adopted `volatile`);
 * - tmpfs, tmpfs-volatile: the engine's tmpfs upper, without and with `volatile`;
 * - incremental-off: `CARGO_INCREMENTAL=0` in the run's environment;
 * - root-metacopy: no user namespace (real root), `metacopy=on,redirect_dir=on` instead of
 *   `userxattr`, so hard links and metadata changes copy up metadata only.
 */
export type CopyUpVariant =
  | 'engine'
  | 'no-volatile'
  | 'tmpfs'
  | 'tmpfs-volatile'
  | 'incremental-off'
  | 'root-metacopy'
  | 'root-metacopy-volatile';

export interface UpperUsage {
  /** Bytes of data blocks the upper layer holds (what was copied up or written). */
  readonly bytes: number;
  /** Apparent size: larger than `bytes` when metacopy left files without their data. */
  readonly apparentBytes: number;
  readonly files: number;
  /** Allocated bytes by area: target/debug/incremental, target/debug/deps, the rest of target/, sources. */
  readonly areas: Readonly<Record<string, number>>;
}

export interface ManualRun {
  readonly variant: CopyUpVariant;
  readonly hypothesis: string;
  readonly exitCode: number | null;
  /** Staging + unshare + command + teardown, without the deletion of the run directory. */
  readonly runMs: number;
  readonly rmMs: number;
  readonly upper: UpperUsage | null;
}

/** The overlay's mount options for a variant (the engine mounts with `userxattr,volatile`). */
function overlayOptions(variant: CopyUpVariant): string {
  switch (variant) {
    case 'no-volatile':
    case 'tmpfs':
      return 'userxattr';
    case 'root-metacopy':
      return 'metacopy=on,redirect_dir=on';
    case 'root-metacopy-volatile':
      return 'metacopy=on,redirect_dir=on,volatile';
    default:
      return 'userxattr,volatile';
  }
}

function areaOf(relative: string): string {
  if (relative.startsWith('target/debug/incremental/')) return 'incremental';
  if (relative.startsWith('target/debug/deps/')) return 'deps';
  if (relative.startsWith('target/')) return 'target-other';
  return 'sources';
}

/** Sizes of the regular files in an upper directory (whiteouts and dirs count 0 bytes). */
export async function upperUsage(upper: string): Promise<UpperUsage> {
  const areas: Record<string, number> = {};
  let bytes = 0;
  let apparentBytes = 0;
  let files = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) {
        const stats = await lstat(full);
        const size = stats.blocks * 512;
        const area = areaOf(path.relative(upper, full));
        areas[area] = (areas[area] ?? 0) + size;
        bytes += size;
        apparentBytes += stats.size;
        files += 1;
      }
    }
  };
  await walk(upper);
  return { bytes, apparentBytes, files, areas };
}

export interface ManualOptions {
  readonly scratch: string;
  readonly host: SandboxHost;
  readonly inspect: boolean;
  /** Called with the upper directory after the run, before it is deleted. */
  readonly keep?: (upper: string, runDir: string) => Promise<void>;
}

/**
 * One shadow built with the engine's own `prepareSandbox` (same fstab, namespaces, read-only host,
 * environment), then altered for the variant: the overlay line of the fstab gets the variant's
 * options, and the root variants drop the user namespace.
 */
export async function manualShadow(
  project: BenchProject,
  hypothesis: Hypothesis,
  variant: CopyUpVariant,
  options: ManualOptions,
): Promise<ManualRun> {
  await mkdir(options.scratch, { recursive: true });
  const dir = await mkdtemp(path.join(options.scratch, 'manual-'));
  const [upper, work, home] = ['upper', 'work', 'home'].map((d) => path.join(dir, d)) as [
    string,
    string,
    string,
  ];
  const started = performance.now();
  await Promise.all([upper, work, home].map((d) => mkdir(d)));
  for (const edit of hypothesis.edits) {
    await mkdir(path.dirname(path.join(upper, edit.path)), { recursive: true });
    await writeFile(path.join(upper, edit.path), edit.content);
  }
  const deleteList = path.join(dir, 'delete-list');
  await writeFile(deleteList, '');
  const layout = {
    kind: 'overlay',
    root: project.dir,
    upper,
    work,
    deleteList,
    tmpfsUpper: variant.startsWith('tmpfs'),
    home,
  } as const;
  const extra: Record<string, string> =
    variant === 'incremental-off' ? { CARGO_INCREMENTAL: '0' } : {};
  const command = await prepareSandbox(options.host, layout, project.command, {
    runDir: dir,
    env: sandboxEnv({ home, tmpdir: home, extra }),
    limits: defaultRunLimits,
  });
  const fstab = path.join(dir, 'fstab');
  const lines = (await readFile(fstab, 'utf8')).replace(
    /,userxattr,volatile 0 0$/m,
    `,${overlayOptions(variant)} 0 0`,
  );
  await writeFile(fstab, lines);
  const rootOnly = variant.startsWith('root-');
  const args = command.args.filter(
    (a) => !(rootOnly && (a === '--user' || a === '--map-root-user')),
  );
  const result = await runProcess(command.file, args, {
    cwd: dir,
    env: command.env,
    timeoutMs: 10 * 60 * 1000,
    killGraceMs: 0,
  });
  const runMs = performance.now() - started;
  await command.cgroup?.destroy();
  if (result.exitCode === 125) {
    throw new Error(`${variant}: sandbox set-up failed: ${result.output.text}`);
  }
  const onDisk = !variant.startsWith('tmpfs');
  const upperFigures = options.inspect && onDisk ? await upperUsage(upper) : null;
  if (options.keep !== undefined && onDisk) await options.keep(upper, dir);
  const { ms: rmMs } = await timed(() => rm(dir, { recursive: true, force: true }));
  return {
    variant,
    hypothesis: hypothesis.name,
    exitCode: result.exitCode,
    runMs,
    rmMs,
    upper: upperFigures,
  };
}

export interface VariantFigures {
  readonly hypotheses: readonly string[];
  /** Median over runs, ms; `mb` is the median data held by the upper layer (null on tmpfs). */
  readonly runMs: number;
  readonly rmMs: number;
  readonly mb: number | null;
}

export interface CopyUpFigures {
  /** The engine's upper layer per hypothesis. */
  readonly perHypothesis: readonly ManualRun[];
  readonly variants: Readonly<Partial<Record<CopyUpVariant, VariantFigures>>>;
  /** `cargo test` with no change: in place, and in a shadow (engine argv). */
  readonly noopInplaceMs: number;
  readonly noopShadowMs: number;
  /** Copy rate of this disk, measured by `cp -a` of one kept upper layer, MB/s. */
  readonly copyMBps: number | null;
}

/** Copy rate of this disk: one kept upper layer copied with `cp -a`, in MB/s. */
async function copyRate(
  project: BenchProject,
  hypothesis: Hypothesis,
  options: { scratch: string; host: SandboxHost },
): Promise<number> {
  let rate = Number.NaN;
  await manualShadow(project, hypothesis, 'engine', {
    ...options,
    inspect: false,
    keep: async (upper, runDir) => {
      const { bytes } = await upperUsage(upper);
      await execa('sync');
      const { ms } = await timed(() => execa('cp', ['-a', upper, path.join(runDir, 'copy')]));
      rate = bytes / 1e6 / (ms / 1000);
    },
  });
  return rate;
}

/** Variants too slow to repeat: measured once, on the first hypothesis. */
const slowVariants: readonly CopyUpVariant[] = ['incremental-off'];

export async function measureCopyUp(
  project: BenchProject,
  env: Readonly<Record<string, string>>,
  variants: readonly CopyUpVariant[],
  options: { scratch: string; host: SandboxHost; reps: number; variantHypotheses: number },
): Promise<CopyUpFigures> {
  const perHypothesis: ManualRun[] = [];
  for (const h of project.hypotheses) {
    perHypothesis.push(await manualShadow(project, h, 'engine', { ...options, inspect: true }));
  }
  const runs: ManualRun[] = [];
  const measured = project.hypotheses.slice(0, options.variantHypotheses);
  for (let rep = 0; rep < options.reps; rep += 1) {
    for (const [i, h] of measured.entries()) {
      for (const variant of variants) {
        if (slowVariants.includes(variant) && (rep > 0 || i > 0)) continue;
        runs.push(await manualShadow(project, h, variant, { ...options, inspect: rep === 0 }));
      }
    }
  }
  const summary: Partial<Record<CopyUpVariant, VariantFigures>> = {};
  for (const variant of variants) {
    const mine = runs.filter((r) => r.variant === variant);
    const sizes = mine.flatMap((r) => (r.upper === null ? [] : [r.upper.bytes / 1e6]));
    summary[variant] = {
      hypotheses: [...new Set(mine.map((r) => r.hypothesis))],
      runMs: median(mine.map((r) => r.runMs)),
      rmMs: median(mine.map((r) => r.rmMs)),
      mb: sizes.length === 0 ? null : median(sizes),
    };
  }
  const noopIn: number[] = [];
  const noopShadow: number[] = [];
  const noop: Hypothesis = { name: 'no-op', edits: [], delete: [] };
  for (let rep = 0; rep < Math.max(2, options.reps); rep += 1) {
    noopIn.push((await timed(() => runIn(project.dir, project.command, env))).ms);
    noopShadow.push(
      (await manualShadow(project, noop, 'engine', { ...options, inspect: false })).runMs,
    );
  }
  const first = project.hypotheses[0];
  const copyMBps = first === undefined ? null : await copyRate(project, first, options);
  return {
    perHypothesis,
    variants: summary,
    noopInplaceMs: median(noopIn),
    noopShadowMs: median(noopShadow),
    copyMBps,
  };
}
