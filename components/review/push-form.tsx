'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorInfo } from '../errors/error-info';
import { useTRPC } from '../trpc/client';
import { NoRemotes, PushTargetFields } from './push-target';

/** Only a web address is made a link (the forge's answer is not trusted to be one). */
const isWebUrl = (url: string): boolean => /^https?:\/\//i.test(url);

/**
 * An approved change pushed to a branch of a remote the administrators configured, and its pull
 * request opened or updated where the remote names a forge. The server refuses a push whose
 * approval is not on the current diff (STALE_DIFF) and a branch someone else moved
 * (PUSH_REJECTED): its words are shown as they are.
 */
export function PushForm({ taskId }: { readonly taskId: string }) {
  const trpc = useTRPC();
  const id = useId();
  const remotes = useQuery(trpc.tasks.remotes.queryOptions());
  const [remote, setRemote] = useState('');
  const [branch, setBranch] = useState('');
  const [squash, setSquash] = useState(false);
  const [pullRequest, setPullRequest] = useState(true);
  const push = useMutation(trpc.tasks.push.mutationOptions());

  const list = remotes.data ?? [];
  if (remotes.isPending) return null;
  if (list.length === 0) return <NoRemotes />;
  const chosen = list.find((r) => r.name === remote) ?? list[0];
  const forge = chosen?.forge ?? null;
  const outcome = push.data;

  return (
    <form
      className="push-form"
      aria-label="Push the approved change"
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen === undefined) return;
        push.mutate({
          taskId,
          remote: chosen.name,
          ...(branch.trim() === '' ? {} : { branch: branch.trim() }),
          squash,
          pullRequest: forge !== null && pullRequest,
        });
      }}
    >
      <PushTargetFields
        id={id}
        remotes={list}
        remote={chosen?.name ?? ''}
        onRemote={setRemote}
        branch={branch}
        onBranch={setBranch}
        defaultBranch={`shadowbox/${taskId}`}
      />
      <label>
        <input type="checkbox" checked={squash} onChange={(e) => setSquash(e.target.checked)} /> One
        commit
      </label>
      {forge === null ? null : (
        <label>
          <input
            type="checkbox"
            checked={pullRequest}
            onChange={(e) => setPullRequest(e.target.checked)}
          />{' '}
          Open or update its pull request ({forge})
        </label>
      )}
      <button type="submit" disabled={push.isPending}>
        {push.isPending ? 'Pushing…' : 'Push'}
      </button>
      {push.isError ? (
        <p className="form-error" role="alert">
          {errorInfo(push.error).message}
        </p>
      ) : null}
      {outcome === undefined ? null : (
        <p className="outcome" role="status">
          Pushed <span className="mono">{outcome.commit.slice(0, 12)}</span> to{' '}
          <span className="mono">{outcome.branch}</span> on {outcome.remote}
          {outcome.pullRequest === null ? null : (
            <>
              {'; pull request '}
              {isWebUrl(outcome.pullRequest.url) ? (
                <a href={outcome.pullRequest.url} rel="noopener noreferrer" target="_blank">
                  #{outcome.pullRequest.number}
                </a>
              ) : (
                `#${outcome.pullRequest.number}`
              )}{' '}
              {outcome.pullRequest.created ? 'opened' : 'updated'}
            </>
          )}
          .
        </p>
      )}
    </form>
  );
}
