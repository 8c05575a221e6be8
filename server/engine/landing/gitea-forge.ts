import {
  forgeRefused,
  repositoryOf,
  type ForgeRepository,
  type PullRequest,
  type PullRequestText,
} from './forge';

interface GiteaPull {
  readonly number: number;
  readonly html_url: string;
  readonly head?: { readonly ref?: string; readonly repo?: { readonly full_name?: string } };
}

const perPage = 50;
/** Open pull requests looked through for one from the branch (Gitea lists, it does not filter). */
const maxPages = 20;

/**
 * Gitea's (and Forgejo's) pull requests through its documented REST API (`<site>/api/v1`), with
 * fetch: no client library is kept for it. The token goes in the Authorization header only.
 */
export function giteaRepository(options: {
  readonly cloneUrl: string;
  readonly token: string;
  readonly fetch?: typeof fetch;
}): ForgeRepository {
  const { site, owner, name } = repositoryOf(options.cloneUrl);
  const doFetch = options.fetch ?? fetch;
  const base = `${site}/api/v1/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
  const request = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await doFetch(`${base}${path}`, {
      method,
      redirect: 'error',
      headers: {
        Authorization: `token ${options.token}`,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    if (!response.ok) {
      const text = await response.text();
      let said = text;
      try {
        said = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {
        // not JSON: its text
      }
      throw forgeRefused('Gitea', response.status, said);
    }
    return (await response.json()) as T;
  };
  const pull = (data: GiteaPull): PullRequest => ({ number: data.number, url: data.html_url });
  return {
    defaultBranch: async () =>
      (await request<{ default_branch: string }>('GET', '')).default_branch,
    findOpen: async (head) => {
      for (let page = 1; page <= maxPages; page++) {
        const pulls = await request<GiteaPull[]>(
          'GET',
          `/pulls?state=open&limit=${perPage}&page=${page}`,
        );
        const match = pulls.find(
          (p) => p.head?.ref === head && p.head.repo?.full_name === `${owner}/${name}`,
        );
        if (match !== undefined) return pull(match);
        if (pulls.length < perPage) return null;
      }
      return null;
    },
    create: async (input) => pull(await request<GiteaPull>('POST', '/pulls', input)),
    update: async (number, text: PullRequestText) =>
      pull(await request<GiteaPull>('PATCH', `/pulls/${number}`, text)),
  };
}
