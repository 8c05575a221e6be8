import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { authenticateBearer } from './auth/api-tokens';
import { createDb, type Db } from './db/client';
import { migrateDatabase } from './db/migrate';
import { defaultGitUrlPolicy, defaultIntakeCaps } from './engine/intake';
import {
  createExternalFixer,
  createGitWorkspaces,
  abandonTask,
  stepTask,
  type LoopDeps,
} from './engine/loop';
import { systemClock } from './engine/ports';
import { buildReviewArtifact } from './engine/review';
import { defaultRunLimits, type RunLimits, type SandboxCapabilities } from './engine/sandbox';
import { createShadowRunner, type ShadowRunner } from './engine/shadow';
import { pruneStaleWorktrees, sourceGitDir, workspaceLayout } from './engine/workspace';
import {
  defaultEgressAllowlist,
  parseEgressAllow,
  readToolConfig,
  type EgressAllowlist,
} from './engine/egress';
import { SetupCache, createTaskSetup } from './engine/setup';

import { loadEnv, type Env } from './env';
import { createLlmAdapters } from './llm/llm-adapters';
import { loadLlmConfig, type LlmConfig } from './llm/llm-config';
import { JobQueue, describeError, isLocalWorkerAlive, newWorkerId } from './queue/job-queue';
import { JobRunner } from './queue/job-runner';
import type { Actor, TaskServiceApi } from './tasks/task-api';
import { TaskEventBus } from './tasks/task-event-bus';
import { PrismaTaskStore } from './tasks/prisma-task-store';
import { TaskService } from './tasks/task-service';

/** What the transports (REST routes, tRPC, MCP) get from the server process. */
export interface Runtime {
  readonly tasks: TaskServiceApi;
  /** Resolves a `Authorization: Bearer …` header to a token actor; UNAUTHENTICATED otherwise. */
  authenticate(authorization: string | null): Promise<Actor>;
  /** Where uploads are streamed before the task service takes them. */
  readonly uploadDir: string;
  /** Largest accepted archive upload, in bytes. */
  readonly maxUploadBytes: number;
  /** How this machine isolates runs and which resource caps it enforces (shown on /coding). */
  readonly sandbox: SandboxStatus;
}

export interface SandboxStatus {
  readonly mode: 'overlay' | 'inplace';
  /** Why runs go in place (no isolation); null in overlay mode. */
  readonly fallbackReason: string | null;
  readonly capabilities: SandboxCapabilities | null;
  /** The caps of a run whose task sets none. */
  readonly defaultLimits: RunLimits;
}

/** The whole of it, for the process that owns it (start-up, shutdown, benchmarks). */
export interface ServerRuntime extends Runtime {
  readonly env: RuntimeEnv;
  readonly db: Db;
  readonly bus: TaskEventBus;
  /**
   * The process's one shadow runner (one probe, one start-up sweep): the task loop runs on it, and
   * so does MCP's `shadow_run`. `close()` waits for its scratch space to be deleted.
   */
  readonly shadows: ShadowRunner;
  /** Stops taking work, lets running steps end (they resume on the next start), closes the DB. */
  close(): Promise<void>;
}

/** The configuration a runtime needs (`loadEnv()` gives all of it; tests give the first two). */
export type RuntimeEnv = Pick<Env, 'dataDir' | 'database'> &
  Partial<Omit<Env, 'dataDir' | 'database'>>;

export interface RuntimeOptions {
  /** Tasks whose steps run at once in this process (test runs are the expensive part). */
  readonly taskConcurrency?: number;
  /** After an iteration's first hypothesis arrives, how long to wait for more to run with it. */
  readonly gatherMs?: number;
  /** The LLM endpoint; default from the environment (SHADOWBOX_LLM_*), null for none. */
  readonly llm?: LlmConfig | null;
}

/**
 * Builds the server's runtime: configuration, migrations, the start-up sweep of whatever a crash
 * left (scratch shadows, stale worktrees, jobs held by dead workers), then the job runner, which
 * resumes every task that was running.
 */
