import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { readableError } from '../../errors/readable-error';
import type { EgressAllowlist } from '../egress';
import type {
  LoopTask,
  LoopWorkspace,
  SetupPlan,
  SetupPort,
  SetupRunResult,
} from '../loop/loop-ports';
import { clampRunLimits, defaultRunLimits, type RunLimits } from '../sandbox/run-limits';
import type { SandboxHost } from '../sandbox/sandbox-host';
import type { BackgroundRemoval } from '../shadow/scratch';
import { commitSetupTree, commitTreeId, detectSetup } from './detect-setup';
import type { SetupTree } from './detect-rule';
import { runSetup } from './run-setup';
import { withWaysOut } from './setup-ways-out';
import {
  setupCacheKey,
  toolchainPrograms,
  toolchainVersions,
  type SetupCache,
} from './setup-cache';
import { excludeOutputs, excludePatternsFor } from './setup-outputs';

export interface TaskSetupOptions {
  /** The sandbox; null where the server runs in place (setup then refuses to run). */
  readonly host: SandboxHost | null;
  /** Why there is no sandbox, for the refusal. */
  readonly unavailableReason: string | null;
  readonly scratchRoot: (workspace: string) => string;
  readonly removal?: BackgroundRemoval;
  /** Earlier setups' outputs; null: always install. */
  readonly cache: SetupCache | null;
  /** Read once, on first use (npm's own configuration decides the default list). */
  readonly allowlist: () => Promise<EgressAllowlist>;
  /** Package-manager settings for the sandbox (the configured registries). */
  readonly toolEnv?: () => Promise<Readonly<Record<string, string>>>;
  /** The server-owned repository of a task's source (its info/exclude, its commits). */
  readonly gitDirOf: (task: LoopTask) => string;
  /** The server's caps per run; the task's own override them. */
  readonly limits?: Partial<RunLimits>;
  /**
   * The most any task may have (SHADOWBOX_HARD_MAX_*): a task stored before caps were ceilings
   * may ask for more, and gets this.
   */
  readonly hardMaxLimits?: RunLimits;
}

const noRun = { exitCode: null, timedOut: false, failedCommand: null } as const;

/**
 * Which trust domain a cached setup may be shared in: the task's owner (its team when it is a
 * team's, else its person), and for Git sources the URL too. Setup runs the project's own code
 * (install scripts), so an entry is what that code wrote: only tasks of the same owner may run it.
 * A task with no owner (made before accounts) shares with nothing: null, no cache.
 */
export function setupCacheScope(
  task: Pick<LoopTask, 'ownerId' | 'teamId' | 'source'>,
): string | null {
  const owner =
    task.teamId !== null
      ? `team:${task.teamId}`
      : task.ownerId !== null
        ? `person:${task.ownerId}`
        : null;
  if (owner === null) return null;
  return JSON.stringify([owner, task.source.kind === 'git' ? `git:${task.source.url}` : 'archive']);
}

/**
 * The SetupPort: detection from the task's baseline commit (never from the worktree a run may
 * have changed), the outputs excluded from every change, then the cache or a sandboxed install.
 */
