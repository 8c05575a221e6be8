import { taskVisibility } from '../auth/permissions';
// The SQL template tag: the runtime's, shared by both providers' generated clients.
import { Prisma } from '../db/generated/sqlite/client';
import { visibleTasks } from './task-access';
import type { Actor, TaskPage } from './task-api';
import type { TaskServiceDeps } from './task-service-deps';
import { listTaskSummaries } from './task-views';
import { decodeCursor, encodeCursor, type ListSort, type ListTasksQuery } from './list-tasks-query';

/**
 * One page of the tasks the actor may see, newest first by `sort`, narrowed by the query's
 * filters. Two steps: the page's ids in one SQL query (filters, search, keyset), then their
 * summaries through Prisma in that order.
 *
 * Why SQL for the ids: the text search must be case-insensitive on both databases and take `%`
 * and `_` literally. Prisma's `contains` is LIKE without an ESCAPE clause (it does not escape
 * wildcards: `q=%` would match every task) and is case-sensitive on PostgreSQL, where the cure,
 * `mode: 'insensitive'`, is not in the SQLite client's types `Db` is written against. The one
 * query below is portable instead: `lower(column) LIKE lower(pattern) ESCAPE '\'` reads the same
 * on SQLite and PostgreSQL, with the pattern's wildcards escaped. (SQLite's lower() folds ASCII
 * letters only; PostgreSQL's folds every letter. A search column kept lower-cased on write would
 * fold alike but duplicate up to 64 KB a task and need every writer to keep it.)
 */
export async function listTasks(
  deps: Pick<TaskServiceDeps, 'db'>,
  { query, actor }: { readonly query: ListTasksQuery; readonly actor: Actor },
): Promise<TaskPage> {
  const after = query.cursor === undefined ? null : decodeCursor(query.cursor, query.sort);
  const rows = await deps.db.$queryRaw<{ id: string; sortKey: Date }[]>(
    pageSql(query, actor, after),
  );
  const page = rows.slice(0, query.limit);
  if (page.length === 0) return { tasks: [], nextCursor: null };
  // The same visibility again, through the one `where` the other reads use: the SQL above is
  // its translation, and this guards it.
  const summaries = await listTaskSummaries(deps.db, {
    limit: page.length,
    where: { AND: [visibleTasks(actor), { id: { in: page.map((row) => row.id) } }] },
    actor,
  });
  const byId = new Map(summaries.map((task) => [task.id, task]));
  const tasks = page.flatMap((row) => byId.get(row.id) ?? []);
  const last = page.at(-1);
  return {
    tasks,
    nextCursor:
      rows.length > query.limit && last !== undefined
        ? encodeCursor({ sort: query.sort, at: new Date(last.sortKey), id: last.id })
        : null,
  };
}

const sortColumns: Record<ListSort, Prisma.Sql> = {
  created: Prisma.raw('"createdAt"'),
  updated: Prisma.raw('"updatedAt"'),
};

/** `%`, `_` and the escape character itself, taken literally by `LIKE … ESCAPE '\'`. */
export const likeContains = (text: string): string =>
  `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The page's ids in SQL (exported for the bench, which times it alone and EXPLAINs it). */
export function pageSql(
  query: ListTasksQuery,
  actor: Actor,
  after: { readonly at: Date; readonly id: string } | null,
): Prisma.Sql {
  const sortKey = sortColumns[query.sort];
  const where: Prisma.Sql[] = [];
  const visibility = taskVisibility(actor);
  // visibleTasks(actor) in SQL: the actor's own tasks and their teams'.
  if (!visibility.all) {
    where.push(
      visibility.teamIds.length === 0
        ? Prisma.sql`"ownerId" = ${visibility.ownerId}`
        : Prisma.sql`("ownerId" = ${visibility.ownerId} OR "teamId" IN (${Prisma.join([...visibility.teamIds])}))`,
    );
  }
  if (query.scope !== 'all') {
    where.push(
      query.scope === 'tasks'
        ? Prisma.sql`"evalRunId" IS NULL`
        : Prisma.sql`"evalRunId" IS NOT NULL`,
    );
  }
  if (query.status !== undefined) {
    where.push(Prisma.sql`"status" IN (${Prisma.join([...query.status])})`);
  }
  if (query.owner !== undefined) {
    where.push(
      Prisma.sql`"ownerId" IN (SELECT "id" FROM "User" WHERE "username" = ${query.owner.toLowerCase()})`,
    );
  }
  if (query.team !== undefined) {
    where.push(Prisma.sql`"teamId" IN (SELECT "id" FROM "Team" WHERE "name" = ${query.team})`);
  }
  if (query.source !== undefined) {
    where.push(Prisma.sql`("sourceUrl" = ${query.source} OR "archiveName" = ${query.source})`);
  }
  if (query.q !== undefined) {
    const pattern = likeContains(query.q);
    where.push(
      Prisma.sql`(lower("title") LIKE lower(${pattern}) ESCAPE '\\' OR lower("problem") LIKE lower(${pattern}) ESCAPE '\\')`,
    );
  }
  if (after !== null) {
    // A row value compare: both databases walk the (sort key, id) index from the cursor on.
    where.push(Prisma.sql`(${sortKey}, "id") < (${after.at}, ${after.id})`);
  }
  const whereSql =
    where.length === 0 ? Prisma.empty : Prisma.sql`WHERE ${Prisma.join(where, ' AND ')}`;
  return Prisma.sql`SELECT "id", ${sortKey} AS "sortKey" FROM "Task" ${whereSql}
    ORDER BY ${sortKey} DESC, "id" DESC LIMIT ${query.limit + 1}`;
}
