import { randomBytes } from 'node:crypto';
import { personOf, type Actor } from '../../auth';
import { AppError } from '../../errors/app-error';
import type { EvalInstance } from '../eval-instance';
import { writeRunFile, type RunFile } from '../run/run-file';
import { newRunFile, runEvalSet, type EvalAttemptPort } from '../run/run-set';
import { requireEvalRole } from './eval-permissions';
import {
  createRunFiles,
  evalRunFiles,
  evalRunIdSchema,
  listRunIds,
  readStoredRun,
  writeMeta,
  type EvalRunMeta,
} from './eval-run-files';
import {
  detailOf,
  isComplete,
  progressOf,
  type EvalRunDetail,
  type EvalRunList,
  type EvalRunProgress,
} from './eval-run-view';
import { prepareEvalRun, type StartEvalRunInput } from './prepare-eval-run';
import { resumableRun } from './resumable-run';

// Eval runs on the server's own runtime: started from the page, run in the background, recorded
// under the data directory after every attempt, resumed when the server starts again (a recorded
// task is awaited, never created twice: run-set.ts and runtime-attempts.ts see to it).

export interface AttemptPortOptions {
  readonly runId: string;
  readonly actor: Actor;
  readonly maxIterations: number;
  readonly testCommand: readonly string[] | undefined;
  readonly attemptTimeoutMs: number;
  /** Aborted when the server stops: attempts stop waiting, their tasks stay recorded. */
  readonly signal: AbortSignal;
}

export interface EvalRunServiceDeps {
  readonly dataDir: string;
  /** The model of the server's LLM fixer; null when none is configured. */
  readonly model: string | null;
  /** The attempts' port (runtime-attempts.ts on the server's runtime; fakes in unit tests). */
  readonly attempts: (options: AttemptPortOptions) => EvalAttemptPort;
  /** The run's owner as an actor again after a restart; null when gone or disabled. */
  readonly loadOwner: (ownerId: string) => Promise<Actor | null>;
  /** Directories local `repo` paths may be in; none: Git URLs only. */
  readonly localRepoRoots?: readonly string[];
  readonly now?: () => Date;
  readonly log?: (line: string) => void;
}

const defaultTimeoutSecs = 3600;

export class EvalRunService {
  readonly #deps: EvalRunServiceDeps;
  readonly #active = new Map<string, Promise<void>>();
  readonly #stop = new AbortController();

  constructor(deps: EvalRunServiceDeps) {
    this.#deps = deps;
  }

  async start(input: StartEvalRunInput, actor: Actor): Promise<EvalRunProgress> {
    requireEvalRole(actor, 'starting an eval run');
    const person = personOf(actor);
    if (person === null) {
      throw new AppError('FORBIDDEN', "an eval run's attempts are a person's tasks: sign in");
    }
    if (this.#stop.signal.aborted) throw new AppError('INVALID_STATE', 'the server is stopping');
    const prepared = await prepareEvalRun(input, {
      model: this.#deps.model,
      localRepoRoots: this.#deps.localRepoRoots ?? [],
    });
    const runId = `eval-${randomBytes(6).toString('hex')}`;
    const run = newRunFile({
      runId,
      set: prepared.setName,
      fixer: 'llm',
      model: prepared.model,
      k: input.k,
      maxIterations: input.maxIterations,
      startedAt: this.#now().toISOString(),
      instances: prepared.instances,
    });
    const meta: EvalRunMeta = {
      ownerId: person.id,
      owner: person.username,
      parallel: input.parallel,
      testCommand: input.testCommand?.length ? [...input.testCommand] : null,
      timeoutSecs: input.timeoutSecs ?? defaultTimeoutSecs,
      error: null,
    };
    await createRunFiles(evalRunFiles(this.#deps.dataDir, runId), { run, set: input.set, meta });
    this.#launch(prepared.instances, run, meta, actor);
    return progressOf(run, meta, true);
  }

  async list(actor: Actor): Promise<EvalRunList> {
    requireEvalRole(actor, 'reading eval runs');
    // Which runs go on here is read before their files: a run that ends during the read would
    // otherwise be shown as stopped, from the file as it was before its last save.
    const active = new Set(this.#active.keys());
    const stored = await Promise.all(
      (await listRunIds(this.#deps.dataDir)).map((id) => readStoredRun(this.#deps.dataDir, id)),
    );
    const runs = stored
      .filter((s) => s !== null)
      .map((s) => progressOf(s.run, s.meta, active.has(s.run.runId)))
      .sort((a, b) => b.startedAt.localeCompare(a.startedAt));
    return { model: this.#deps.model, runs };
  }

  async get(runId: string, actor: Actor): Promise<EvalRunDetail> {
    requireEvalRole(actor, 'reading eval runs');
    const missing = new AppError('NOT_FOUND', `no eval run ${runId}`);
    if (!evalRunIdSchema.safeParse(runId).success) throw missing;
    const active = this.#active.has(runId); // before the read, as in `list`
    const stored = await readStoredRun(this.#deps.dataDir, runId);
    if (stored === null) throw missing;
    return detailOf(stored.run, stored.meta, active);
  }

  /** At start-up: goes on with every run a stop or a fault left unfinished; resolves to their ids. */
  async resumeUnfinished(): Promise<string[]> {
    const resumed: string[] = [];
    for (const runId of await listRunIds(this.#deps.dataDir)) {
      if (this.#active.has(runId) || this.#stop.signal.aborted) continue;
      const stored = await readStoredRun(this.#deps.dataDir, runId);
      if (stored === null || isComplete(stored.run)) continue;
      const resumable = await resumableRun(stored, this.#deps);
      if (!resumable.ok) {
        const files = evalRunFiles(this.#deps.dataDir, runId);
        await writeMeta(files, { ...stored.meta, error: resumable.why });
        continue;
      }
      this.#launch(resumable.instances, stored.run, stored.meta, resumable.owner);
      resumed.push(runId);
    }
    return resumed;
  }

  /** Resolves when the run is not going in this process (at once when it is not). */
  async settled(runId: string): Promise<void> {
    await this.#active.get(runId);
  }

  /** Stops waiting for attempts (their tasks stay recorded, to resume) and waits for the saves. */
  async close(): Promise<void> {
    this.#stop.abort();
    await Promise.allSettled([...this.#active.values()]);
  }

  #now(): Date {
    return (this.#deps.now ?? (() => new Date()))();
  }

  #launch(instances: EvalInstance[], run: RunFile, meta: EvalRunMeta, actor: Actor): void {
    const files = evalRunFiles(this.#deps.dataDir, run.runId);
    const work = (async () => {
      if (meta.error !== null) await writeMeta(files, { ...meta, error: null });
      await runEvalSet({
        instances,
        run,
        parallel: meta.parallel,
        port: this.#deps.attempts({
          runId: run.runId,
          actor,
          maxIterations: run.maxIterations,
          testCommand: meta.testCommand ?? undefined,
          attemptTimeoutMs: meta.timeoutSecs * 1000,
          signal: this.#stop.signal,
        }),
        save: (r) => writeRunFile(files.run, r),
        ...(this.#deps.now === undefined ? {} : { now: this.#deps.now }),
      });
    })().catch(async (error: unknown) => {
      // A stop is not a fault: the run resumes at the next start as it was.
      if (this.#stop.signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      this.#deps.log?.(`shadowbox: eval run ${run.runId} stopped: ${message}`);
      await writeMeta(files, { ...meta, error: message }).catch(() => undefined);
    });
    const tracked = work.finally(() => this.#active.delete(run.runId));
    this.#active.set(run.runId, tracked);
  }
}
