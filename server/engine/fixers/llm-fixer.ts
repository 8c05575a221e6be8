import type {
  CandidateHypothesis,
  Fixer,
  FixerDecision,
  FixRequest,
  RejectedHypothesis,
  ThreadReply,
} from '../loop/fixer';
import { parseFixAnswer } from './answer-schema';
import { SpendMeter, type ChatClient, type TokenPrices } from './chat-client';
import { failureLocations, fillCandidates, referencedFiles } from './failure-locations';
import { createModelCaller, sampleValidated, type ModelCallerOptions } from './model-caller';
import { llmHypothesisName } from './names';
import { buildFixPrompt, fixRetryMessage, type FixPrompt, type PromptFile } from './prompt';

export interface LlmFixerOptions {
  /** An OpenAI-compatible client (the `openai` package's `OpenAI` satisfies it). */
  readonly client: ChatClient;
  readonly model: string;
  readonly prices: TokenPrices;
  /** Per model request; a request past it is a rejected sample. */
  readonly timeoutMs: number;
  readonly maxPromptTokens: number;
  readonly temperature?: number;
  readonly multipleChoices?: ModelCallerOptions['multipleChoices'];
  readonly jsonMode?: ModelCallerOptions['jsonMode'];
}

const maxFailureFiles = 20;
const maxReferencedFiles = 8;
const maxFillFiles = 40;

/**
 * The LLM fixer: submitted hypotheses run first, as with the external fixer (without waiting);
 * the rest of the iteration's K are sampled from the model, in parallel, each validated and
 * retried once when invalid. Hypotheses that edit test files are returned like any other: the loop
 * demotes them.
 *
 * In a review round the prompt carries the reviewers' threads and each answer may reply to them.
 * Every sample's replies are returned, each naming its hypothesis: which one wins is known only
 * after the run, and the loop posts the winner's replies alone.
 */
export function createLlmFixer(options: LlmFixerOptions): Fixer {
  const caller = createModelCaller(options);
  return {
    name: 'llm',
    async decide(request, signal): Promise<FixerDecision> {
      const wanted = Math.max(request.wanted, 1);
      const pending = request.pending.slice(0, wanted);
      const need = wanted - pending.length;
      if (need <= 0) return { kind: 'run', hypotheses: pending };

      const prompt = await promptFor(request, options.maxPromptTokens, signal);
      let samples = need;
      if (request.tokensLeft !== null) {
        samples = Math.min(
          need,
          Math.floor(request.tokensLeft / Math.max(1, prompt.estimatedTokens)),
        );
      }
      if (samples <= 0) {
        if (pending.length > 0) return { kind: 'run', hypotheses: pending };
        return {
          kind: 'give_up',
          reason: `the LLM token budget of the task is spent (${request.tokensLeft ?? 0} tokens left, one prompt needs about ${prompt.estimatedTokens})`,
        };
      }

      const meter = new SpendMeter();
      const threadIds = new Set(request.review?.threads.map((thread) => thread.id) ?? []);
      const results = await sampleValidated(caller, {
        messages: prompt.messages,
        count: samples,
        parse: (text) => parseFixAnswer(text, threadIds),
        retryMessage: fixRetryMessage,
        timeoutMs: options.timeoutMs,
        signal,
        meter,
      });
      const taken = new Set(pending.map((candidate) => candidate.hypothesis.name));
      const hypotheses: CandidateHypothesis[] = [...pending];
      const rejected: RejectedHypothesis[] = [];
      const replies: ThreadReply[] = [];
      results.forEach((result, i) => {
        if (result.kind === 'rejected') {
          rejected.push({ name: `llm-sample-${i + 1}`, origin: 'llm', reason: result.reason });
          return;
        }
        const name = llmHypothesisName(request.iteration, i + 1, result.value.name, taken);
        hypotheses.push({
          hypothesis: { name, edits: result.value.edits, delete: result.value.delete },
          origin: 'llm',
          author: 'fixer:llm',
          submittedAt: request.now,
        });
        for (const reply of result.value.replies ?? [])
          replies.push({ ...reply, hypothesis: name });
      });
      const spend = meter.spend(options.prices);
      if (request.review === null) return { kind: 'run', hypotheses, rejected, spend };
      // In the request's thread order, then sample order.
      const order = new Map(request.review.threads.map((thread, i) => [thread.id, i]));
      const ordered = replies
        .map((reply, i) => ({ reply, i }))
        .sort(
          (a, b) =>
            (order.get(a.reply.threadId) ?? 0) - (order.get(b.reply.threadId) ?? 0) || a.i - b.i,
        )
        .map(({ reply }) => reply);
      return { kind: 'run', hypotheses, rejected, spend, replies: ordered };
    },
  };
}

/** Reads what the prompt may show (named files, their imports, fillers) and builds it. */
async function promptFor(
  request: FixRequest,
  maxPromptTokens: number,
  signal: AbortSignal,
): Promise<FixPrompt> {
  const fileList = await request.repository.listFiles();
  const locations = failureLocations(
    request.lastRun?.outputTail ?? '',
    fileList,
    request.workspace,
  );
  const charBudget = maxPromptTokens * 4;
  let charsRead = 0;
  const readAll = async (
    paths: readonly string[],
    reason: PromptFile['reason'],
  ): Promise<PromptFile[]> => {
    signal.throwIfAborted();
    const contents = await Promise.all(
      paths.map((path) => request.repository.readFile(path).catch(() => null)),
    );
    const files: PromptFile[] = [];
    paths.forEach((path, i) => {
      const content = contents[i];
      if (content === null || content === undefined) return;
      charsRead += content.length;
      files.push({ path, content, reason });
    });
    return files;
  };

  const named = await readAll(
    locations.slice(0, maxFailureFiles).map((location) => location.path),
    'failure',
  );
  const shown = new Set(named.map((file) => file.path));
  const imported = await readAll(
    referencedFiles(named, fileList, shown, maxReferencedFiles),
    'referenced',
  );
  for (const file of imported) shown.add(file.path);
  const fillers: PromptFile[] = [];
  for (const path of fillCandidates(fileList, shown, maxFillFiles)) {
    // Read no more than could possibly be shown.
    if (charsRead >= charBudget) break;
    fillers.push(...(await readAll([path], 'other')));
  }
  signal.throwIfAborted();
  return buildFixPrompt({
    task: request.task,
    testCommand: request.testCommand,
    lastRun: request.lastRun,
    failingTests: request.failingTests,
    recentlyBroken: request.recentlyBroken,
    allowTestEdits: request.allowTestEdits,
    locations,
    files: [...named, ...imported, ...fillers],
    fileList,
    maxPromptTokens,
    review: request.review,
  });
}
