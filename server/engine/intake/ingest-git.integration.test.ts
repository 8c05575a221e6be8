import { existsSync } from 'node:fs';
import { lstat, mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppErrorCode } from '../../errors/app-error';
import { GitUrlPolicy } from './git-url-policy';
import type { IntakeEvent } from './intake-events';
import { ingestGit, type IngestGitOptions } from './ingest-git';
import {
  makeCraftedRepo,
  makeFixtureRepo,
  writeTree,
  type FixtureRepo,
  type TreeSpec,
} from '../../test-support/git-fixtures';
import {
  startGitHttpServer,
  startRedirectServer,
  startSilentServer,
  type LoopbackServer,
} from '../../test-support/git-http-server';
import { makeIntakeSandbox, type IntakeSandbox } from '../../test-support/intake-sandbox';

const pwned = `/tmp/sb-pwned-${process.pid}`;

// Trees with links (mode 120000), each served as `<name>.git`.
const linkTrees: Record<string, TreeSpec> = {
  'links-ok': {
    'README.md': '# linked\n',
    'shared/tsconfig.json': '{}\n',
    'packages/web/shared': { linkTo: '../../shared' },
    'packages/web/tsconfig.json': { linkTo: 'shared/tsconfig.json' },
    'docs/index.md': { linkTo: '../README.md' },
  },
  'link-escape': { 'a/f': 'x', 'a/b': { linkTo: '../../etc' } },
  'link-absolute': { f: 'x', pw: { linkTo: '/etc/passwd' } },
  'link-dotgit': { f: 'x', l: { linkTo: '.git/config' } },
  'link-dangling': { 'docs/index.md': 'x', 'docs/x': { linkTo: 'missing.md' } },
  'link-loop': { a: { linkTo: 'b' }, b: { linkTo: 'a' } },
  'link-root': { 'sub/f': 'x', 'sub/l': { linkTo: '..' } },
  // Two entries named `l` in one tree, a link and a directory: git's porcelain never makes this.
  'link-holding-file': { 'd/f': 'x', l: { linkTo: 'd' }, 'l/evil.txt': 'x' },
  'link-too-long': { f: 'x', l: { linkTo: 'a/'.repeat(2100) } },
};
// The test-only loopback override, with `git.test` resolving to the server's address.
const policy = new GitUrlPolicy({
  resolver: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
  testOnlyAllowLoopback: true,
});

