import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../errors/app-error';
import { gitEnvironment } from '../workspace/git';
import { diffCommits } from '../workspace/worktree-diff';
import { diffFlags } from './diff-flags';
import { formatPatchMail } from './patch-mail';
import { buildReviewArtifact, verifySha256 } from './review-artifact';

// Git for the test's own set-up and checks: hermetic (no system/global config), with an
// identity, and allowed to clone from a local path.
const env = gitEnvironment({
  GIT_ALLOW_PROTOCOL: 'file',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00+0000',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00+0000',
});

async function git(cwd: string, args: string[], input?: Buffer): Promise<Buffer> {
  const result = await execa('git', args, {
    cwd,
    env,
    extendEnv: false,
    encoding: 'buffer',
    stripFinalNewline: false,
    ...(input === undefined ? {} : { input }),
  });
  return Buffer.from(result.stdout);
}
const gitLine = async (cwd: string, args: string[]): Promise<string> =>
  (await git(cwd, args)).toString('utf8').trim();

const bytes = (n: number, seed: number): Buffer =>
  Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed * 17 + ((i * i) >> 3)) % 256));

const testPy = (cases: string[]): string =>
  ['import pytest', '', ...cases.flatMap((name) => [`def ${name}():`, '    assert True', ''])].join(
    '\n',
  );

