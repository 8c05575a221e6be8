import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  acceptsWork,
  activeStatuses,
  canApply,
  finalStatuses,
  initialTaskStatus,
  isIterationStatus,
  isTaskStatus,
  iterationStatuses,
  statusAfter,
  statusSetBy,
  taskStatuses,
  transitions,
  workStatuses,
} from './task-lifecycle';

const schemas = ['prisma/schema.prisma', 'prisma/postgres/schema.prisma'];

/** The words of the `///` comment right above `field` in `model`: "a | b |\n/// c" → [a, b, c]. */
function commentedValues(schema: string, model: string, field: string): string[] {
  const lines = schema.split('\n');
  const start = lines.findIndex((line) => line.trim() === `model ${model} {`);
  expect(start, `model ${model}`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((line, i) => i > start && line.trim() === '}');
  const at = lines.findIndex(
    (line, i) => i > start && i < end && line.trim().startsWith(`${field} `),
  );
  expect(at, `${model}.${field}`).toBeGreaterThan(start);
  const comment: string[] = [];
  for (let i = at - 1; i > start && lines[i]!.trim().startsWith('///'); i -= 1) {
    comment.unshift(lines[i]!.trim().slice(3));
  }
  return comment
    .join(' ')
    .split('|')
    .map((word) => word.trim())
    .filter((word) => word !== '');
}

describe('the task lifecycle', () => {
  it('takes work in every status but the final ones and an approval', () => {
    expect([...workStatuses]).toEqual(
      taskStatuses.filter((status) => !finalStatuses.has(status) && status !== 'approved'),
    );
    expect(acceptsWork('awaiting_review')).toBe(true);
    expect(acceptsWork('approved')).toBe(false);
    expect(acceptsWork('cancelled')).toBe(false);
    // Only a reopen leaves an approval, back to review (where work is taken again).
    expect(
      Object.entries(transitions).filter(
        ([, t]) => t.from !== 'active' && t.from.includes('approved'),
      ),
    ).toEqual([['task.reopened', { from: ['approved'], to: 'awaiting_review' }]]);
  });

  it('names only known statuses in its sets and transitions', () => {
    const named = [
      initialTaskStatus,
      ...activeStatuses,
      ...finalStatuses,
      ...Object.values(transitions).flatMap((rule) => [
        ...(rule.from === 'active' ? [] : rule.from),
        ...(rule.to === null ? [] : [rule.to]),
      ]),
    ];
    expect(named.filter((status) => !isTaskStatus(status))).toEqual([]);
    expect([...activeStatuses].filter((status) => finalStatuses.has(status))).toEqual([]);
  });

  it('lets an active status take the endings, and a final one nothing', () => {
    for (const status of activeStatuses) {
      expect(canApply(status, 'task.cancelled')).toBe(true);
      expect(statusAfter(status, 'task.failed')).toBe('failed');
    }
    for (const status of finalStatuses) {
      expect(canApply(status, 'task.interrupted')).toBe(false);
      expect(canApply(status, 'iteration.started')).toBe(false);
    }
  });

  it('keeps the status on information-only events and on a resume', () => {
    expect(canApply('approved', 'run.output')).toBe(true);
    expect(statusAfter('approved', 'run.output')).toBe('approved');
    expect(statusAfter('baseline', 'task.resumed')).toBe('baseline');
    expect(statusSetBy('run.output')).toBeNull();
    expect(statusSetBy('task.resumed')).toBeNull();
  });

  it('says where each status-changing event leaves a task', () => {
    expect(statusSetBy('task.created')).toBe(initialTaskStatus);
    expect(statusSetBy('task.abandoned')).toBe('cancelled');
    expect(statusSetBy('review.ready')).toBe('awaiting_review');
    expect(canApply('iterating', 'task.approved')).toBe(false);
  });

  it('tells statuses from other strings', () => {
    expect(isTaskStatus('awaiting_review')).toBe(true);
    expect(isTaskStatus('waiting')).toBe(false);
    expect(isIterationStatus('waiting')).toBe(true);
    expect(isIterationStatus('awaiting_hypotheses')).toBe(false);
  });
});

describe.each(schemas)('%s', (path) => {
  const schema = readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

  it("lists exactly the lifecycle's statuses above Task.status", () => {
    expect(commentedValues(schema, 'Task', 'status')).toEqual([...taskStatuses]);
  });

  it('lists exactly the statuses the store writes above Iteration.status', () => {
    expect(commentedValues(schema, 'Iteration', 'status')).toEqual([...iterationStatuses]);
  });
});
