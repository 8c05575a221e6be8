import { z } from 'zod';
import type { BatchCulprit, BatchView } from '../../../batches/batch-api';
import { parseBatchId } from '../../../batches/batch-input';
import { defineTool } from '../define-tool';
import { batchViewSchema } from '../schemas/batch-view';

/** Tests one line of the summary names; the structured result has them all. */
const shownTests = 5;

export const getBatchTool = defineTool({
  name: 'get_batch',
  title: 'Get an integration batch',
  description:
    'An integration batch: approved tasks of one repository applied together and tested as one. ' +
    '`status` (conflicts: a pair does not merge, see `conflicts`; queued/running; passed: the ' +
    'combined diff waits for review; failed: see `culprits`, the members that together break ' +
    'tests or lose what a member fixed; error; approved/rejected), `members` in the order applied ' +
    '(`dropped` when taken out), each `trial` (a combination tested, with broken and lost tests ' +
    "and its output tail), and the combined diff's SHA-256. Read-only: dropping members, review " +
    'and push are done on the page or over REST.',
  input: z.strictObject({
    batchId: z
      .string()
      .min(1)
      .max(64)
      .describe('the batch id (a cuid), as the page or REST `POST /api/v1/batches` gave it'),
  }),
  output: batchViewSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ batchId }, { services, actor }) =>
    services.batches.getBatch(parseBatchId(batchId), actor),
  // The summary first for a reader; the whole view after it for clients that show only text.
  render: (batch) => `${batchSummary(batch)}\n\n${JSON.stringify(batch, null, 2)}`,
});

/** Status, members (dropped marked), conflicts as `a × b: files`, culprits in words. */
function batchSummary(batch: BatchView): string {
  const live = batch.members.filter((m) => m.dropped === null).length;
  const lines = [
    `batch ${batch.id}: ${batch.status} (${live} of ${batch.members.length} members, ${batch.sourceUrl} at ${batch.baseCommit.slice(0, 12)})`,
    'members:',
    ...[...batch.members]
      .sort((a, b) => a.position - b.position)
      .map((m) => {
        const dropped = m.dropped === null ? '' : ` [dropped by ${m.dropped.by}]`;
        return `  ${m.position + 1}. ${m.taskId} ${m.title}${dropped}`;
      }),
  ];
  if (batch.conflicts.length > 0) {
    lines.push(
      'conflicts:',
      ...batch.conflicts.map((c) => `  ${c.a} × ${c.b}: ${c.files.map((f) => f.path).join(', ')}`),
    );
  }
  if (batch.culprits.length > 0) {
    lines.push('culprits:', ...batch.culprits.map((c) => `  ${culpritLine(c)}`));
  }
  if (batch.error !== null) lines.push(`error: ${batch.error}`);
  if (batch.diff !== null) {
    lines.push(`combined diff: sha256 ${batch.diff.sha256} (${batch.diff.bytes} bytes)`);
  }
  if (batch.review !== null) lines.push(`review: ${batch.review.verdict} by ${batch.review.by}`);
  for (const push of batch.pushes) {
    lines.push(`pushed: ${push.remote} ${push.branch} ${push.commit.slice(0, 12)} by ${push.by}`);
  }
  return lines.join('\n');
}

/** `a + b together break t1, t2 and lose a's fixed t3`; one member `alone breaks …`. */
function culpritLine(culprit: BatchCulprit): string {
  const one = culprit.members.length === 1;
  const verb = (singular: string, plural: string) => (one ? singular : plural);
  const who = one ? `${culprit.members.join('')} alone` : `${culprit.members.join(' + ')} together`;
  const effects = culprit.lost.map(
    (l) => `${verb('loses', 'lose')} ${l.taskId}'s fixed ${listed(l.tests)}`,
  );
  // Broken tests first; a culprit with neither list (an old record) still says what it did.
  if (culprit.broken.length > 0 || effects.length === 0) {
    const broken = culprit.broken.length > 0 ? listed(culprit.broken) : 'tests';
    effects.unshift(`${verb('breaks', 'break')} ${broken}`);
  }
  return `${who} ${effects.join(' and ')}`;
}

function listed(tests: readonly string[]): string {
  const more = tests.length - shownTests;
  return `${tests.slice(0, shownTests).join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}
