import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../auth';
import type { Db } from '../db/client';
import type { TaskStatus } from '../engine/lifecycle';
import { userIn } from '../test-support/actors';
import {
  backends,
  openMigratedDatabase,
  type MigratedDatabase,
} from '../test-support/scratch-databases';
import { listTasks } from './list-tasks';
import { parseListTasksQuery, type ListTasksQueryInput } from './list-tasks-query';
import type { Actor, TaskPage } from './task-api';

/**
 * The task list's query on both databases: keyset pages that meet every task once while tasks
 * are added, each filter, the search (case, wildcards), and visibility through all of them.
 */

interface Seed {
  readonly title: string;
  readonly problem?: string;
  readonly status?: TaskStatus;
  readonly owner: 'alice' | 'bob' | null;
  readonly team?: 'red';
  readonly git?: string;
  readonly archive?: string;
  /** Seconds after the base time; equal values tie on the sort key (the id decides). */
  readonly created: number;
  readonly updated?: number;
}

const repo = 'https://example.com/acme/widgets.git';
const seeds: readonly Seed[] = [
  { title: 'Fix the Parser crash', owner: 'alice', git: repo, created: 1, status: 'iterating' },
  { title: 'flaky clock test', owner: 'alice', archive: 'clock.tar.gz', created: 2, updated: 90 },
  {
    title: 'Unrelated',
    problem: 'Steps: the PARSER hangs on an empty file',
    owner: 'alice',
    created: 3,
    status: 'awaiting_review',
  },
  { title: '100% of runs fail', owner: 'alice', team: 'red', created: 4, status: 'failed' },
  { title: '100 runs fail', owner: 'alice', created: 4, status: 'failed' },
  { title: 'snake_case names', owner: 'bob', team: 'red', created: 5, status: 'approved' },
  { title: 'snakeXcase names', owner: 'bob', team: 'red', created: 5 },
  { title: 'back\\slash path', owner: 'bob', team: 'red', created: 5, git: repo },
  { title: 'Secret zebra plan', problem: 'private', owner: 'bob', created: 6, updated: 95 },
  { title: 'legacy import', owner: null, created: 7, status: 'cancelled' },
  ...Array.from({ length: 20 }, (_, i) => ({
    title: `bulk task ${i}`,
    owner: i % 2 === 0 ? ('alice' as const) : ('bob' as const),
    created: 10 + Math.floor(i / 3),
    updated: 60 - i,
  })),
];

