import { describe, expect, it } from 'vitest';
import { reviewFiles } from './diff-files';
import { placeConversation, placeKey } from './thread-placement';
import { draft, newerSha, patch, sha, thread } from './test-support/conversation-fixtures';

const files = reviewFiles(patch);

describe('placeConversation', () => {
  it('hangs a thread under the last line of its range, on its side', () => {
    const onNew = thread();
    const onOld = thread({ id: 'old', side: 'old', startLine: 18, endLine: 18 });
    const inNotes = thread({ id: 'notes', path: 'notes.md', startLine: 1, endLine: 2 });
    const placed = placeConversation(files, sha, [onNew, onOld, inNotes], []);
    expect(
      [...placed.threadsAt.entries()].map(([key, list]) => [key, list.map((t) => t.id)]),
    ).toEqual([
      [placeKey(0, 'new', 5), ['thread1']],
      [placeKey(0, 'old', 18), ['old']],
      [placeKey(1, 'new', 2), ['notes']],
    ]);
    expect(placed.outdated).toEqual([]);
    expect(placed.elsewhere).toEqual([]);
    // The lines open threads are about, for the gutter.
    expect([...placed.threadLines]).toEqual([
      '0:new:3',
      '0:new:4',
      '0:new:5',
      '0:old:18',
      '1:new:1',
      '1:new:2',
    ]);
    const resolved = placeConversation(files, sha, [thread({ status: 'resolved' })], []);
    expect(resolved.threadLines.size).toBe(0);
    expect(resolved.threadsAt.size).toBe(1);
  });

  it('keeps threads at the same line in the order the server gave', () => {
    const a = thread({ id: 'a' });
    const b = thread({ id: 'b', startLine: 5 });
    const placed = placeConversation(files, sha, [a, b], []);
    expect(placed.threadsAt.get(placeKey(0, 'new', 5))?.map((t) => t.id)).toEqual(['a', 'b']);
  });

  it('lists apart what has no line here: outdated threads, threads on a newer diff or unshown lines', () => {
    const outdated = thread({
      id: 'gone',
      status: 'outdated',
      outdatedReason: 'the file was deleted',
    });
    const newer = thread({ id: 'newer', diffSha256: newerSha, startLine: 4, endLine: 6 });
    const unshown = thread({ id: 'unshown', startLine: 9, endLine: 10 });
    const wrongSide = thread({ id: 'side', path: 'notes.md', side: 'old' });
    const placed = placeConversation(files, sha, [outdated, newer, unshown, wrongSide], []);
    expect(placed.threadsAt.size).toBe(0);
    expect(placed.outdated.map((t) => t.id)).toEqual(['gone']);
    expect(placed.elsewhere.map((t) => t.id)).toEqual(['newer', 'unshown', 'side']);
  });

  it('places the person’s drafts; replies go with their thread; drafts on another diff apart', () => {
    const onLines = draft();
    const reply = draft({
      id: 'reply',
      threadId: 'thread1',
      path: null,
      side: null,
      startLine: null,
      endLine: null,
    });
    const stale = draft({ id: 'stale', diffSha256: newerSha });
    const placed = placeConversation(files, sha, [thread()], [onLines, reply, stale]);
    expect(placed.draftsAt.get(placeKey(0, 'new', 18))?.map((d) => d.id)).toEqual(['draft1']);
    expect(placed.replyDrafts.get('thread1')?.map((d) => d.id)).toEqual(['reply']);
    expect(placed.strayDrafts.map((d) => d.id)).toEqual(['stale']);
  });

  it('places 200 threads on a 5,000-line file quickly enough to do on every change', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `+row ${i + 1}`);
    const big = [
      'diff --git a/big.txt b/big.txt',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/big.txt',
      '@@ -0,0 +1,5000 @@',
      ...lines,
      '',
    ].join('\n');
    const bigFiles = reviewFiles(big);
    const threads = Array.from({ length: 200 }, (_, i) =>
      thread({ id: `t${i}`, path: 'big.txt', startLine: i * 25 + 1, endLine: i * 25 + 3 }),
    );
    const placed = placeConversation(bigFiles, sha, threads, []);
    expect([...placed.threadsAt.values()].flat()).toHaveLength(200);
    expect(placed.threadsAt.get(placeKey(0, 'new', 4978))?.[0]?.id).toBe('t199');
  });
});
