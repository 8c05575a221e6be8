import { mkdir } from 'node:fs/promises';
import { execa } from 'execa';

/*
 * Why worktrees, source scratch directories and shadows' run directories sit under a directory
 * marked "top of directory hierarchies" (`chattr +T`, ext2/3/4's Orlov hint): ext4 places a new
 * directory's inodes in its
 * parent's group, and, on a file system without a journal (these machines' root), skips every inode
 * of that group deleted in the last one to six minutes, scanning past them again at each new file
 * (`recently_deleted()` in the kernel). A checkout made shortly after another one was deleted, or
 * after an intake deleted its extracted tree, then costs about a millisecond per file in that scan
 * alone (measured: 10–17 s instead of 1.3 s for 5,000 files; docs/benchmarks.md). Under a `T`
 * directory each child goes to a group of its own, chosen from its name among the emptiest, so a
 * checkout never lands among the inodes just freed. The same holds for a cargo shadow's upper
 * layer, whose copy-up creates about a thousand files right after the previous run's upper was
 * deleted (docs/benchmarks.md: four such shadows at once, 1.11× of four serial in-place runs with
 * the scratch root unmarked, 1.04× marked). It is a placement hint: on other file systems chattr
 * fails and nothing else changes.
 */

const marked = new Map<string, Promise<void>>();

/** Creates `dir` if needed and marks it once per process; never fails for the mark's sake. */
export function ensureTopDir(dir: string): Promise<void> {
  let done = marked.get(dir);
  if (done === undefined) {
    done = mkdir(dir, { recursive: true }).then(async () => {
      // No output to read, nothing to undo: an unsupported file system or a missing chattr only
      // loses the hint.
      await execa('chattr', ['+T', dir], { reject: false, stdin: 'ignore', timeout: 10_000 });
    });
    // A failed mkdir is retried by the next caller rather than remembered.
    done.catch(() => marked.delete(dir));
    marked.set(dir, done);
  }
  return done;
}
