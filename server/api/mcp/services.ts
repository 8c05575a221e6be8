import type { RunLimits } from '../engine/sandbox';
import { createShadowRunner } from '../engine/shadow';
import { workspaceLayout, worktreePath } from '../engine/workspace/workspace-layout';
import type { TaskServiceApi } from '../tasks/task-api';
import type { ShadowRunner } from '../engine/shadow';
import type { McpServices, McpShadows } from './tool-context';

/** The part of the server's runtime the MCP tools use. */
export interface McpRuntimeParts {
  readonly tasks: TaskServiceApi;
  readonly env: {
    readonly dataDir: string;
    readonly runLimits?: RunLimits;
    readonly sandboxReadOnlyPaths?: readonly string[];
  };
}

/**
 * `shadow_run`'s runner for a data directory, created (probe, sweep of dead runs) on first use and
 * then kept: one per server, not one per call.
 */
export function dataDirShadows(
  dataDir: string,
  sandbox: {
    readonly runLimits?: RunLimits;
    readonly sandboxReadOnlyPaths?: readonly string[];
  } = {},
): McpShadows & {
  /** Waits for the scratch space of finished runs to be deleted. */ settled(): Promise<void>;
} {
  let runner: Promise<ShadowRunner> | undefined;
  const layout = workspaceLayout(dataDir);
  return {
    runner() {
      runner ??= createShadowRunner({
        dataDir,
        ...(sandbox.runLimits === undefined ? {} : { limits: sandbox.runLimits }),
        ...(sandbox.sandboxReadOnlyPaths === undefined
          ? {}
          : { sandboxReadOnlyPaths: sandbox.sandboxReadOnlyPaths }),
      }).then(
        (created) => {
          if (created.fallbackReason !== null) {
            console.error(
              `[mcp] overlay shadows unavailable, running in place: ${created.fallbackReason}`,
            );
          }
          return created;
        },
        (error: unknown) => {
          runner = undefined;
          throw error;
        },
      );
      return runner;
    },
    worktreeOf: (taskId) => worktreePath(layout, taskId),
    async settled() {
      const created = await runner?.catch(() => undefined);
      await created?.settled();
    },
  };
}

const byRuntime = new WeakMap<McpRuntimeParts, McpServices>();

/** The MCP services of a runtime: the same object (and so the same shadow runner) on every call. */
export function mcpServicesOf(runtime: McpRuntimeParts): McpServices {
  let services = byRuntime.get(runtime);
  if (services === undefined) {
    services = { tasks: runtime.tasks, shadows: dataDirShadows(runtime.env.dataDir, runtime.env) };
    byRuntime.set(runtime, services);
  }
  return services;
}