export async function createRuntime(
  env: RuntimeEnv,
  options: RuntimeOptions = {},
): Promise<ServerRuntime> {
  await migrateDatabase(env.database);
  const db = createDb(env);
  const layout = workspaceLayout(env.dataDir);
  const uploadDir = path.join(env.dataDir, 'uploads');
  await mkdir(uploadDir, { recursive: true });

  const bus = new TaskEventBus();
  const store = new PrismaTaskStore(db, bus);
  const shadows = await createShadowRunner({
    dataDir: env.dataDir,
    ...(env.runLimits === undefined ? {} : { limits: env.runLimits }),
    ...(env.sandboxReadOnlyPaths === undefined
      ? {}
      : { sandboxReadOnlyPaths: env.sandboxReadOnlyPaths }),
  });
  if (shadows.fallbackReason !== null) {
    console.warn(
      `shadowbox: overlay shadows unavailable, running in place: ${shadows.fallbackReason}`,
    );
  } else if (shadows.capabilities !== null) {
    const { memory, pids, disk, notes } = shadows.capabilities;
    console.info(
      `shadowbox: sandbox caps: memory by ${memory}, processes by ${pids}, disk by ${disk}`,
    );
    for (const note of notes) console.warn(`shadowbox: ${note}`);
  }
  const known = await db.task.findMany({ select: { id: true } });
  await pruneStaleWorktrees(layout, new Set(known.map((t) => t.id)));

  const queue = new JobQueue(db);
  await queue.releaseDeadWorkers(isLocalWorkerAlive);
  // A malformed allowlist refuses to start the server, naming the entry; the defaults (npm's
  // configured registry) are read on the first setup.
  parseEgressAllow(env.egressAllow, { entries: [] });
  let allowlist: Promise<EgressAllowlist> | undefined;
  const setup = createTaskSetup({
    host: shadows.sandboxHost,
    unavailableReason: shadows.fallbackReason,
    scratchRoot: shadows.scratchRoot,
    removal: shadows.removal,
    cache: new SetupCache(path.join(env.dataDir, 'setup-cache')),
    allowlist: () =>
      (allowlist ??= defaultEgressAllowlist().then((defaults) =>
        parseEgressAllow(env.egressAllow, defaults),
      )),
    toolEnv: async () => (await readToolConfig()).env,
    gitDirOf: (task) => {
      if (task.sourceId === null) throw new Error(`task ${task.id} has no source`);
      return sourceGitDir(layout, task.sourceId);
    },
    ...(env.runLimits === undefined ? {} : { limits: env.runLimits }),
  });
  const deps: LoopDeps = {
    store,
    workspaces: createGitWorkspaces({ layout }),
    shadows,
    setup,
    ...(env.setupTimeoutMs === undefined ? {} : { setupTimeoutMs: env.setupTimeoutMs }),
    fixer: createExternalFixer({ gatherMs: options.gatherMs ?? env.hypothesisGatherMs ?? 3000 }),
    clock: systemClock,
    buildReview: buildReviewArtifact,
  };
  // The LLM fixer and reviewer exist only when an endpoint is configured (SHADOWBOX_LLM_*).
  const llmConfig = options.llm === undefined ? loadLlmConfig() : options.llm;
  const llm = llmConfig === null ? null : createLlmAdapters(llmConfig);
  const reviewer = llm?.reviewer ?? null;
  const loop: LoopDeps = {
    ...deps,
    ...(llm === null ? {} : { fixers: { llm: llm.fixer } }),
    ...(reviewer === null || llmConfig?.reviewerModel == null
      ? {}
      : { reviewer: { name: llmConfig.reviewerModel, review: (i, s) => reviewer.review(i, s) } }),
  };
  const runner = new JobRunner({
    queue,
    workerId: newWorkerId(),
    concurrency: options.taskConcurrency ?? 2,
    handler: {
      step: (taskId, signal) => stepTask(loop, taskId, signal),
      onGiveUp: (taskId, error) =>
        abandonTask(loop, taskId, `the task could not go on: ${describeError(error)}`),
    },
  });
  const tasks = new TaskService({
    db,
    store,
    bus,
    layout,
    gitPolicy: defaultGitUrlPolicy,
    clock: systemClock,
    llmAvailable: llm !== null,
    ...(llm === null ? {} : { defaultTaskTokenBudget: llm.defaultTaskTokenBudget }),
    maxPendingHypotheses: env.maxPendingHypotheses,
    scheduler: {
      async schedule(taskId) {
        await queue.enqueue(taskId);
        runner.wake();
      },
      interrupt(taskId) {
        runner.abort(taskId, new Error(`task ${taskId} was cancelled`));
      },
    },
  });
  runner.start();

  return {
    tasks,
    authenticate: (authorization) => authenticateBearer(db, authorization),
    uploadDir,
    maxUploadBytes: defaultIntakeCaps.maxTotalBytes,
    sandbox: {
      mode: shadows.mode,
      fallbackReason: shadows.fallbackReason,
      capabilities: shadows.capabilities,
      defaultLimits: { ...defaultRunLimits, ...env.runLimits },
    },
    env,
    db,
    bus,
    shadows,
    async close() {
      await runner.stop();
      await shadows.settled();
      await db.$disconnect();
    },
  };
}

// Next.js may load this module more than once (instrumentation, each route bundle): the runtime
// lives on the process, so there is one database handle and one job runner per process.
const slot = Symbol.for('shadowbox.runtime');
type Slot = { [slot]?: Promise<ServerRuntime> | undefined };

/** The process's runtime, created (migrations, sweep, job runner) on first use. */
export function getRuntime(): Promise<ServerRuntime> {
  const holder = globalThis as Slot;
  holder[slot] ??= createRuntime(loadEnv()).catch((error: unknown) => {
    holder[slot] = undefined;
    throw error;
  });
  return holder[slot];
}
