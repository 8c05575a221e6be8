import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { BatchPage } from '@/components/batches/batch-page';
import { isNoSuchTask } from '@/server/api/trpc/server-caller';
import { signedInCaller } from '../../signed-in';

export const dynamic = 'force-dynamic';

export async function generateMetadata({
  params,
}: {
  params: Promise<{ id: string }>;
}): Promise<Metadata> {
  const { id } = await params;
  return { title: `Batch ${id} · Shadowbox` };
}

export default async function BatchRoute({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { caller } = await signedInCaller(`/coding/batches/${encodeURIComponent(id)}`);
  // Unknown, not an id, or not one this person may see: all read as "no such batch".
  const batch = await caller.batches.get({ id }).catch((error: unknown) => {
    if (isNoSuchTask(error)) notFound();
    throw error;
  });
  // The combined diff as it is now is what a verdict is bound to; the page reads it again if not.
  const diff = batch.diff === null ? null : await caller.batches.diff({ id }).catch(() => null);
  return (
    <>
      <p className="back-link">
        <Link href="/coding/batches">← All batches</Link>
      </p>
      <BatchPage initialBatch={batch} initialDiff={diff} />
    </>
  );
}
