import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { safeNextPath } from '@/components/account/next-path';
import { SignInForm } from '@/components/account/sign-in-form';
import { serverCaller } from '@/server/api/trpc/server-caller';
import { countPeople } from '@/server/auth';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Sign in · Shadowbox' };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[] }>;
}) {
  const { next: asked } = await searchParams;
  const next = safeNextPath(typeof asked === 'string' ? asked : null);
  const { actor } = await serverCaller(await headers());
  if (actor !== null) redirect(next);
  const nobodyYet = (await countPeople((await getRuntime()).db)) === 0;
  return (
    <main className="narrow">
      <h1>Sign in</h1>
      {nobodyYet ? (
        <p className="notice" role="status">
          Nobody has an account yet. Open the one-time set-up link the server printed when it
          started (<code>…/setup?token=…</code>, valid for an hour) to create the first admin.
        </p>
      ) : null}
      <SignInForm next={next} />
    </main>
  );
}
