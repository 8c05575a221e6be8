import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitUrlPolicy } from '../../engine/intake/git-url-policy';
import { makeFixtureRepo, type FixtureRepo } from '../../test-support/git-fixtures';
import { startGitHttpServer, type LoopbackServer } from '../../test-support/git-http-server';
import { buildTarGz } from '../../test-support/tar-builder';
import { buildZip } from '../../test-support/zip-builder';
import type { CliIo } from '../cli-io';
import { createIngestCommand } from './ingest';

const bin = new URL('../../../bin/shadowbox.mjs', import.meta.url).pathname;

describe('shadowbox ingest end to end', () => {
  let root: string;
  let server: LoopbackServer;
  let fixture: FixtureRepo;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sb-cli-ingest-'));
    fixture = await makeFixtureRepo(root, 'fixture');
    server = await startGitHttpServer(root);
  });

  afterAll(async () => {
    try {
      await server.close();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('the real binary extracts a tar.gz (exit 0) and refuses a symlink zip (exit 2, exact JSON)', async () => {
    await writeFile(join(root, 'good.tgz'), buildTarGz([{ name: 'pkg/index.js', data: 'ok\n' }]));
    const good = await execa(
      'node',
      [bin, 'ingest', '--archive', 'good.tgz', '--into', 'good', '--json'],
      {
        cwd: root,
        reject: false,
      },
    );
    expect(good.exitCode).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({
      source: 'archive',
      format: 'tar.gz',
      files: 1,
      bytes: 3,
    });
    expect(await readFile(join(root, 'good', 'index.js'), 'utf8')).toBe('ok\n');

    await writeFile(
      join(root, 'bad.zip'),
      buildZip([{ name: 'l', data: '/etc', unixMode: 0o120777 }]),
    );
    const bad = await execa(
      'node',
      [bin, 'ingest', '--archive', 'bad.zip', '--into', 'bad', '--json'],
      {
        cwd: root,
        reject: false,
      },
    );
    expect(bad.exitCode).toBe(2);
    expect(bad.stdout).toBe(
      '{"error":{"code":"ARCHIVE_LINK","message":"link \'l\' has an absolute target (/etc)"}}',
    );
  });

  it('clones over loopback with the test-only policy and reports the commit', async () => {
    const policy = new GitUrlPolicy({
      resolver: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
      testOnlyAllowLoopback: true,
    });
    const command = createIngestCommand({ policy });
    let out = '';
    const io: CliIo = {
      stdout: { write: (chunk: string) => (out += chunk) },
      stderr: { write: () => true },
      stdin: Readable.from([]),
      cwd: root,
      env: {},
    };
    const url = `http://git.test:${server.port}/fixture.git`;
    expect(await command(['--git', url, '--ref', 'v1.0', '--into', 'cloned', '--json'], io)).toBe(
      0,
    );
    expect(JSON.parse(out)).toEqual({
      source: 'git',
      dir: join(root, 'cloned'),
      files: 2,
      bytes: 30,
      commit: fixture.tagged,
    });
    out = '';
    expect(await command(['--git', url, '--ref', 'nope', '--into', 'nope', '--json'], io)).toBe(1);
    expect(JSON.parse(out)).toMatchObject({ error: { code: 'GIT_REF_NOT_FOUND' } });
  });
});
