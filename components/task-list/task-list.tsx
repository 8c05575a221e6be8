'use client';

import { keepPreviousData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { describeSource, formatTime } from '../format';
import { ShortId } from '../short-id';
import { StatusBadge } from '../status/status-badge';
import { useTRPC } from '../trpc/client';
import type { TaskPage, TaskSummary } from '../trpc/router-types';
import { useTrailingThrottle } from '../use-throttled';
import { ConnectionState } from './connection-state';
import { filtersFromParams, hasFilters, type ListFilters, queryOf, searchOf } from './list-filters';
import { TaskListFilters } from './task-list-filters';

const sourceName = (task: TaskSummary): string =>
  task.source.kind === 'git' ? task.source.url : task.source.name;

/**
 * The tasks the person may see, a page at a time ("Load more" follows the server's cursor),
 * filtered and sorted as the address says (`?status=…&q=…`); every loaded page is fetched again
 * whenever any task has a new event.
 */
export function TaskList({
  initialPage,
  initialSearch,
}: {
  /** The first page for `initialSearch`, read by the server with the page. */
  readonly initialPage: TaskPage;
  /** The filters' query string the server read `initialPage` for (searchOf of its filters). */
  readonly initialSearch: string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters = useMemo(() => filtersFromParams(params), [params]);
  const search = searchOf(filters);

  const setFilters = useCallback(
    (next: ListFilters) => {
      // Next's router follows replaceState (useSearchParams updates) without asking the server
      // for the page again; the list's own query fetches the first page of the new filters.
      // The state must be null: given Next's own history state, its router takes the call for
      // one of its navigations and leaves useSearchParams as it was.
      window.history.replaceState(null, '', `${pathname}${searchOf(next)}`);
    },
    [pathname],
  );

  const pages = useInfiniteQuery(
    trpc.tasks.list.infiniteQueryOptions(queryOf(filters), {
      getNextPageParam: (last) => last.nextCursor ?? undefined,
      // Only the server's filters have a first page already; others show the last list meanwhile.
      ...(search === initialSearch
        ? { initialData: { pages: [initialPage], pageParams: [null] } }
        : {}),
      placeholderData: keepPreviousData,
    }),
  );
  const refresh = useTrailingThrottle(() => {
    void queryClient.invalidateQueries(trpc.tasks.list.pathFilter());
  }, 500);
  // On (re)connect too: whatever happened while the stream was down is in the list now.
  const changes = useSubscription(
    trpc.tasks.changes.subscriptionOptions(undefined, { onStarted: refresh, onData: refresh }),
  );

  const tasks = useMemo(() => {
    // A task that moved between pages while they were fetched again is shown once.
    const seen = new Set<string>();
    return (pages.data?.pages ?? [])
      .flatMap((page) => page.tasks)
      .filter((task) => !seen.has(task.id) && seen.add(task.id));
  }, [pages.data]);
  const sources = useMemo(() => [...new Set(tasks.map(sourceName))].sort(), [tasks]);
  const filtered = hasFilters(filters);

  return (
    <>
      <TaskListFilters filters={filters} sources={sources} onChange={setFilters} />
      <ConnectionState status={changes.status} error={changes.error?.message ?? null} />
      {pages.error === null ? null : (
        <p className="form-error" role="alert">
          The list could not be read: {pages.error.message}
        </p>
      )}
      {tasks.length === 0 ? (
        pages.isPending ? (
          <p className="muted">Loading…</p>
        ) : (
          <p className="list-empty">
            {filtered ? (
              'No task matches these filters.'
            ) : (
              <>
                No tasks yet. <Link href="/coding/new">Create one</Link>.
              </>
            )}
          </p>
        )
      ) : (
        <div className="table-scroll" aria-busy={pages.isFetching}>
          <table className="task-list">
            <caption className="visually-hidden">
              Tasks, {filters.sort === 'updated' ? 'latest activity' : 'newest'} first
            </caption>
            <thead>
              <tr>
                <th scope="col">Task</th>
                <th scope="col">Status</th>
                <th scope="col">Owner</th>
                <th scope="col">Source</th>
                <th scope="col">Created</th>
                <th scope="col">Last activity</th>
              </tr>
            </thead>
            <tbody>
              {tasks.map((task) => (
                <tr key={task.id}>
                  <th scope="row">
                    <Link href={`/coding/${task.id}`} className="task-title">
                      {task.title}
                    </Link>
                    <span className="task-id">
                      <ShortId id={task.id} what="task id" />
                    </span>
                  </th>
                  <td>
                    <StatusBadge status={task.status} />
                  </td>
                  <td>{task.owner ?? '—'}</td>
                  <td className="source">{describeSource(task.source)}</td>
                  <td>
                    <time dateTime={task.createdAt}>{formatTime(task.createdAt)}</time>
                  </td>
                  <td>
                    <time dateTime={task.updatedAt}>{formatTime(task.updatedAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages.hasNextPage ? (
        <p className="list-more">
          <button
            type="button"
            onClick={() => void pages.fetchNextPage()}
            disabled={pages.isFetchingNextPage}
          >
            {pages.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        </p>
      ) : null}
    </>
  );
}
