import type { Metadata } from 'next';
import Link from 'next/link';
import { BatchList } from '@/components/batches/batch-list';
import { approvedTasksQuery } from '@/components/batches/batch-picker';
import { NewBatchForm } from '@/components/batches/new-batch-form';
import { signedInCaller } from '../signed-in';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Batches · Shadowbox' };

/** Integration batches: the list, newest first, and a new one from approved tasks. */
export default async function BatchesPage() {
  const { caller } = await signedInCaller('/coding/batches');
  const [batches, approved] = await Promise.all([
    caller.batches.list(),
    caller.tasks.list(approvedTasksQuery),
  ]);
  return (
    <>
      <p className="back-link">
        <Link href="/coding">← Tasks</Link>
      </p>
      <h1>Batches</h1>
      <p className="hint">
        A batch combines approved tasks of one repository: every pair is merged first, then the
        combination is tested once against the baseline and each member&apos;s own fixes.
      </p>
      <section aria-labelledby="batch-list-heading">
        <h2 id="batch-list-heading">All batches</h2>
        <BatchList initialBatches={batches} />
      </section>
      <section aria-labelledby="new-batch-heading" className="card">
        <h2 id="new-batch-heading">New batch</h2>
        <NewBatchForm initialTasks={approved} />
      </section>
    </>
  );
}
