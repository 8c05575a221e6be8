import os from 'node:os';
import { z } from 'zod';
import { testCommandSchema } from '../../http/schemas';
import { formatReport, shadowSpecSchema, type ShadowEvent } from '../../../engine/shadow';
import { AppError } from '../../../errors/app-error';
import { defineTool } from '../define-tool';
import { shadowRunReportSchema } from '../schemas/shadow-report';
import type { ToolContext } from '../tool-context';
import { resolveShadowTarget } from './shadow-run-target';
import { taskIdInput } from './task-id';

const input = z.strictObject({
  hypotheses: shadowSpecSchema.shape.hypotheses.describe(
    'candidate fixes: a name, the full new contents of the files it changes (edits) and the files ' +
      'it deletes; one without edits is the baseline',
  ),
  command: testCommandSchema.describe('argv of the test command, e.g. ["cargo","test"]'),
  workspace: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe('stdio only: an absolute directory of yours to make the shadows of'),
  taskId: taskIdInput
    .optional()
    .describe(
      "run in this task's worktree (the only choice over HTTP, where the command policy applies)",
    ),
  parallel: z
    .int()
    .min(1)
    .max(64)
    .optional()
    .describe('hypotheses at once; default (and over HTTP, at most) the number of cores'),
  timeoutSecs: z.int().min(1).max(3600).optional().describe('per hypothesis; default 600'),
});

/** Reports each finished hypothesis as progress (when the client asked for progress). */
function progressOf(context: ToolContext, total: number): { emit(event: ShadowEvent): void } {
  let finished = 0;
  return {
    emit(event) {
      if (event.type !== 'hypothesis.finished') return;
      finished += 1;
      const r = event.result;
      context.progress(
        finished,
        total,
        `${r.name}: exit ${String(r.exitCode)}, ${r.passed} passed, ${r.failed} failed`,
      );
    },
  };
}

/** A remote agent gets at most one run per core; the local user may ask for more, as in the CLI. */
function parallelOf(requested: number | undefined, context: ToolContext): number | undefined {
  if (requested === undefined || context.transport === 'stdio') return requested;
  return Math.min(requested, os.availableParallelism());
}

export const shadowRunTool = defineTool({
  name: 'shadow_run',
  title: 'Run hypotheses in shadows',
  description:
    'Runs every hypothesis in its own copy-on-write shadow of the workspace (at the same path, so ' +
    'build caches stay warm), in parallel, and ranks them: passed before failed, fewer failures, ' +
    "more passes, smaller diff. Returns the winner's diff and the failing runs' output tails. The " +
    'workspace is never written. Over HTTP it runs only in a task worktree (taskId).',
  input,
  output: shadowRunReportSchema,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, context) {
    const target = await resolveShadowTarget(args, context);
    const runner = await context.services.shadows.runner();
    // In place, hypotheses are written into the directory one after another: a task's worktree
    // belongs to the task's own runs, so it gets shadows or nothing.
    if (target.taskId !== null && runner.mode !== 'overlay') {
      throw new AppError(
        'SANDBOX_UNAVAILABLE',
        `shadow_run in a task's worktree needs overlay shadows, unavailable here: ${runner.fallbackReason ?? 'in-place mode'}`,
      );
    }
    const parallel = parallelOf(args.parallel, context);
    return runner.run(
      {
        workspace: target.workspace,
        command: args.command,
        hypotheses: args.hypotheses,
        apply: false,
        signal: context.signal,
        ...(Object.keys(target.limits).length === 0 ? {} : { limits: target.limits }),
        ...(parallel === undefined ? {} : { parallel }),
        ...(args.timeoutSecs === undefined ? {} : { timeoutMs: args.timeoutSecs * 1000 }),
      },
      progressOf(context, args.hypotheses.length),
    );
  },
  render: (report, args) =>
    formatReport(report, {
      command: args.command,
      workspace: args.taskId === undefined ? (args.workspace ?? '') : `task ${args.taskId}`,
    }),
});
