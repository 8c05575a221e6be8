import { OutputTail } from '../task-page/output-tail';
import { TestIds } from '../task-page/test-ids';
import type { BatchTrial, BatchView } from './batch-types';
import { culpritSentence } from './culprits';
import { andList, labelsOf, type LabelOf } from './member-labels';

const verdictTone: Readonly<Record<BatchTrial['verdict'], string>> = {
  passes: 'passed',
  breaks: 'failed',
  unrun: 'error',
};

const verdictWord: Readonly<Record<BatchTrial['verdict'], string>> = {
  passes: 'passes',
  breaks: 'breaks tests',
  unrun: 'no verdict',
};

function Trial({
  trial,
  index,
  labelOf,
}: {
  readonly trial: BatchTrial;
  readonly index: number;
  readonly labelOf: LabelOf;
}) {
  return (
    <li>
      <h3>
        Trial {index + 1}: {andList(trial.members.map(labelOf))}{' '}
        <span className={`verdict verdict-${verdictTone[trial.verdict]}`}>
          {verdictWord[trial.verdict]}
        </span>
      </h3>
      <p className="muted">
        {trial.passed} passed, {trial.failed} failed
      </p>
      <TestIds label="Broken (passing at the baseline)" ids={trial.broken} />
      {trial.lost.map((lost) => (
        <TestIds
          key={lost.taskId}
          label={`Lost fixes of ${labelOf(lost.taskId)}`}
          ids={lost.tests}
        />
      ))}
      {trial.note === null ? null : <p>Note: {trial.note}</p>}
      <OutputTail text={trial.outputTail} label={`Output of trial ${index + 1}`} />
    </li>
  );
}

/**
 * Every combination tested, in order (the whole batch first, then the bisection's halves and
 * pairs), and what the bisection concluded, in words.
 */
export function BatchTrials({ batch }: { readonly batch: BatchView }) {
  const labelOf = labelsOf(batch.members);
  return (
    <>
      <section aria-labelledby="batch-trials-heading">
        <h2 id="batch-trials-heading">Trials</h2>
        {batch.trials.length === 0 ? (
          <p className="muted">
            {batch.status === 'conflicts'
              ? 'None: nothing runs while members conflict.'
              : 'None yet.'}
          </p>
        ) : (
          <ol>
            {batch.trials.map((trial, index) => (
              <Trial key={index} trial={trial} index={index} labelOf={labelOf} />
            ))}
          </ol>
        )}
      </section>
      {batch.culprits.length === 0 && batch.status !== 'failed' ? null : (
        <section aria-labelledby="batch-culprits-heading">
          <h2 id="batch-culprits-heading">What breaks</h2>
          {batch.culprits.length === 0 ? (
            <p>The combination fails, and no member or pair was named: see the trials.</p>
          ) : (
            <ul>
              {batch.culprits.map((culprit, index) => (
                <li key={index}>{culpritSentence(culprit, labelOf)}.</li>
              ))}
            </ul>
          )}
        </section>
      )}
    </>
  );
}
