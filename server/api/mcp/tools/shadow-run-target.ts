import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseTaskId } from '../../http/schemas';
import { checkCommand } from '../../../engine/policy';
import { pickRunLimits, type RunLimits } from '../../../engine/sandbox';
import { AppError } from '../../../errors/app-error';
import type { ToolContext } from '../tool-context';

export interface ShadowTarget {
  /** The directory the shadows are made of (never written). */
  readonly workspace: string;
  /** How the text report names it: a task's worktree is not shown by its server path. */
  readonly label: string;
  /** Set when the workspace is a task's worktree. */
  readonly taskId: string | null;
  /**
   * The caps the task set for its runs (the rest are the server's); none for a workspace. A
   * shadow_run takes no caps of its own, so over HTTP it never runs above the server's.
   */
  readonly limits: Partial<RunLimits>;
}

export interface ShadowTargetInput {
  readonly workspace?: string | undefined;
  readonly taskId?: string | undefined;
  readonly command: readonly string[];
}

const isDirectory = async (dir: string): Promise<boolean> =>
  (await stat(dir).catch(() => null))?.isDirectory() === true;

/**
 * Where a `shadow_run` may run. The local user (stdio) may name any directory of theirs, as with
 * `shadowbox shadow-run`; a remote agent (HTTP) may only name a task, and only run a command the
 * command policy allows, so it cannot run programs in arbitrary directories of the server.
 */
export async function resolveShadowTarget(
  input: ShadowTargetInput,
  context: ToolContext,
): Promise<ShadowTarget> {
  if (context.transport === 'http') {
    if (input.workspace !== undefined) {
      throw new AppError(
        'FORBIDDEN',
        "over HTTP, shadow_run runs only in a task's worktree: give taskId, not workspace",
      );
    }
    const verdict = checkCommand(input.command);
    if (!verdict.ok) throw new AppError(verdict.code, verdict.message);
  }
  if (input.workspace !== undefined && input.taskId !== undefined) {
    throw new AppError('INVALID_ARGUMENT', 'give either workspace or taskId, not both');
  }
  if (input.taskId !== undefined) return taskTarget(parseTaskId(input.taskId), context);
  if (input.workspace === undefined) {
    throw new AppError(
      'INVALID_ARGUMENT',
      context.transport === 'http'
        ? "taskId is required: shadow_run runs in that task's worktree"
        : "give taskId (a task's worktree) or workspace (an absolute directory)",
    );
  }
  if (!path.isAbsolute(input.workspace)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `workspace must be an absolute path, got '${input.workspace}'`,
    );
  }
  const workspace = path.normalize(input.workspace);
  return { workspace, label: workspace, taskId: null, limits: {} };
}

async function taskTarget(taskId: string, { services, actor }: ToolContext): Promise<ShadowTarget> {
  // NOT_FOUND for an unknown task and for one the caller may not see.
  const task = await services.tasks.getTask(taskId, actor);
  const workspace = services.shadows.worktreeOf(taskId);
  if (!(await isDirectory(workspace))) {
    throw new AppError(
      'INVALID_STATE',
      `task ${taskId} is ${task.status} and has no worktree${task.status === 'queued' || task.status === 'preparing' ? ' yet' : ''}`,
    );
  }
  return {
    workspace,
    label: `the worktree of task ${taskId}`,
    taskId,
    limits: pickRunLimits(task.limits),
  };
}
