import { isTaskStatus, type TaskStatus } from '@/server/engine/lifecycle';
import type { TaskListQuery } from '../trpc/router-types';

/**
 * The task list's filters as the address holds them (`/coding?status=failed&q=parser`), so a
 * link or a reload shows the same list. Read leniently: what the server would refuse (an unknown
 * status, an over-long word) is dropped or cut here rather than breaking the page.
 */
export interface ListFilters {
  readonly status: readonly TaskStatus[];
  readonly owner: string;
  readonly team: string;
  readonly source: string;
  readonly q: string;
  readonly sort: 'created' | 'updated';
}

export const noFilters: ListFilters = {
  status: [],
  owner: '',
  team: '',
  source: '',
  q: '',
  sort: 'created',
};

// The server's caps (server/tasks/list-tasks-query.ts).
const caps = { owner: 100, team: 100, source: 2048, q: 200 } as const;
type TextFilter = keyof typeof caps;
const textFilters = Object.keys(caps) as TextFilter[];

interface ParamReader {
  get(name: string): string | null;
}

export function filtersFromParams(params: ParamReader): ListFilters {
  const text = (name: TextFilter) => (params.get(name) ?? '').trim().slice(0, caps[name]);
  const status = (params.get('status') ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter(isTaskStatus);
  return {
    status: [...new Set(status)],
    owner: text('owner'),
    team: text('team'),
    source: text('source'),
    q: text('q'),
    sort: params.get('sort') === 'updated' ? 'updated' : 'created',
  };
}

/** The address's query string for `filters` (defaults left out; '' for none). */
export function searchOf(filters: ListFilters): string {
  const params = new URLSearchParams();
  if (filters.status.length > 0) params.set('status', filters.status.join(','));
  for (const name of textFilters) {
    const value = filters[name].trim();
    if (value !== '') params.set(name, value);
  }
  if (filters.sort !== 'created') params.set('sort', filters.sort);
  const search = params.toString();
  return search === '' ? '' : `?${search}`;
}

/** `tasks.list`'s input (without the cursor, which the pages add). */
export function queryOf(filters: ListFilters): Omit<TaskListQuery, 'cursor'> {
  const query: { -readonly [K in keyof TaskListQuery]?: TaskListQuery[K] } = {};
  if (filters.status.length > 0) query.status = filters.status;
  for (const name of textFilters) {
    const value = filters[name].trim();
    if (value !== '') query[name] = value;
  }
  if (filters.sort !== 'created') query.sort = filters.sort;
  return query;
}

export const hasFilters = (filters: ListFilters): boolean =>
  searchOf({ ...filters, sort: 'created' }) !== '';
