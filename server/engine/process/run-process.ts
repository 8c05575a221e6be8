import { execa } from 'execa';
import { OutputTail, type TailSnapshot } from './output-tail';

export interface RunProcessOptions {
  readonly cwd: string;
  /** The complete environment: nothing is inherited from this process. */
  readonly env: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** Kills the whole process group when exceeded. */
  readonly timeoutMs?: number;
  /** Between SIGTERM and SIGKILL; 0 sends SIGKILL at once (sandboxed runs have nothing to flush). */
  readonly killGraceMs?: number;
  readonly tailBytes?: number;
  /** Every line of stdout and stderr, merged in order of arrival. */
  readonly onLine?: (line: string) => void;
}

export interface ProcessResult {
  /** null when the process was killed by a signal or could not start. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly durationMs: number;
  readonly output: TailSnapshot;
  /** Why the process could not be started at all (e.g. the program does not exist). */
  readonly spawnError: string | null;
}

function validate(file: string, options: RunProcessOptions): void {
  if (file.length === 0) throw new TypeError('runProcess: the program name must not be empty');
  const { timeoutMs, killGraceMs } = options;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new RangeError(
      `runProcess: timeoutMs must be a positive number, got ${String(timeoutMs)}`,
    );
  }
  if (killGraceMs !== undefined && !(Number.isFinite(killGraceMs) && killGraceMs >= 0)) {
    throw new RangeError(`runProcess: killGraceMs must be >= 0, got ${String(killGraceMs)}`);
  }
}

/**
 * Runs `file args…` (never through a shell) as the leader of its own process group, so a timeout or
 * an abort kills everything it started, not only the direct child.
 */
export async function runProcess(
  file: string,
  args: readonly string[],
  options: RunProcessOptions,
): Promise<ProcessResult> {
  validate(file, options);
  const tail = new OutputTail(options.tailBytes);
  const started = performance.now();
  // Set from timer and abort callbacks, which control-flow analysis cannot see.
  const ended = { timedOut: false, cancelled: false };

  const subprocess = execa(file, args, {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    stdin: 'ignore',
    all: true,
    buffer: false,
    reject: false,
    detached: true,
    cleanup: true,
    stripFinalNewline: false,
  });

  const killGroup = (signal: NodeJS.Signals): void => {
    if (subprocess.pid === undefined) return;
    try {
      process.kill(-subprocess.pid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  };
  let forceTimer: NodeJS.Timeout | undefined;
  const stop = (): void => {
    const grace = options.killGraceMs ?? 1000;
    if (grace === 0) {
      killGroup('SIGKILL');
      return;
    }
    killGroup('SIGTERM');
    forceTimer ??= setTimeout(() => killGroup('SIGKILL'), grace);
  };
  const onAbort = (): void => {
    ended.cancelled = true;
    stop();
  };
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          ended.timedOut = true;
          stop();
        }, options.timeoutMs);
  if (options.signal?.aborted === true) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  // Once the leader is gone, stragglers that kept the output pipes open must not keep us waiting.
  subprocess.once('exit', () => killGroup('SIGKILL'));

  try {
    for await (const line of subprocess.iterable({ from: 'all' })) {
      tail.push(line);
      options.onLine?.(line);
    }
  } catch {
    // A failed spawn surfaces in the result below; the iterator only repeats it.
  }
  const result = await subprocess;
  clearTimeout(timer);
  clearTimeout(forceTimer);
  options.signal?.removeEventListener('abort', onAbort);

  const spawnError =
    result.failed && result.exitCode === undefined && result.signal === undefined
      ? (result.originalMessage ?? result.shortMessage ?? 'the process could not be started')
      : null;
  return {
    exitCode: result.exitCode ?? null,
    signal: result.signal ?? null,
    timedOut: ended.timedOut,
    cancelled: ended.cancelled && !ended.timedOut,
    durationMs: Math.round(performance.now() - started),
    output: tail.snapshot(),
    spawnError,
  };
}
