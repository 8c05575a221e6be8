import { AppError } from '../../errors/app-error';

/** The forges whose pull requests Shadowbox opens: GitHub (and its Enterprise), Gitea/Forgejo. */
export const forgeKinds = ['github', 'gitea'] as const;

export type ForgeKind = (typeof forgeKinds)[number];

export function isForgeKind(value: unknown): value is ForgeKind {
  return typeof value === 'string' && (forgeKinds as readonly string[]).includes(value);
}

export interface PullRequest {
  readonly number: number;
  /** The page people open. */
  readonly url: string;
}

export interface PullRequestText {
  readonly title: string;
  readonly body: string;
}

/**
 * What Shadowbox asks of a forge about one repository: the small port each forge is an adapter
 * of (github-forge.ts, gitea-forge.ts). Every call may throw FORGE_REFUSED with the forge's words.
 */
export interface ForgeRepository {
  /** The branch pull requests go into when the task names none. */
  defaultBranch(): Promise<string>;
  /** The open pull request from `head` (a branch of this repository), if there is one. */
  findOpen(head: string): Promise<PullRequest | null>;
  create(
    input: PullRequestText & { readonly head: string; readonly base: string },
  ): Promise<PullRequest>;
  update(number: number, text: PullRequestText): Promise<PullRequest>;
}

/**
 * Opens a pull request for the pushed branch, or updates the one already open for it (its title
 * and body then say what the branch holds now, not what its first push held).
 */
export async function openOrUpdatePullRequest(
  repository: ForgeRepository,
  input: PullRequestText & { readonly head: string; readonly base: string | null },
): Promise<PullRequest & { readonly created: boolean }> {
  const open = await repository.findOpen(input.head);
  if (open !== null) {
    return { ...(await repository.update(open.number, input)), created: false };
  }
  const base = input.base ?? (await repository.defaultBranch());
  return { ...(await repository.create({ ...input, base })), created: true };
}

/**
 * `owner/name` of a repository from its clone URL (`https://host[/prefix]/owner/name[.git]`), and
 * the URL of the forge's site (scheme, host, port and any prefix before the owner).
 */
export function repositoryOf(cloneUrl: string): { site: string; owner: string; name: string } {
  const url = new URL(cloneUrl);
  const parts = url.pathname
    .replace(/\.git$/, '')
    .split('/')
    .filter((part) => part !== '');
  const name = parts.pop();
  const owner = parts.pop();
  if (owner === undefined || name === undefined) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `${cloneUrl} names no owner/repository: a forge's clone URL ends in /OWNER/NAME(.git)`,
    );
  }
  const prefix = parts.length === 0 ? '' : `/${parts.join('/')}`;
  return { site: `${url.protocol}//${url.host}${prefix}`, owner, name };
}

/** A forge's refusal, in its own words (never the token: adapters do not put it in messages). */
export function forgeRefused(forge: string, status: number, said: string): AppError {
  return new AppError('FORGE_REFUSED', `${forge} answered ${status}: ${said.slice(0, 300)}`, {
    details: { status },
  });
}
