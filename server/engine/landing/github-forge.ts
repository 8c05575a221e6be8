import { Octokit } from '@octokit/rest';
import {
  forgeRefused,
  repositoryOf,
  type ForgeRepository,
  type PullRequest,
  type PullRequestText,
} from './forge';

/**
 * GitHub's pull requests through Octokit (GitHub's own client). github.com's API is
 * api.github.com; an Enterprise server's (and a test server's) is `<site>/api/v3`.
 */
export function githubRepository(options: {
  readonly cloneUrl: string;
  readonly token: string;
  /** Default: from the clone URL. */
  readonly apiUrl?: string;
}): ForgeRepository {
  const { site, owner, name: repo } = repositoryOf(options.cloneUrl);
  const baseUrl =
    options.apiUrl ??
    (new URL(site).host === 'github.com' ? 'https://api.github.com' : `${site}/api/v3`);
  const octokit = new Octokit({
    auth: options.token,
    baseUrl,
    userAgent: 'shadowbox',
    request: { redirect: 'error' },
    // No retries, no throttling plugins: a refusal is reported at once.
    log: {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    },
  });
  const pull = (data: { number: number; html_url: string }): PullRequest => ({
    number: data.number,
    url: data.html_url,
  });
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      const status = (error as { status?: number }).status ?? 0;
      const said = (error as { response?: { data?: { message?: string } } }).response?.data
        ?.message;
      throw forgeRefused('GitHub', status, said ?? (error as Error).message);
    }
  };
  return {
    defaultBranch: () =>
      call(async () => (await octokit.rest.repos.get({ owner, repo })).data.default_branch),
    findOpen: (head) =>
      call(async () => {
        const { data } = await octokit.rest.pulls.list({
          owner,
          repo,
          state: 'open',
          head: `${owner}:${head}`,
          per_page: 1,
        });
        const [first] = data;
        return first === undefined ? null : pull(first);
      }),
    create: (input) =>
      call(async () =>
        pull(
          (await octokit.rest.pulls.create({ owner, repo, ...input, maintainer_can_modify: false }))
            .data,
        ),
      ),
    update: (number, text: PullRequestText) =>
      call(async () =>
        pull((await octokit.rest.pulls.update({ owner, repo, pull_number: number, ...text })).data),
      ),
  };
}
