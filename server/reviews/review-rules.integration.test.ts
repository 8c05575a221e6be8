import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '../auth';
import { createDb, type Db } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { systemClock } from '../engine/ports';
import { buildReviewArtifact } from '../engine/review';
import { PrismaTaskStore } from '../tasks/prisma-task-store';
import { TaskEventBus } from '../tasks/task-event-bus';
import { tokenIn, userIn } from '../test-support/actors';
import { backends, type ScratchDatabase } from '../test-support/scratch-databases';
import { ReviewService } from './review-service';

// The review conversation's rules on a real database (both of them): each is checked inside the
// transaction that would break it, so a refusal leaves nothing behind.

const calcDiff = (body: string): string =>
  [
    'diff --git a/calc.py b/calc.py',
    'index 1111111..2222222 100644',
    '--- a/calc.py',
    '+++ b/calc.py',
    body,
  ].join('\n');

/** New side: 1 import, 4 def, 5 `if not xs:`, 6 `return 0.0`, 7 `return sum(xs) / len(xs)`. */
const firstDiff = calcDiff(`@@ -1,5 +1,7 @@
 import math
 
 
 def mean(xs):
-    return sum(xs) // len(xs)
+    if not xs:
+        return 0.0
+    return sum(xs) / len(xs)
`);

/** A docstring above the guard (every line below moves down one), and the guard now raises. */
const secondDiff = calcDiff(`@@ -1,5 +1,8 @@
 import math
 
 
 def mean(xs):
-    return sum(xs) // len(xs)
+    """The arithmetic mean."""
+    if not xs:
+        raise ValueError("mean of nothing")
+    return sum(xs) / len(xs)
`);

const artifactOf = (diff: string) =>
  buildReviewArtifact({
    diff: Buffer.from(diff),
    subject: 'Fix the failing tests',
    body: 'test',
    date: new Date('2026-12-06T10:00:00Z'),
    commit: 'c'.repeat(40),
  });

