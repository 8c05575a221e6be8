import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../../errors/app-error';
import {
  describeEgressRecord,
  egressEnv,
  forwarderArgv,
  forwarderFailure,
  forwarderScriptPath,
  sandboxEgressSocket,
  sandboxForwarderScript,
  startEgressProxy,
  type EgressAllowlist,
  type EgressRecord,
} from '../egress';
import { OutputTail } from '../process/output-tail';
import { runProcess, type ProcessResult } from '../process/run-process';
import {
  describeLimitExceeded,
  mountablePath,
  prepareSandbox,
  sandboxEnv,
  sandboxSetupFailure,
  toolchainCaches,
  treeUsage,
  watchRun,
  type RunLimits,
  type SandboxHost,
} from '../sandbox';
import { createRunDir, type BackgroundRemoval } from '../shadow/scratch';

export interface SetupRequest {
  /** The task's worktree: setup runs in it (the `direct` layout) and writes into it. */
  readonly workspace: string;
  /** argv each, run in order; the first that fails ends the setup. */
  readonly commands: readonly (readonly string[])[];
  /** Workspace-relative directory to run in. */
  readonly cwd?: string;
  /** Per-task variables (checked like every run's; the proxy variables are set after them). */
  readonly env?: Readonly<Record<string, string>>;
  readonly limits: RunLimits;
  /** For all the commands together; default 15 minutes. */
  readonly timeoutMs?: number;
  readonly tailBytes?: number;
  readonly signal?: AbortSignal;
  readonly onLine?: (line: string) => void;
}

export interface SetupDeps {
  readonly host: SandboxHost;
  /** Where per-run directories go (never inside the workspace: it is bound writable). */
  readonly scratchRoot: string;
  readonly allowlist: EgressAllowlist;
  /** Package-manager settings for the sandbox (`ToolConfig.env`: the configured registries). */
  readonly toolEnv?: Readonly<Record<string, string>>;
  /** Deletes run directories off the critical path; without one they are deleted before returning. */
  readonly removal?: BackgroundRemoval;
  /** The egress proxy's caps (see `EgressProxyOptions`). */
  readonly egress?: {
    readonly connectTimeoutMs?: number;
    readonly idleTimeoutMs?: number;
    readonly maxConnections?: number;
    readonly resolve?: (host: string) => Promise<readonly string[]>;
  };
}

export interface SetupResult {
  readonly ok: boolean;
  /** The command that failed (or was running at a timeout or cancellation). */
  readonly failedCommand?: readonly string[];
  /** Of the last command that ran; null when it was killed or never started. */
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly durationMs: number;
  /** Every command's output, each after a `$ command` line, as a bounded tail. */
  readonly outputTail: string;
  /** Every destination the setup asked for, allowed or refused. */
  readonly egress: readonly EgressRecord[];
  /** Why the setup did not succeed, readable on the task; null when it did. */
  readonly error: string | null;
}

export const defaultSetupTimeoutMs = 15 * 60_000;
const maxSocketPath = 107; // sun_path holds 108 bytes with the terminating NUL

function validate(request: SetupRequest): void {
  const { commands, timeoutMs } = request;
  commands.forEach((argv, i) => {
    if (argv.length === 0 || argv[0] === '') {
      throw new AppError('INVALID_ARGUMENT', `setup command ${i + 1} has no program`);
    }
    if (argv.some((arg) => arg.includes('\0'))) {
      throw new AppError('INVALID_ARGUMENT', `setup command ${i + 1} has a NUL byte`);
    }
  });
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `setup timeoutMs must be a positive number, got ${String(timeoutMs)}`,
    );
  }
  const cwd = request.cwd ?? '.';
  if (path.isAbsolute(cwd) || cwd.split(/[/\\]/).includes('..')) {
    throw new AppError('INVALID_ARGUMENT', `setup cwd must be inside the workspace, got '${cwd}'`);
  }
  if (!mountablePath(request.workspace)) {
    throw new AppError(
      'SANDBOX_UNAVAILABLE',
      `sandboxes cannot name paths containing ',', ':', '\\' or a newline: '${request.workspace}'`,
    );
  }
}

