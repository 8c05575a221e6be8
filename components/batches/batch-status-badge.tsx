import { batchTone } from './batch-status';
import type { BatchStatus } from './batch-types';

/**
 * A batch's status as its word with the task statuses' icon in front (drawn by CSS, so the
 * element's text is the word alone).
 */
export function BatchStatusBadge({
  status,
  ...aria
}: {
  readonly status: BatchStatus;
  readonly role?: 'status';
  readonly 'aria-label'?: string;
}) {
  return (
    <span className={`status tone-${batchTone[status]}`} data-status={status} {...aria}>
      {status}
    </span>
  );
}
