'use client';

import { useRouter } from 'next/navigation';
import { useState, type SubmitEvent } from 'react';
import { Field } from '../task-list/form-field';
import { authClient, authErrorMessage } from './auth-client';
import { safeNextPath } from './next-path';

/**
 * Username and password, sent to better-auth (`POST /api/auth/sign-in/username`); its refusal
 * (a wrong password, too many attempts) is shown as it says it. Then on to `next`, a path on
 * this site that the page has already checked (and that is checked again here, where it is used).
 */
export function SignInForm({ next }: { readonly next: string }) {
  const router = useRouter();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: SubmitEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (username.trim() === '' || password === '') {
      setError('Give your username and your password.');
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const { error: refused } = await authClient.signIn.username({
        username: username.trim(),
        password,
      });
      if (refused !== null) {
        setError(authErrorMessage(refused));
        return;
      }
      router.replace(safeNextPath(next));
      router.refresh();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'the server could not be reached');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="account-form" onSubmit={(event) => void submit(event)} noValidate>
      <Field id="sign-in-username" label="Username" error={undefined}>
        {(control) => (
          <input
            {...control}
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            maxLength={64}
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        )}
      </Field>
      <Field id="sign-in-password" label="Password" error={undefined}>
        {(control) => (
          <input
            {...control}
            type="password"
            name="password"
            autoComplete="current-password"
            required
            maxLength={256}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
      </Field>
      {error === null ? null : (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy}>
        Sign in
      </button>
    </form>
  );
}
