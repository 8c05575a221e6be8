import { describe, expect, it } from 'vitest';
import { isAppError } from '../../errors/app-error';
import { parseDiff } from './git-diff';
import { cleanSubject, diffstat, formatPatchMail, quotePath, rfc2822Date } from './patch-mail';

const diffText = [
  'diff --git a/src/lib.rs b/src/lib.rs',
  'index 1111111111111111111111111111111111111111..2222222222222222222222222222222222222222 100644',
  '--- a/src/lib.rs',
  '+++ b/src/lib.rs',
  '@@ -1,2 +1,2 @@',
  ' fn a() {}',
  '-fn b() {}',
  '+fn b() { 1 }',
  'diff --git a/run.sh b/run.sh',
  'old mode 100644',
  'new mode 100755',
  'diff --git a/logo.bin b/logo.bin',
  'new file mode 100644',
  'index 0000000000000000000000000000000000000000..3333333333333333333333333333333333333333',
  'GIT binary patch',
  'literal 3',
  'KcmZQzWC8#H2LJ>B',
  '',
  'literal 0',
  'HcmV?d00001',
  '',
  '',
].join('\n');
const diff = Buffer.from(diffText, 'utf8');
const date = new Date('2026-11-03T09:05:07Z');
const commit = 'a'.repeat(40);

/** The header value of `name`, unfolded. */
function header(mail: string, name: string): string | undefined {
  const head = mail.slice(0, mail.indexOf('\n\n'));
  const match = new RegExp(`^${name}: (.*(?:\\n .*)*)`, 'm').exec(head);
  return match?.[1]?.replace(/\n /g, ' ');
}

