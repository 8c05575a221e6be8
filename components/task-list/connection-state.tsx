import type { TRPCSubscriptionStatus } from '@trpc/tanstack-react-query';

const words: Record<TRPCSubscriptionStatus, string> = {
  idle: 'Live updates off',
  connecting: 'Connecting to live updates…',
  pending: 'Live',
  error: 'Live updates stopped',
};

/** Whether the page is receiving events; the stream reconnects on its own. */
export function ConnectionState({
  status,
  error,
}: {
  readonly status: TRPCSubscriptionStatus;
  readonly error: string | null;
}) {
  return (
    <p className={`connection connection-${status}`}>
      {words[status]}
      {status === 'error' && error !== null ? `: ${error}` : null}
    </p>
  );
}
