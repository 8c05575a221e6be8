import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { recordAudit } from '../audit/audit-log';
import { auditedAs, personOf } from '../auth/actor';
import { requireCanCreateTasks } from '../auth/permissions';
import { teamIdFor } from '../auth/teams';
import { inTransaction, type Tx } from '../db/transaction';
import { createSourceFromArchive, keepBundle } from '../engine/workspace';
import type { Actor, CreateTaskInput, TaskSourceInput } from './task-api';
import { checkCreateTaskInput, type CheckedTaskSettings } from './task-input-checks';
import type { TaskServiceDeps } from './task-service-deps';

export type CreateTaskDeps = Pick<
  TaskServiceDeps,
  | 'db'
  | 'store'
  | 'layout'
  | 'bundles'
  | 'scheduler'
  | 'gitPolicy'
  | 'llmAvailable'
  | 'defaultTaskTokenBudget'
  | 'runLimitCeilings'
>;

export interface CreateTaskOptions {
  readonly input: CreateTaskInput;
  readonly actor: Actor;
}

/** An uploaded archive once it is a source repository on this disk. */
interface ImportedArchive {
  readonly sourceId: string;
  readonly commit: string;
  readonly files: number;
  readonly bytes: number;
}

/**
 * Checks a new task, imports its archive (if it has one), stores it and schedules its first
 * step. An uploaded archive file is deleted whatever happens: the service owns it from here.
 */
export async function createTask(
  deps: CreateTaskDeps,
  { input, actor }: CreateTaskOptions,
): Promise<{ readonly id: string }> {
  const source = input.source;
  try {
    requireCanCreateTasks(actor);
    const settings = checkCreateTaskInput(input, deps, actor);
    const teamId = input.team === undefined ? null : await teamIdFor(deps.db, input.team, actor);
    const imported = await admitSource(deps, source);
    // The row and its audit entry first; the task's first events follow in their own transaction.
    const task = await inTransaction(deps.db, (tx) =>
      insertTask(tx, {
        input,
        actor,
        teamId,
        settings,
        imported,
        defaultTaskTokenBudget: deps.defaultTaskTokenBudget,
      }),
    );
    await deps.store.transact(task.id, async (_tx, emit) => {
      await emit({
        type: 'task.created',
        source:
          source.kind === 'git'
            ? { kind: 'git', url: source.url, ref: source.ref ?? null }
            : { kind: 'archive', name: source.name },
        testCommand: input.testCommand,
        maxIterations: settings.maxIterations,
        hypothesesPerIteration: settings.hypothesesPerIteration,
      });
      if (imported !== null) {
        await emit({
          type: 'intake.completed',
          files: imported.files,
          bytes: imported.bytes,
          commit: imported.commit,
        });
      }
    });
    await deps.scheduler.schedule(task.id);
    return task;
  } finally {
    if (source.kind === 'archive') await rm(source.file, { force: true });
  }
}

/**
 * Policy checks happen now, so a refused URL or archive is refused to the caller, not later
 * in the task's log. A git clone (slow, remote) then runs in the task's first step; an
 * archive is imported here (its bytes are already on this disk).
 */
async function admitSource(
  deps: Pick<TaskServiceDeps, 'layout' | 'bundles' | 'gitPolicy'>,
  source: TaskSourceInput,
): Promise<ImportedArchive | null> {
  if (source.kind === 'git') {
    const checked = await deps.gitPolicy.check(source.url);
    if (!checked.ok) throw checked.error;
    return null;
  }
  const sourceId = `upload-${randomBytes(8).toString('hex')}`;
  let files = 0;
  let bytes = 0;
  const created = await createSourceFromArchive({
    layout: deps.layout,
    sourceId,
    archive: source.file,
    events: {
      emit: (event) => {
        if (event.type === 'intake.completed') ({ files, bytes } = event);
      },
    },
  });
  if (!created.ok) throw created.error;
  // The upload is on this (web) machine's disk only: workers rebuild the source from the bundle.
  if (deps.bundles !== undefined) {
    await keepBundle({
      gitDir: created.source.gitDir,
      sourceId,
      commit: created.commit,
      kind: 'baseline',
      bundles: deps.bundles,
    });
  }
  return { sourceId, commit: created.commit, files, bytes };
}

async function insertTask(
  tx: Tx,
  task: {
    readonly input: CreateTaskInput;
    readonly actor: Actor;
    readonly teamId: string | null;
    readonly settings: CheckedTaskSettings;
    readonly imported: ImportedArchive | null;
    /** The token cap of an LLM task that sets none. */
    readonly defaultTaskTokenBudget: number | undefined;
  },
): Promise<{ id: string }> {
  const { input, settings, imported } = task;
  const { source } = input;
  const { setupCommands, limits, fixer } = settings;
  const row = await tx.task.create({
    data: {
      ownerId: personOf(task.actor)?.id ?? null,
      teamId: task.teamId,
      sourceKind: source.kind,
      sourceUrl: source.kind === 'git' ? source.url : null,
      sourceRef: source.kind === 'git' ? (source.ref ?? null) : null,
      archiveName: source.kind === 'archive' ? source.name.slice(0, 255) : null,
      testCommand: [...input.testCommand],
      maxIterations: settings.maxIterations,
      hypothesesPerIteration: settings.hypothesesPerIteration,
      hypothesisWaitMs: settings.hypothesisWaitSecs * 1000,
      title: settings.purpose.title,
      problem: settings.purpose.problem,
      issueUrl: settings.purpose.issueUrl,
      sourceId: imported?.sourceId ?? null,
      baselineCommit: imported?.commit ?? null,
      fixer,
      allowTestEdits: input.allowTestEdits ?? false,
      maxMemoryMb: limits.maxMemoryMb ?? null,
      maxPids: limits.maxPids ?? null,
      maxDiskMb: limits.maxDiskMb ?? null,
      maxInodes: limits.maxInodes ?? null,
      ...(setupCommands === undefined
        ? {}
        : { setupCommands: setupCommands.map((argv) => [...argv]) }),
      ...(input.buildCommand === undefined ? {} : { buildCommand: [...input.buildCommand] }),
      knownFailures: [...settings.knownFailures],
      evalRunId: settings.evalRunId,
      maxTokens:
        input.maxTokens ?? (fixer === 'llm' ? (task.defaultTaskTokenBudget ?? null) : null),
      planSteps: {
        create: settings.plan.map((step, i) => ({
          index: i + 1,
          title: step.title,
          scope: step.scope ?? '',
          gates: step.gates.map((argv) => [...argv]),
        })),
      },
    },
    select: { id: true },
  });
  await recordAudit(tx, {
    ...auditedAs(task.actor),
    action: 'task.create',
    target: row.id,
    details: { source: source.kind, testCommand: [...input.testCommand] },
  });
  return row;
}