/** RFC 2047 decoding of Q-encoded UTF-8 words (whitespace between two words dropped). */
function decodeWords(value: string): string {
  const bytes: number[] = [];
  for (const part of value.replace(/\?=\s+=\?/g, '?==?').split(/(=\?UTF-8\?q\?.*?\?=)/)) {
    const q = /^=\?UTF-8\?q\?(.*)\?=$/.exec(part)?.[1];
    if (q === undefined) {
      bytes.push(...Buffer.from(part, 'utf8'));
      continue;
    }
    for (let i = 0; i < q.length; i += 1) {
      if (q[i] === '=') {
        bytes.push(parseInt(q.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(q[i] === '_' ? 0x20 : q.charCodeAt(i));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

describe('formatPatchMail', () => {
  it('writes a format-patch mail around the exact diff bytes', () => {
    const mail = formatPatchMail({
      diff,
      subject: 'Fix the adder',
      body: 'Makes b return 1.\n\nSecond paragraph.',
      date,
      commit,
    });
    const expectedHead = [
      `From ${commit} Mon Sep 17 00:00:00 2001`,
      'From: Shadowbox <shadowbox@localhost.invalid>',
      'Date: Tue, 3 Nov 2026 09:05:07 +0000',
      'Subject: [PATCH] Fix the adder',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=UTF-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      'Makes b return 1.',
      '',
      'Second paragraph.',
      '---',
      // 'Bin' sets the width of the count column.
      ' src/lib.rs |   2 +-',
      ' run.sh     |   0',
      ' logo.bin   | Bin',
      ' 3 files changed, 1 insertion(+), 1 deletion(-)',
      ' mode change 100644 => 100755 run.sh',
      ' create mode 100644 logo.bin',
      '',
      '',
    ].join('\n');
    expect(mail.toString('utf8')).toBe(`${expectedHead}${diffText}-- \nshadowbox\n`);
  });

  it('is deterministic: the same options give the same bytes, another date other bytes', () => {
    const options = { diff, subject: 's', body: 'b', date, commit };
    expect(formatPatchMail(options).equals(formatPatchMail({ ...options }))).toBe(true);
    const later = formatPatchMail({ ...options, date: new Date(date.getTime() + 1000) });
    expect(later.equals(formatPatchMail(options))).toBe(false);
  });

  it('copies diff bytes that are not UTF-8 unchanged', () => {
    const latin1 = Buffer.concat([
      Buffer.from(
        'diff --git a/l.txt b/l.txt\nindex 1111111..2222222 100644\n--- a/l.txt\n+++ b/l.txt\n@@ -1 +1 @@\n-caf',
      ),
      Buffer.from([0xe9, 0x0a]),
      Buffer.from('+caf'),
      Buffer.from([0xe8, 0xff, 0x0a]),
    ]);
    const mail = formatPatchMail({ diff: latin1, subject: 's', date });
    const at = mail.indexOf(latin1);
    expect(at).toBeGreaterThan(0);
    expect(mail.subarray(at + latin1.length).toString()).toBe('-- \nshadowbox\n');
    expect(mail.subarray(0, at).toString()).toContain(' l.txt | 2 +-\n');
  });

  it('uses 40 zeros when no commit is given and refuses anything but a full id', () => {
    expect(formatPatchMail({ diff, subject: 's', date }).toString()).toMatch(
      /^From 0{40} Mon Sep 17 00:00:00 2001\n/,
    );
    for (const bad of ['abc', 'A'.repeat(40), `${commit}\nFrom: evil`]) {
      expect(() => formatPatchMail({ diff, subject: 's', date, commit: bad })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }) as Error,
      );
    }
  });

  it('refuses a diff whose last line is cut off, and an invalid date', () => {
    const refused = (run: () => unknown): string | undefined => {
      try {
        run();
      } catch (error) {
        return isAppError(error) ? error.code : 'not an AppError';
      }
      return undefined;
    };
    const cut = Buffer.from('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b');
    expect(refused(() => formatPatchMail({ diff: cut, subject: 's', date }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(refused(() => formatPatchMail({ diff, subject: 's', date: new Date(NaN) }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(refused(() => formatPatchMail({ diff: Buffer.alloc(0), subject: 's', date }))).toBe(
      undefined,
    );
  });

  it('keeps the subject on one line without control or bidi characters', () => {
    const mail = formatPatchMail({
      diff,
      subject: '  Fix\r\nBcc: victim@example.com\t\u0007\u202eevil\u200b  ',
      date,
    }).toString();
    expect(header(mail, 'Subject')).toBe('[PATCH] Fix Bcc: victim@example.com evil');
    expect(mail).not.toMatch(/^Bcc:/m);
  });

  it('encodes a non-ASCII subject as RFC 2047 words of at most 75 characters', () => {
    const subject = `Réparer l’addition ${'é'.repeat(80)} 🎉 done`;
    const mail = formatPatchMail({ diff, subject, date }).toString();
    const value = header(mail, 'Subject') ?? '';
    expect(value.startsWith('[PATCH] =?UTF-8?q?')).toBe(true);
    const words = value.slice('[PATCH] '.length).split(' ');
    expect(words.length).toBeGreaterThan(2);
    for (const word of words) {
      expect(word).toMatch(/^=\?UTF-8\?q\?[\x21-\x7e]*\?=$/);
      expect(word.length).toBeLessThanOrEqual(75);
    }
    expect(decodeWords(words.join(' '))).toBe(subject);
    // Every header line is plain ASCII.
    expect(mail.slice(0, mail.indexOf('\n\n'))).toMatch(/^[\x20-\x7e\n]*$/);
  });

  it('encodes an ASCII subject that would otherwise be read as an encoded word', () => {
    const mail = formatPatchMail({ diff, subject: 'a =?UTF-8?q?b?= c', date }).toString();
    const value = header(mail, 'Subject') ?? '';
    expect(value).not.toContain('=?UTF-8?q?b?=');
    expect(decodeWords(value.slice('[PATCH] '.length))).toBe('a =?UTF-8?q?b?= c');
  });

  it('falls back to a fixed subject when nothing is left', () => {
    expect(cleanSubject(' \n\u202e ')).toBe('Shadowbox change');
    expect(cleanSubject('x'.repeat(500))).toHaveLength(200);
  });

  it('indents body lines that git mailinfo would read as patch, mbox or header lines', () => {
    const body =
      'Intro\r\n---\ndiff --git a/x b/x\nIndex: x\nFrom me to you\nSubject: no\nok\n\n\n';
    const mail = formatPatchMail({ diff, subject: 's', body, date }).toString();
    const message = mail.slice(mail.indexOf('\n\n') + 2, mail.indexOf('\n---\n'));
    expect(message).toBe(
      'Intro\n ---\n diff --git a/x b/x\n Index: x\n From me to you\n Subject: no\nok',
    );
  });
});

describe('mail pieces', () => {
  it('formats dates as RFC 2822 in UTC', () => {
    expect(rfc2822Date(new Date('2027-01-09T23:59:01-05:00'))).toBe(
      'Sun, 10 Jan 2027 04:59:01 +0000',
    );
  });

  it('quotes paths the way git does', () => {
    expect(quotePath('src/a b.txt')).toBe('src/a b.txt');
    expect(quotePath('q\tz')).toBe('"q\\tz"');
    expect(quotePath('é.txt')).toBe('"\\303\\251.txt"');
    expect(quotePath('a"b\\c\nd')).toBe('"a\\"b\\\\c\\nd"');
  });

  it('scales the diffstat graph and lists created, deleted and renamed files', () => {
    const big = Array.from({ length: 400 }, (_, i) => `+${i}`);
    const files = parseDiff(
      [
        'diff --git a/big.txt b/big.txt',
        'new file mode 100755',
        '--- /dev/null',
        '+++ b/big.txt',
        '@@ -0,0 +1,400 @@',
        ...big,
        'diff --git a/gone.txt b/gone.txt',
        'deleted file mode 100644',
        '--- a/gone.txt',
        '+++ /dev/null',
        '@@ -1,10 +0,0 @@',
        ...Array.from({ length: 10 }, () => '-x'),
        'diff --git a/old name b/new name',
        'similarity index 100%',
        'rename from old name',
        'rename to new name',
        '',
      ].join('\n'),
    );
    expect(diffstat(files)).toEqual([
      ' big.txt              | 400 ++++++++++++++++++++++++++++++++++++++++',
      ' gone.txt             |  10 -',
      ' old name => new name |   0',
      ' 3 files changed, 400 insertions(+), 10 deletions(-)',
      ' create mode 100755 big.txt',
      ' delete mode 100644 gone.txt',
    ]);
  });
});
