import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A pull request as the fake forge keeps it. */
export interface FakePull {
  number: number;
  head: string;
  base: string;
  title: string;
  body: string;
  state: 'open' | 'closed';
}

export interface FakeForge {
  readonly url: string;
  readonly pulls: FakePull[];
  /** Every request, `METHOD path`. */
  readonly requests: string[];
  close(): Promise<void>;
}

/**
 * The endpoints Shadowbox uses of GitHub's REST API (under `/api/v3`, as an Enterprise server
 * serves them) and of Gitea's (under `/api/v1`), for one repository `owner/name`, as their
 * documentation describes them: the repository (its default branch), open pull requests (GitHub
 * filters by `head=owner:branch`; Gitea lists), create, update. A wrong token gets 401.
 */
export interface FakeForgeOptions {
  readonly owner: string;
  readonly name: string;
  readonly token: string;
  readonly defaultBranch?: string;
}

export async function startFakeForge(options: FakeForgeOptions): Promise<FakeForge> {
  const site = { url: '' };
  const forge = fakeForgeHandler(options, () => site.url);
  const server = createServer(forge.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: site.url,
    pulls: forge.pulls,
    requests: forge.requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** The same endpoints as a request handler, to mount beside a Git server at `siteUrl()`. */
export function fakeForgeHandler(
  options: FakeForgeOptions,
  siteUrl: () => string,
): {
  readonly pulls: FakePull[];
  readonly requests: string[];
  readonly handle: (request: IncomingMessage, response: ServerResponse) => void;
} {
  const pulls: FakePull[] = [];
  const requests: string[] = [];
  const repo = `${options.owner}/${options.name}`;
  const github = `/api/v3/repos/${repo}`;
  const gitea = `/api/v1/repos/${repo}`;

  const send = (response: ServerResponse, status: number, body: unknown): void => {
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const readBody = async (request: IncomingMessage): Promise<Record<string, string>> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, string>;
  };
  const view = (pull: FakePull) => ({
    number: pull.number,
    html_url: `${siteUrl()}/${repo}/pull/${pull.number}`,
    state: pull.state,
    title: pull.title,
    body: pull.body,
    head: { ref: pull.head, label: `${options.owner}:${pull.head}`, repo: { full_name: repo } },
    base: { ref: pull.base },
  });

  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    void (async () => {
      const target = new URL(request.url ?? '/', 'http://forge');
      const method = request.method ?? 'GET';
      requests.push(`${method} ${target.pathname}${target.search}`);
      if (request.headers.authorization !== `token ${options.token}`) {
        send(response, 401, { message: 'Bad credentials' });
        return;
      }
      const root = target.pathname.startsWith(github)
        ? github
        : target.pathname.startsWith(gitea)
          ? gitea
          : null;
      if (root === null) {
        send(response, 404, { message: 'Not Found' });
        return;
      }
      const rest = target.pathname.slice(root.length);
      if (method === 'GET' && rest === '') {
        send(response, 200, { full_name: repo, default_branch: options.defaultBranch ?? 'main' });
        return;
      }
      if (method === 'GET' && rest === '/pulls') {
        const open = pulls.filter((pull) => pull.state === 'open');
        const head = target.searchParams.get('head');
        const found =
          root === github && head !== null
            ? open.filter((pull) => `${options.owner}:${pull.head}` === head)
            : open;
        send(response, 200, found.map(view));
        return;
      }
      if (method === 'POST' && rest === '/pulls') {
        const body = await readBody(request);
        const pull: FakePull = {
          number: pulls.length + 1,
          head: body.head ?? '',
          base: body.base ?? '',
          title: body.title ?? '',
          body: body.body ?? '',
          state: 'open',
        };
        pulls.push(pull);
        send(response, 201, view(pull));
        return;
      }
      const match = /^\/pulls\/(\d+)$/.exec(rest);
      const pull = match === null ? undefined : pulls.find((p) => p.number === Number(match[1]));
      if (method === 'PATCH' && pull !== undefined) {
        const body = await readBody(request);
        pull.title = body.title ?? pull.title;
        pull.body = body.body ?? pull.body;
        send(response, 200, view(pull));
        return;
      }
      send(response, 404, { message: 'Not Found' });
    })();
  };
  return { pulls, requests, handle };
}
