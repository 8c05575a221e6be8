import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { memoryIo } from '../test-support/memory-io';

/** `shadowbox remote …` through the CLI's own entry point, on a fresh data directory. */
describe('shadowbox remote', () => {
  let dataDir: string;
  const token = 'ghp_remote-cli-token-never-printed';
  const cli = async (args: string[], stdin = '') => {
    const io = { ...memoryIo({ stdin }), env: { SHADOWBOX_DATA_DIR: dataDir } };
    const code = await main(args, io);
    return { code, out: io.out(), err: io.err() };
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sbx-remote-cli-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('adds a remote with the token piped as one line, lists it without the token, and removes it', async () => {
    // An IP literal: the policy needs no DNS to admit a public address.
    const url = 'https://93.184.216.34/team/app.git';
    expect(
      await cli(['remote', 'add', 'origin', '--url', url, '--username', 'bot'], `${token}\n`),
    ).toMatchObject({ code: 0, out: `added remote origin (${url})\n` });
    const listed = await cli(['remote', 'list', '--json']);
    expect(JSON.parse(listed.out)).toEqual({
      remotes: [
        expect.objectContaining({ name: 'origin', url, username: 'bot', createdBy: 'cli' }),
      ],
    });
    expect(listed.out).not.toContain(token);
    // Sealed in the database, never written in the clear.
    for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const bytes = await readFile(path.join(entry.parentPath, entry.name));
      expect(bytes.includes(token), entry.name).toBe(false);
    }
    expect(await cli(['remote', 'remove', 'origin'])).toMatchObject({
      code: 0,
      out: 'removed remote origin\n',
    });
    expect(await cli(['remote', 'list'])).toMatchObject({ code: 0, out: 'no remotes\n' });
  });

  it('refuses a URL the policy of Git URLs refuses, a bad name and an unknown remote', async () => {
    expect(
      await cli(['remote', 'add', 'local', '--url', 'http://127.0.0.1/x.git'], `${token}\n`),
    ).toMatchObject({
      code: 2,
      err: 'shadowbox remote: remote local: only https URLs are accepted, not http: [URL_SCHEME]\n',
    });
    expect(
      await cli(
        ['remote', 'add', 'Bad Name', '--url', 'https://93.184.216.34/x.git'],
        `${token}\n`,
      ),
    ).toMatchObject({ code: 2 });
    expect(await cli(['remote', 'remove', 'nowhere'])).toMatchObject({
      code: 2,
      err: 'shadowbox remote: no remote named nowhere [NOT_FOUND]\n',
    });
  });
});
