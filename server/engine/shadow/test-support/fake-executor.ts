import { setTimeout as sleep } from 'node:timers/promises';
import type { Execution, ExecutionRequest, HypothesisExecutor } from '../executor';

export interface ScriptedRun {
  /** The run's output; a function sees the request (its canaries, to report them). */
  readonly output?: string | ((request: ExecutionRequest) => string);
  /** Report the request's canaries as staged (as an overlay executor does). */
  readonly canaried?: boolean;
  readonly exitCode?: number | null;
  readonly timedOut?: boolean;
  readonly reports?: readonly string[];
  readonly problem?: string | null;
  readonly spawnError?: string | null;
  readonly delayMs?: number;
  /** An infrastructure fault: execute() rejects with it. */
  readonly throws?: Error;
}

/** An executor that plays back scripted outcomes by hypothesis name and records how it was used. */
export function fakeExecutor(
  script: Readonly<Record<string, ScriptedRun>>,
  options: { parallelSafe?: boolean } = {},
): HypothesisExecutor & {
  readonly requests: ExecutionRequest[];
  readonly maxConcurrent: () => number;
  /** How many runs completed normally. */
  readonly finished: () => number;
} {
  const requests: ExecutionRequest[] = [];
  let running = 0;
  let max = 0;
  let finished = 0;
  return {
    mode: options.parallelSafe === false ? 'inplace' : 'overlay',
    parallelSafe: options.parallelSafe ?? true,
    requests,
    maxConcurrent: () => max,
    finished: () => finished,
    async execute(request): Promise<Execution> {
      requests.push(request);
      running += 1;
      max = Math.max(max, running);
      const run = script[request.hypothesis.name] ?? {};
      await sleep(run.delayMs ?? 5);
      if (run.throws !== undefined) {
        running -= 1;
        throw run.throws;
      }
      const output = typeof run.output === 'function' ? run.output(request) : (run.output ?? '');
      for (const line of output.split('\n')) request.onLine?.(line);
      running -= 1;
      finished += 1;
      return {
        process: {
          exitCode: run.exitCode === undefined ? 0 : run.exitCode,
          signal: null,
          timedOut: run.timedOut ?? false,
          cancelled: false,
          durationMs: run.delayMs ?? 5,
          output: { text: output, totalBytes: output.length, truncated: false },
          spawnError: run.spawnError ?? null,
        },
        reports: run.reports ?? [],
        problem: run.problem ?? null,
        canaried: run.canaried === true && (request.canaries ?? []).length > 0,
      };
    },
  };
}

export const cargoSummary = (passed: number, failed: number): string =>
  `running ${passed + failed} tests\n\ntest result: ${failed === 0 ? 'ok' : 'FAILED'}. ${passed} passed; ${failed} failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n`;

/** The canaries' test names in a request, from the pytest file planCanaries staged: pass, fail. */
export function pytestCanaryNames(request: ExecutionRequest): { passing: string; failing: string } {
  const file = (request.canaries ?? []).map((c) => c.after?.toString('utf8') ?? '').join('\n');
  const [passing = '', failing = ''] = [...file.matchAll(/^def (test_\w+)\(/gm)].map((m) => m[1]);
  return { passing, failing };
}