/** A command as a shell would take it: plain words bare, others single-quoted. */
export function showCommand(argv: readonly string[]): string {
  return argv
    .map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}

const minutes = (ms: number): string =>
  ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 100) / 10} s`;

/** Why one command's run is a failure, or null when it succeeded. */
function failureOf(shown: string, result: ProcessResult, exceeded: string | null): string | null {
  const sandbox = sandboxSetupFailure(result.exitCode, result.output.text);
  const forwarder = forwarderFailure(result.exitCode, result.output.text);
  if (exceeded !== null) return `setup command \`${shown}\` ${exceeded} and was killed`;
  if (result.spawnError !== null) return `the sandbox could not start: ${result.spawnError}`;
  if (sandbox !== null) return `sandbox set-up failed: ${sandbox}`;
  if (forwarder !== null) return `the egress forwarder failed: ${forwarder}`;
  if (result.exitCode === 0) return null;
  return result.exitCode === null
    ? `setup command \`${shown}\` was killed by ${result.signal ?? 'a signal'}`
    : `setup command \`${shown}\` exited with code ${result.exitCode}`;
}

/**
 * Runs a task's setup commands (installs, fetches, configures) once, in order, in the task's
 * worktree itself, each in the same locked-down sandbox as tests, with the run caps and one
 * overall timeout. The only network is the egress proxy, alive for the setup's duration: every
 * destination outside the allowlist is refused, and recorded in the result.
 */
export async function runSetup(request: SetupRequest, deps: SetupDeps): Promise<SetupResult> {
  validate(request);
  const started = performance.now();
  const timeoutMs = request.timeoutMs ?? defaultSetupTimeoutMs;
  const deadline = started + timeoutMs;
  const tail = new OutputTail(request.tailBytes);
  const emit = (line: string): void => {
    tail.push(line);
    request.onLine?.(line);
  };
  const remove = async (dir: string): Promise<void> => {
    if (deps.removal === undefined) await rm(dir, { recursive: true, force: true });
    else deps.removal.remove(dir);
  };
  const forwarder = forwarderScriptPath();
  const aborted = (): boolean => request.signal?.aborted === true;

  // The socket's directory is private (mkdtemp: 0700); sun_path is short, so a deep scratch root
  // falls back to the system's temporary directory.
  let socketDir = await createRunDir(deps.scratchRoot);
  if (Buffer.byteLength(path.join(socketDir, 'egress.sock')) > maxSocketPath) {
    await rm(socketDir, { recursive: true, force: true });
    socketDir = await mkdtemp(path.join(os.tmpdir(), 'shadowbox-egress-'));
  }
  const proxy = await startEgressProxy({
    socketPath: path.join(socketDir, 'egress.sock'),
    allowlist: deps.allowlist,
    ...deps.egress,
    onRefused: (record) => emit(`[egress] ${describeEgressRecord(record)}`),
  }).catch(async (error: unknown) => {
    await rm(socketDir, { recursive: true, force: true });
    throw error;
  });

  let exitCode: number | null = null;
  let failedCommand: readonly string[] | undefined;
  let error: string | null = null;
  let timedOut = false;
  let cancelled = false;
  // Where a timeout or a cancellation caught the setup: in a command, or between two.
  let stoppedIn: 'during' | 'before' = 'during';
  try {
    for (const command of request.commands) {
      const shown = showCommand(command);
      const left = Math.floor(deadline - performance.now());
      if (aborted() || left <= 0) {
        cancelled = aborted();
        timedOut = !cancelled;
        failedCommand = command;
        stoppedIn = 'before';
        break;
      }
      emit(`$ ${shown}`);
      const run = await runOne(command, left, { request, deps, forwarder, proxy, emit });
      exitCode = run.result.exitCode;
      timedOut = run.result.timedOut;
      // runProcess reports a kill at a cap as a cancellation too: only the caller's counts.
      cancelled = run.result.cancelled && aborted();
      error = timedOut || cancelled ? null : failureOf(shown, run.result, run.exceeded);
      if (timedOut || cancelled || error !== null) {
        failedCommand = command;
        break;
      }
    }
  } finally {
    await proxy.close();
    await remove(socketDir);
  }
  if (failedCommand !== undefined && error === null) {
    const where = ` (${stoppedIn} \`${showCommand(failedCommand)}\`)`;
    error = timedOut
      ? `setup timed out after ${minutes(timeoutMs)}${where}`
      : `setup was cancelled${where}`;
  }
  return {
    ok: failedCommand === undefined,
    ...(failedCommand === undefined ? {} : { failedCommand }),
    exitCode,
    timedOut,
    cancelled,
    durationMs: Math.round(performance.now() - started),
    outputTail: tail.snapshot().text,
    egress: proxy.records(),
    error,
  };
}

