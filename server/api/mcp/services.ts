import type { BatchServiceApi } from '../../batches/batch-api';
import { workspaceLayout, worktreePath } from '../../engine/workspace';
import type { ReviewServiceApi } from '../../reviews';
import type { TaskServiceApi } from '../../tasks/task-api';
import type { McpServices, McpShadowRunner, McpShadows } from './tool-context';

/** The part of the server's runtime the MCP tools use (a ServerRuntime is one). */
export interface McpRuntimeParts {
  readonly tasks: TaskServiceApi;
  readonly reviews: ReviewServiceApi;
  readonly batches: BatchServiceApi;
  /** The process's one shadow runner (one probe, one sweep), which the task loop uses too. */
  readonly shadows: McpShadowRunner;
  readonly env: { readonly dataDir: string };
}

/** `shadow_run`'s view of the runtime's shadow runner and of the data directory's worktrees. */
function runtimeShadows(runtime: Pick<McpRuntimeParts, 'shadows' | 'env'>): McpShadows {
  const layout = workspaceLayout(runtime.env.dataDir);
  const runner = Promise.resolve(runtime.shadows);
  return {
    runner: () => runner,
    worktreeOf: (taskId) => worktreePath(layout, taskId),
  };
}

const byRuntime = new WeakMap<McpRuntimeParts, McpServices>();

/** The MCP services of a runtime: the same object (and so the same shadow runner) on every call. */
export function mcpServicesOf(runtime: McpRuntimeParts): McpServices {
  let services = byRuntime.get(runtime);
  if (services === undefined) {
    services = {
      tasks: runtime.tasks,
      reviews: runtime.reviews,
      batches: runtime.batches,
      shadows: runtimeShadows(runtime),
    };
    byRuntime.set(runtime, services);
  }
  return services;
}
