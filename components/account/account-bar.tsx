import Link from 'next/link';
import { SignOutButton } from './sign-out-button';

/** Who is signed in, and their own pages: on every /coding page. */
export function AccountBar({
  username,
  role,
}: {
  readonly username: string;
  readonly role: string;
}) {
  return (
    <nav aria-label="Account" className="account-bar">
      <p>
        Signed in as <strong>{username}</strong> ({role})
      </p>
      <Link href="/coding/batches">Batches</Link>
      {role === 'reviewer' || role === 'admin' ? <Link href="/coding/evals">Evals</Link> : null}
      <Link href="/coding/tokens">Tokens</Link>
      {role === 'admin' ? <Link href="/coding/audit">Audit</Link> : null}
      <SignOutButton />
    </nav>
  );
}
