import { z } from 'zod';

/** `{"remote","branch"?,"squash"?}`: the body of a push (REST) and its tRPC input. */
export const pushBodySchema = z
  .object({
    remote: z.string().min(1).max(40),
    branch: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[A-Za-z0-9._/-]+$/, 'a branch name has letters, digits, ".", "_", "/" and "-" only')
      .refine((name) => !name.startsWith('-') && !name.includes('..'), {
        message: 'a branch name does not start with "-" or hold ".."',
      })
      .optional(),
    squash: z.boolean().optional(),
    pullRequest: z.boolean().optional(),
  })
  .strict();
