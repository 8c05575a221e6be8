import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { AppError } from '../../errors/app-error';
import { readRunFile, writeRunFile, type RunFile } from '../run/run-file';

// A server run on disk, under <dataDir>/evals/<runId>/: run.json (RUN.json, rewritten atomically
// after every attempt), set.jsonl (the set as given, to resume with) and meta.json (what RUN.json
// does not say: the owner and the settings). A restart finds every run here.

/** Run ids are made by the server; anything else is refused before it names a path. */
export const evalRunIdSchema = z.string().regex(/^eval-[0-9a-f]{12}$/, 'is not an eval run id');

export const evalRunMetaSchema = z.object({
  ownerId: z.string(),
  owner: z.string(),
  parallel: z.int().min(1),
  testCommand: z.array(z.string()).nullable(),
  timeoutSecs: z.int().min(1),
  /** The last fault that stopped the run (it resumes at the next start); null when none. */
  error: z.string().nullable(),
});

export type EvalRunMeta = z.infer<typeof evalRunMetaSchema>;

export interface EvalRunFiles {
  readonly dir: string;
  readonly run: string;
  readonly set: string;
  readonly meta: string;
}

export const evalsRoot = (dataDir: string): string => path.join(dataDir, 'evals');

export function evalRunFiles(dataDir: string, runId: string): EvalRunFiles {
  const id = evalRunIdSchema.parse(runId);
  const dir = path.join(evalsRoot(dataDir), id);
  return {
    dir,
    run: path.join(dir, 'run.json'),
    set: path.join(dir, 'set.jsonl'),
    meta: path.join(dir, 'meta.json'),
  };
}

/** Writes a new run's three files; its directory must not exist yet. */
export async function createRunFiles(
  files: EvalRunFiles,
  contents: { readonly run: RunFile; readonly set: string; readonly meta: EvalRunMeta },
): Promise<void> {
  await mkdir(path.dirname(files.dir), { recursive: true, mode: 0o700 });
  await mkdir(files.dir, { mode: 0o700 });
  await writeFile(files.set, contents.set, { flag: 'wx' });
  await writeMeta(files, contents.meta);
  await writeRunFile(files.run, contents.run);
}

export async function writeMeta(files: EvalRunFiles, meta: EvalRunMeta): Promise<void> {
  const temporary = `${files.meta}.tmp`;
  await writeFile(temporary, `${JSON.stringify(meta, null, 2)}\n`);
  await rename(temporary, files.meta);
}

export interface StoredRun {
  readonly run: RunFile;
  readonly meta: EvalRunMeta;
}

/** One run as stored; null when there is no such run (or its files are not a run's). */
export async function readStoredRun(dataDir: string, runId: string): Promise<StoredRun | null> {
  const files = evalRunFiles(dataDir, runId);
  const run = await readRunFile(files.run).catch(() => null);
  if (run === null) return null;
  let meta: unknown;
  try {
    meta = JSON.parse(await readFile(files.meta, 'utf8'));
  } catch {
    return null;
  }
  const parsed = evalRunMetaSchema.safeParse(meta);
  return parsed.success ? { run, meta: parsed.data } : null;
}

/** The set a run was started with, as stored. */
export async function readStoredSet(dataDir: string, runId: string): Promise<string> {
  try {
    return await readFile(evalRunFiles(dataDir, runId).set, 'utf8');
  } catch (error) {
    throw new AppError('INTERNAL', `eval run ${runId} has no readable set`, { cause: error });
  }
}

/** Every stored run's id (directories that are not a run's are left alone). */
export async function listRunIds(dataDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(evalsRoot(dataDir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names.filter((name) => evalRunIdSchema.safeParse(name).success);
}
