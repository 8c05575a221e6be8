'use client';

import { useRouter } from 'next/navigation';
import { Field } from '../task-list/form-field';
import { authClient, authErrorMessage } from './auth-client';
import { safeNextPath } from './next-path';
import { useCredentialsForm } from './use-credentials-form';

/**
 * Username and password, sent to better-auth (`POST /api/auth/sign-in/username`); its refusal
 * (a wrong password, too many attempts) is shown as it says it. Then on to `next`, a path on
 * this site that the page has already checked (and that is checked again here, where it is used).
 */
export function SignInForm({ next }: { readonly next: string }) {
  const router = useRouter();
  const form = useCredentialsForm({
    missing: 'Give your username and your password.',
    send: async (credentials) => {
      const { error: refused } = await authClient.signIn.username(credentials);
      if (refused !== null) return authErrorMessage(refused);
      router.replace(safeNextPath(next));
      router.refresh();
      return null;
    },
    failure: (thrown) =>
      thrown instanceof Error ? thrown.message : 'the server could not be reached',
  });

  return (
    <form className="account-form" onSubmit={form.onSubmit} noValidate>
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
            value={form.username}
            onChange={(event) => form.setUsername(event.target.value)}
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
            value={form.password}
            onChange={(event) => form.setPassword(event.target.value)}
          />
        )}
      </Field>
      {form.error === null ? null : (
        <p className="form-error" role="alert">
          {form.error}
        </p>
      )}
      <button type="submit" className="primary" disabled={form.busy}>
        Sign in
      </button>
    </form>
  );
}
