'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type SubmitEvent } from 'react';
import { errorInfo } from '../errors/error-info';
import { Field } from '../task-list/form-field';
import { useTRPC } from '../trpc/client';
import { authClient, authErrorMessage } from './auth-client';

/**
 * The first admin, made with the one-time link's secret (`account.redeemSetupLink`), then
 * signed in with the same username and password.
 */
export function SetupForm({ token }: { readonly token: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const redeem = useMutation(trpc.account.redeemSetupLink.mutationOptions());
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: SubmitEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (username.trim() === '' || password === '') {
      setError('Choose a username and a password.');
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const created = await redeem.mutateAsync({ token, username: username.trim(), password });
      const { error: refused } = await authClient.signIn.username({
        username: created.username,
        password,
      });
      if (refused !== null) {
        setError(
          `The admin ${created.username} was created, but signing in failed: ${authErrorMessage(refused)}`,
        );
        return;
      }
      router.replace('/coding');
      router.refresh();
    } catch (failure) {
      setError(errorInfo(failure).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="account-form" onSubmit={(event) => void submit(event)} noValidate>
      <Field
        id="setup-username"
        label="Username"
        hint="2 to 32 characters: letters, digits, dots, dashes and underscores, starting with a letter or a digit."
        error={undefined}
      >
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
      <Field id="setup-password" label="Password" hint="At least 8 characters." error={undefined}>
        {(control) => (
          <input
            {...control}
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={8}
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
        Create admin
      </button>
    </form>
  );
}