describe.each(backends)('the task list on $name', ({ create, skip }) => {
  let database: MigratedDatabase;
  let db: Db;
  let alice: Actor;
  let bob: Actor;
  let outsider: Actor;
  const ids = new Map<string, string>();
  const base = Date.UTC(2026, 0, 1);

  const list = (actor: Actor, query: ListTasksQueryInput = {}): Promise<TaskPage> =>
    listTasks({ db }, { actor, query: parseListTasksQuery(query) });
  const titles = (page: TaskPage) => page.tasks.map((task) => task.title);
  const id = (title: string): string => {
    const found = ids.get(title);
    if (found === undefined) throw new Error(`no seeded task '${title}'`);
    return found;
  };

  /** Every page of `query`, following nextCursor; `between` runs before each next page. */
  async function walk(
    actor: Actor,
    query: ListTasksQueryInput,
    between: () => Promise<void> = () => Promise.resolve(),
  ): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 100; pages += 1) {
      const page = await list(actor, { ...query, ...(cursor === undefined ? {} : { cursor }) });
      expect(page.tasks.length).toBeLessThanOrEqual(query.limit ?? 100);
      seen.push(...page.tasks.map((task) => task.id));
      if (page.nextCursor === null) return seen;
      // Only the last page is short: the visibility and filters are in the page's query.
      expect(page.tasks).toHaveLength(query.limit ?? 100);
      cursor = page.nextCursor;
      await between();
    }
    throw new Error('the pages never ended');
  }

  beforeAll(async () => {
    if (skip) return;
    database = await openMigratedDatabase(create);
    db = database.db;
    const aliceFirst = await userIn(db, 'alice');
    const bobFirst = await userIn(db, 'bob');
    outsider = await userIn(db, 'olga');
    const red = await db.team.create({ data: { name: 'red' } });
    for (const actor of [aliceFirst, bobFirst]) {
      if (actor.kind === 'cli') throw new Error('a person was expected');
      await db.teamMember.create({
        data: { teamId: red.id, userId: actor.person.id, role: 'author' },
      });
    }
    // Loaded again: a person's teams are read with them.
    alice = await userIn(db, 'alice');
    bob = await userIn(db, 'bob');
    const personId = (actor: Actor) => (actor.kind === 'cli' ? null : actor.person.id);
    for (const seed of seeds) {
      const row = await db.task.create({
        data: {
          title: seed.title,
          problem: seed.problem ?? '',
          status: seed.status ?? 'queued',
          sourceKind: seed.archive === undefined ? 'git' : 'archive',
          sourceUrl:
            seed.archive === undefined ? (seed.git ?? 'https://example.com/other.git') : null,
          archiveName: seed.archive ?? null,
          testCommand: ['true'],
          ownerId: seed.owner === null ? null : personId(seed.owner === 'alice' ? alice : bob),
          teamId: seed.team === undefined ? null : red.id,
          createdAt: new Date(base + seed.created * 1000),
          updatedAt: new Date(base + (seed.updated ?? seed.created) * 1000),
        },
      });
      ids.set(seed.title, row.id);
    }
  }, 120_000);

  afterAll(async () => {
    await (database as MigratedDatabase | undefined)?.close();
  });

  it.skipIf(skip)(
    "answers today's first page without parameters: newest created first",
    async () => {
      const page = await list(cliActor);
      const expected = [...seeds]
        .map((seed) => ({ created: seed.created, id: id(seed.title) }))
        .sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1))
        .map((row) => row.id);
      expect(page.tasks.map((task) => task.id)).toEqual(expected);
      expect(page.nextCursor).toBeNull();
    },
  );

  it.skipIf(skip)(
    'meets every task exactly once across pages while new tasks are created',
    async () => {
      for (const sort of ['created', 'updated'] as const) {
        let added = 0;
        let seen: string[];
        try {
          // An offset would shift by each task added at the top and show rows twice.
          seen = await walk(cliActor, { sort, limit: 4 }, async () => {
            added += 1;
            // Newer than every seeded task in both sorts: before the cursor, not on later pages.
            await db.task.create({
              data: {
                title: `added while paging ${added}`,
                sourceKind: 'git',
                sourceUrl: 'https://example.com/new.git',
                testCommand: ['true'],
              },
            });
          });
        } finally {
          await db.task.deleteMany({ where: { title: { startsWith: 'added while paging' } } });
        }
        expect(added).toBeGreaterThan(3);
        expect(new Set(seen).size).toBe(seen.length);
        expect(new Set(seen)).toEqual(new Set(seeds.map((seed) => id(seed.title))));
      }
    },
  );

  it.skipIf(skip)('sorts by last activity, ties broken by id, when asked', async () => {
    const page = await list(cliActor, { sort: 'updated', limit: 3 });
    expect(titles(page)).toEqual(['Secret zebra plan', 'flaky clock test', 'bulk task 0']);
  });

  it.skipIf(skip)('filters by one status or several', async () => {
    expect(new Set(titles(await list(cliActor, { status: ['failed'] })))).toEqual(
      new Set(['100% of runs fail', '100 runs fail']),
    );
    expect(
      new Set(titles(await list(cliActor, { status: ['approved', 'awaiting_review'] }))),
    ).toEqual(new Set(['snake_case names', 'Unrelated']));
    const walked = await walk(cliActor, { status: ['queued'], sort: 'updated', limit: 5 });
    expect(walked).toHaveLength(seeds.filter((seed) => seed.status === undefined).length);
  });

  it.skipIf(skip)('filters by owner (username), team and source', async () => {
    const owned = await walk(cliActor, { owner: 'BOB', limit: 50 });
    expect(owned).toHaveLength(seeds.filter((seed) => seed.owner === 'bob').length);
    expect(await list(cliActor, { owner: 'nobody-here' })).toEqual({ tasks: [], nextCursor: null });
    expect(new Set(titles(await list(cliActor, { team: 'red' })))).toEqual(
      new Set(['100% of runs fail', 'snake_case names', 'snakeXcase names', 'back\\slash path']),
    );
    expect(new Set(titles(await list(cliActor, { source: repo })))).toEqual(
      new Set(['Fix the Parser crash', 'back\\slash path']),
    );
    expect(titles(await list(cliActor, { source: 'clock.tar.gz' }))).toEqual(['flaky clock test']);
    expect(
      titles(await list(cliActor, { owner: 'alice', status: ['failed'], team: 'red' })),
    ).toEqual(['100% of runs fail']);
  });

  it.skipIf(skip)('searches the title and the problem, ignoring case', async () => {
    expect(new Set(titles(await list(cliActor, { q: 'parser' })))).toEqual(
      new Set(['Fix the Parser crash', 'Unrelated']),
    );
    expect(titles(await list(cliActor, { q: 'CRASH' }))).toEqual(['Fix the Parser crash']);
    expect(titles(await list(cliActor, { q: '  Empty File ' }))).toEqual(['Unrelated']);
  });

  it.skipIf(skip)('takes % and _ (and \\) in the search literally', async () => {
    expect(titles(await list(cliActor, { q: '100%' }))).toEqual(['100% of runs fail']);
    expect(titles(await list(cliActor, { q: '%' }))).toEqual(['100% of runs fail']);
    expect(titles(await list(cliActor, { q: 'snake_case' }))).toEqual(['snake_case names']);
    expect(titles(await list(cliActor, { q: '_' }))).toEqual(['snake_case names']);
    expect(titles(await list(cliActor, { q: 'back\\slash' }))).toEqual(['back\\slash path']);
  });

  it.skipIf(skip)("never shows another person's private task, not even past a cursor", async () => {
    const secret = id('Secret zebra plan');
    const seenByAlice = await walk(alice, { limit: 2 });
    const seenUpdated = await walk(alice, { sort: 'updated', limit: 3 });
    expect(seenByAlice).not.toContain(secret);
    expect(seenUpdated).not.toContain(secret);
    // Alice's own and team red's, nothing else.
    const expected = seeds
      .filter((seed) => seed.owner === 'alice' || seed.team === 'red')
      .map((seed) => id(seed.title));
    expect(new Set(seenByAlice)).toEqual(new Set(expected));
    expect(seenByAlice).toHaveLength(expected.length);
    expect(await list(alice, { q: 'zebra' })).toEqual({ tasks: [], nextCursor: null });
    expect(new Set(titles(await list(alice, { owner: 'bob', status: ['queued'] })))).toEqual(
      new Set(['snakeXcase names', 'back\\slash path']),
    );
    // A cursor placed just after the secret task (its own sort key and id) skips nothing Alice
    // may not see and shows nothing she may not either.
    const page = await list(bob, { sort: 'updated', limit: 1 });
    expect(page.tasks[0]?.id).toBe(secret);
    const afterSecret = await list(alice, {
      sort: 'updated',
      limit: 50,
      ...(page.nextCursor === null ? {} : { cursor: page.nextCursor }),
    });
    expect(afterSecret.tasks.map((task) => task.id)).not.toContain(secret);
    expect(afterSecret.tasks.length).toBeGreaterThan(0);
    // Someone in no team with no tasks sees none at all.
    expect(await list(outsider)).toEqual({ tasks: [], nextCursor: null });
    expect(new Set(await walk(bob, { limit: 3 }))).toContain(secret);
  });

  it.skipIf(skip)('refuses a cursor it did not give out, or one of the other sort', async () => {
    await expect(list(cliActor, { cursor: 'not-a-cursor' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'cursor: not a cursor this list gave out; pass nextCursor back as it came',
    });
    const page = await list(cliActor, { limit: 1 });
    expect(page.nextCursor).not.toBeNull();
    await expect(
      list(cliActor, { sort: 'updated', cursor: page.nextCursor ?? '' }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'cursor: it pages the list sorted by created, not by updated',
    });
  });
});