describe('the review patch against real git', () => {
  let root: string;
  let repo: string;
  let gitDir: string;
  let base: string;
  let final: string;
  let diff: Buffer;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sb-review-'));
    repo = join(root, 'repo');
    gitDir = join(repo, '.git');
    await git(root, ['init', '--quiet', '--initial-branch=main', repo]);
    const write = (path: string, data: string | Buffer) => writeFile(join(repo, path), data);
    await mkdir(join(repo, 'tests'));
    await write('keep.txt', 'one\ntwo\nthree\n');
    await write('remove.txt', 'to be removed\n');
    await write('run.sh', '#!/bin/sh\necho hi\n');
    await write('logo.bin', bytes(3000, 1));
    await write('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    await write('moved.txt', 'this file moves\nunchanged\n');
    await write('tests/test_calc.py', testPy(['test_one', 'test_two']));
    await git(repo, ['add', '--all']);
    await git(repo, ['commit', '--quiet', '-m', 'base']);
    base = await gitLine(repo, ['rev-parse', 'HEAD']);

    await write('keep.txt', 'one\n2\nthree\n');
    await unlink(join(repo, 'remove.txt'));
    await chmod(join(repo, 'run.sh'), 0o755);
    const logo = bytes(3000, 1);
    logo.fill(0, 100, 140);
    await write('logo.bin', logo);
    await write('image.bin', Buffer.concat([Buffer.from([0, 0, 0xff]), bytes(500, 2)]));
    await write('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe8, 0x0a]));
    await mkdir(join(repo, 'new dir'));
    await write('new dir/added file.txt', 'brand new\n');
    await write('\u00e9t\u00e9.txt', '\u00e9t\u00e9\n');
    await write('tab\there.txt', 'tab\n');
    await write(
      'evil.js',
      'const ok = true;\nif (role !== "user\u202e \u2066// admin\u2069 \u2066") {}\n',
    );
    await git(repo, ['mv', 'moved.txt', 'renamed.txt']);
    await write('tests/test_calc.py', testPy(['test_one']));
    await git(repo, ['add', '--all']);
    await git(repo, ['commit', '--quiet', '-m', 'final']);
    final = await gitLine(repo, ['rev-parse', 'HEAD']);
    diff = await diffCommits(gitDir, base, final);
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** A fresh clone of the repository, checked out at the baseline. */
  async function checkoutBase(name: string): Promise<string> {
    const dir = join(root, name);
    await git(root, ['clone', '--quiet', '--no-checkout', repo, dir]);
    await git(dir, ['checkout', '--quiet', '-b', 'review', base]);
    return dir;
  }

  describe('diffCommits', () => {
    it('gives exactly the bytes of git diff --binary --full-index without renames', async () => {
      const expected = await git(repo, [
        'diff',
        '--binary',
        '--full-index',
        '--no-renames',
        base,
        final,
      ]);
      expect(diff.equals(expected)).toBe(true);
      const text = diff.toString('latin1');
      for (const marker of [
        'deleted file mode 100644',
        'new file mode 100644',
        'old mode 100644\nnew mode 100755',
        'GIT binary patch',
        'diff --git "a/tab\\there.txt" "b/tab\\there.txt"',
        'diff --git "a/\\303\\251t\\303\\251.txt" "b/\\303\\251t\\303\\251.txt"',
        'diff --git a/new dir/added file.txt b/new dir/added file.txt',
        '--- a/moved.txt\n+++ /dev/null',
        '--- /dev/null\n+++ b/renamed.txt',
        `-caf\u00e9\n+caf\u00e8\n`,
      ]) {
        expect(text).toContain(marker);
      }
      expect(text).not.toContain('rename from');
      expect(text).toMatch(/^index [0-9a-f]{40}\.\.[0-9a-f]{40} 100644$/m);
    });

    it('applies to a checkout of the baseline and gives the final tree', async () => {
      const dir = await checkoutBase('apply-raw');
      await git(dir, ['apply', '--index', '-'], diff);
      expect(await gitLine(dir, ['write-tree'])).toBe(
        await gitLine(repo, ['rev-parse', `${final}^{tree}`]),
      );
    });

    it('does not let repository config change the bytes', async () => {
      const orderFile = join(root, 'order');
      await writeFile(orderFile, 'tests/*\nz*\n');
      const settings = [
        ['diff.noprefix', 'true'],
        ['diff.mnemonicPrefix', 'true'],
        ['diff.renames', 'copies'],
        ['diff.context', '10'],
        ['diff.interHunkContext', '10'],
        ['diff.algorithm', 'histogram'],
        ['diff.indentHeuristic', 'false'],
        ['diff.suppressBlankEmpty', 'true'],
        ['diff.orderFile', orderFile],
        ['diff.external', '/bin/false'],
        ['core.quotePath', 'false'],
        ['color.ui', 'always'],
        ['color.diff', 'always'],
        ['diff.evil.textconv', 'tr a-z A-Z'],
      ];
      await writeFile(join(gitDir, 'info', 'attributes'), '* diff=evil\n');
      try {
        for (const [key, value] of settings) await git(repo, ['config', key!, value!]);
        expect((await diffCommits(gitDir, base, final)).equals(diff)).toBe(true);
      } finally {
        for (const [key] of settings) await git(repo, ['config', '--unset', key!]);
        await rm(join(gitDir, 'info', 'attributes'));
      }
    });

    it('gives nothing between a commit and itself', async () => {
      expect(await diffCommits(gitDir, final, final)).toEqual(Buffer.alloc(0));
    });

    it('refuses anything but full commit ids, so no argument is read as an option', async () => {
      const written = join(root, 'written-by-option');
      for (const [from, to] of [
        [`--output=${written}`, final],
        [base, `--output=${written}`],
        ['HEAD', final],
        [base.slice(0, 12), final],
      ]) {
        const error: unknown = await diffCommits(gitDir, from!, to!).catch((e: unknown) => e);
        expect(isAppError(error) && error.code).toBe('INVALID_ARGUMENT');
      }
      expect(existsSync(written)).toBe(false);
    });
  });

  describe('the patch mail', () => {
    const subject = 'Fix the adder \u2014 r\u00e9sum\u00e9';
    const body = 'Why:\n---\nnot the end of the message\ndiff -u is mentioned here\n';
    const date = new Date('2026-11-03T09:05:07Z');

    it('passes git apply --check and git apply, giving the final tree', async () => {
      const mail = formatPatchMail({ diff, subject, body, date, commit: final });
      const dir = await checkoutBase('apply-mail');
      await git(dir, ['apply', '--check', '-'], mail);
      await git(dir, ['apply', '-'], mail);
      await git(dir, ['add', '--all']);
      expect(await gitLine(dir, ['write-tree'])).toBe(
        await gitLine(repo, ['rev-parse', `${final}^{tree}`]),
      );
    });

    it('is accepted by git am: same tree, author, date, subject and whole message', async () => {
      const mail = formatPatchMail({ diff, subject, body, date, commit: final });
      const dir = await checkoutBase('am-mail');
      await git(dir, ['am', '--quiet'], mail);
      expect(await gitLine(dir, ['rev-parse', 'HEAD^{tree}'])).toBe(
        await gitLine(repo, ['rev-parse', `${final}^{tree}`]),
      );
      expect(await gitLine(dir, ['rev-parse', 'HEAD^'])).toBe(base);
      expect(await gitLine(dir, ['log', '-1', '--format=%an <%ae>|%aI|%s'])).toBe(
        `Shadowbox <shadowbox@localhost.invalid>|2026-11-03T09:05:07+00:00|${subject}`,
      );
      const message = await gitLine(dir, ['log', '-1', '--format=%b']);
      expect(message).toContain('not the end of the message');
      expect(message).toContain('diff -u is mentioned here');
    });

    it('round-trips a long non-ASCII subject through git am', async () => {
      const long = `Corriger l\u2019addition ${'\u00e9'.repeat(60)} \u{1f389} fin`;
      const mail = formatPatchMail({ diff, subject: long, date });
      const dir = await checkoutBase('am-long');
      await git(dir, ['am', '--quiet'], mail);
      expect(await gitLine(dir, ['log', '-1', '--format=%s'])).toBe(long);
    });
  });

  describe('CRLF files', () => {
    it('apply with git apply, and with git am only under --keep-cr (as git format-patch)', async () => {
      const crlf = join(root, 'crlf');
      await git(root, ['init', '--quiet', '--initial-branch=main', crlf]);
      await writeFile(join(crlf, 'win.txt'), 'one\r\ntwo\r\n');
      await git(crlf, ['add', '--all']);
      await git(crlf, ['commit', '--quiet', '-m', 'base']);
      const from = await gitLine(crlf, ['rev-parse', 'HEAD']);
      await writeFile(join(crlf, 'win.txt'), 'one\r\nTWO\r\n');
      await git(crlf, ['commit', '--quiet', '--all', '-m', 'change']);
      const to = await gitLine(crlf, ['rev-parse', 'HEAD']);
      const mail = formatPatchMail({
        diff: await diffCommits(join(crlf, '.git'), from, to),
        subject: 'CRLF',
        date: new Date('2026-11-03T09:05:07Z'),
      });
      const tree = await gitLine(crlf, ['rev-parse', `${to}^{tree}`]);
      await git(crlf, ['checkout', '--quiet', from]);
      await git(crlf, ['apply', '--index', '-'], mail);
      expect(await gitLine(crlf, ['write-tree'])).toBe(tree);
      await git(crlf, ['reset', '--quiet', '--hard', from]);
      // mailsplit strips the CR of every line unless told not to.
      await expect(git(crlf, ['am', '--quiet'], mail)).rejects.toThrow();
      await git(crlf, ['am', '--abort']);
      await git(crlf, ['am', '--quiet', '--keep-cr'], mail);
      expect(await gitLine(crlf, ['rev-parse', 'HEAD^{tree}'])).toBe(tree);
    });
  });

  describe('the review artifact of a real diff', () => {
    it('flags what a reviewer must see and verifies its own hash', () => {
      const artifact = buildReviewArtifact({
        diff,
        subject: 'x',
        date: new Date('2026-11-03T09:05:07Z'),
      });
      expect(verifySha256(artifact.bytes, artifact.sha256)).toBe(true);
      const { flags } = artifact;
      expect(flags).toEqual(diffFlags(diff));
      expect(flags).toMatchObject({ files: 13, bytes: diff.length, large: false });
      expect(flags.binaryFiles).toEqual(['image.bin', 'logo.bin']);
      expect(flags.modeChanges).toEqual([{ path: 'run.sh', from: '100644', to: '100755' }]);
      expect(flags.testFiles).toEqual(['tests/test_calc.py']);
      expect(flags.deletedTests).toEqual([{ path: 'tests/test_calc.py', what: 'def test_two():' }]);
      expect(flags.hiddenCharacters).toEqual([
        { path: 'evil.js', line: 2, codePoints: ['U+202E', 'U+2066', 'U+2069'] },
      ]);
      expect(flags.symlinks).toEqual([]);
      // The mail around the diff reads the same, its headers and signature aside.
      expect({ ...diffFlags(artifact.bytes), bytes: diff.length }).toEqual(flags);
    });
  });
});