for (const backend of backends) {
  describe.skipIf(backend.skip)(`review rules on ${backend.name}`, () => {
    let scratch: ScratchDatabase;
    let db: Db;
    let store: PrismaTaskStore;
    let reviews: ReviewService;
    const scheduled: string[] = [];
    let owner: Actor;
    let rita: Actor;
    let victor: Actor;
    let root: Actor;
    let agent: Actor;
    let stranger: Actor;

    beforeAll(async () => {
      scratch = await backend.create();
      await migrateDatabase(scratch.config);
      db = createDb({ database: scratch.config });
      store = new PrismaTaskStore(db, new TaskEventBus());
      reviews = new ReviewService({
        db,
        store,
        clock: systemClock,
        scheduler: { schedule: (id) => Promise.resolve(void scheduled.push(id)) },
        maxReviewRounds: 2,
      });
      owner = await userIn(db, 'olive', 'author');
      rita = await userIn(db, 'rita', 'reviewer');
      victor = await userIn(db, 'victor', 'reviewer');
      root = await userIn(db, 'root', 'admin');
      agent = await tokenIn(db, 'olive', ['agent'], 'author');
      stranger = await userIn(db, 'sam', 'reviewer');
    }, 60_000);
    afterAll(async () => {
      await db.$disconnect();
      await scratch.drop();
    });

    const personId = (actor: Actor): string | null =>
      actor.kind === 'cli' ? null : actor.person.id;

    /** A task of olive's team (rita and victor review for it) with `diff` under review. */
    async function taskUnderReview(diff = firstDiff): Promise<{ id: string; sha256: string }> {
      const artifact = artifactOf(diff);
      await db.diff.upsert({
        where: { sha256: artifact.sha256 },
        create: {
          sha256: artifact.sha256,
          bytes: new Uint8Array(artifact.bytes),
          flags: {},
          size: artifact.bytes.length,
        },
        update: {},
      });
      const team = await db.team.upsert({
        where: { name: 'calc' },
        create: { name: 'calc' },
        update: {},
      });
      for (const [actor, role] of [
        [owner, 'author'],
        [rita, 'reviewer'],
        [victor, 'reviewer'],
      ] as const) {
        const userId = personId(actor) ?? '';
        await db.teamMember.upsert({
          where: { teamId_userId: { teamId: team.id, userId } },
          create: { teamId: team.id, userId, role },
          update: {},
        });
      }
      const task = await db.task.create({
        data: {
          status: 'awaiting_review',
          sourceKind: 'archive',
          archiveName: 'calc.tar.gz',
          testCommand: ['pytest', '-v'],
          ownerId: personId(owner),
          teamId: team.id,
          baselineCommit: 'b'.repeat(40),
          checkpointSha: 'c'.repeat(40),
          iterationCount: 1,
          maxIterations: 1,
          diffSha256: artifact.sha256,
        },
      });
      return { id: task.id, sha256: artifact.sha256 };
    }

    // Team roles are read when the actor is made: make them again once the team exists.
    beforeEach(async () => {
      await taskUnderReview();
      owner = await userIn(db, 'olive', 'author');
      rita = await userIn(db, 'rita', 'reviewer');
      victor = await userIn(db, 'victor', 'reviewer');
      agent = await tokenIn(db, 'olive', ['agent'], 'author');
    });

    const guard = { path: 'calc.py', side: 'new', startLine: 5, endLine: 6 } as const;

    it('a stale hash is refused and nothing is stored, not even the drafts it would send', async () => {
      const { id, sha256 } = await taskUnderReview();
      await reviews.saveDraft(id, null, { sha256, ...guard, body: 'use a guard clause' }, rita);
      await expect(
        reviews.submit(id, { verdict: 'request_changes', sha256: 'f'.repeat(64) }, rita),
      ).rejects.toMatchObject({ code: 'STALE_DIFF' });
      expect(await db.review.count({ where: { taskId: id } })).toBe(0);
      expect(await db.reviewThread.count({ where: { taskId: id } })).toBe(0);
      expect(await reviews.drafts(id, rita)).toHaveLength(1);
      expect((await db.task.findUniqueOrThrow({ where: { id } })).status).toBe('awaiting_review');
    });

    it('drafts are the person’s own, survive until the review, and anchor only to lines the diff shows', async () => {
      const { id, sha256 } = await taskUnderReview();
      const draft = await reviews.saveDraft(id, null, { sha256, ...guard, body: 'first' }, rita);
      await reviews.saveDraft(id, draft.id, { sha256, ...guard, body: 'second' }, rita);
      expect((await reviews.drafts(id, rita)).map((d) => d.body)).toEqual(['second']);
      expect(await reviews.drafts(id, victor)).toEqual([]);
      await expect(
        reviews.saveDraft(id, draft.id, { sha256, ...guard, body: 'not mine' }, victor),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(
        reviews.saveDraft(
          id,
          null,
          { sha256, path: 'calc.py', side: 'new', startLine: 40, endLine: 41, body: 'x' },
          rita,
        ),
      ).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message:
          'calc.py:40-41 (new) is not in the diff: comment on lines the diff shows on that side',
      });
    });

    it('request changes: threads with their code, back to waiting for a round, streamed and audited', async () => {
      const { id, sha256 } = await taskUnderReview();
      await reviews.saveDraft(id, null, { sha256, ...guard, body: 'use a guard clause' }, rita);
      await reviews.submit(
        id,
        {
          verdict: 'request_changes',
          sha256,
          summary: 'Nearly there.',
          comments: [{ path: 'calc.py', side: 'old', startLine: 5, endLine: 5, body: 'why //?' }],
        },
        rita,
      );
      const task = await db.task.findUniqueOrThrow({ where: { id } });
      // The worktree stays at its checkpoint; the round is an iteration beyond maxIterations (1).
      expect(task).toMatchObject({
        status: 'awaiting_hypotheses',
        reviewRounds: 1,
        iterationCount: 2,
        checkpointSha: 'c'.repeat(40),
      });
      expect(await db.iteration.findFirst({ where: { taskId: id, index: 2 } })).toMatchObject({
        status: 'waiting',
        reviewRound: 1,
      });
      expect(scheduled).toContain(id);
      const event = await db.event.findFirstOrThrow({
        where: { taskId: id, type: 'task.changes_requested' },
      });
      expect(event.payload).toMatchObject({
        by: 'rita',
        round: 1,
        iteration: 2,
        summary: 'Nearly there.',
        // In file and line order; at the same line, in the order they were written.
        threads: [
          {
            side: 'old',
            startLine: 5,
            lines: ['    return sum(xs) // len(xs)'],
            comments: [{ author: 'rita', body: 'why //?' }],
          },
          {
            path: 'calc.py',
            side: 'new',
            startLine: 5,
            endLine: 6,
            lines: ['    if not xs:', '        return 0.0'],
            comments: [{ author: 'rita', body: 'use a guard clause' }],
          },
        ],
      });
      expect(await reviews.drafts(id, rita)).toEqual([]);
      const audit = await db.auditLog.findMany({
        where: { target: id },
        orderBy: { createdAt: 'asc' },
      });
      expect(audit.map((a) => [a.action, a.actor, a.actorUserId])).toEqual([
        ['review.comment', 'rita', personId(rita)],
        ['review.comment', 'rita', personId(rita)],
        ['task.request_changes', 'rita', personId(rita)],
      ]);
    });

    it('an open thread refuses an approval (409 OPEN_THREADS naming where); an agent replies but cannot resolve', async () => {
      const { id, sha256 } = await taskUnderReview();
      await reviews.submit(
        id,
        { verdict: 'comment', sha256, comments: [{ ...guard, body: 'is 0.0 right here?' }] },
        rita,
      );
      await expect(reviews.submit(id, { verdict: 'approve', sha256 }, rita)).rejects.toMatchObject({
        code: 'OPEN_THREADS',
        message:
          '1 thread on this diff is still open (calc.py:5-6 (new)): resolve it before approving',
      });
      const [thread] = (await reviews.threads(id, agent)).threads;
      if (thread === undefined) throw new Error('no thread');
      const replied = await reviews.reply(id, thread.id, 'It is: an empty mean is 0.0.', agent);
      expect(replied.comments.map((c) => [c.author, c.authorKind])).toEqual([
        ['rita', 'person'],
        ['olive (token:token-olive)', 'agent'],
      ]);
      await expect(reviews.resolve(id, thread.id, agent)).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: 'an agent cannot resolve a thread: it replies, and a reviewer resolves it',
      });
      await expect(reviews.resolve(id, thread.id, owner)).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
      expect((await reviews.resolve(id, thread.id, victor)).status).toBe('resolved');
      expect((await reviews.reopen(id, thread.id, rita)).status).toBe('open');
      await reviews.resolve(id, thread.id, rita);
      await reviews.submit(id, { verdict: 'approve', sha256 }, rita);
      const task = await db.task.findUniqueOrThrow({ where: { id } });
      expect(task).toMatchObject({ status: 'approved', approvedDiffSha256: sha256 });
      const actions = await db.auditLog.findMany({
        where: { target: id },
        orderBy: { createdAt: 'asc' },
      });
      expect(actions.map((a) => `${a.action} ${a.actor}`)).toEqual([
        'review.comment rita',
        'task.comment rita',
        'review.reply olive (token:token-olive)',
        'review.resolve victor',
        'review.reopen rita',
        'review.resolve rita',
        'task.approve rita',
      ]);
    });

    it('a request for changes is sticky: only its reviewer (or an admin) clears it', async () => {
      const { id, sha256 } = await taskUnderReview();
      await reviews.submit(id, { verdict: 'request_changes', sha256, summary: 'no //' }, rita);
      // The round put the same diff up again (no hypothesis won), as the loop does.
      await db.task.update({ where: { id }, data: { status: 'awaiting_review' } });
      await expect(
        reviews.submit(id, { verdict: 'approve', sha256 }, victor),
      ).rejects.toMatchObject({
        code: 'CHANGES_REQUESTED',
        message:
          'rita requested changes: only that reviewer (by approving or dismissing it with a reason) or an admin can clear that',
      });
      const [standing] = await reviews.history(id, victor);
      if (standing === undefined) throw new Error('no review');
      await expect(
        reviews.dismiss(id, standing.id, 'looks fine to me', victor),
      ).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: 'only rita, who requested the changes, or an admin can dismiss that request',
      });
      await expect(reviews.dismiss(id, standing.id, '  ', rita)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
      await reviews.dismiss(id, standing.id, 'the // was intended', rita);
      expect((await reviews.history(id, victor))[0]?.cleared).toMatchObject({
        by: 'rita',
        how: 'dismissed',
        reason: 'the // was intended',
      });
      await reviews.submit(id, { verdict: 'approve', sha256 }, victor);
      expect((await db.task.findUniqueOrThrow({ where: { id } })).status).toBe('approved');
      expect(
        await db.auditLog.count({ where: { target: id, action: 'review.dismiss', actor: 'rita' } }),
      ).toBe(1);
    });

    it('an admin clears another reviewer’s request by approving; the same reviewer by approving', async () => {
      const first = await taskUnderReview();
      await reviews.submit(
        first.id,
        { verdict: 'request_changes', sha256: first.sha256, summary: 'x' },
        rita,
      );
      await db.task.update({ where: { id: first.id }, data: { status: 'awaiting_review' } });
      await reviews.submit(first.id, { verdict: 'approve', sha256: first.sha256 }, root);
      expect((await reviews.history(first.id, root))[0]?.cleared).toMatchObject({
        by: 'root',
        how: 'approved',
      });

      const second = await taskUnderReview();
      await reviews.submit(
        second.id,
        { verdict: 'request_changes', sha256: second.sha256, summary: 'y' },
        rita,
      );
      await db.task.update({ where: { id: second.id }, data: { status: 'awaiting_review' } });
      await reviews.submit(second.id, { verdict: 'approve', sha256: second.sha256 }, rita);
      expect((await db.task.findUniqueOrThrow({ where: { id: second.id } })).status).toBe(
        'approved',
      );
    });

    it('rounds are capped (SHADOWBOX_MAX_REVIEW_ROUNDS) and need something to change', async () => {
      const { id, sha256 } = await taskUnderReview();
      await expect(
        reviews.submit(id, { verdict: 'request_changes', sha256 }, rita),
      ).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message:
          'say what to change: a request for changes needs a summary or a comment on the diff',
      });
      for (const round of [1, 2]) {
        await reviews.submit(
          id,
          { verdict: 'request_changes', sha256, summary: `round ${round}` },
          rita,
        );
        await db.task.update({ where: { id }, data: { status: 'awaiting_review' } });
      }
      await expect(
        reviews.submit(id, { verdict: 'request_changes', sha256, summary: 'again' }, rita),
      ).rejects.toMatchObject({
        code: 'INVALID_STATE',
        message: `task ${id} has had 2 review rounds, the most this server allows (SHADOWBOX_MAX_REVIEW_ROUNDS=2): approve or reject it`,
      });
    });

    it('an author comments but cannot request changes or approve; someone else’s task does not exist', async () => {
      const { id, sha256 } = await taskUnderReview();
      await expect(
        reviews.submit(id, { verdict: 'request_changes', sha256, summary: 'x' }, owner),
      ).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await reviews.submit(id, { verdict: 'comment', sha256, summary: 'thanks' }, owner);
      for (const call of [
        () => reviews.threads(id, stranger),
        () => reviews.submit(id, { verdict: 'comment', sha256, summary: 'hi' }, stranger),
        () => reviews.drafts(id, stranger),
      ]) {
        await expect(call()).rejects.toMatchObject({ code: 'NOT_FOUND', message: `no task ${id}` });
      }
    });

    it('a new diff moves each thread to the same code, or makes it outdated when the code is gone', async () => {
      const { id, sha256 } = await taskUnderReview();
      await reviews.submit(
        id,
        {
          verdict: 'request_changes',
          sha256,
          comments: [
            { ...guard, body: 'raise instead' },
            { path: 'calc.py', side: 'new', startLine: 7, endLine: 7, body: 'fine' },
          ],
        },
        rita,
      );
      // The round's iteration runs and its winner is put up for review, as the loop does.
      await store.emit(id, { type: 'iteration.running', index: 2, hypotheses: [] });
      const next = artifactOf(secondDiff);
      await store.recordReview(id, next, { partial: false, stillFailing: [] });

      const { diffSha256, threads } = await reviews.threads(id, rita);
      expect(diffSha256).toBe(next.sha256);
      expect(
        threads.map((t) => [t.status, t.startLine, t.endLine, t.diffSha256 === next.sha256]),
      ).toEqual([
        ['open', 8, 8, true],
        ['outdated', 5, 6, false],
      ]);
      expect(threads[1]).toMatchObject({
        outdatedReason: 'the code it was written on is no longer in the diff',
        writtenOn: { sha256, path: 'calc.py', startLine: 5, endLine: 6 },
        lines: ['    if not xs:', '        return 0.0'],
      });
      // The diff an outdated thread was written on is one call away; no other task's diff is.
      expect((await reviews.diffAt(id, sha256, rita)).diff).toContain('+        return 0.0');
      await expect(reviews.diffAt(id, 'e'.repeat(64), rita)).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      // Outdated threads do not hold up an approval; open ones on the new diff do.
      await expect(
        reviews.submit(id, { verdict: 'approve', sha256: next.sha256 }, rita),
      ).rejects.toMatchObject({ code: 'OPEN_THREADS' });
    });
  });
}
