import type { SandboxStatus as Status } from '../trpc/router-types';

/**
 * How this server isolates runs, from its start-up probe: a cap the machine cannot enforce is
 * said here, never silently dropped.
 */
export function SandboxStatus({ status }: { readonly status: Status }) {
  if (status === null) return null;
  if (status.mode === 'inplace') {
    return (
      <p role="status" className="card warning">
        Runs go <strong>in place</strong>, one at a time, with no isolation and no resource caps:{' '}
        {status.fallbackReason ?? 'in-place mode was asked for'}.
      </p>
    );
  }
  if (status.fallbackReason !== null) {
    return (
      <p role="status" className="card warning">
        <strong>No sandbox</strong> on this machine, so no task&apos;s code runs:{' '}
        {status.fallbackReason}. An operator may choose in-place mode (
        <code>SHADOWBOX_MODE=inplace</code>), which has no isolation.
      </p>
    );
  }
  const { capabilities: caps, defaultLimits: limits } = status;
  return (
    <section aria-labelledby="sandbox-heading" className="card">
      <h2 id="sandbox-heading">Sandbox</h2>
      <p className="muted">
        Each hypothesis runs in its own shadow: a minimal root with no capabilities, locked mounts
        and no network. Caps per run (a task may lower them; only an admin may raise them):
      </p>
      <dl className="sandbox-caps">
        {caps === null ? null : (
          <>
            <dt>Runs as</dt>
            <dd>{caps.identity} on the host, never root</dd>
            <dt>System calls</dt>
            <dd>{caps.seccomp}</dd>
            <dt>/proc</dt>
            <dd>{caps.proc}</dd>
          </>
        )}
        <dt>Memory</dt>
        <dd>
          {limits.maxMemoryMb} MB, by {caps?.memory ?? 'not enforced'}
        </dd>
        <dt>Processes</dt>
        <dd>
          {limits.maxPids}, by {caps?.pids ?? 'not enforced'}
        </dd>
        <dt>Disk</dt>
        <dd>
          {limits.maxDiskMb} MB, by {caps?.disk ?? 'not enforced'}
        </dd>
        <dt>Files</dt>
        <dd>
          {limits.maxInodes}, by {caps?.disk ?? 'not enforced'}
        </dd>
      </dl>
      {caps !== null && caps.notes.length > 0 ? (
        <ul aria-label="Caps this machine enforces only in part">
          {caps.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
