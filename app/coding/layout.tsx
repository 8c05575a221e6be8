import type { ReactNode } from 'react';
import { headers } from 'next/headers';
import 'diff2html/bundles/css/diff2html.min.css';
import { AccountBar } from '@/components/account/account-bar';
import { Providers } from '@/components/providers';
import { serverCaller } from '@/server/api/trpc/server-caller';

/**
 * Every /coding page: the signed-in person's bar, and the tRPC client. Nobody signed in gets no
 * bar here; each page sends them to the sign-in page (a layout does not know the path to come
 * back to).
 */
export default async function CodingLayout({ children }: { readonly children: ReactNode }) {
  const { actor, caller } = await serverCaller(await headers());
  const me = actor === null ? null : await caller.account.me();
  return (
    <Providers>
      <main className="wide">
        {me === null ? null : <AccountBar username={me.username} role={me.role} />}
        {children}
      </main>
    </Providers>
  );
}
