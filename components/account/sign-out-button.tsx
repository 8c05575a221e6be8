'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { authClient, authErrorMessage } from './auth-client';

/** Ends the session (`POST /api/auth/sign-out`) and goes to the sign-in page. */
export function SignOutButton() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function signOut(): Promise<void> {
    setError(null);
    setBusy(true);
    try {
      const { error: refused } = await authClient.signOut();
      if (refused !== null) {
        setError(authErrorMessage(refused));
        return;
      }
      router.replace('/sign-in');
      router.refresh();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'the server could not be reached');
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" disabled={busy} onClick={() => void signOut()}>
        Sign out
      </button>
      {error === null ? null : (
        <span className="form-error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
