'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { errorInfo } from '../errors/error-info';
import { Field } from '../task-list/form-field';
import { useTRPC } from '../trpc/client';
import { authClient, authErrorMessage } from './auth-client';
import { useCredentialsForm } from './use-credentials-form';

/**
 * The first admin, made with the one-time link's secret (`account.redeemSetupLink`), then
 * signed in with the same username and password.
 */
export function SetupForm({ token }: { readonly token: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const redeem = useMutation(trpc.account.redeemSetupLink.mutationOptions());
  const form = useCredentialsForm({
    missing: 'Choose a username and a password.',
    send: async ({ username, password }) => {
      const created = await redeem.mutateAsync({ token, username, password });
      const { error: refused } = await authClient.signIn.username({
        username: created.username,
        password,
      });
      if (refused !== null) {
        return `The admin ${created.username} was created, but signing in failed: ${authErrorMessage(refused)}`;
      }
      router.replace('/coding');
      router.refresh();
      return null;
    },
    failure: (thrown) => errorInfo(thrown).message,
  });

  return (
    <form className="account-form" onSubmit={form.onSubmit} noValidate>
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
            value={form.username}
            onChange={(event) => form.setUsername(event.target.value)}
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
        Create admin
      </button>
    </form>
  );
}