interface RunContext {
  readonly request: SetupRequest;
  readonly deps: SetupDeps;
  readonly forwarder: string;
  readonly proxy: { readonly socketPath: string };
  readonly emit: (line: string) => void;
}

/** One command in its own sandbox (run directory, control group), on the worktree itself. */
async function runOne(
  command: readonly string[],
  timeoutMs: number,
  context: RunContext,
): Promise<{ result: ProcessResult; exceeded: string | null }> {
  const { request, deps } = context;
  const { limits, workspace } = request;
  const dir = await createRunDir(deps.scratchRoot);
  let cgroup: { destroy(): Promise<void> } | null = null;
  try {
    const home = path.join(dir, 'home');
    const env = {
      ...sandboxEnv({ home, tmpdir: home, extra: request.env, offline: false }),
      ...deps.toolEnv,
      ...egressEnv,
    };
    // What the worktree holds already is not the setup's: the disk and inode caps count what it
    // adds.
    // allSettled: a control group made while the measurement failed must still be destroyed.
    const [prepared, measured] = await Promise.allSettled([
      prepareSandbox(deps.host, { kind: 'direct', root: workspace, home }, forwarderArgv(command), {
        runDir: dir,
        cwd: request.cwd,
        env,
        limits,
        caches: toolchainCaches(env),
        files: [[context.forwarder, sandboxForwarderScript]],
        sockets: [[context.proxy.socketPath, sandboxEgressSocket]],
      }),
      treeUsage([workspace]),
    ]);
    if (prepared.status === 'fulfilled') cgroup = prepared.value.cgroup;
    if (prepared.status === 'rejected') throw prepared.reason;
    if (measured.status === 'rejected') throw measured.reason;
    const sandbox = prepared.value;
    const before = measured.value;
    const capHit = new AbortController();
    const signal =
      request.signal === undefined
        ? capHit.signal
        : AbortSignal.any([request.signal, capHit.signal]);
    const mib = 1024 * 1024;
    const watch = watchRun({
      limits: {
        ...limits,
        maxDiskMb: limits.maxDiskMb + Math.ceil(before.bytes / mib),
        maxInodes: limits.maxInodes + before.inodes,
      },
      cgroup: sandbox.cgroup,
      measured: [workspace, ...sandbox.cacheUppers],
      onExceeded: () => capHit.abort(),
    });
    const result = await runProcess(sandbox.file, sandbox.args, {
      cwd: dir,
      env: sandbox.env,
      timeoutMs,
      killGraceMs: 0,
      tailBytes: request.tailBytes,
      signal,
      onLine: context.emit,
    });
    const exceeded = await watch.stop();
    return {
      result,
      exceeded: exceeded === null ? null : describeLimitExceeded(exceeded, limits),
    };
  } finally {
    await cgroup?.destroy();
    if (deps.removal === undefined) await rm(dir, { recursive: true, force: true });
    else deps.removal.remove(dir);
  }
}
