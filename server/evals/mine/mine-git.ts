import { execa } from 'execa';
import { AppError } from '../../errors/app-error';

// Git on the mining repository, a private copy the miner owns. The same hardening as the
// engine's own git (which its door does not export): no system or global config, no hooks, no
// fsmonitor, no pager, no prompts, literal pathspecs; no transport but the local one, and that
// only when the caller asks (copying a local repository in).
const hardening = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.pager=cat',
  'core.autocrlf=false',
  'credential.helper=',
  'gc.auto=0',
  'maintenance.auto=false',
  'color.ui=false',
  // The user's own repository may belong to someone else than the process (a root CLI).
  'safe.directory=*',
];

export interface MineGitOptions {
  /** Let git read a local repository (the `file` transport); nothing else ever. */
  readonly localTransport?: boolean;
  readonly input?: string;
}

/** Runs git with `--git-dir=gitDir` (null: none, for commands that name their own paths). */
export async function mineGit(
  gitDir: string | null,
  args: readonly string[],
  options: MineGitOptions = {},
): Promise<Buffer> {
  const argv = [
    ...hardening.flatMap((pair) => ['-c', pair]),
    ...(gitDir === null ? [] : [`--git-dir=${gitDir}`]),
    ...args,
  ];
  const result = await execa('git', argv, {
    cwd: gitDir ?? '/',
    extendEnv: false,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: '/nonexistent',
      LANG: 'C',
      LC_ALL: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_ATTR_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      GIT_NO_REPLACE_OBJECTS: '1',
      GIT_LFS_SKIP_SMUDGE: '1',
      GIT_LITERAL_PATHSPECS: '1',
      GIT_ALLOW_PROTOCOL: options.localTransport === true ? 'file' : '',
    },
    reject: false,
    encoding: 'buffer',
    stripFinalNewline: false,
    maxBuffer: 1024 ** 3,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
  });
  if (result.exitCode !== 0) {
    const stderr = Buffer.from(result.stderr).toString('utf8').trim();
    throw new AppError('INTERNAL', `git ${args[0] ?? ''} failed: ${stderr || 'no message'}`, {
      details: { exitCode: result.exitCode ?? null },
    });
  }
  return Buffer.from(result.stdout);
}

export const mineGitText = async (
  gitDir: string | null,
  args: readonly string[],
  options?: MineGitOptions,
): Promise<string> => (await mineGit(gitDir, args, options)).toString('utf8');
