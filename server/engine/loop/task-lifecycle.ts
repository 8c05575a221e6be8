/**
 * A task's lifecycle, in one place: its statuses, which of them are active or final (both defined
 * in the leaf `task-status.ts` and handed on here), and which events move a task from which
 * statuses to which. The engine's reducer enforces it and the browser's timeline follows it, so
 * this module is pure: no imports but types and the statuses (the client bundle imports it
 * through `server/engine/lifecycle.ts`).
 */
import type { TaskEventType } from './task-events';
import { activeStatuses, type TaskStatus } from './task-status';

// A leaf of their own: the events name statuses and the transitions name events, so the statuses
// here would close a circle.
export {
  acceptsWork,
  activeStatuses,
  finalStatuses,
  isTaskStatus,
  taskStatuses,
  workStatuses,
  type TaskStatus,
} from './task-status';

/** The status a task row is inserted with; `task.created` announces it. */
export const initialTaskStatus: TaskStatus = 'queued';

/** The statuses an event may leave from: a list, or every active status. */
export type TransitionFrom = readonly TaskStatus[] | 'active';

export interface Transition {
  readonly from: TransitionFrom;
  /** Where the event takes the task; null keeps the status it has. */
  readonly to: TaskStatus | null;
}

/**
 * Which statuses each status-changing event may leave from, and where it goes. An event that is
 * not here carries information only: any status may take it and keeps its status.
 */
export const transitions: Readonly<Partial<Record<TaskEventType, Transition>>> = {
  'task.preparing': { from: ['queued'], to: 'preparing' },
  'setup.started': { from: ['preparing', 'setup'], to: 'setup' },
  'baseline.started': { from: ['preparing', 'setup', 'baseline'], to: 'baseline' },
  // A new iteration may take a task under review back to work (its diff changes). An approved
  // task takes none: only a reviewer's reopen changes it.
  'iteration.started': {
    from: ['baseline', 'iterating', 'awaiting_hypotheses', 'awaiting_review'],
    to: 'iterating',
  },
  'iteration.awaiting_hypotheses': { from: ['iterating'], to: 'awaiting_hypotheses' },
  'iteration.running': { from: ['iterating', 'awaiting_hypotheses'], to: 'iterating' },
  // From waiting too: an iteration that got no hypothesis puts the checkpoint it has up again.
  // From under review only after `review.promoted`: a reviewer's runner-up replaces the diff.
  'review.ready': {
    from: ['iterating', 'awaiting_hypotheses', 'awaiting_review'],
    to: 'awaiting_review',
  },
  // Only a finished iteration's diff under review (not an approved one: reopen first) is replaced.
  'review.promoted': { from: ['awaiting_review'], to: 'awaiting_review' },
  // Changes requested: the task waits for the review round's hypotheses, its worktree kept at
  // the checkpoint under review (they build on it).
  'task.changes_requested': { from: ['awaiting_review'], to: 'awaiting_hypotheses' },
  'task.approved': { from: ['awaiting_review'], to: 'approved' },
  // A reject never overrides an approval: reopen first.
  'task.rejected': { from: ['awaiting_review'], to: 'rejected' },
  'task.reopened': { from: ['approved'], to: 'awaiting_review' },
  'task.failed': { from: 'active', to: 'failed' },
  'task.cancelled': { from: 'active', to: 'cancelled' },
  // Rolling back a fix under review gives it up (an approved one is reopened first).
  'task.abandoned': { from: ['awaiting_review'], to: 'cancelled' },
  'task.interrupted': { from: 'active', to: 'interrupted' },
  // Resuming after a restart keeps the status; it only has to be one that was running.
  'task.resumed': { from: 'active', to: null },
};

/** Whether a task in `status` may take an event of `eventType` (an illegal one is a bug or a lost race). */
export function canApply(status: TaskStatus, eventType: TaskEventType): boolean {
  const rule = transitions[eventType];
  if (rule === undefined) return true;
  return rule.from === 'active' ? activeStatuses.has(status) : rule.from.includes(status);
}

/**
 * The status a task in `status` has after an event of `eventType` that `canApply` allows: the
 * transition's target, else the status it had.
 */
export function statusAfter(status: TaskStatus, eventType: TaskEventType): TaskStatus {
  return transitions[eventType]?.to ?? status;
}

/**
 * The status an event of `eventType` leaves a task in, whatever it was before, or null when the
 * event does not say: `task.created` announces the initial status; an information-only event
 * keeps the status, and `task.resumed` restores the one it carries.
 */
export function statusSetBy(eventType: TaskEventType): TaskStatus | null {
  if (eventType === 'task.created') return initialTaskStatus;
  return transitions[eventType]?.to ?? null;
}

/**
 * An iteration row's status, as the task store writes it: inserted `waiting` (for hypotheses),
 * `running` once it takes them, `done` once ranked.
 */
export const iterationStatuses = ['waiting', 'running', 'done'] as const;

export type IterationStatus = (typeof iterationStatuses)[number];

export function isIterationStatus(value: string): value is IterationStatus {
  return (iterationStatuses as readonly string[]).includes(value);
}
