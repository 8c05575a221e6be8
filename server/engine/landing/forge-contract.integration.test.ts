import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeForge, type FakeForge } from '../../test-support/fake-forge';
import { openOrUpdatePullRequest, repositoryOf, type ForgeRepository } from './forge';
import { giteaRepository } from './gitea-forge';
import { githubRepository } from './github-forge';

/**
 * The pull request port's contract, run on each adapter against a local server that implements
 * the documented endpoints they use (create, find the open one for a branch, update).
 */
const adapters: [string, (forge: FakeForge, token: string) => ForgeRepository][] = [
  [
    'GitHub (Octokit)',
    (forge, token) => githubRepository({ cloneUrl: `${forge.url}/team/app.git`, token }),
  ],
  ['Gitea', (forge, token) => giteaRepository({ cloneUrl: `${forge.url}/team/app.git`, token })],
];

describe.each(adapters)('pull requests on %s', (_name, adapter) => {
  let forge: FakeForge;
  beforeEach(async () => {
    forge = await startFakeForge({
      owner: 'team',
      name: 'app',
      token: 'tok-1',
      defaultBranch: 'trunk',
    });
  });
  afterEach(async () => {
    await forge.close();
  });

  it('opens one for the branch into the default branch, then updates it instead of opening another', async () => {
    const repository = adapter(forge, 'tok-1');
    const first = await openOrUpdatePullRequest(repository, {
      head: 'shadowbox/t1',
      base: null,
      title: 'Mean rounds down',
      body: 'first push',
    });
    expect(first).toMatchObject({ number: 1, created: true });
    expect(first.url).toBe(`${forge.url}/team/app/pull/1`);
    expect(forge.pulls).toEqual([
      expect.objectContaining({
        head: 'shadowbox/t1',
        base: 'trunk',
        title: 'Mean rounds down',
        body: 'first push',
      }),
    ]);
    const again = await openOrUpdatePullRequest(repository, {
      head: 'shadowbox/t1',
      base: null,
      title: 'Mean rounds down (iteration 2)',
      body: 'second push',
    });
    expect(again).toMatchObject({ number: 1, created: false });
    expect(forge.pulls).toHaveLength(1);
    expect(forge.pulls[0]).toMatchObject({
      title: 'Mean rounds down (iteration 2)',
      body: 'second push',
    });
  });

  it('opens a new one when the branch has none open (a closed one is not reused), into the base asked for', async () => {
    const repository = adapter(forge, 'tok-1');
    await openOrUpdatePullRequest(repository, {
      head: 'shadowbox/t1',
      base: 'main',
      title: 'a',
      body: '',
    });
    const closed = forge.pulls[0];
    if (closed !== undefined) closed.state = 'closed';
    const other = await openOrUpdatePullRequest(repository, {
      head: 'shadowbox/t2',
      base: 'main',
      title: 'b',
      body: '',
    });
    const reopened = await openOrUpdatePullRequest(repository, {
      head: 'shadowbox/t1',
      base: 'main',
      title: 'c',
      body: '',
    });
    expect([other.number, reopened.number]).toEqual([2, 3]);
    expect(forge.pulls.map((pull) => [pull.head, pull.base, pull.state])).toEqual([
      ['shadowbox/t1', 'main', 'closed'],
      ['shadowbox/t2', 'main', 'open'],
      ['shadowbox/t1', 'main', 'open'],
    ]);
  });

  it("reports a refused token in the forge's words, without the token", async () => {
    const error = await adapter(forge, 'wrong-token')
      .findOpen('shadowbox/t1')
      .then(
        () => null,
        (caught: unknown) => caught as { code: string; message: string },
      );
    expect(error).toMatchObject({ code: 'FORGE_REFUSED' });
    expect(error?.message).toMatch(/answered 401: Bad credentials/);
    expect(error?.message).not.toContain('wrong-token');
  });
});

describe('repositoryOf', () => {
  it('reads the site and owner/name from a clone URL', () => {
    expect(repositoryOf('https://github.com/team/app.git')).toEqual({
      site: 'https://github.com',
      owner: 'team',
      name: 'app',
    });
    expect(repositoryOf('https://git.corp.example:3000/forge/team/app')).toEqual({
      site: 'https://git.corp.example:3000/forge',
      owner: 'team',
      name: 'app',
    });
    expect(() => repositoryOf('https://git.corp.example/app.git')).toThrow(
      /names no owner\/repository/,
    );
  });
});
