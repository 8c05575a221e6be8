import { describe, expect, it } from 'vitest';
import { parseFixAnswer, parseReviewAnswer } from './answer-schema';

const edit = (path: string, content = 'x = 1\n') => ({ path, content });
const answer = (value: unknown): string => JSON.stringify(value);

function error(text: string): string {
  const result = parseFixAnswer(text);
  if (result.ok) throw new Error(`expected an invalid answer, got ${JSON.stringify(result.value)}`);
  return result.error;
}

describe('parseFixAnswer', () => {
  it('accepts the hypothesis format, with delete optional', () => {
    expect(parseFixAnswer(answer({ name: 'fix', edits: [edit('calc.py')] }))).toEqual({
      ok: true,
      value: { name: 'fix', edits: [edit('calc.py')], delete: [] },
    });
    expect(parseFixAnswer(answer({ name: 'drop', edits: [], delete: ['old.py'] }))).toMatchObject({
      ok: true,
      value: { delete: ['old.py'] },
    });
  });

  it('accepts an object wrapped in a Markdown fence, nothing else around it', () => {
    const body = answer({ name: 'fix', edits: [edit('a.py')] });
    expect(parseFixAnswer(`\`\`\`json\n${body}\n\`\`\`\n`).ok).toBe(true);
    expect(error(`Here is the fix:\n\`\`\`json\n${body}\n\`\`\``)).toMatch(/not a JSON object/);
  });

  it('refuses text that is not JSON, and empty answers', () => {
    expect(error('cd src && sed -i s/a/b/ calc.py')).toMatch(/^the answer is not a JSON object \(/);
    expect(error('{"name": "fix", "edits": [')).toMatch(/not a JSON object/);
    expect(error('   ')).toBe('the answer is empty');
  });

  it('refuses the wrong shape, naming where', () => {
    expect(error(answer([{ name: 'fix' }]))).toMatch(/expected object, received array/);
    expect(error(answer({ name: 'fix', edits: [edit('a.py')], explanation: 'because' }))).toMatch(
      /Unrecognized key: "explanation"/,
    );
    expect(error(answer({ name: 'fix', edits: [{ path: 'a.py', content: 1 }] }))).toMatch(
      /^edits\[0\]\.content: Invalid input: expected string, received number/,
    );
    expect(error(answer({ edits: [edit('a.py')] }))).toMatch(/^name: /);
    expect(error(answer({ name: 'fix', edits: [{ path: 'a.py', diff: '+x' }] }))).toBe(
      'edits[0].content: Invalid input: expected string, received undefined; edits[0]: Unrecognized key: "diff"',
    );
  });

  it('refuses an answer that changes nothing', () => {
    expect(error(answer({ name: 'fix', edits: [] }))).toBe(
      'edits: is empty: the answer changes no file',
    );
    expect(error(answer({ name: 'fix' }))).toBe('edits: is empty: the answer changes no file');
  });

  it('refuses bad paths with the same rules as submitted hypotheses', () => {
    expect(error(answer({ name: 'f', edits: [edit('../etc/passwd')] }))).toBe(
      "edits[0].path: path '../etc/passwd' contains a '..' segment",
    );
    expect(error(answer({ name: 'f', edits: [edit('/etc/passwd')] }))).toMatch(/is absolute/);
    expect(error(answer({ name: 'f', edits: [edit('.git/hooks/pre-commit')] }))).toMatch(
      /is inside \.git/,
    );
    expect(error(answer({ name: 'f', edits: [edit('a.py')], delete: ['src\\x.py'] }))).toBe(
      "delete[0]: path 'src\\x.py' contains a backslash",
    );
    expect(error(answer({ name: 'f', edits: [edit('a.py'), edit('a.py')] }))).toMatch(
      /appears more than once/,
    );
    expect(error(answer({ name: 'f', edits: [edit('src')], delete: ['src/x.py'] }))).toMatch(
      /is nested inside 'src'/,
    );
  });
});

describe('parseFixAnswer with replies', () => {
  const threads = new Set(['t1', 't2']);
  const fix = { name: 'guard', edits: [edit('calc.py')] };

  it('keeps the replies to the review threads, trimmed, apart from the hypothesis', () => {
    const text = answer({
      ...fix,
      replies: [
        { threadId: 't2', body: '  Added a guard clause.\n' },
        { threadId: 't1', body: 'Kept as is: the loop is clearer.' },
      ],
    });
    expect(parseFixAnswer(text, threads)).toEqual({
      ok: true,
      value: {
        name: 'guard',
        edits: [edit('calc.py')],
        delete: [],
        replies: [
          { threadId: 't2', body: 'Added a guard clause.' },
          { threadId: 't1', body: 'Kept as is: the loop is clearer.' },
        ],
      },
    });
  });

  it('drops replies to unknown threads and second replies to a thread, without an error', () => {
    const text = answer({
      ...fix,
      replies: [
        { threadId: 'nope', body: 'invented' },
        { threadId: 't1', body: 'first' },
        { threadId: 't1', body: 'second' },
      ],
    });
    expect(parseFixAnswer(text, threads)).toMatchObject({
      ok: true,
      value: { replies: [{ threadId: 't1', body: 'first' }] },
    });
    // Outside a review round no thread is known: every reply is dropped.
    expect(parseFixAnswer(text)).toMatchObject({ ok: true, value: { replies: [] } });
  });

  it('accepts a review round answer without replies', () => {
    const result = parseFixAnswer(answer(fix), threads);
    expect(result).toEqual({ ok: true, value: { ...fix, delete: [] } });
    expect(result.ok && 'replies' in result.value).toBe(false);
  });

  it('refuses a reply too long, empty or malformed, saying where and why', () => {
    const long = 'x'.repeat(4001);
    expect(error(answer({ ...fix, replies: [{ threadId: 't1', body: long }] }))).toBe(
      'replies[0].body: is too long: a reply may hold at most 4000 characters, say it more briefly',
    );
    // The limit counts the trimmed text.
    expect(
      parseFixAnswer(
        answer({ ...fix, replies: [{ threadId: 't1', body: ` ${'x'.repeat(4000)} ` }] }),
        threads,
      ).ok,
    ).toBe(true);
    expect(error(answer({ ...fix, replies: [{ threadId: 't1', body: '   ' }] }))).toBe(
      'replies[0].body: must say something',
    );
    expect(error(answer({ ...fix, replies: [{ threadId: '', body: 'x' }] }))).toBe(
      'replies[0].threadId: must name a review thread',
    );
    expect(error(answer({ ...fix, replies: [{ threadId: 'x'.repeat(101), body: 'x' }] }))).toMatch(
      /^replies\[0\]\.threadId: is not a review thread id/,
    );
    expect(error(answer({ ...fix, replies: [{ threadId: 't1', text: 'x' }] }))).toMatch(
      /^replies\[0\]\.body: .*; replies\[0\]: Unrecognized key: "text"$/,
    );
    expect(error(answer({ ...fix, replies: { t1: 'x' } }))).toMatch(/^replies: /);
    const many = Array.from({ length: 101 }, (_, i) => ({ threadId: `t${i}`, body: 'ok' }));
    expect(error(answer({ ...fix, replies: many }))).toBe(
      'replies: holds more than 100 replies: answer each thread once',
    );
  });

  it('still refuses an answer that changes nothing, replies or not', () => {
    expect(
      error(answer({ name: 'reply only', edits: [], replies: [{ threadId: 't1', body: 'no' }] })),
    ).toBe('edits: is empty: the answer changes no file');
  });
});

describe('parseReviewAnswer', () => {
  it('accepts the three verdicts with a comment', () => {
    expect(
      parseReviewAnswer(answer({ verdict: 'concerns', comment: ' Weakens a test. ' })),
    ).toEqual({ ok: true, value: { verdict: 'concerns', comment: 'Weakens a test.' } });
  });

  it('has no approving verdict', () => {
    const result = parseReviewAnswer(answer({ verdict: 'approve', comment: 'ship it' }));
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toMatch(/^verdict: /);
  });

  it('needs a comment and nothing else', () => {
    expect(parseReviewAnswer(answer({ verdict: 'unsure', comment: '  ' })).ok).toBe(false);
    expect(parseReviewAnswer(answer({ verdict: 'unsure' })).ok).toBe(false);
    expect(parseReviewAnswer(answer({ verdict: 'unsure', comment: 'x', approve: true })).ok).toBe(
      false,
    );
  });
});
