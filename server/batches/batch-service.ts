import { createHash } from 'node:crypto';
import { recordAudit } from '../audit/audit-log';
import { actorLabel, auditedAs } from '../auth/actor';
import type { Prisma } from '../db/client';
import { inTransaction } from '../db/transaction';
import { AppError } from '../errors/app-error';
import type { Actor } from '../tasks/task-api';
import { requireTask } from '../tasks/task-access';
import { serverPathMask, type PathMask } from '../tasks/server-paths';
import type {
  BatchDiff,
  BatchPushView,
  BatchServiceApi,
  BatchTrial,
  BatchView,
  CreateBatchInput,
  PushBatchInput,
  ReviewBatchInput,
} from './batch-api';
import type { BatchServiceDeps } from './batch-deps';
import { batchCommitter, batchGitDir, planBatch } from './batch-git-plan';
import { memberFacts, type MemberFacts } from './batch-members';
import { pushBatch } from './push-batch';
import { testBatch } from './test-batch';
import { batchInclude, batchRights, batchView, type BatchRow } from './batch-views';

export const maxBatchMembers = 8;

/**
 * The batch services. A batch is preflighted when it is made (and after each drop); unless a
 * pair conflicts, its combination is tested in the background in this process's sandbox, and the
 * page follows its trials. Every verb checks the actor's rights on every member task.
 */
export class BatchService implements BatchServiceApi {
  /** Batches being tested in this process, to abort on close. */
  private readonly running = new Map<string, AbortController>();
  private readonly settled = new Set<Promise<void>>();

  constructor(private readonly deps: BatchServiceDeps) {}

