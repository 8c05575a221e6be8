'use client';

import { useMutation } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import { errorInfo } from '../errors/error-info';
import { Field } from '../task-list/form-field';
import type { TokenScope } from '../trpc/router-types';
import { useTRPC } from '../trpc/client';

const scopeHints: Readonly<Record<TokenScope, string>> = {
  agent: 'create tasks, submit hypotheses, cancel, read tasks and diffs',
  reviewer: 'approve, reject and reopen tasks',
};

/** A new token: its secret is in the answer only, so it is shown once, here. */
export function CreateTokenForm({
  offered,
  onCreated,
}: {
  /** The scopes this person may give a token, as the server says (`account.me`). */
  readonly offered: readonly TokenScope[];
  readonly onCreated: () => void;
}) {
  const trpc = useTRPC();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ReadonlySet<TokenScope>>(new Set(['agent']));
  const [nameError, setNameError] = useState<string | undefined>(undefined);
  const [formError, setFormError] = useState<string | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const create = useMutation(
    trpc.account.createToken.mutationOptions({
      onSuccess: () => {
        setName('');
        setCopied(null);
        onCreated();
      },
      onError: (failure) => setFormError(errorInfo(failure).message),
    }),
  );

  function submit(event: SubmitEvent<HTMLFormElement>): void {
    event.preventDefault();
    const unnamed = name.trim() === '' ? 'Give the token a name (what or who uses it).' : undefined;
    const unscoped = scopes.size === 0 ? 'Choose at least one scope.' : null;
    setNameError(unnamed);
    setFormError(unscoped);
    if (unnamed !== undefined || unscoped !== null) return;
    create.reset();
    create.mutate({ name: name.trim(), scopes: offered.filter((scope) => scopes.has(scope)) });
  }

  function toggle(scope: TokenScope, on: boolean): void {
    const next = new Set(scopes);
    if (on) next.add(scope);
    else next.delete(scope);
    setScopes(next);
  }

  async function copy(secret: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('Could not copy: select the token and copy it by hand.');
    }
  }

  const made = create.data;
  return (
    <>
      <form onSubmit={submit} noValidate>
        <Field id="token-name" label="Token name" error={nameError}>
          {(control) => (
            <input
              {...control}
              required
              maxLength={100}
              autoComplete="off"
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          )}
        </Field>
        <fieldset>
          <legend>Scopes</legend>
          {offered.map((scope) => (
            <div key={scope} className="field checkbox">
              <input
                type="checkbox"
                id={`token-scope-${scope}`}
                checked={scopes.has(scope)}
                onChange={(event) => toggle(scope, event.target.checked)}
                aria-describedby={`token-scope-${scope}-hint`}
              />
              <label htmlFor={`token-scope-${scope}`}>{scope}</label>
              <span id={`token-scope-${scope}-hint`} className="hint">
                {scopeHints[scope]}
              </span>
            </div>
          ))}
          {offered.includes('reviewer') ? null : (
            <p className="hint">Only reviewers and admins can make tokens that review.</p>
          )}
        </fieldset>
        {formError === null ? null : (
          <p className="form-error" role="alert">
            {formError}
          </p>
        )}
        <button type="submit" className="primary" disabled={create.isPending}>
          Create token
        </button>
      </form>
      {made === undefined ? null : (
        <div className="new-token" role="status">
          <p>
            <strong>Copy the token {made.name} now:</strong> it is shown only this once and cannot
            be read again (revoke it and make another if it is lost).
          </p>
          <p>
            <output aria-label="New token" className="mono secret">
              {made.token}
            </output>{' '}
            <button type="button" onClick={() => void copy(made.token)}>
              Copy
            </button>
          </p>
          {copied === null ? null : <p className="hint">{copied}</p>}
        </div>
      )}
    </>
  );
}
