import { randomBytes } from 'node:crypto';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IntakeEvent } from './intake-events';
import { ingestArchive } from './ingest-archive';
import { makeIntakeSandbox, type IntakeSandbox } from '../../test-support/intake-sandbox';
import { buildTar, buildTarGz } from '../../test-support/tar-builder';
import { snapshotTreeContents } from '../../test-support/tree-snapshot';
import { buildZip } from '../../test-support/zip-builder';

// Incompressible text: above the ratio exemption size, a run of one letter would be a bomb.
const notes = randomBytes(52_500).toString('base64');

describe('ingestArchive on well-formed input', () => {
  let sandbox: IntakeSandbox;
  afterEach(async () => {
    await sandbox.dispose();
  });

  it('strips a single top-level folder and normalises modes (setuid dropped) from tar.gz', async () => {
    sandbox = await makeIntakeSandbox();
    const archive = await sandbox.writeArchive(
      buildTarGz([
        { name: 'proj-1.0/', type: '5', mode: 0o700 },
        { name: 'proj-1.0/run.sh', data: '#!/bin/sh\n', mode: 0o4755 },
        { name: 'proj-1.0/src/lib.rs', data: 'pub fn f() {}\n', mode: 0o600 },
        { name: 'proj-1.0/src/empty', data: '', mode: 0o2644 },
      ]),
    );
    const events: IntakeEvent[] = [];
    const result = await ingestArchive({
      archive,
      into: sandbox.into,
      events: { emit: (e) => events.push(e) },
    });
    expect(result).toMatchObject({ ok: true, format: 'tar.gz', files: 3, bytes: 24 });
    expect(Object.fromEntries(await snapshotTreeContents(sandbox.into))).toEqual({
      'run.sh': `755:${Buffer.from('#!/bin/sh\n').toString('base64')}`,
      'src/': '755',
      'src/lib.rs': `644:${Buffer.from('pub fn f() {}\n').toString('base64')}`,
      'src/empty': '644:',
    });
    expect((await stat(sandbox.into)).mode & 0o777).toBe(0o755);
    expect(events.filter((e) => e.type === 'intake.progress').at(-1)).toEqual({
      type: 'intake.progress',
      entries: 4,
      bytes: 24,
    });
    expect(events.at(-1)).toEqual({ type: 'intake.completed', files: 3, bytes: 24, commit: null });
  });

  it('keeps several top-level entries and ./-prefixed names as they are (plain tar)', async () => {
    sandbox = await makeIntakeSandbox();
    const archive = await sandbox.writeArchive(
      buildTar([
        { name: './', type: '5' },
        { name: './a.txt', data: 'a' },
        { name: './b/c.txt', data: 'c' },
      ]),
    );
    const result = await ingestArchive({ archive, into: sandbox.into });
    expect(result).toMatchObject({ ok: true, format: 'tar', files: 2 });
    expect(await readFile(join(sandbox.into, 'b', 'c.txt'), 'utf8')).toBe('c');
  });

  it('extracts a zip with a setuid executable as 0755 and a plain file as 0644', async () => {
    sandbox = await makeIntakeSandbox();
    const archive = await sandbox.writeArchive(
      buildZip([
        { name: 'tool', data: 'binary', unixMode: 0o104755 },
        { name: 'notes.txt', data: notes, unixMode: 0o100600 },
      ]),
    );
    const result = await ingestArchive({ archive, into: sandbox.into });
    expect(result).toMatchObject({ ok: true, format: 'zip', files: 2, bytes: 70_006 });
    expect((await stat(join(sandbox.into, 'tool'))).mode & 0o7777).toBe(0o755);
    expect((await stat(join(sandbox.into, 'notes.txt'))).mode & 0o7777).toBe(0o644);
  });

  it('accepts an empty zip as an empty directory', async () => {
    sandbox = await makeIntakeSandbox();
    const archive = await sandbox.writeArchive(buildZip([]));
    expect(await ingestArchive({ archive, into: sandbox.into })).toMatchObject({
      ok: true,
      files: 0,
    });
  });
});

describe('ingestArchive refusing the request itself', () => {
  let sandbox: IntakeSandbox;
  afterEach(async () => {
    await sandbox.dispose();
  });

  it('refuses an existing destination and leaves it untouched', async () => {
    sandbox = await makeIntakeSandbox();
    const archive = await sandbox.writeArchive(buildZip([{ name: 'a.txt', data: 'a' }]));
    await mkdir(sandbox.into);
    const result = await ingestArchive({ archive, into: sandbox.into });
    expect(result.ok ? 'accepted' : result.error.code).toBe('INTAKE_DESTINATION_EXISTS');
    expect((await snapshotTreeContents(sandbox.into)).size).toBe(0);
  });

  it('reports a missing archive as ARCHIVE_NOT_FOUND', async () => {
    sandbox = await makeIntakeSandbox();
    const result = await ingestArchive({
      archive: join(sandbox.root, 'nope.zip'),
      into: sandbox.into,
    });
    expect(result.ok ? 'accepted' : result.error.code).toBe('ARCHIVE_NOT_FOUND');
    await expect(stat(sandbox.into)).rejects.toThrow();
  });

  it('refuses bytes that are no known archive format', async () => {
    sandbox = await makeIntakeSandbox();
    const archive = await sandbox.writeArchive(Buffer.from('#!/bin/sh\nrm -rf /\n'));
    const result = await ingestArchive({ archive, into: sandbox.into });
    expect(result.ok ? 'accepted' : result.error.code).toBe('ARCHIVE_UNSUPPORTED');
    await sandbox.assertPristine();
  });

  it('rejects an invalid cap naming the option', async () => {
    sandbox = await makeIntakeSandbox();
    const archive = await sandbox.writeArchive(buildZip([]));
    await expect(
      ingestArchive({ archive, into: sandbox.into, caps: { maxRatio: -1 } }),
    ).rejects.toThrow(/maxRatio/);
  });
});
