import { z } from 'zod';
import { AppError } from '../errors/app-error';
import { pushBodySchema } from '../tasks/push-input';

/** Batch and task ids are cuids: the rule `parseTaskId` applies (server/api/http/schemas.ts). */
export const batchIdPattern = /^[a-z0-9]{20,40}$/;

/** The most of a bad id a message repeats: ids are at most 40 characters, a bad one may be huge. */
const shownIdChars = 64;

const shown = (id: string): string => JSON.stringify(id.slice(0, shownIdChars));

/** A batch id from the path (REST) or a tool's input (MCP); INVALID_ARGUMENT naming it otherwise. */
export function parseBatchId(id: string): string {
  if (!batchIdPattern.test(id)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `${shown(id)} is not a batch id (20 to 40 lowercase letters and digits)`,
      { details: { batchId: id.slice(0, shownIdChars) } },
    );
  }
  return id;
}

/** A task id in a body: the message names the bad one (the issue's path says where it is). */
const taskIdSchema = z
  .string({
    error: (issue) =>
      issue.input === undefined ? 'a task id is required' : 'a task id is a string',
  })
  .regex(batchIdPattern, {
    error: (issue) =>
      `${typeof issue.input === 'string' ? shown(issue.input) : 'that'} is not a task id (20 to 40 lowercase letters and digits)`,
  });

/** `POST /api/v1/batches`: approved tasks of one Git URL, in the order to apply them. */
export const createBatchBodySchema = z.strictObject({
  tasks: z
    .array(taskIdSchema, 'tasks must be an array of task ids, e.g. ["ck…","ck…"]')
    .min(2, 'a batch combines at least 2 tasks')
    .max(8, 'a batch combines at most 8 tasks')
    .superRefine((ids, context) => {
      // The service would refuse too; naming the repeated id here saves a round trip.
      const seen = new Set<string>();
      ids.forEach((id, index) => {
        if (seen.has(id)) {
          context.addIssue({
            code: 'custom',
            path: [index],
            message: `task ${shown(id)} is listed twice`,
          });
        }
        seen.add(id);
      });
    }),
});

/** `POST /api/v1/batches/{id}/drop`: the member to take out. */
export const dropBatchMemberBodySchema = z.strictObject({ task: taskIdSchema });

/** `POST /api/v1/batches/{id}/review`: the verdict on the combined diff whose hash was seen. */
export const reviewBatchBodySchema = z.strictObject({
  verdict: z.enum(['approve', 'reject'], { error: 'verdict must be "approve" or "reject"' }),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lowercase hexadecimal characters'),
});

/**
 * `POST /api/v1/batches/{id}/push`: a task push's remote and branch rules; a batch is pushed one
 * commit per member, so there is no `squash` (nor a pull request) to ask for.
 */
export const pushBatchBodySchema = pushBodySchema.pick({ remote: true, branch: true });