  async createBatch(input: CreateBatchInput, actor: Actor): Promise<BatchView> {
    const ids = input.tasks;
    if (ids.length < 2 || ids.length > maxBatchMembers) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `a batch takes 2 to ${maxBatchMembers} tasks, got ${ids.length}`,
      );
    }
    const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
    if (repeated !== undefined) {
      throw new AppError('INVALID_ARGUMENT', `task ${repeated} is named twice`);
    }
    for (const id of ids) await this.requireReviewer(id, actor);
    const members: MemberFacts[] = [];
    for (const id of ids) members.push(await memberFacts(this.deps, id));
    const repositories = new Set(members.map((member) => member.repository));
    if (repositories.size > 1) {
      const sources = [...new Set(members.map((member) => member.sourceUrl))].join(', ');
      throw new AppError(
        'INVALID_ARGUMENT',
        `the tasks come from different repositories (${sources}): a batch takes the tasks of one Git URL, or of uploads of the same archive contents`,
      );
    }
    const createdAt = this.deps.clock.now();
    const row = await this.deps.db.batch.create({
      data: {
        status: 'queued',
        sourceKind: members[0]?.sourceKind ?? 'git',
        sourceUrl: members[0]?.sourceUrl ?? '',
        baseCommit: members[0]?.baseline ?? '',
        hostTaskId: members[0]?.taskId ?? '',
        createdBy: actorLabel(actor),
        createdAt,
        members: {
          create: members.map((member, position) => ({
            taskId: member.taskId,
            position,
            headCommit: member.head,
            diffSha256: member.diffSha256,
            fixed: [...member.fixed],
          })),
        },
      },
    });
    try {
      await this.preflight(row.id, members, createdAt);
    } catch (error) {
      // A refused member (diverged history, no clean rebase): nothing is left behind.
      await this.deps.db.batch.delete({ where: { id: row.id } });
      throw error;
    }
    await recordAudit(this.deps.db, {
      ...auditedAs(actor),
      action: 'batch.create',
      target: row.id,
      details: { tasks: [...ids] },
    });
    return this.view(row.id, actor);
  }

  async getBatch(id: string, actor: Actor): Promise<BatchView> {
    return this.view(id, actor);
  }

  async listBatches(actor: Actor): Promise<BatchView[]> {
    const rows = await this.deps.db.batch.findMany({
      include: batchInclude,
      orderBy: { createdAt: 'desc' },
      take: 100,
    });
    return rows
      .filter((row) => batchRights(actor, row).see)
      .map((row) => this.masked(row, actor)(batchView(row, actor)));
  }

  async dropMember(id: string, taskId: string, actor: Actor): Promise<BatchView> {
    const row = await this.row(id, actor);
    if (!batchRights(actor, row).review) throw forbidden();
    if (!['conflicts', 'failed', 'error'].includes(row.status)) {
      throw new AppError(
        'INVALID_STATE',
        `batch ${id} is ${row.status}: members are dropped from a batch with conflicts or a failure`,
      );
    }
    const member = row.members.find((m) => m.taskId === taskId);
    if (member === undefined)
      throw new AppError('NOT_FOUND', `task ${taskId} is not in batch ${id}`);
    if (member.droppedAt !== null) {
      throw new AppError('INVALID_STATE', `task ${taskId} was already dropped from batch ${id}`);
    }
    const left = row.members.filter((m) => m.droppedAt === null && m.taskId !== taskId);
    if (left.length < 2) {
      throw new AppError(
        'INVALID_STATE',
        `dropping task ${taskId} would leave batch ${id} with one member: land that task on its own`,
      );
    }
    await this.deps.db.batchMember.update({
      where: { batchId_taskId: { batchId: id, taskId } },
      data: { droppedBy: actorLabel(actor), droppedAt: this.deps.clock.now() },
    });
    await recordAudit(this.deps.db, {
      ...auditedAs(actor),
      action: 'batch.drop',
      target: id,
      details: { task: taskId },
    });
    const members: MemberFacts[] = [];
    for (const m of left) members.push(await memberFacts(this.deps, m.taskId));
    await this.preflight(id, members, row.createdAt);
    return this.view(id, actor);
  }

  async batchDiff(id: string, actor: Actor): Promise<BatchDiff> {
    const row = await this.row(id, actor);
    if (row.diff === null || row.diffSha256 === null) {
      throw new AppError('INVALID_STATE', `batch ${id} has no combined diff (it is ${row.status})`);
    }
    return {
      bytes: Buffer.from(row.diff),
      sha256: row.diffSha256,
      fileName: `shadowbox-batch-${id}-${row.diffSha256.slice(0, 12)}.patch`,
    };
  }

  async reviewBatch(id: string, input: ReviewBatchInput, actor: Actor): Promise<BatchView> {
    const row = await this.row(id, actor);
    if (!batchRights(actor, row).review) throw forbidden();
    if (!['passed', 'approved', 'rejected'].includes(row.status) || row.diffSha256 === null) {
      throw new AppError(
        'INVALID_STATE',
        `batch ${id} is ${row.status}: only a combination that passed can be reviewed`,
      );
    }
    if (input.sha256 !== row.diffSha256) {
      throw new AppError(
        'STALE_DIFF',
        `the diff you reviewed (sha256 ${input.sha256.slice(0, 12)}) is not batch ${id}'s combined diff (${row.diffSha256.slice(0, 12)}): reload it`,
      );
    }
    const by = actorLabel(actor);
    await inTransaction(this.deps.db, async (tx) => {
      await tx.batch.update({
        where: { id },
        data: {
          status: input.verdict === 'approve' ? 'approved' : 'rejected',
          approvedSha256: input.sha256,
          reviewedBy: by,
          reviewedAt: this.deps.clock.now(),
        },
      });
      await recordAudit(tx, {
        ...auditedAs(actor),
        action: `batch.${input.verdict}`,
        target: id,
        details: { sha256: input.sha256 },
      });
    });
    return this.view(id, actor);
  }

  async pushBatch(id: string, input: PushBatchInput, actor: Actor): Promise<BatchPushView> {
    const row = await this.row(id, actor);
    if (!batchRights(actor, row).review) throw forbidden();
    return pushBatch(this.deps, row, input, actor);
  }

  /** Marks batches a restart interrupted (their tests ran in a process that is gone). */
  async recover(): Promise<void> {
    await this.deps.db.batch.updateMany({
      where: { status: { in: ['queued', 'running'] } },
      data: {
        status: 'error',
        error: 'the server stopped while the batch was tested: drop a member or start a new batch',
      },
    });
  }

  /** Aborts the batches being tested and waits for them to record it. */
  async close(): Promise<void> {
    for (const controller of this.running.values())
      controller.abort(new Error('the server is stopping'));
    await Promise.all([...this.settled]);
  }

  private async preflight(
    id: string,
    members: readonly MemberFacts[],
    createdAt: Date,
  ): Promise<void> {
    const gitDir = batchGitDir(this.deps.layout, id);
    const plan = await planBatch(gitDir, members, batchCommitter(createdAt));
    const conflicting = plan.conflicts.length > 0;
    await this.deps.db.batch.update({
      where: { id },
      data: {
        status: conflicting ? 'conflicts' : 'queued',
        baseCommit: plan.base,
        hostTaskId: plan.host.taskId,
        conflicts: plan.conflicts as unknown as Prisma.InputJsonValue,
        trials: [],
        culprits: [],
        error: null,
        commits: [],
        diff: null,
        diffSha256: null,
        approvedSha256: null,
        reviewedBy: null,
        reviewedAt: null,
      },
    });
    if (conflicting) return;
    const shadows = this.deps.shadows;
    if (shadows === null) {
      await this.fail(
        id,
        'this process runs no tests (a web process): start the batch on a worker',
      );
      return;
    }
    const controller = new AbortController();
    this.running.set(id, controller);
    const trials: BatchTrial[] = [];
    const done = (async () => {
      try {
        await this.deps.db.batch.update({ where: { id }, data: { status: 'running' } });
        const outcome = await testBatch(
          { db: this.deps.db, layout: this.deps.layout, shadows },
          {
            gitDir,
            plan,
            members,
            committer: batchCommitter(createdAt),
            signal: controller.signal,
            onTrial: async (trial) => {
              trials.push(trial);
              await this.deps.db.batch.update({
                where: { id },
                data: { trials: trials as unknown as Prisma.InputJsonValue },
              });
            },
          },
        );
        await this.deps.db.batch.update({
          where: { id },
          data: outcome.passes
            ? {
                status: 'passed',
                commits: [...outcome.commits],
                diff: new Uint8Array(outcome.diff),
                diffSha256: createHash('sha256').update(outcome.diff).digest('hex'),
              }
            : { status: 'failed', culprits: outcome.culprits as unknown as Prisma.InputJsonValue },
        });
      } catch (error) {
        // Recording the failure can fail too (the database gone at shutdown): said, not thrown,
        // since nobody awaits this but `close()`.
        await this.fail(id, error instanceof Error ? error.message : String(error)).catch(
          (recording: unknown) => {
            console.error(`shadowbox: batch ${id} failed and could not be marked so`, recording);
          },
        );
      } finally {
        this.running.delete(id);
      }
    })();
    this.settled.add(done);
    void done.then(() => this.settled.delete(done));
  }

  private async fail(id: string, reason: string): Promise<void> {
    await this.deps.db.batch.update({ where: { id }, data: { status: 'error', error: reason } });
  }

  private async requireReviewer(taskId: string, actor: Actor): Promise<void> {
    await requireTask(this.deps.db, taskId, actor, 'review');
  }

  private async row(id: string, actor: Actor): Promise<BatchRow> {
    const row = await this.deps.db.batch.findUnique({ where: { id }, include: batchInclude });
    if (row === null || !batchRights(actor, row).see)
      throw new AppError('NOT_FOUND', `no batch ${id}`);
    return row;
  }

  private async view(id: string, actor: Actor): Promise<BatchView> {
    const row = await this.row(id, actor);
    return this.masked(row, actor)(batchView(row, actor));
  }

  /** Trials' output names the host's worktree: non-admins read `<worktree>`, as on its task. */
  private masked(row: BatchRow, actor: Actor): PathMask {
    return serverPathMask(this.deps.layout, actor, row.hostTaskId);
  }
}

const forbidden = () =>
  new AppError(
    'FORBIDDEN',
    'changing a batch needs a reviewer or an admin of every one of its tasks, or their token with the "reviewer" scope',
  );
