import { z } from 'zod';
import { parseTaskId } from '../../http/schemas';
import { defineTool } from '../define-tool';
import { diffViewSchema } from '../schemas/diff';
import { taskIdInput } from './task-id';

export const getDiffTool = defineTool({
  name: 'get_diff',
  title: "Get a task's diff",
  description:
    'The diff baseline..checkpoint under review (a `git format-patch` mail), its SHA-256 and its ' +
    'structural flags (tests touched or deleted, mode changes, binary files, hidden characters).',
  input: z.strictObject({ taskId: taskIdInput }),
  output: diffViewSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ taskId }, { services, actor }) => services.tasks.getDiff(parseTaskId(taskId), actor),
  render: ({ diff, sha256, flags }) =>
    `sha256: ${sha256}\nflags: ${JSON.stringify(flags)}\n\n${diff}`,
});
