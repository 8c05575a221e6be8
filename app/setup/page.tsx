import type { Metadata } from 'next';
import Link from 'next/link';
import { SetupForm } from '@/components/account/setup-form';
import { Providers } from '@/components/providers';
import { serverCaller } from '@/server/api/trpc/server-caller';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Set up · Shadowbox', referrer: 'no-referrer' };

/** `/setup?token=…`: the one-time link the server prints while nobody has an account. */
export default async function SetupPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string | string[] }>;
}) {
  const { token } = await searchParams;
  const secret = typeof token === 'string' && token.length <= 200 ? token : '';
  const { caller } = await serverCaller(new Headers());
  const valid = secret !== '' && (await caller.account.setupLinkValid({ token: secret }));
  return (
    <main className="narrow">
      <h1>Create the first admin</h1>
      {valid ? (
        <>
          <p>
            This one-time link creates the first account, an admin, and signs you in. It works once.
          </p>
          <Providers>
            <SetupForm token={secret} />
          </Providers>
        </>
      ) : (
        <>
          <p className="form-error" role="alert">
            This set-up link is no longer valid: it was used, it expired, or an account already
            exists.
          </p>
          <p>
            <Link href="/sign-in">Sign in</Link> with your account, or ask an admin for one.
          </p>
        </>
      )}
    </main>
  );
}
