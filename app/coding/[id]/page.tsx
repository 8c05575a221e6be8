import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { TaskPage } from '@/components/task-page/task-page';
import { isNoSuchTask } from '@/server/api/trpc/server-caller';
import { signedInCaller } from '../signed-in';

export const dynamic = 'force-dynamic';

export async function generateMetadata({
  params,
}: {
  params: Promise<{ id: string }>;
}): Promise<Metadata> {
  const { id } = await params;
  return { title: `Task ${id} · Shadowbox` };
}

export default async function TaskRoute({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ tab?: string | string[] }>;
}) {
  const [{ id }, { tab }] = await Promise.all([params, searchParams]);
  const { caller } = await signedInCaller(`/coding/${encodeURIComponent(id)}`);
  const task = await caller.tasks.get({ taskId: id }).catch((error: unknown) => {
    if (isNoSuchTask(error)) notFound();
    throw error;
  });
  // The diff as it is now is what this page shows (and what a verdict is bound to), with its
  // review conversation: the threads, and the person's own drafts when they may comment.
  const underReview = task.diffSha256 !== null;
  const [diff, threads, drafts, me] = await Promise.all([
    underReview ? caller.tasks.diff({ taskId: id }).catch(() => null) : null,
    underReview ? caller.reviews.threads({ taskId: id }).catch(() => null) : null,
    underReview && task.can.comment
      ? caller.reviews.drafts({ taskId: id }).catch(() => null)
      : null,
    caller.account.me().catch(() => null),
  ]);
  return (
    <>
      <p>
        <Link href="/coding">← All tasks</Link>
      </p>
      <TaskPage
        initialTask={task}
        initialDiff={diff}
        initialThreads={threads}
        initialDrafts={drafts}
        viewer={me}
        initialTab={typeof tab === 'string' ? tab : null}
      />
    </>
  );
}