describe('ingestGit against git http-backend on loopback', () => {
  let srv: string;
  let server: LoopbackServer;
  let fixture: FixtureRepo;
  let sandbox: IntakeSandbox;
  const url = (repo: string) => `http://git.test:${server.port}/${repo}`;
  const ingest = (options: Partial<IngestGitOptions> & { url: string }) =>
    ingestGit({ into: sandbox.into, policy, ...options });

  beforeAll(async () => {
    srv = await mkdtemp(join(tmpdir(), 'sb-git-srv-'));
    fixture = await makeFixtureRepo(srv, 'fixture');
    await makeCraftedRepo(srv, 'symlink', (blob, git) =>
      git(['mktree'], `120000 blob ${blob}\tlink\n`),
    );
    await makeCraftedRepo(srv, 'submodule', async (blob, git) => {
      const inner = await git(['mktree'], `100644 blob ${blob}\tfile\n`);
      const commit = await git(['commit-tree', inner, '-m', 'inner']);
      return git(['mktree'], `160000 commit ${commit}\tvendored\n100644 blob ${blob}\tREADME\n`);
    });
    await makeCraftedRepo(srv, 'dotgit', async (_blob, git) => {
      const config = await git(
        ['hash-object', '-w', '--stdin'],
        `[core]\n\tfsmonitor = touch ${pwned}\n`,
      );
      const dotgit = await git(['mktree'], `100644 blob ${config}\tconfig\n`);
      return git(['mktree'], `040000 tree ${dotgit}\t.git\n100644 blob ${config}\tREADME\n`);
    });
    const unsafe: [string, (blob: string) => string | Buffer][] = [
      ['dotdot', (blob) => `100644 blob ${blob}\t..\n`],
      ['backslash', (blob) => `100644 blob ${blob}\t..\\..\\evil\n`],
      ['casefold', (blob) => `100644 blob ${blob}\tREADME\n100644 blob ${blob}\treadme\n`],
      ['control', (blob) => `100644 blob ${blob}\tx\u0001y\n`],
      // Checked out, it failed in the kernel (ENAMETOOLONG) and the server answered 500.
      ['longname', (blob) => `100644 blob ${blob}\t${'n'.repeat(300)}.txt\n`],
      [
        'nonutf8',
        (blob) =>
          Buffer.concat([Buffer.from(`100644 blob ${blob}\t`), Buffer.from([0xff, 0xfe, 0x0a])]),
      ],
    ];
    for (const [name, line] of unsafe) {
      await makeCraftedRepo(srv, name, (blob, git) => git(['mktree'], line(blob)));
    }
    await makeCraftedRepo(srv, 'upper-dotgit', async (blob, git) => {
      const hooks = await git(['mktree'], `100755 blob ${blob}\tpost-checkout\n`);
      const dotgit = await git(['mktree'], `040000 tree ${hooks}\thooks\n`);
      return git(['mktree'], `040000 tree ${dotgit}\t.GIT\n`);
    });
    for (const [name, spec] of Object.entries(linkTrees)) {
      await makeCraftedRepo(srv, name, (_blob, git) => writeTree(git, spec));
    }
    server = await startGitHttpServer(srv);
  });

  afterAll(async () => {
    try {
      await server.close();
    } finally {
      await rm(srv, { recursive: true, force: true });
    }
  });

  afterEach(async () => {
    await sandbox.dispose();
  });

  it('clones the default branch, reports progress and writes plain files only', async () => {
    sandbox = await makeIntakeSandbox();
    const events: IntakeEvent[] = [];
    const result = await ingest({
      url: url('fixture.git'),
      events: { emit: (e) => events.push(e) },
    });
    expect(result).toEqual({
      ok: true,
      dir: sandbox.into,
      commit: fixture.main,
      files: 2,
      bytes: 30,
    });
    expect(await readFile(join(sandbox.into, 'src', 'lib.js'), 'utf8')).toBe(
      'export const v = 2;\n',
    );
    expect(existsSync(join(sandbox.into, '.git'))).toBe(false);
    expect(events.some((e) => e.type === 'intake.git.progress')).toBe(true);
    expect(events.at(-1)).toEqual({
      type: 'intake.completed',
      files: 2,
      bytes: 30,
      commit: fixture.main,
    });
    // Neither the temporary bare clone nor the staging directory is left beside DIR.
    expect((await readdir(sandbox.root)).sort()).toEqual(['in', 'out', 'sentinel']);
  });

  it.each([
    ['branch', 'feature', 'feature.txt', true],
    ['tag', 'v1.0', 'feature.txt', false],
  ])('checks out a %s', async (_kind, ref, probe, present) => {
    sandbox = await makeIntakeSandbox();
    const result = await ingest({ url: url('fixture.git'), ref });
    expect(result.ok && result.commit).toBe(ref === 'feature' ? fixture.feature : fixture.tagged);
    expect(existsSync(join(sandbox.into, probe))).toBe(present);
  });

  it('checks out a commit id', async () => {
    sandbox = await makeIntakeSandbox();
    const result = await ingest({ url: url('fixture.git'), ref: fixture.tagged });
    expect(result.ok && result.commit).toBe(fixture.tagged);
    expect(await readFile(join(sandbox.into, 'src', 'lib.js'), 'utf8')).toBe(
      'export const v = 1;\n',
    );
  });

  const refusals: [string, Partial<IngestGitOptions>, AppErrorCode][] = [
    ['a tree holding a symlink', { url: 'symlink.git' }, 'GIT_TREE_SYMLINK'],
    ['a tree holding a submodule (gitlink)', { url: 'submodule.git' }, 'GIT_TREE_SUBMODULE'],
    ['a committed .git/config with core.fsmonitor', { url: 'dotgit.git' }, 'GIT_TREE_UNSAFE_PATH'],
    ['a tree entry named ..', { url: 'dotdot.git' }, 'GIT_TREE_UNSAFE_PATH'],
    ['a tree path with backslashes', { url: 'backslash.git' }, 'GIT_TREE_UNSAFE_PATH'],
    ['tree paths that collide by case', { url: 'casefold.git' }, 'GIT_TREE_UNSAFE_PATH'],
    ['a tree path with a control character', { url: 'control.git' }, 'GIT_TREE_UNSAFE_PATH'],
    ['a tree path that is not UTF-8', { url: 'nonutf8.git' }, 'GIT_TREE_UNSAFE_PATH'],
    ['a committed .GIT/hooks (case variant)', { url: 'upper-dotgit.git' }, 'GIT_TREE_UNSAFE_PATH'],
    ['an unknown ref', { url: 'fixture.git', ref: 'no-such-branch' }, 'GIT_REF_NOT_FOUND'],
    [
      'a ref that looks like an option',
      { url: 'fixture.git', ref: '--upload-pack=id' },
      'INVALID_ARGUMENT',
    ],
    ['a missing repository', { url: 'absent.git' }, 'GIT_CLONE_FAILED'],
    [
      'a clone over the size cap',
      { url: 'fixture.git', cloneCaps: { maxBytes: 1000 } },
      'GIT_TOO_LARGE',
    ],
    ['a tree over the file cap', { url: 'fixture.git', caps: { maxEntries: 1 } }, 'GIT_TOO_LARGE'],
  ];

  it.each(refusals)('refuses %s', async (_name, options, code) => {
    sandbox = await makeIntakeSandbox();
    const result = await ingest({ ...options, url: url(options.url ?? '') });
    expect(result.ok ? 'accepted' : result.error.code).toBe(code);
    await sandbox.assertPristine();
    expect(existsSync(pwned)).toBe(false);
  });

  it('refuses a tree path with a segment over 255 bytes, naming the rule, before checkout', async () => {
    sandbox = await makeIntakeSandbox();
    const result = await ingest({ url: url('longname.git') });
    expect(result.ok ? 'accepted' : [result.error.code, result.error.message]).toEqual([
      'GIT_TREE_UNSAFE_PATH',
      'tree path rejected: name has a segment longer than 255 bytes',
    ]);
    await sandbox.assertPristine();
  });

  it('accepts relative in-tree links and checks them out as links, targets exactly as given', async () => {
    sandbox = await makeIntakeSandbox();
    const result = await ingest({ url: url('links-ok.git') });
    expect(result).toMatchObject({ ok: true, files: 2 });
    expect(await readlink(join(sandbox.into, 'docs', 'index.md'))).toBe('../README.md');
    expect(await readlink(join(sandbox.into, 'packages', 'web', 'shared'))).toBe('../../shared');
    expect(
      (await lstat(join(sandbox.into, 'packages', 'web', 'tsconfig.json'))).isSymbolicLink(),
    ).toBe(true);
    expect(await readFile(join(sandbox.into, 'packages', 'web', 'tsconfig.json'), 'utf8')).toBe(
      '{}\n',
    );
  });

  it.each([
    ['an escaping link', 'link-escape', "link 'a/b' points outside the tree (../../etc)"],
    ['an absolute link', 'link-absolute', "link 'pw' has an absolute target (/etc/passwd)"],
    ['a link into .git', 'link-dotgit', "link 'l' points into .git"],
    ['a dangling link', 'link-dangling', "link 'docs/x' dangles: 'missing.md' is not in the tree"],
    ['a loop of links', 'link-loop', "link 'a' is in a loop of links ('a' → 'b' → 'a')"],
    ['a link to the root', 'link-root', "link 'sub/l' points to the root of the tree (..)"],
    ['a file inside a link', 'link-holding-file', "'l/evil.txt' lies inside link 'l'"],
    [
      'a link target over 4096 bytes',
      'link-too-long',
      "link 'l' has a target longer than 4096 bytes",
    ],
  ])('refuses a tree with %s (GIT_TREE_SYMLINK) before checkout', async (_name, repo, message) => {
    sandbox = await makeIntakeSandbox();
    const result = await ingest({ url: url(`${repo}.git`) });
    expect(result.ok ? 'accepted' : [result.error.code, result.error.message]).toEqual([
      'GIT_TREE_SYMLINK',
      message,
    ]);
    await sandbox.assertPristine();
  });

  it('does not follow a redirect to loopback', async () => {
    sandbox = await makeIntakeSandbox();
    const target = await startGitHttpServer(srv);
    const redirect = await startRedirectServer(`http://127.0.0.1:${target.port}`);
    try {
      const result = await ingest({ url: `http://git.test:${redirect.port}/fixture.git` });
      expect(result.ok ? 'accepted' : result.error.code).toBe('GIT_REDIRECT');
      expect(redirect.requests.length).toBeGreaterThan(0);
      expect(target.requests).toEqual([]);
      await sandbox.assertPristine();
    } finally {
      await redirect.close();
      await target.close();
    }
  });

  it('gives up on a server that never answers (time cap)', async () => {
    sandbox = await makeIntakeSandbox();
    const silent = await startSilentServer();
    try {
      const result = await ingest({
        url: `http://git.test:${silent.port}/fixture.git`,
        cloneCaps: { timeoutMs: 1500 },
      });
      expect(result.ok ? 'accepted' : result.error.code).toBe('GIT_TIMEOUT');
      await sandbox.assertPristine();
    } finally {
      await silent.close();
    }
  });

  it('is refused by the default policy (no test override): http and loopback', async () => {
    sandbox = await makeIntakeSandbox();
    const strict = new GitUrlPolicy({
      resolver: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
    });
    const http = await ingestGit({ url: url('fixture.git'), into: sandbox.into, policy: strict });
    expect(http.ok ? 'accepted' : http.error.code).toBe('URL_SCHEME');
    const https = await ingestGit({
      url: 'https://git.test/fixture.git',
      into: sandbox.into,
      policy: strict,
    });
    expect(https.ok ? 'accepted' : https.error.code).toBe('URL_PRIVATE_ADDRESS');
    await sandbox.assertPristine();
  });
});
