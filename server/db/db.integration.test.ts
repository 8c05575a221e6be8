import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error';
import type { Db } from './client';
import { appendEvent, appendEventInTransaction, eventsSince } from './event-store';
import {
  backends,
  openMigratedDatabase,
  type MigratedDatabase,
  type ScratchDatabase,
} from '../test-support/scratch-databases';

const sha256 = (bytes: Uint8Array | string): string =>
  createHash('sha256').update(bytes).digest('hex');

/** Appends `count` events from another process; resolves with the seqs it got. */
function appendInChild(
  database: ScratchDatabase['config'],
  taskId: string,
  count: number,
): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(import.meta.dirname, 'fixtures', 'append-events.ts'),
        JSON.stringify(database),
        taskId,
        String(count),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(JSON.parse(out) as number[]);
      else reject(new Error(`append-events exited with ${code}: ${out}`));
    });
  });
}

async function newTask(db: Db): Promise<string> {
  const task = await db.task.create({
    data: {
      sourceKind: 'git',
      sourceUrl: 'https://example.com/r.git',
      testCommand: ['pytest', '-q'],
    },
  });
  return task.id;
}

for (const backend of backends) {
  describe.skipIf(backend.skip)(`database on ${backend.name}`, () => {
    let database: MigratedDatabase;
    let db: Db;
    beforeAll(async () => {
      database = await openMigratedDatabase(backend.create);
      db = database.db;
    });
    afterAll(async () => {
      await database.close();
    });

    it('round-trips a task with its iteration, hypothesis, edits, runs, diff and review', async () => {
      const content = Buffer.from('fn main() {}\n');
      const diffBytes = Buffer.from('diff --git a/src/main.rs b/src/main.rs\n\u202e\n');
      const task = await db.task.create({
        data: {
          sourceKind: 'archive',
          archiveName: 'project.tar.gz',
          testCommand: ['cargo', 'test', '--', '--nocapture'],
          maxIterations: 5,
        },
      });
      expect(task.id).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(task).toMatchObject({
        status: 'queued',
        hypothesesPerIteration: 3,
        lastEventId: 0,
        approvalState: 'none',
      });

      await db.blob.create({
        data: { sha256: sha256(content), bytes: content, size: content.length },
      });
      const iteration = await db.iteration.create({ data: { taskId: task.id, index: 1 } });
      const hypothesis = await db.hypothesis.create({
        data: {
          taskId: task.id,
          iterationId: iteration.id,
          name: 'fix-a',
          origin: 'external',
          edits: {
            create: [
              { path: 'src/main.rs', op: 'write', blobSha256: sha256(content) },
              { path: 'old.rs', op: 'delete' },
            ],
          },
        },
      });
      await db.run.create({
        data: {
          taskId: task.id,
          kind: 'baseline',
          argv: ['cargo', 'test'],
          mode: 'overlay',
          exitCode: 101,
          durationMs: 1234,
          failed: 2,
          passed: 7,
          parsed: true,
          outputTail: 'test result: FAILED',
        },
      });
      await db.run.create({
        data: {
          taskId: task.id,
          iterationId: iteration.id,
          hypothesisId: hypothesis.id,
          kind: 'hypothesis',
          argv: ['cargo', 'test'],
          mode: 'inplace',
          exitCode: null,
          signal: 'SIGKILL',
          timedOut: true,
          durationMs: 60_000,
        },
      });
      await db.diff.create({
        data: {
          sha256: sha256(diffBytes),
          bytes: diffBytes,
          flags: { bidi: true, touchesTests: false },
          size: diffBytes.length,
        },
      });
      await db.task.update({
        where: { id: task.id },
        data: { diffSha256: sha256(diffBytes), status: 'awaiting_review' },
      });
      await db.review.create({
        data: {
          taskId: task.id,
          verdict: 'approve',
          diffSha256: sha256(diffBytes),
          reviewer: 'token:abc',
        },
      });

      const loaded = await db.task.findUniqueOrThrow({
        where: { id: task.id },
        include: {
          diff: true,
          reviews: true,
          runs: { orderBy: { createdAt: 'asc' } },
          iterations: {
            include: { hypotheses: { include: { edits: { include: { blob: true } } } } },
          },
        },
      });
      expect(loaded.testCommand).toEqual(['cargo', 'test', '--', '--nocapture']);
      expect(loaded.updatedAt.getTime()).toBeGreaterThanOrEqual(task.updatedAt.getTime());
      expect(Buffer.from(loaded.diff!.bytes).equals(diffBytes)).toBe(true);
      expect(loaded.diff!.flags).toEqual({ bidi: true, touchesTests: false });
      expect(loaded.reviews.map((r) => r.verdict)).toEqual(['approve']);
      expect(loaded.runs.map((r) => [r.kind, r.exitCode, r.signal, r.timedOut])).toEqual(
        expect.arrayContaining([
          ['baseline', 101, null, false],
          ['hypothesis', null, 'SIGKILL', true],
        ]),
      );
      const edits = loaded.iterations[0]!.hypotheses[0]!.edits.sort((a, b) =>
        a.path.localeCompare(b.path),
      );
      expect(edits.map((e) => [e.path, e.op])).toEqual([
        ['old.rs', 'delete'],
        ['src/main.rs', 'write'],
      ]);
      expect(Buffer.from(edits[1]!.blob!.bytes).toString()).toBe('fn main() {}\n');

      // A blob still referenced by an edit cannot be deleted; deleting the task cascades.
      await expect(db.blob.delete({ where: { sha256: sha256(content) } })).rejects.toThrow();
      await db.task.delete({ where: { id: task.id } });
      expect(await db.hypothesisEdit.count({ where: { hypothesisId: hypothesis.id } })).toBe(0);
    });

    it('stores API tokens by hash and jobs and audit entries', async () => {
      const taskId = await newTask(db);
      const token = await db.apiToken.create({
        data: { name: 'ci', hash: sha256('secret'), scopes: ['agent'] },
      });
      await expect(
        db.apiToken.create({ data: { name: 'dup', hash: sha256('secret'), scopes: [] } }),
      ).rejects.toThrow();
      expect(await db.apiToken.findUnique({ where: { hash: sha256('secret') } })).toMatchObject({
        id: token.id,
        scopes: ['agent'],
        revokedAt: null,
      });
      const job = await db.job.create({ data: { taskId } });
      const claimed = await db.job.updateMany({
        where: { id: job.id, state: 'queued' },
        data: {
          state: 'running',
          lockedBy: 'worker-1',
          lockedUntil: new Date(Date.now() + 60_000),
          attempts: { increment: 1 },
        },
      });
      expect(claimed.count).toBe(1);
      await db.auditLog.create({
        data: {
          actor: `token:${token.id}`,
          action: 'task.create',
          target: taskId,
          details: { via: 'api' },
        },
      });
      expect(await db.auditLog.count({ where: { target: taskId } })).toBe(1);
    });

    describe('events', () => {
      it('gives 200 concurrent appends the gap-free seqs 1..200', async () => {
        const taskId = await newTask(db);
        const appended = await Promise.all(
          Array.from({ length: 200 }, (_, i) => appendEvent(db, taskId, 'log', { i })),
        );
        const seqs = appended.map((e) => e.seq).sort((a, b) => a - b);
        expect(seqs).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
        const task = await db.task.findUniqueOrThrow({ where: { id: taskId } });
        expect(task.lastEventId).toBe(200);
        // Each stored event is the one its append returned.
        const stored = await eventsSince(db, taskId, 0, 1000);
        const bySeq = new Map(appended.map((e) => [e.seq, e.payload]));
        expect(
          stored.every((e) => JSON.stringify(bySeq.get(e.seq)) === JSON.stringify(e.payload)),
        ).toBe(true);
      });

      it('stays gap-free with three processes appending at once', async () => {
        const taskId = await newTask(db);
        const progress = { running: true };
        const children = Promise.all(
          [1, 2].map(() => appendInChild(database.scratch.config, taskId, 100)),
        );
        void children.finally(() => (progress.running = false));
        const own: number[] = [];
        while (progress.running) {
          const batch = await Promise.all(
            Array.from({ length: 5 }, (_, i) => appendEvent(db, taskId, 'log', { i })),
          );
          own.push(...batch.map((e) => e.seq));
          // better-sqlite3 answers synchronously: yield so the children's exit can be seen.
          await new Promise((resolve) => setImmediate(resolve));
        }
        const theirs = await children;
        const total = own.length + 200;
        const all = [...own, ...theirs.flat()].sort((a, b) => a - b);
        expect(all).toEqual(Array.from({ length: total }, (_, i) => i + 1));
        // How many the parent appended depends on the machine's speed: read every page.
        const stored: number[] = [];
        for (let page = await eventsSince(db, taskId, 0, 1000); page.length > 0;) {
          stored.push(...page.map((e) => e.seq));
          page = await eventsSince(db, taskId, stored.at(-1)!, 1000);
        }
        expect(stored).toEqual(all);
        // The writers really interleaved: some child's seqs are not one contiguous block.
        const contiguous = (seqs: number[]) => seqs.at(-1)! - seqs[0]! === seqs.length - 1;
        const sorted = theirs.map((seqs) => [...seqs].sort((a, b) => a - b));
        expect(sorted.every(contiguous)).toBe(false);
      });

      it('pages with eventsSince and resumes after any seq', async () => {
        const taskId = await newTask(db);
        for (let i = 0; i < 25; i++)
          await appendEvent(db, taskId, i % 2 ? 'run.finished' : 'run.started', { i });
        const pages: number[][] = [];
        let after = 0;
        for (;;) {
          const page = await eventsSince(db, taskId, after, 10);
          if (page.length === 0) break;
          pages.push(page.map((e) => e.seq));
          after = page.at(-1)!.seq;
        }
        expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
        expect(pages.flat()).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
        const tail = await eventsSince(db, taskId, 23);
        expect(tail.map((e) => [e.seq, e.type, e.payload])).toEqual([
          [24, 'run.finished', { i: 23 }],
          [25, 'run.started', { i: 24 }],
        ]);
        expect(tail[0]!.createdAt).toBeInstanceOf(Date);
        expect(await eventsSince(db, taskId, 25)).toEqual([]);
      });

      it('commits an event with the state change it announces, or neither', async () => {
        const taskId = await newTask(db);
        await expect(
          db.$transaction(async (tx) => {
            await tx.task.update({ where: { id: taskId }, data: { status: 'baseline' } });
            await appendEventInTransaction(tx, taskId, 'status', { status: 'baseline' });
            throw new Error('abort');
          }),
        ).rejects.toThrow('abort');
        expect(await eventsSince(db, taskId, 0)).toEqual([]);
        const next = await appendEvent(db, taskId, 'status', { status: 'preparing' });
        expect(next.seq).toBe(1);
      });

      it('rejects an unknown task and bad paging arguments', async () => {
        await expect(appendEvent(db, 'no-such-task', 'log', {})).rejects.toMatchObject({
          code: 'NOT_FOUND',
        });
        await expect(eventsSince(db, 'x', -1)).rejects.toBeInstanceOf(AppError);
        await expect(eventsSince(db, 'x', 0, 0)).rejects.toThrow(/limit must be/);
      });
    });
  });
}
