/**
 * Intake figures: throughput of archive intake on a 50 MB, 5,000-file project (zip and tar.gz)
 * next to GNU tar / Info-ZIP unzip on the same files; the import into a bare repository (one pack)
 * against the previous loose-object import of the same tree; and creating and removing a task
 * worktree on the packed source against the previous way (loose objects, plain `git worktree add`
 * into an ordinary directory, deleted in place), interleaved so both see the same shared disk.
 * Run with `npm run bench:intake [-- --runs N]`; scratch files go to bench/.work/intake/.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { ingestArchive } from '../../server/engine/intake';
import {
  createSourceFromArchive,
  importDirectory,
  initBare,
  TaskWorktree,
  trashEmptied,
  workspaceLayout,
  type SourceRepo,
} from '../../server/engine/workspace';
import {
  looseImport,
  objectCounts,
  plainUpdateRef,
  plainWorktreeAdd,
  plainWorktreeRemove,
} from './previous-way';

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

const ratio = (now: number, before: number): number => Number((now / before).toFixed(2));
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Median ms of the new import and of the previous loose one, on one extracted tree, interleaved. */
async function importTimes(zip: string) {
  const tree = join(work, 'import-tree');
  const extracted = await ingestArchive({ archive: zip, into: tree });
  if (!extracted.ok) throw extracted.error;
  const packedMs: number[] = [];
  const looseMs: number[] = [];
  let objects = { packed: { loose: 0, packed: 0 }, loose: { loose: 0, packed: 0 } };
  for (let run = 0; run < runs; run += 1) {
    const packedDir = join(work, `import-packed-${run}.git`);
    const looseDir = join(work, `import-loose-${run}.git`);
    let commit = '';
    packedMs.push(
      await timed(async () => {
        await initBare(packedDir);
        commit = await importDirectory(packedDir, tree);
      }),
    );
    let before = '';
    looseMs.push(
      await timed(async () => {
        before = await looseImport(looseDir, tree, join(work, 'import.index'));
      }),
    );
    if (commit !== before) throw new Error(`imports differ: ${commit} vs ${before}`);
    objects = { packed: await objectCounts(packedDir), loose: await objectCounts(looseDir) };
    await rm(packedDir, { recursive: true, force: true });
    await rm(looseDir, { recursive: true, force: true });
  }
  await rm(tree, { recursive: true, force: true });
  const packed = Math.round(median(packedMs));
  const loose = Math.round(median(looseMs));
  return { packedMs: packed, looseBaselineMs: loose, ratio: ratio(packed, loose), objects };
}

/**
 * Worktree create and remove, median ms: the engine on the packed source, the engine on a loose
 * copy of it (the pack's share), and the previous way on the loose copy. Each removal's background
 * deletion is awaited (and timed) before the next step, so no step shares the disk with it.
 */
async function worktreeTimes(layout: ReturnType<typeof workspaceLayout>, packed: SourceRepo) {
  const commit = (await execa('git', [`--git-dir=${packed.gitDir}`, 'rev-parse', 'main'])).stdout;
  const tree = join(work, 'loose-tree');
  await execa('git', [`--git-dir=${packed.gitDir}`, 'worktree', 'add', '-q', '--detach', tree]);
  const loose: SourceRepo = { id: 'loose', gitDir: join(work, 'loose.git') };
  await looseImport(loose.gitDir, tree, join(work, 'loose.index'));
  await rm(tree, { recursive: true, force: true });
  await execa('git', [`--git-dir=${packed.gitDir}`, 'worktree', 'prune']);
  const plainDir = join(work, 'plain-worktrees');
  await mkdir(plainDir, { recursive: true });

  const samples = {
    create: [] as number[],
    remove: [] as number[],
    deletedAfter: [] as number[],
    looseCreate: [] as number[],
    looseRemove: [] as number[],
    plainCreate: [] as number[],
    plainRemove: [] as number[],
  };
  const engine = async (source: SourceRepo, taskId: string, create: number[], remove: number[]) => {
    let task: TaskWorktree | undefined;
    create.push(
      await timed(
        async () => (task = await TaskWorktree.create({ layout, source, taskId, commit })),
      ),
    );
    const started = performance.now();
    remove.push(await timed(() => task?.remove() ?? Promise.resolve()));
    await trashEmptied();
    return performance.now() - started;
  };
  for (let run = 0; run < Math.max(runs, 5); run += 1) {
    samples.deletedAfter.push(await engine(packed, `bench-${run}`, samples.create, samples.remove));
    await engine(loose, `loose-${run}`, samples.looseCreate, samples.looseRemove);
    const path = join(plainDir, `plain-${run}`);
    const ref = `refs/shadowbox/tasks/plain-${run}`;
    samples.plainCreate.push(
      await timed(async () => {
        await plainWorktreeAdd(loose.gitDir, path, commit);
        await plainUpdateRef(loose.gitDir, ref, commit);
      }),
    );
    samples.plainRemove.push(await timed(() => plainWorktreeRemove(loose.gitDir, path, ref)));
  }
  const m = (values: number[]) => Math.round(median(values));
  return {
    create: m(samples.create),
    remove: m(samples.remove),
    removeUntilDeleted: m(samples.deletedAfter),
    looseSourceCreate: m(samples.looseCreate),
    looseSourceRemove: m(samples.looseRemove),
    previousWayCreateBaseline: m(samples.plainCreate),
    previousWayRemoveBaseline: m(samples.plainRemove),
    createRatio: ratio(median(samples.create), median(samples.plainCreate)),
    removeRatio: ratio(median(samples.remove), median(samples.plainRemove)),
  };
}

async function main(): Promise<void> {
  const loadAtStart = load();
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

  const loadAtImport = load();
  const importMs = await importTimes(zip);

  const layout = workspaceLayout(join(work, 'data'));
  let created: Awaited<ReturnType<typeof createSourceFromArchive>> | undefined;
  const createSourceMs = await timed(async () => {
    created = await createSourceFromArchive({ layout, sourceId: 'bench', archive: zip });
  });
  if (created === undefined || !created.ok) throw new Error('import failed');
  const { source } = created;
  const { stdout: repoSize } = await execa('du', ['-sh', source.gitDir]);

  const loadAtWorktrees = load();
  const worktreeMedianMs = await worktreeTimes(layout, source);

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
        importIntoBareRepoMedianMs: importMs,
        createSourceFromZipMs: Math.round(createSourceMs),
        bareRepoSize: repoSize.split('\t')[0],
        worktreeMedianMs,
        loadAverage: {
          atStart: loadAtStart,
          atImport: loadAtImport,
          atWorktrees: loadAtWorktrees,
          atEnd: load(),
        },
      },
      null,
      2,
    ),
  );
  await rm(work, { recursive: true, force: true });
}

await main();
