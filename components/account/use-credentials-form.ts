'use client';

import { useState, type SubmitEvent } from 'react';

export interface Credentials {
  readonly username: string;
  readonly password: string;
}

export interface CredentialsFormOptions {
  /** What to say when either field is empty (nothing is sent then). */
  readonly missing: string;
  /** Sends the credentials (the username trimmed); a refusal in words, or null when it went through. */
  readonly send: (credentials: Credentials) => Promise<string | null>;
  /** A failure to send at all (the server unreachable, a refusal thrown), in words. */
  readonly failure: (error: unknown) => string;
}

/**
 * A username-and-password form's state, shared by sign-in and the first admin's set-up: the two
 * fields, the error shown under them, and a submit that sends once at a time.
 */
export function useCredentialsForm({ missing, send, failure }: CredentialsFormOptions) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: SubmitEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (username.trim() === '' || password === '') {
      setError(missing);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      setError(await send({ username: username.trim(), password }));
    } catch (thrown) {
      setError(failure(thrown));
    } finally {
      setBusy(false);
    }
  }

  return {
    username,
    setUsername,
    password,
    setPassword,
    error,
    busy,
    onSubmit: (event: SubmitEvent<HTMLFormElement>) => void submit(event),
  };
}
