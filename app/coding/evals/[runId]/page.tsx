import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { EvalRunDetail } from '@/components/evals/eval-run-detail';
import { isNoSuchTask } from '@/server/api/trpc/server-caller';
import { signedInCaller } from '../../signed-in';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Eval run · Shadowbox' };

export default async function EvalRunRoute({ params }: { params: Promise<{ runId: string }> }) {
  const { runId } = await params;
  const { caller } = await signedInCaller(`/coding/evals/${encodeURIComponent(runId)}`);
  // Unknown, or not a run id at all: both read as "no such run".
  const detail = await caller.evals.get({ runId }).catch((error: unknown) => {
    if (isNoSuchTask(error)) notFound();
    throw error;
  });
  return (
    <>
      <p className="back-link">
        <Link href="/coding/evals">← All eval runs</Link>
      </p>
      <EvalRunDetail initialDetail={detail} />
    </>
  );
}
