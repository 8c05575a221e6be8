/**
 * The task list's first page at 10,000 tasks (issue #24 item 2; target ≤ 100 ms), on SQLite and on
 * the machine's PostgreSQL (127.0.0.1:5432, trust auth; skipped when it is not there).
 *
 * Timed: `GET /api/v1/tasks?…` through the REST handler (`handleListTasks`: the query parsed, the
 * real TaskService's list query, the JSON body read to the end), in process, no HTTP socket. Each
 * case: 3 warm-up calls, then the median (and p90) of `--runs` calls. Cases: no filter, a status
 * filter, a search for a common word, a search for a rare one (matches 0.1%, so the whole table is
 * read), sort by last activity; as an admin (sees all) and as an author in a team (sees theirs
 * and the team's: the visibility clause is in every query).
 *
 * Baselines, measured in the same run on the same data: the same calls after dropping the list's
 * indexes (the migration 20261206081150_task_list_indexes), and the floor, a plain
 * `SELECT * FROM "Task" LIMIT 100` through Prisma.
 *
 * Run with `npx tsx bench/tasks/list-page.ts [--tasks 10000] [--runs 20]`.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { handleListTasks } from '../../server/api/rest/tasks';
import type { RestDeps } from '../../server/api/rest/handler';
import { taskListQueryOf } from '../../server/api/rest/task-list-query';
import { cliActor } from '../../server/auth';
import type { Db } from '../../server/db/client';
import { taskStatuses } from '../../server/engine/lifecycle';
import { pageSql } from '../../server/tasks/list-tasks';
import { parseListTasksQuery } from '../../server/tasks/list-tasks-query';
import type { Actor } from '../../server/tasks/task-api';
import { TaskService } from '../../server/tasks/task-service';
import type { TaskServiceDeps } from '../../server/tasks/task-service-deps';
import { userIn } from '../../server/test-support/actors';
import {
  backends,
  openMigratedDatabase,
  type MigratedDatabase,
} from '../../server/test-support/scratch-databases';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '20' },
  },
});
const taskCount = Math.max(100, Number(values.tasks));
const runs = Math.max(3, Number(values.runs));
const listIndexes = [
  'Task_createdAt_id_idx',
  'Task_updatedAt_id_idx',
  'Task_status_createdAt_id_idx',
  'Task_status_updatedAt_id_idx',
];

/** A deterministic pseudo-random sequence (the same data on both databases). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const words = [
  'parser',
  'crash',
  'timeout',
  'flaky',
  'login',
  'cache',
  'upload',
  'export',
  'locale',
  'unicode',
  'memory',
  'leak',
  'race',
  'deadlock',
  'rounding',
  'date',
  'encoding',
  'retry',
  'config',
  'path',
];

async function seed(db: Db, owners: readonly Actor[], teamIds: readonly string[]): Promise<void> {
  const next = random(24);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const start = Date.UTC(2026, 10, 1);
  const rows = Array.from({ length: taskCount }, (_, i) => {
    const owner = pick(owners);
    const createdAt = new Date(start + i * 60_000 + Math.floor(next() * 30_000));
    const title = `${pick(words)} ${pick(words)} in ${pick(words)} ${i}`;
    // One task in a thousand carries a word nothing else has, in its problem only.
    const rare = i % 1000 === 7 ? ' zygomorphic' : '';
    return {
      title,
      problem: `Steps: run the ${pick(words)} suite; the ${pick(words)} check fails with ${pick(words)} errors.${rare}`,
      status: pick(taskStatuses),
      sourceKind: i % 5 === 0 ? 'archive' : 'git',
      sourceUrl: i % 5 === 0 ? null : `https://example.com/acme/${pick(words)}.git`,
      archiveName: i % 5 === 0 ? `${pick(words)}.tar.gz` : null,
      testCommand: ['pytest', '-q'],
      ownerId: owner.kind === 'cli' ? null : owner.person.id,
      teamId: next() < 0.3 ? pick(teamIds) : null,
      createdAt,
      updatedAt: new Date(createdAt.getTime() + Math.floor(next() * 7 * 86_400_000)),
    };
  });
  for (let i = 0; i < rows.length; i += 1000) {
    await db.task.createMany({ data: rows.slice(i, i + 1000) });
  }
}

interface Case {
  readonly name: string;
  readonly query: string;
}

const cases: readonly Case[] = [
  { name: 'no filter', query: '' },
  { name: 'status=failed', query: '?status=failed' },
  { name: 'q=parser', query: '?q=parser' },
  { name: 'q=<rare word>', query: '?q=zygomorphic' },
  { name: 'sort=updated', query: '?sort=updated' },
];

async function median(call: () => Promise<unknown>): Promise<{ median: number; p90: number }> {
  for (let i = 0; i < 3; i += 1) await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return { median: at(0.5), p90: at(0.9) };
}

/** The REST handler as the route runs it, with the real TaskService (its list reads only `db`). */
function restDepsFor(db: Db, actor: Actor): RestDeps {
  const tasks = new TaskService({ db } as unknown as TaskServiceDeps);
  const runtime = {
    tasks,
    authenticate: () => Promise.resolve(actor),
  } as unknown as RestDeps['runtime'];
  return { runtime };
}