export function createTaskSetup(options: TaskSetupOptions): SetupPort {
  const treeOf = (task: LoopTask): Promise<SetupTree> => {
    if (task.baselineCommit === null) throw new Error(`task ${task.id} has no baseline commit`);
    return commitSetupTree(options.gitDirOf(task), task.baselineCommit);
  };

  return {
    async plan(task: LoopTask, workspace: LoopWorkspace): Promise<SetupPlan> {
      const detected = await detectSetup(await treeOf(task), { testCommand: task.testCommand });
      const workspaceEnv = Object.fromEntries(
        Object.entries(detected.workspaceEnv).map(([name, rel]) => [
          name,
          path.join(workspace.path, rel),
        ]),
      );
      const given = task.setupCommands;
      // A detected setup that builds brings its build step, unless the task gives its own.
      const build = given === null && task.buildCommand === null ? detected.build : null;
      return {
        commands: given ?? detected.commands,
        detected: given === null,
        reasons:
          given === null
            ? [...detected.reasons, ...(build === null ? [] : [build.reason])]
            : ['the task gives its own setup commands'],
        outputs: detected.outputs,
        env: { ...detected.env, ...workspaceEnv },
        build,
      };
    },

    async run(task, workspace, plan, io): Promise<SetupRunResult> {
      const started = performance.now();
      const elapsed = (): number => Math.round(performance.now() - started);
      // Before anything is written: what setup and builds write never shows as a change.
      await excludeOutputs(options.gitDirOf(task), excludePatternsFor(plan));
      const result = (fields: Partial<SetupRunResult> & Pick<SetupRunResult, 'ok'>) => ({
        cached: false,
        durationMs: elapsed(),
        egress: [],
        ...noRun,
        outputTail: '',
        error: null,
        ...fields,
      });
      if (plan.commands.length === 0) return result({ ok: true });
      if (options.host === null) {
        return result({
          ok: false,
          error: `setup needs the sandbox, which this server does not have (${options.unavailableReason ?? 'unknown'})`,
        });
      }
      const detected = await detectSetup(await treeOf(task), { testCommand: task.testCommand });
      const scope = setupCacheScope(task);
      const cache = scope === null ? null : options.cache;
      const key =
        cache === null || scope === null || task.baselineCommit === null
          ? null
          : setupCacheKey({
              scope,
              tree: await commitTreeId(options.gitDirOf(task), task.baselineCommit),
              commands: plan.commands,
              toolchains: await toolchainVersions(toolchainPrograms(plan.commands), {
                PATH: process.env.PATH ?? '/usr/bin:/bin',
              }),
              // Workspace paths stay relative here: every task's worktree has its own path.
              env: { ...detected.env, ...detected.workspaceEnv },
            });
      const entry = key === null || cache === null ? null : await cache.lookup(key);
      if (entry !== null && cache !== null) {
        const restored = await cache
          .restore(entry, workspace.path)
          .catch((error: unknown) => ({ ok: false, reason: readableError(error) }) as const);
        if (restored.ok) {
          io.onLine(`setup: cached (restored ${restored.restoredPaths.join(', ')})`);
          return result({ ok: true, cached: true, exitCode: 0 });
        }
        // A refused entry costs this task an install, nothing more.
        io.onLine(`setup: not restored from the cache: ${restored.reason}`);
      }
      const toolEnv = await options.toolEnv?.();
      const setup = await runSetup(
        {
          workspace: workspace.path,
          commands: plan.commands,
          env: plan.env,
          limits: {
            ...defaultRunLimits,
            ...options.limits,
            ...(options.hardMaxLimits === undefined
              ? task.limits
              : clampRunLimits(task.limits, options.hardMaxLimits)),
          },
          timeoutMs: io.timeoutMs,
          signal: io.signal,
          onLine: io.onLine,
        },
        {
          host: options.host,
          scratchRoot: options.scratchRoot(workspace.path),
          allowlist: await options.allowlist(),
          ...(toolEnv === undefined ? {} : { toolEnv }),
          ...(options.removal === undefined ? {} : { removal: options.removal }),
        },
      );
      if (setup.ok && key !== null && cache !== null) {
        // A cache that cannot take the outputs costs the next task an install, not this one.
        await cache.store(key, workspace.path, plan.outputs).catch((error: unknown) => {
          io.onLine(`setup: not cached: ${readableError(error)}`);
        });
      }
      const failedCommand = setup.ok ? null : (setup.failedCommand ?? null);
      // A package manager that exited with an error: say what it could not get and the ways out.
      const exited = setup.exitCode !== null && setup.exitCode !== 0 && !setup.timedOut;
      return result({
        ok: setup.ok,
        egress: setup.egress,
        failedCommand,
        exitCode: setup.exitCode,
        timedOut: setup.timedOut,
        outputTail: setup.outputTail,
        error:
          setup.error === null || !exited
            ? setup.error
            : withWaysOut({
                error: setup.error,
                failedCommand,
                outputTail: setup.outputTail,
                egress: setup.egress,
                detected: plan.detected,
                toolEnv: toolEnv ?? {},
              }),
      });
    },
  };
}
