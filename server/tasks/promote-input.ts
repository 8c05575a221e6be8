import { z } from 'zod';
import { AppError } from '../errors/app-error';

/** `POST /api/v1/tasks/{id}/promote`'s body, tRPC `tasks.promote`'s input (with the task id). */
export const promoteBodySchema = z.strictObject({
  hypothesis: z
    .string()
    .min(1, 'name the hypothesis to promote')
    .max(200, 'a hypothesis name is at most 200 characters'),
  reason: z
    .string()
    .trim()
    .min(1, 'say why this hypothesis should be reviewed instead of the ranked winner')
    .max(2000, 'a reason may hold at most 2,000 characters'),
});

export type PromoteInput = z.output<typeof promoteBodySchema>;

/**
 * The service checks its input itself too (the CLI and tests call it directly): the first
 * problem, named by its field, as the transports' validation words it.
 */
export function parsePromoteInput(input: unknown): PromoteInput {
  const result = promoteBodySchema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join('.') ?? '';
  throw new AppError(
    'INVALID_ARGUMENT',
    `${field === '' ? 'promotion' : field}: ${issue?.message ?? 'invalid'}`,
  );
}
