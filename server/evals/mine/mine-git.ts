import { hardenedGit } from '../../engine';

// Git on the mining repository, a private copy the miner owns, through the engine's one hardened
// way to run git (no system or global config, no hooks, no fsmonitor, no prompts, no transport),
// with literal pathspecs, and the local transport only when the caller asks (copying a local
// repository in). A failure is a GIT_COMMAND_FAILED fault.

export interface MineGitOptions {
  /** Let git read a local repository (the `file` transport); nothing else ever. */
  readonly localTransport?: boolean;
  readonly input?: string;
}

/** Runs git with `--git-dir=gitDir` (null: none, for commands that name their own paths). */
export function mineGit(
  gitDir: string | null,
  args: readonly string[],
  options: MineGitOptions = {},
): Promise<Buffer> {
  return hardenedGit({
    gitDir,
    args,
    env: {
      GIT_LITERAL_PATHSPECS: '1',
      GIT_ALLOW_PROTOCOL: options.localTransport === true ? 'file' : '',
    },
    ...(options.input === undefined ? {} : { input: options.input }),
  });
}

export const mineGitText = async (
  gitDir: string | null,
  args: readonly string[],
  options?: MineGitOptions,
): Promise<string> => (await mineGit(gitDir, args, options)).toString('utf8');
