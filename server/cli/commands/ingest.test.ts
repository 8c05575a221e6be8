import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeIntakeSandbox, type IntakeSandbox } from '../../test-support/intake-sandbox';
import { buildZip } from '../../test-support/zip-builder';
import { memoryIo } from '../test-support/memory-io';
import { ingestCommand } from './ingest';

describe('shadowbox ingest', () => {
  let sandbox: IntakeSandbox;
  afterEach(async () => {
    await sandbox.dispose();
  });

  it('extracts an archive and prints what was ingested as JSON', async () => {
    sandbox = await makeIntakeSandbox();
    const archive = await sandbox.writeArchive(
      buildZip([{ name: 'p/a.txt', data: 'hello' }]),
      'p.zip',
    );
    const io = memoryIo({ cwd: sandbox.root });
    // Relative paths are resolved against the caller's working directory.
    const code = await ingestCommand(
      ['--archive', `in/${basename(archive)}`, '--into', 'out', '--json'],
      io,
    );
    expect(code).toBe(0);
    expect(JSON.parse(io.out())).toEqual({
      source: 'archive',
      format: 'zip',
      dir: sandbox.into,
      files: 1,
      bytes: 5,
      commit: null,
    });
    expect(existsSync(join(sandbox.into, 'a.txt'))).toBe(true);
  });

  it('exits 2 on a policy rejection, printing exactly {"error":{"code","message"}}, leaving nothing', async () => {
    sandbox = await makeIntakeSandbox();
    const archive = await sandbox.writeArchive(buildZip([{ name: '../../evil.txt', data: 'x' }]));
    const io = memoryIo({ cwd: sandbox.root });
    expect(await ingestCommand(['--archive', archive, '--into', sandbox.into, '--json'], io)).toBe(
      2,
    );
    expect(io.out()).toBe(
      '{"error":{"code":"ARCHIVE_PATH_TRAVERSAL","message":"entry rejected: name contains a `..` segment"}}\n',
    );
    await sandbox.assertPristine();
  });

  it('exits 1 when the archive does not exist', async () => {
    sandbox = await makeIntakeSandbox();
    const io = memoryIo({ cwd: sandbox.root });
    expect(await ingestCommand(['--archive', 'missing.zip', '--into', 'out', '--json'], io)).toBe(
      1,
    );
    expect(JSON.parse(io.out())).toMatchObject({ error: { code: 'ARCHIVE_NOT_FOUND' } });
  });

  it('exits 2 when DIR already exists', async () => {
    sandbox = await makeIntakeSandbox();
    const archive = await sandbox.writeArchive(buildZip([{ name: 'a.txt', data: 'a' }]));
    await mkdir(sandbox.into);
    const io = memoryIo({ cwd: sandbox.root });
    expect(await ingestCommand(['--archive', archive, '--into', sandbox.into, '--json'], io)).toBe(
      2,
    );
    expect(JSON.parse(io.out())).toMatchObject({ error: { code: 'INTAKE_DESTINATION_EXISTS' } });
  });

  it.each([
    ['http://', 'http://example.com/r.git', 'URL_SCHEME'],
    ['loopback literal', 'https://127.0.0.1/r.git', 'URL_PRIVATE_ADDRESS'],
    ['ext:: transport', 'ext::sh', 'URL_SCHEME'],
    ['userinfo', 'https://u:p@93.184.216.34/r.git', 'URL_USERINFO'],
  ])('refuses a %s Git URL with exit 2', async (_name, url, code) => {
    sandbox = await makeIntakeSandbox();
    const io = memoryIo({ cwd: sandbox.root });
    expect(await ingestCommand(['--git', url, '--into', 'out', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out())).toMatchObject({ error: { code } });
    await sandbox.assertPristine();
  });

  it('reports a rejection on stderr without --json', async () => {
    sandbox = await makeIntakeSandbox();
    const io = memoryIo({ cwd: sandbox.root });
    expect(await ingestCommand(['--git', 'git://example.com/r', '--into', 'out'], io)).toBe(2);
    expect(io.out()).toBe('');
    expect(io.err()).toMatch(/\[URL_SCHEME\]\n$/);
  });

  it.each([
    ['no source', ['--into', 'out', '--json']],
    [
      'two sources',
      ['--archive', 'a.zip', '--git', 'https://example.com/r', '--into', 'out', '--json'],
    ],
    ['no destination', ['--archive', 'a.zip', '--json']],
    ['--ref without --git', ['--archive', 'a.zip', '--ref', 'main', '--into', 'out', '--json']],
    ['an unknown option', ['--archive', 'a.zip', '--into', 'out', '--force', '--json']],
  ])('refuses %s with INVALID_ARGUMENT and exit 2', async (_name, args) => {
    sandbox = await makeIntakeSandbox();
    const io = memoryIo({ cwd: sandbox.root });
    expect(await ingestCommand(args, io)).toBe(2);
    expect(JSON.parse(io.out())).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
  });

  it('prints help with exit 0', async () => {
    sandbox = await makeIntakeSandbox();
    const io = memoryIo({ cwd: sandbox.root });
    expect(await ingestCommand(['--help'], io)).toBe(0);
    expect(io.out()).toContain('--archive FILE');
  });
});
