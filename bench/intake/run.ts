/**
 * Intake figures: throughput of archive intake on a 50 MB, 5,000-file project (zip and tar.gz),
 * the import into a bare repository, and the cost of creating and removing a task worktree on that
 * repository. Run with `npx tsx bench/intake/run.ts [--runs N]`; scratch files go to bench/.work/.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { ingestArchive } from '../../server/engine/intake/ingest-archive';
import { createSourceFromArchive } from '../../server/engine/workspace/create-source';
import { TaskWorktree } from '../../server/engine/workspace/task-worktree';
import { workspaceLayout } from '../../server/engine/workspace/workspace-layout';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
const work = new URL('../.work/intake/', import.meta.url).pathname;
const fileCount = 5_000;
const fileBytes = 10_000; // 5,000 × 10,000 B = 50 MB

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

// Source-like text: words from a small vocabulary, so it compresses about as well as code (~3:1).
function sourceLikeText(bytes: number): string {
  const words = Array.from({ length: 512 }, () =>
    randomBytes(6)
      .toString('base64url')
      .slice(0, (3 + Math.random() * 6) | 0),
  );
  let text = '';
  while (text.length < bytes) {
    text += `${words[(Math.random() * words.length) | 0]!}${Math.random() < 0.1 ? '\n' : ' '}`;
  }
  return text.slice(0, bytes);
}

async function makeProject(root: string): Promise<void> {
  for (let i = 0; i < fileCount; i += 1) {
    const dir = join(root, 'project', `pkg${i % 50}`, `mod${i % 7}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `file${i}.txt`), sourceLikeText(fileBytes));
  }
}

async function timeIntake(archive: string, label: string, totalBytes: number): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const into = join(work, `out-${label}-${run}`);
    const started = performance.now();
    const result = await ingestArchive({ archive, into });
    const seconds = (performance.now() - started) / 1000;
    if (!result.ok) throw result.error;
    if (result.files !== fileCount || result.bytes !== totalBytes)
      throw new Error(`${label}: wrong result`);
    samples.push(totalBytes / 1e6 / seconds);
    await rm(into, { recursive: true, force: true });
  }
  return median(samples);
}

async function main(): Promise<void> {
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  await makeProject(work);
  const total = fileCount * fileBytes;
  await execa('tar', ['-czf', join(work, 'project.tar.gz'), '-C', work, 'project']);
  await execa('zip', ['-q', '-r', join(work, 'project.zip'), 'project'], { cwd: work });
  const sizes = await Promise.all(
    ['project.tar.gz', 'project.zip'].map(async (name) =>
      (await import('node:fs/promises')).stat(join(work, name)),
    ),
  );

  const tgz = await timeIntake(join(work, 'project.tar.gz'), 'tgz', total);
  const zip = await timeIntake(join(work, 'project.zip'), 'zip', total);

  const layout = workspaceLayout(join(work, 'data'));
  const importStarted = performance.now();
  const created = await createSourceFromArchive({
    layout,
    sourceId: 'bench',
    archive: join(work, 'project.zip'),
  });
  const importMs = performance.now() - importStarted;
  if (!created.ok) throw created.error;

  const createMs: number[] = [];
  const removeMs: number[] = [];
  for (let run = 0; run < Math.max(runs, 5); run += 1) {
    let started = performance.now();
    const task = await TaskWorktree.create({
      layout,
      source: created.source,
      taskId: `bench-${run}`,
      commit: created.commit,
    });
    createMs.push(performance.now() - started);
    started = performance.now();
    await task.remove();
    removeMs.push(performance.now() - started);
  }
  const { stdout: repoSize } = await execa('du', ['-sh', created.source.gitDir]);

  const report = {
    archive: {
      files: fileCount,
      megabytes: total / 1e6,
      tarGzBytes: sizes[0]!.size,
      zipBytes: sizes[1]!.size,
    },
    runs,
    intakeMBps: { tarGz: Number(tgz.toFixed(1)), zip: Number(zip.toFixed(1)) },
    importIntoBareRepoMs: Math.round(importMs),
    bareRepoSize: repoSize.split('\t')[0],
    worktreeMedianMs: {
      create: Math.round(median(createMs)),
      remove: Math.round(median(removeMs)),
    },
  };
  console.log(JSON.stringify(report, null, 2));
  await rm(work, { recursive: true, force: true });
}

await main();
