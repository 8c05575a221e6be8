import path from 'node:path';
import {
  defaultEgressAllowlist,
  parseEgressAllow,
  readToolConfig,
  type EgressAllowlist,
} from '../../engine/egress';
import { defaultGitUrlPolicy, type GitUrlPolicy } from '../../engine/intake';
import {
  createGitWorkspaces,
  type SetupPort,
  type ShadowPort,
  type WorkspacePort,
} from '../../engine/loop';
import type { RunLimits } from '../../engine/sandbox';
import { createTaskSetup } from '../../engine/setup';
import { createShadowRunner, type ShadowRunner } from '../../engine/shadow';
import { sourceGitDir, workspaceLayout, type WorkspaceLayout } from '../../engine/workspace';
import { AppError } from '../../errors/app-error';

/** The engine's ports a mining run uses, over one directory of its own. */
export interface MiningEngine {
  /** Everything the run writes (its repository, its worktree) is under here. */
  readonly root: string;
  readonly layout: WorkspaceLayout;
  readonly workspaces: WorkspacePort;
  readonly setup: SetupPort;
  readonly shadows: ShadowPort;
  readonly gitPolicy: GitUrlPolicy;
}

export interface MiningEngineOptions {
  /** The run's own directory (sources/, worktrees/ under it). */
  readonly root: string;
  /** Scratch space of the shadow runner (`<dataDir>/shadows`). */
  readonly dataDir: string;
  readonly gitPolicy?: GitUrlPolicy;
  /** SHADOWBOX_EGRESS_ALLOW: where setup may reach (default: the configured registries). */
  readonly egressAllow?: string;
  readonly limits?: Partial<RunLimits>;
  readonly sandboxReadOnlyPaths?: readonly string[];
}

/**
 * Composes the shadow runner, the setup port and the git workspaces as the server does (see
 * server/runtime.ts), for the command line. Mining runs a repository's code: there must be a
 * sandbox, never an in-place fallback.
 */
export async function createMiningEngine(
  options: MiningEngineOptions,
): Promise<MiningEngine & { readonly runner: ShadowRunner }> {
  const runner = await createShadowRunner({
    dataDir: options.dataDir,
    mode: 'overlay',
    // The caller waits for the set, not for the disk to forget the shadows.
    detachedRemoval: true,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.sandboxReadOnlyPaths === undefined
      ? {}
      : { sandboxReadOnlyPaths: options.sandboxReadOnlyPaths }),
  }).catch((error: unknown) => {
    throw new AppError(
      'INVALID_STATE',
      `mining runs the repository's code, which needs the sandbox: ${(error as Error).message}`,
    );
  });
  if (runner.fallbackReason !== null) {
    throw new AppError(
      'INVALID_STATE',
      `mining runs the repository's code, which needs the sandbox: ${runner.fallbackReason}`,
    );
  }
  const root = path.resolve(options.root);
  const layout = workspaceLayout(root);
  const gitPolicy = options.gitPolicy ?? defaultGitUrlPolicy;
  let allowlist: Promise<EgressAllowlist> | undefined;
  const setup = createTaskSetup({
    host: runner.sandboxHost,
    unavailableReason: runner.fallbackReason,
    scratchRoot: runner.scratchRoot,
    removal: runner.removal,
    // A mined repository's setup is its own: nothing cached is shared with other runs.
    cache: null,
    allowlist: () =>
      (allowlist ??= defaultEgressAllowlist().then((defaults) =>
        parseEgressAllow(options.egressAllow, defaults),
      )),
    toolEnv: async () => (await readToolConfig()).env,
    gitDirOf: (task) => {
      if (task.sourceId === null) throw new Error(`mining run ${task.id} has no source`);
      return sourceGitDir(layout, task.sourceId);
    },
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
  return {
    root,
    layout,
    workspaces: createGitWorkspaces({ layout, gitPolicy }),
    setup,
    shadows: runner,
    gitPolicy,
    runner,
  };
}
