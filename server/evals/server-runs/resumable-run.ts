import type { Actor } from '../../auth';
import { parseEvalSet, type EvalInstance } from '../eval-instance';
import { readStoredSet, type StoredRun } from './eval-run-files';

// Whether a stored, unfinished run can go on in this server: the same model (a run never mixes
// two), its owner still a person who may own tasks, its set still readable.

export type Resumable =
  | { readonly ok: true; readonly instances: EvalInstance[]; readonly owner: Actor }
  | { readonly ok: false; readonly why: string };

export async function resumableRun(
  stored: StoredRun,
  server: {
    readonly dataDir: string;
    readonly model: string | null;
    readonly loadOwner: (ownerId: string) => Promise<Actor | null>;
  },
): Promise<Resumable> {
  const { run, meta } = stored;
  if (run.model !== server.model) {
    return {
      ok: false,
      why: `not resumed: the run is of model ${run.model}, the server's is ${server.model ?? 'none'}`,
    };
  }
  const owner = await server.loadOwner(meta.ownerId);
  if (owner === null) {
    return {
      ok: false,
      why: `not resumed: ${meta.owner}, whose tasks the attempts are, is gone or disabled`,
    };
  }
  try {
    const instances = parseEvalSet(await readStoredSet(server.dataDir, run.runId), run.set);
    return { ok: true, instances, owner };
  } catch (error) {
    return {
      ok: false,
      why: `not resumed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
