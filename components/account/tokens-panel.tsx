'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorInfo } from '../errors/error-info';
import type { ApiToken, Role, TokenScope } from '../trpc/router-types';
import { useTRPC } from '../trpc/client';
import { CreateTokenForm } from './create-token-form';
import { TokenTable } from './token-table';

/** The signed-in person's tokens (an admin's list has everyone's): make, list, revoke. */
export function TokensPanel({
  role,
  tokenScopes,
  initialTokens,
}: {
  readonly role: Role;
  /** The scopes this person may give a token. */
  readonly tokenScopes: readonly TokenScope[];
  readonly initialTokens: readonly ApiToken[];
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tokens = useQuery(
    trpc.account.tokens.queryOptions(undefined, { initialData: [...initialTokens] }),
  );
  const [error, setError] = useState<string | null>(null);
  const refresh = (): void => {
    void queryClient.invalidateQueries({ queryKey: trpc.account.tokens.queryKey() });
  };
  const revoke = useMutation(
    trpc.account.revokeToken.mutationOptions({
      onSuccess: () => {
        setError(null);
        refresh();
      },
      onError: (failure) => setError(errorInfo(failure).message),
    }),
  );

  return (
    <>
      <section aria-labelledby="new-token-heading" className="card">
        <h2 id="new-token-heading">New token</h2>
        <CreateTokenForm offered={tokenScopes} onCreated={refresh} />
      </section>
      <section aria-labelledby="tokens-heading">
        <h2 id="tokens-heading">{role === 'admin' ? 'All tokens' : 'Your tokens'}</h2>
        {error === null ? null : (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <TokenTable
          tokens={tokens.data}
          showOwner={role === 'admin'}
          revoking={revoke.isPending ? revoke.variables.id : null}
          onRevoke={(id) => revoke.mutate({ id })}
        />
      </section>
    </>
  );
}
