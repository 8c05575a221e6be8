import { lstat, mkdir, readFile, readdir, realpath, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../errors/app-error';
import { runProcess } from '../process/run-process';
import {
  describeLimitExceeded,
  handToSandbox,
  mountablePath,
  sandboxEnv,
  sandboxSetupFailure,
  toolchainCaches,
  type LimitExceeded,
  type SandboxLayout,
} from '../sandbox';
import type { RunCgroup } from '../sandbox/cgroups';
import { watchRun } from '../sandbox/run-watch';
import { prepareSandbox, type SandboxHost } from '../sandbox/sandbox-host';
import type { Execution, ExecutionRequest, HypothesisExecutor } from './executor';
import { createRunDir, type BackgroundRemoval } from './scratch';
import { withCanaries } from './canaries';
import { stageIntoUpper } from './stage-files';

export interface OverlayExecutorOptions {
  /** Where per-run directories go, for a given workspace. */
  readonly scratchRoot: (workspace: string) => string;
  readonly host: SandboxHost;
  /** Keep each upper layer on a tmpfs inside the sandbox instead of the data directory's disk. */
  readonly tmpfsUpper: boolean;
  readonly removal: BackgroundRemoval;
}

/**
 * Reads report files the run wrote: in the upper layer they are exactly the run's own writes. The
 * run controls that directory, so a report that is (or lies behind) a symbolic link is ignored:
 * it could point anywhere on the host.
 */
async function readReports(upper: string, reportPaths: readonly string[]): Promise<string[]> {
  const root = await realpath(upper);
  const inside = async (file: string): Promise<boolean> => {
    const real = await realpath(file).catch(() => null);
    return real !== null && real === file && real.startsWith(`${root}/`);
  };
  const reports: string[] = [];
  for (const reportPath of reportPaths) {
    const target = path.join(root, reportPath);
    const entries = (await inside(target)) ? await readdir(target).catch(() => null) : null;
    const files =
      entries === null
        ? [target]
        : entries.filter((e) => /^TEST-.*\.xml$/.test(e)).map((e) => path.join(target, e));
    for (const file of files) {
      if (!(await inside(file)) || !(await lstat(file)).isFile()) continue;
      reports.push(await readFile(file, 'utf8'));
    }
  }
  return reports;
}

/** `readReports` for each of `paths` alone: its contents, or null where the run wrote none. */
async function readAddedReports(
  root: string,
  paths: readonly string[],
): Promise<(string | null)[]> {
  return Promise.all(paths.map(async (p) => (await readReports(root, [p]))[0] ?? null));
}

/**
 * The directory added reports go to, made before the run (jest does not make it). In a shadow it
 * is made in the upper layer, so the workspace never has it; in the workspace itself, the
 * directories it made (outermost first) are returned, to be removed after the run.
 */
async function makeReportDirs(root: string, paths: readonly string[]): Promise<string[]> {
  const made: string[] = [];
  for (const dir of new Set(paths.map((p) => path.dirname(path.join(root, p))))) {
    const first = await mkdir(dir, { recursive: true });
    if (first === undefined) continue;
    const chain: string[] = [];
    for (let d = dir; ; d = path.dirname(d)) {
      chain.unshift(d);
      if (d === first || d === root) break;
    }
    made.push(...chain);
  }
  return made;
}

/** Runs each hypothesis in its own namespaces, with an overlay mounted on the workspace's path. */
export function createOverlayExecutor(options: OverlayExecutorOptions): HypothesisExecutor {
  return {
    mode: 'overlay',
    parallelSafe: true,
    async execute(request: ExecutionRequest): Promise<Execution> {
      const { workspace, hypothesis } = request;
      const root = options.scratchRoot(workspace);
      const dir = await createRunDir(root);
      let cgroup: RunCgroup | null = null;
      try {
        for (const p of [workspace, dir]) {
          if (!mountablePath(p)) {
            throw new AppError(
              'SANDBOX_UNAVAILABLE',
              `overlay mounts cannot name paths containing ',', ':', '\\' or a newline: '${p}'`,
            );
          }
        }
        const [upper, work, home] = ['upper', 'work', 'home'].map((d) => path.join(dir, d)) as [
          string,
          string,
          string,
        ];
        const deletions = hypothesis.changes.filter((c) => c.after === null);
        const deleteList = deletions.length === 0 ? '' : path.join(dir, 'delete-list');
        // In the workspace itself (a baseline warming build outputs), or in a shadow of it.
        const layout: SandboxLayout =
          request.inWorkspace && hypothesis.changes.length === 0
            ? { kind: 'direct', root: workspace, home }
            : {
                kind: 'overlay',
                root: workspace,
                upper,
                work,
                deleteList,
                tmpfsUpper: options.tmpfsUpper,
                home,
              };
        // Canaries go into the shadow's upper layer only, never into the workspace itself.
        const canaries = request.canaries ?? [];
        const canaried = layout.kind === 'overlay' && canaries.length > 0;
        const env = sandboxEnv({ home, tmpdir: home, extra: request.env });
        // Independent preparations, at once: every millisecond here is paid per hypothesis.
        // allSettled: a control group made before a sibling step failed must still be destroyed.
        const [prepared, ...staged] = await Promise.allSettled([
          prepareSandbox(options.host, layout, request.command, {
            runDir: dir,
            cwd: request.cwd,
            env,
            limits: request.limits,
            caches: toolchainCaches(env),
          }),
          mkdir(upper).then(() =>
            stageIntoUpper(
              workspace,
              upper,
              canaried ? withCanaries(hypothesis.changes, canaries) : hypothesis.changes,
            ),
          ),
          mkdir(work),
          deleteList === ''
            ? undefined
            : writeFile(deleteList, deletions.map((c) => `${c.path}\n`).join('')),
        ]);
        if (prepared.status === 'rejected') throw prepared.reason;
        const sandbox = prepared.value;
        cgroup = sandbox.cgroup;
        for (const step of staged) if (step.status === 'rejected') throw step.reason;
        const added = request.addedReports ?? [];
        let madeDirs: string[] = [];
        if (added.length > 0) {
          const root = layout.kind === 'overlay' ? upper : workspace;
          madeDirs = await makeReportDirs(root, added);
          if (layout.kind === 'direct') {
            for (const dir of new Set(added.map((p) => path.dirname(path.join(workspace, p))))) {
              await handToSandbox(dir, options.host.identity);
            }
          }
        }
        // The staged files are the run's to rewrite: its identity must own them (and the upper's
        // root, which is the workspace's root directory in the shadow).
        if (layout.kind === 'overlay') await handToSandbox(upper, options.host.identity);
        // A cap the kernel does not end the run for (see watchRun) ends it here.
        const capHit = new AbortController();
        const signal =
          request.signal === undefined
            ? capHit.signal
            : AbortSignal.any([request.signal, capHit.signal]);
        const watch = watchRun({
          limits: request.limits,
          cgroup,
          // Everything the run writes to the data directory's disk: its shadow, its cache overlays.
          measured: [...(options.tmpfsUpper ? [] : [upper]), ...sandbox.cacheUppers],
          onExceeded: () => capHit.abort(),
        });
        const result = await runProcess(sandbox.file, sandbox.args, {
          cwd: dir,
          env: sandbox.env,
          timeoutMs: request.timeoutMs,
          killGraceMs: 0,
          tailBytes: request.tailBytes,
          signal,
          ...(request.onLine === undefined ? {} : { onLine: request.onLine }),
        });
        // A file stopped at the cap by RLIMIT_FSIZE is found by the watcher's last measurement.
        const exceeded: LimitExceeded | null = await watch.stop();
        const setupFailure = sandboxSetupFailure(result.exitCode, result.output.text);
        // On tmpfs the upper layer died with the namespace: reports are read only from disk.
        const reports =
          layout.kind === 'direct'
            ? await readReports(workspace, request.reportPaths)
            : options.tmpfsUpper
              ? []
              : await readReports(upper, request.reportPaths);
        const addedReports =
          layout.kind === 'direct'
            ? await readAddedReports(workspace, added)
            : options.tmpfsUpper
              ? added.map(() => null)
              : await readAddedReports(upper, added);
        // In the workspace itself the added reports (and the directories made for them) are the
        // only trace of the run's reading: none is left.
        if (layout.kind === 'direct') {
          await Promise.all(added.map((p) => rm(path.join(workspace, p), { force: true })));
          for (const dir of madeDirs.reverse()) await rmdir(dir).catch(() => undefined);
        }
        const problem =
          exceeded !== null
            ? `the run ${describeLimitExceeded(exceeded, request.limits)} and was killed`
            : setupFailure !== null
              ? `sandbox set-up failed: ${setupFailure}`
              : null;
        const cancelled = result.cancelled && (request.signal?.aborted ?? false);
        return { process: { ...result, cancelled }, reports, addedReports, problem, canaried };
      } finally {
        // Whatever a run left behind in its group (nothing should outlive its namespace) dies
        // here, after the verdict: its counters were read by the watcher's last look, and the
        // runner's settled() (the server's shutdown) waits for the group and the directory.
        options.removal.remove(dir, cgroup?.destroy());
      }
    },
  };
}
