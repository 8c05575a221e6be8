/**
 * Intake figures: throughput of archive intake on a 50 MB, 5,000-file project (zip and tar.gz)
 * next to GNU tar / Info-ZIP unzip on the same files, the import into a bare repository, and the
 * cost of creating and removing a task worktree on that repository.
 * Run with `npx tsx bench/intake/run.ts [--runs N]`; scratch files go to bench/.work/intake/.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { ingestArchive } from '../../server/engine/intake';
import {
  createSourceFromArchive,
  TaskWorktree,
  workspaceLayout,
} from '../../server/engine/workspace';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Math.max(1, Number(values.runs));
const work = new URL('../.work/intake/', import.meta.url).pathname;
const fileCount = 5_000;
const fileBytes = 10_000; // 5,000 × 10,000 B = 50 MB
const totalBytes = fileCount * fileBytes;

function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const upper = sorted[mid] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? Number.NaN) + upper) / 2;
}

async function timed(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

// Source-like text: words from a small vocabulary, so it compresses roughly like code.
function sourceLikeText(bytes: number, words: readonly string[]): string {
  const parts: string[] = [];
  let length = 0;
  while (length < bytes) {
    const word = `${words[Math.floor(Math.random() * words.length)] ?? 'x'}${Math.random() < 0.1 ? '\n' : ' '}`;
    parts.push(word);
    length += word.length;
  }
  return parts.join('').slice(0, bytes);
}

async function makeProject(): Promise<void> {
  const words = Array.from({ length: 512 }, () =>
    randomBytes(8)
      .toString('base64url')
      .slice(0, 3 + ((randomBytes(1)[0] ?? 0) % 7)),
  );
  for (let i = 0; i < fileCount; i += 1) {
    const dir = join(work, 'project', `pkg${i % 50}`, `mod${i % 7}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `file${i}.txt`), sourceLikeText(fileBytes, words));
  }
}

/** Median MB/s of `runs` extractions into fresh directories. */
async function throughput(
  label: string,
  extract: (into: string) => Promise<void>,
): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const into = join(work, `out-${label}-${run}`);
    samples.push(totalBytes / 1e6 / ((await timed(() => extract(into))) / 1000));
    await rm(into, { recursive: true, force: true });
  }
  return Number(median(samples).toFixed(1));
}

async function ours(archive: string, into: string): Promise<void> {
  const result = await ingestArchive({ archive, into });
  if (!result.ok) throw result.error;
  if (result.files !== fileCount || result.bytes !== totalBytes) throw new Error('wrong result');
}

async function main(): Promise<void> {
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  await makeProject();
  const tgz = join(work, 'project.tar.gz');
  const zip = join(work, 'project.zip');
  await execa('tar', ['-czf', tgz, '-C', work, 'project']);
  await execa('zip', ['-q', '-r', zip, 'project'], { cwd: work });

  const intakeMBps = {
    tarGz: await throughput('tgz', (into) => ours(tgz, into)),
    zip: await throughput('zip', (into) => ours(zip, into)),
    gnuTarBaseline: await throughput('gnutar', async (into) => {
      await mkdir(into);
      await execa('tar', ['-xzf', tgz, '-C', into]);
    }),
    unzipBaseline: await throughput('unzip', async (into) => {
      await execa('unzip', ['-q', zip, '-d', into]);
    }),
  };

  const layout = workspaceLayout(join(work, 'data'));
  let created: Awaited<ReturnType<typeof createSourceFromArchive>> | undefined;
  const importMs = await timed(async () => {
    created = await createSourceFromArchive({ layout, sourceId: 'bench', archive: zip });
  });
  if (created === undefined || !created.ok) throw new Error('import failed');
  const { source, commit } = created;

  // Interleaved with plain `git worktree add/remove` on the same repository, so the two columns see
  // the same (shared, noisy) disk.
  const createMs: number[] = [];
  const removeMs: number[] = [];
  const plainCreateMs: number[] = [];
  const plainRemoveMs: number[] = [];
  for (let run = 0; run < Math.max(runs, 5); run += 1) {
    let task: TaskWorktree | undefined;
    createMs.push(
      await timed(async () => {
        task = await TaskWorktree.create({ layout, source, taskId: `bench-${run}`, commit });
      }),
    );
    removeMs.push(await timed(() => task?.remove() ?? Promise.resolve()));
    const plain = join(work, `plain-${run}`);
    const gitDir = `--git-dir=${source.gitDir}`;
    plainCreateMs.push(
      await timed(() => execa('git', [gitDir, 'worktree', 'add', '-q', '--detach', plain, commit])),
    );
    plainRemoveMs.push(
      await timed(() => execa('git', [gitDir, 'worktree', 'remove', '--force', plain])),
    );
  }
  const { stdout: repoSize } = await execa('du', ['-sh', source.gitDir]);
  const { stdout: load } = await execa('cat', ['/proc/loadavg']);

  console.log(
    JSON.stringify(
      {
        archive: {
          files: fileCount,
          megabytes: totalBytes / 1e6,
          tarGzBytes: (await stat(tgz)).size,
          zipBytes: (await stat(zip)).size,
        },
        runs,
        intakeMBps,
        importIntoBareRepoMs: Math.round(importMs),
        bareRepoSize: repoSize.split('\t')[0],
        worktreeMedianMs: {
          create: Math.round(median(createMs)),
          remove: Math.round(median(removeMs)),
          plainGitCreateBaseline: Math.round(median(plainCreateMs)),
          plainGitRemoveBaseline: Math.round(median(plainRemoveMs)),
        },
        loadAverage: load.split(' ').slice(0, 3).join(' '),
      },
      null,
      2,
    ),
  );
  await rm(work, { recursive: true, force: true });
}

await main();
