import type { Metadata } from 'next';
import Link from 'next/link';
import { EvalRunList } from '@/components/evals/eval-run-list';
import { NewEvalRunForm } from '@/components/evals/new-eval-run-form';
import { signedInCaller } from '../signed-in';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Evals · Shadowbox' };

/** Eval runs on this server (reviewers and admins): their progress, and a new one. */
export default async function EvalsPage() {
  const { caller } = await signedInCaller('/coding/evals');
  const me = await caller.account.me();
  if (me.role !== 'reviewer' && me.role !== 'admin') {
    return (
      <>
        <h1>Evals</h1>
        <p className="form-error" role="alert">
          Forbidden (403): eval runs are for reviewers and admins. You are signed in as{' '}
          {me.username}, an {me.role}.
        </p>
      </>
    );
  }
  const list = await caller.evals.list();
  return (
    <>
      <p className="back-link">
        <Link href="/coding">← Tasks</Link>
      </p>
      <h1>Evals</h1>
      <p className="hint">
        An eval run gives each instance of a set k attempts by the server&apos;s LLM fixer, each a
        task of its own (out of the task list), and reports pass@1, pass@k and pass^k with their
        spend. Runs go on after a restart of the server.
      </p>
      <section aria-labelledby="eval-runs-heading">
        <h2 id="eval-runs-heading">Runs</h2>
        <EvalRunList initialList={list} />
      </section>
      <section aria-labelledby="new-eval-heading" className="card">
        <h2 id="new-eval-heading">New run</h2>
        <NewEvalRunForm serverModel={list.model} />
      </section>
    </>
  );
}
