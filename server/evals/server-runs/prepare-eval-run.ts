import { AppError } from '../../errors/app-error';
import { parseEvalSet, type EvalInstance } from '../eval-instance';
import { checkSetRepositories } from './set-repositories';

// What `evals.start` is given, checked before anything is written: the set (JSONL text, capped),
// the model (the server's own), k, parallel, iterations and the test command.

/** A set of a few hundred instances with their patches fits; a larger one is refused whole. */
export const maxSetBytes = 5 * 1024 * 1024;
/** Instances × k: a run is a long job, not an unbounded one. */
export const maxAttempts = 2000;

export interface StartEvalRunInput {
  /** The set as JSON Lines (SWE-bench instance format). */
  readonly set: string;
  /** The set's name (a file name), shown with the run. */
  readonly setName?: string | undefined;
  /** Must be the server's model when given. */
  readonly model?: string | undefined;
  readonly k: number;
  readonly parallel: number;
  readonly maxIterations: number;
  /** For instances without test_command (argv). */
  readonly testCommand?: readonly string[] | undefined;
  readonly timeoutSecs?: number | undefined;
}

export interface PreparedEvalRun {
  readonly instances: EvalInstance[];
  readonly setName: string;
  readonly model: string;
}

export async function prepareEvalRun(
  input: StartEvalRunInput,
  server: { readonly model: string | null; readonly localRepoRoots: readonly string[] },
): Promise<PreparedEvalRun> {
  if (server.model === null) {
    throw new AppError(
      'INVALID_ARGUMENT',
      'no LLM is configured on this server (SHADOWBOX_LLM_BASE_URL and SHADOWBOX_LLM_MODEL): eval runs use its model',
    );
  }
  const model = input.model?.trim() || server.model;
  if (model !== server.model) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `model: this server runs ${server.model}; to measure another model, run \`shadowbox eval run --model\``,
    );
  }
  const bytes = Buffer.byteLength(input.set, 'utf8');
  if (bytes > maxSetBytes) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `the set is ${bytes} bytes; the most a server run takes is ${maxSetBytes}`,
    );
  }
  const setName = input.setName?.trim() || 'the set';
  const instances = parseEvalSet(input.set, setName);
  if (instances.length === 0) throw new AppError('INVALID_ARGUMENT', `${setName} has no instance`);
  if (instances.length * input.k > maxAttempts) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `${instances.length} instances × k = ${input.k} is more than ${maxAttempts} attempts`,
    );
  }
  if (input.testCommand === undefined || input.testCommand.length === 0) {
    const untestable = instances.find((i) => i.test_command === undefined);
    if (untestable !== undefined) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `testCommand: instance ${untestable.instance_id} has no test_command; give one for the run`,
      );
    }
  }
  await checkSetRepositories(instances, server.localRepoRoots);
  return { instances, setName, model };
}
