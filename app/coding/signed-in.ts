import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { signInPath } from '@/components/account/next-path';
import { serverCaller } from '@/server/api/trpc/server-caller';

/**
 * The UI's procedures as the person whose session this page request carries; nobody signed in
 * goes to the sign-in page, which brings them back to `path` afterwards.
 */
export async function signedInCaller(path: string) {
  const { actor, caller } = await serverCaller(await headers());
  if (actor === null) redirect(signInPath(path));
  return { actor, caller };
}
