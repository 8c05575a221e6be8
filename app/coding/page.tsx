import type { Metadata } from 'next';
import Link from 'next/link';
import { SandboxStatus } from '@/components/status/sandbox-status';
import { filtersFromParams, queryOf, searchOf } from '@/components/task-list/list-filters';
import { TaskList } from '@/components/task-list/task-list';
import { WorkersPanel } from '@/components/workers/workers-panel';
import { signedInCaller } from './signed-in';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Tasks · Shadowbox' };

type SearchParams = Record<string, string | string[] | undefined>;

/** The first value of each parameter, as the browser's URLSearchParams.get reads it. */
const firstOf = (params: SearchParams) => ({
  get: (name: string): string | null => {
    const value = params[name];
    return (Array.isArray(value) ? value[0] : value) ?? null;
  },
});

/** The task list first (filters in the address); a new task is a page of its own. */
export default async function CodingPage({
  searchParams,
}: {
  readonly searchParams: Promise<SearchParams>;
}) {
  const { caller } = await signedInCaller('/coding');
  const filters = filtersFromParams(firstOf(await searchParams));
  const search = searchOf(filters);
  const [page, sandbox, workers] = await Promise.all([
    caller.tasks.list(queryOf(filters)),
    caller.system.sandbox(),
    caller.system.workers(),
  ]);
  // The workers' tasks are the unfiltered list's.
  const unfiltered = search === '' || workers.length === 0 ? page : await caller.tasks.list();
  return (
    <>
      <div className="list-head">
        <h1>Tasks</h1>
        <Link href="/coding/new" className="button primary">
          New task
        </Link>
      </div>
      <section aria-labelledby="list-heading">
        <h2 id="list-heading" className="visually-hidden">
          All tasks
        </h2>
        <TaskList initialPage={page} initialSearch={search} />
      </section>
      <WorkersPanel initialWorkers={workers} initialTasks={unfiltered} />
      <SandboxStatus status={sandbox} />
    </>
  );
}
