import type { BatchServiceApi } from '../../batches/batch-api';
import type { ShadowRunner } from '../../engine/shadow';
import type { ReviewServiceApi } from '../../reviews';
import type { Actor, TaskServiceApi } from '../../tasks/task-api';

/** How the client reached the server: the local user over stdio, or a token holder over HTTP. */
export type McpTransportKind = 'stdio' | 'http';

/** The shadow runner as `shadow_run` uses it. */
export type McpShadowRunner = Pick<ShadowRunner, 'mode' | 'fallbackReason' | 'run'>;

/** Where `shadow_run` runs: the server's one shadow runner, and the tasks' worktrees. */
export interface McpShadows {
  /** The process's one shadow runner (the runtime's, which the task loop uses too). */
  runner(): Promise<McpShadowRunner>;
  /** The absolute path of a task's worktree (it may not exist yet, or any more). */
  worktreeOf(taskId: string): string;
}

/** What the tools are built on; one per process, shared by every MCP session. */
export interface McpServices {
  readonly tasks: TaskServiceApi;
  /** The review conversation: the tools read threads and reply; none resolves or gives a verdict. */
  readonly reviews: ReviewServiceApi;
  /** Integration batches: the tools only read them (`get_batch`). */
  readonly batches: BatchServiceApi;
  readonly shadows: McpShadows;
}

/** One tool call: who asks, over what, and the call's own cancellation and progress. */
export interface ToolContext {
  readonly services: McpServices;
  readonly actor: Actor;
  readonly transport: McpTransportKind;
  /** Aborted when the client cancels the call or goes away. */
  readonly signal: AbortSignal;
  /** Tells the client how far the call is, when it asked for progress; never throws. */
  progress(done: number, total: number, message: string): void;
}
