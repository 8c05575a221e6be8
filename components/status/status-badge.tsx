import type { TaskStatus } from '../trpc/router-types';

/** Which shape and colour a status gets; the word itself is always shown. */
const tone: Record<TaskStatus, 'pending' | 'active' | 'waiting' | 'good' | 'bad' | 'stopped'> = {
  queued: 'pending',
  preparing: 'active',
  setup: 'active',
  baseline: 'active',
  iterating: 'active',
  awaiting_hypotheses: 'waiting',
  awaiting_review: 'waiting',
  approved: 'good',
  rejected: 'bad',
  failed: 'bad',
  cancelled: 'stopped',
  interrupted: 'stopped',
};

/**
 * A status as its word with an icon in front (drawn by CSS, so the element's text is the word
 * alone: other tools read it).
 */
export function StatusBadge({
  status,
  ...aria
}: {
  readonly status: TaskStatus;
  readonly role?: 'status';
  readonly 'aria-label'?: string;
}) {
  return (
    <span className={`status tone-${tone[status]}`} data-status={status} {...aria}>
      {status}
    </span>
  );
}