async function firstPage(deps: RestDeps, query: string): Promise<number> {
  const response = await handleListTasks(
    new Request(`http://127.0.0.1/api/v1/tasks${query}`, {
      headers: { authorization: 'Bearer bench' },
    }),
    deps,
    undefined,
  );
  const body = (await response.json()) as { tasks: unknown[] };
  if (response.status !== 200) throw new Error(`${query}: ${response.status}`);
  return body.tasks.length;
}

const ms = (value: number) => value.toFixed(1).padStart(7);

async function benchBackend(name: string, database: MigratedDatabase): Promise<void> {
  const { db } = database;
  const authors = [];
  for (const username of ['ana', 'ben', 'cai', 'dee']) authors.push(await userIn(db, username));
  const teams = [];
  for (const team of ['core', 'web']) teams.push(await db.team.create({ data: { name: team } }));
  const member = authors[0];
  const firstTeam = teams[0];
  if (member === undefined || member.kind === 'cli' || firstTeam === undefined) {
    throw new Error('no author');
  }
  await db.teamMember.create({
    data: { teamId: firstTeam.id, userId: member.person.id, role: 'author' },
  });
  const started = performance.now();
  await seed(
    db,
    authors,
    teams.map((team) => team.id),
  );
  console.log(
    `\n${name}: ${taskCount} tasks seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  // Fresh statistics, as autovacuum would have after a bulk insert.
  if (name === 'PostgreSQL') await db.$executeRawUnsafe('ANALYZE "Task"');
  const author = await userIn(db, member.person.username);
  const actors: [string, Actor][] = [
    ['admin', cliActor],
    ['author+team', author],
  ];

  const indexed = new Map<string, { median: number; p90: number; rows: number }>();
  for (const [who, actor] of actors) {
    const deps = restDepsFor(db, actor);
    for (const { name: caseName, query } of cases) {
      const rows = await firstPage(deps, query);
      indexed.set(`${who} ${caseName}`, { ...(await median(() => firstPage(deps, query))), rows });
    }
  }
  const floor = await median(() => db.task.findMany({ take: 100 }));
  // The ids' query alone (where the indexes act), and its plan, with and without them.
  const idQueries: [string, Actor, string][] = [
    ['admin no filter', cliActor, ''],
    ['admin status=failed', cliActor, '?status=failed'],
    ['admin sort=updated', cliActor, '?sort=updated'],
    ['author+team no filter', author, ''],
  ];
  const sqlOf = (actor: Actor, query: string) =>
    pageSql(
      parseListTasksQuery(taskListQueryOf(new Request(`http://127.0.0.1/api/v1/tasks${query}`))),
      actor,
      null,
    );
  const explain = async (label: string, actor: Actor, query: string) => {
    const sql = sqlOf(actor, query);
    const plan =
      name === 'PostgreSQL'
        ? await db.$queryRawUnsafe<Record<string, string>[]>(`EXPLAIN ${sql.text}`, ...sql.values)
        : await db.$queryRawUnsafe<Record<string, string>[]>(
            `EXPLAIN QUERY PLAN ${sql.sql}`,
            ...sql.values,
          );
    const lines = plan.map((row) => row['QUERY PLAN'] ?? row.detail ?? JSON.stringify(row));
    console.log(`  plan, ${label}: ${lines.join(' | ')}`);
  };
  const idTimes = new Map<string, number>();
  for (const [label, actor, query] of idQueries) {
    idTimes.set(label, (await median(() => db.$queryRaw(sqlOf(actor, query)))).median);
    await explain(`${label} (indexed)`, actor, query);
  }
  // The baseline: the same calls without the list's indexes.
  for (const index of listIndexes) await db.$executeRawUnsafe(`DROP INDEX "${index}"`);
  if (name === 'PostgreSQL') await db.$executeRawUnsafe('ANALYZE "Task"');
  console.log(
    `${'case'.padEnd(28)} ${'rows'.padStart(4)} ${'median'.padStart(7)} ${'p90'.padStart(7)}  ${'no-index'.padStart(8)}  ratio`,
  );
  for (const [who, actor] of actors) {
    const deps = restDepsFor(db, actor);
    for (const { name: caseName, query } of cases) {
      const key = `${who} ${caseName}`;
      const withIndexes = indexed.get(key);
      if (withIndexes === undefined) continue;
      const without = await median(() => firstPage(deps, query));
      console.log(
        `${key.padEnd(28)} ${String(withIndexes.rows).padStart(4)} ${ms(withIndexes.median)} ${ms(withIndexes.p90)}  ${ms(without.median)} ms  ${(withIndexes.median / without.median).toFixed(2)}×`,
      );
    }
  }
  console.log(
    `${'floor: SELECT * LIMIT 100'.padEnd(28)} ${'100'.padStart(4)} ${ms(floor.median)} ${ms(floor.p90)}`,
  );
  console.log('the ids query alone:');
  for (const [label, actor, query] of idQueries) {
    const without = (await median(() => db.$queryRaw(sqlOf(actor, query)))).median;
    const withIndexes = idTimes.get(label) ?? Number.NaN;
    console.log(
      `  ${label.padEnd(26)} ${ms(withIndexes)} ms indexed, ${ms(without)} ms without: ${(withIndexes / without).toFixed(2)}×`,
    );
    await explain(`${label} (no index)`, actor, query);
  }
}

for (const backend of backends) {
  if (backend.skip) {
    console.log(`\n${backend.name}: skipped`);
    continue;
  }
  const database = await openMigratedDatabase(backend.create);
  try {
    await benchBackend(backend.name, database);
  } finally {
    await database.close();
  }
}
