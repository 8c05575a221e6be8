import { mkdir, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { runProcess, type ProcessResult } from '../process/run-process';
import { sandboxEnv } from '../sandbox';
import type { Execution, ExecutionRequest, HypothesisExecutor } from './executor';
import {
  planJournal,
  keepOriginal,
  replaceFile,
  restoreJournal,
  writeJournal,
  type Journal,
  type JournalEntry,
} from './inplace-journal';
import { createRunDir, type BackgroundRemoval } from './scratch';

/**
 * Writes the hypothesis into the workspace, recording each change once made, so that a failure
 * half-way restores exactly what was written.
 */
async function writeHypothesis(
  journal: Journal,
  contents: readonly (Buffer | null)[],
  written: JournalEntry[],
): Promise<void> {
  for (const [i, entry] of journal.changes.entries()) {
    const file = path.join(journal.workspace, entry.path);
    await keepOriginal(journal.workspace, entry);
    const content = contents[i] ?? null;
    if (content === null) {
      await unlink(file);
      written.push(entry);
      continue;
    }
    await mkdir(path.dirname(file), { recursive: true });
    written.push(entry);
    await replaceFile(file, content, entry.before.exists ? entry.before.mode : 0o644);
  }
}

/**
 * The fallback for machines without user namespaces: writes each hypothesis into the workspace,
 * runs the command there, and restores. Serial by nature, with no network or mount isolation.
 */
export function createInPlaceExecutor(options: {
  readonly scratchRoot: (workspace: string) => string;
  readonly removal: BackgroundRemoval;
}): HypothesisExecutor {
  return {
    mode: 'inplace',
    parallelSafe: false,
    async execute(request: ExecutionRequest): Promise<Execution> {
      const { workspace, hypothesis } = request;
      const dir = await createRunDir(options.scratchRoot(workspace));
      const journal = await planJournal(workspace, dir, hypothesis.changes);
      const written: JournalEntry[] = [];
      let notRestored: string[];
      let result: ProcessResult;
      const reports: string[] = [];
      try {
        const [home, tmp] = [path.join(dir, 'home'), path.join(dir, 'tmp')];
        await Promise.all([mkdir(home), mkdir(tmp)]);
        await writeJournal(dir, journal);
        await writeHypothesis(
          journal,
          hypothesis.changes.map((c) => c.after),
          written,
        );
        result = await runProcess(request.command[0] ?? '', request.command.slice(1), {
          cwd: path.join(workspace, request.cwd),
          env: sandboxEnv({ home, tmpdir: tmp, extra: request.env }),
          timeoutMs: request.timeoutMs,
          tailBytes: request.tailBytes,
          ...(request.signal === undefined ? {} : { signal: request.signal }),
          ...(request.onLine === undefined ? {} : { onLine: request.onLine }),
        });
        for (const reportPath of request.reportPaths) {
          const text = await readFile(path.join(workspace, reportPath), 'utf8').catch(() => null);
          if (text !== null) reports.push(text);
        }
      } finally {
        // Also when writing or running threw: put back exactly what was written.
        notRestored = await restoreJournal(journal, written);
        options.removal.remove(dir);
      }
      return {
        process: result,
        reports,
        problem:
          notRestored.length === 0
            ? null
            : `the run changed files the hypothesis wrote; left as the run left them: ${notRestored.join(', ')}`,
      };
    },
  };
}
