import type { RemoteView } from '../trpc/router-types';

/** Said where a push could go but no remote is configured. */
export function NoRemotes() {
  return (
    <p className="hint">
      No remote is configured to push to (an administrator adds one with{' '}
      <code>shadowbox remote add</code>).
    </p>
  );
}

/**
 * Where a push goes: one of the configured remotes, and a branch (empty: the default shown as
 * the placeholder). Shared by a task's push form and a batch's.
 */
export function PushTargetFields({
  id,
  remotes,
  remote,
  onRemote,
  branch,
  onBranch,
  defaultBranch,
}: {
  readonly id: string;
  readonly remotes: readonly RemoteView[];
  readonly remote: string;
  readonly onRemote: (name: string) => void;
  readonly branch: string;
  readonly onBranch: (branch: string) => void;
  readonly defaultBranch: string;
}) {
  return (
    <>
      <label htmlFor={`${id}-remote`}>Remote</label>
      <select id={`${id}-remote`} value={remote} onChange={(e) => onRemote(e.target.value)}>
        {remotes.map((r) => (
          <option key={r.name} value={r.name}>
            {r.name} ({r.url})
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-branch`}>Branch</label>
      <input
        id={`${id}-branch`}
        value={branch}
        placeholder={defaultBranch}
        onChange={(e) => onBranch(e.target.value)}
      />
    </>
  );
}
