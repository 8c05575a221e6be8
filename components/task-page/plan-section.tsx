import { formatArgv, formatTime } from '../format';
import type { TaskView } from '../trpc/router-types';
import { currentStep, gateEvidence, planProgress, type PlanStep } from './plan-evidence';

/**
 * The task's plan: each step with its status and each gate command with what its newest run
 * proves. Shown only when the task has a plan; the page refetches the task on gate and milestone
 * events, so this follows them.
 */
export function PlanSection({ plan }: { readonly plan: TaskView['plan'] }) {
  if (plan.length === 0) return null;
  const current = currentStep(plan);
  return (
    <section aria-labelledby="plan-heading" className="plan">
      <h2 id="plan-heading">Plan</h2>
      <p className="muted">
        {planProgress(plan)}. A step can be marked done only when its gates ran green on the current
        checkpoint.
      </p>
      <ol className="plan-steps" aria-labelledby="plan-heading">
        {plan.map((step) => (
          <StepItem key={step.index} step={step} current={step.index === current} />
        ))}
      </ol>
    </section>
  );
}

function StepItem({ step, current }: { readonly step: PlanStep; readonly current: boolean }) {
  return (
    <li
      className={`plan-step${current ? ' plan-step-current' : ''}`}
      aria-current={current ? 'step' : undefined}
    >
      <h3>
        Step {step.index}: {step.title}
      </h3>
      <p>
        {step.status === 'done' ? (
          <>
            <span className="plan-status plan-status-done">done</span>
            {step.doneAt === null ? null : (
              <>
                {' '}
                at <time dateTime={step.doneAt}>{formatTime(step.doneAt)}</time>
              </>
            )}
          </>
        ) : (
          <span className="plan-status plan-status-open">open</span>
        )}
        {current ? (
          <>
            {' '}
            · <strong className="plan-current">current step</strong>
          </>
        ) : null}
      </p>
      {step.scope === '' ? null : (
        <p>
          Scope: <span className="plan-scope">{step.scope}</span>
        </p>
      )}
      {step.gates.length === 0 ? (
        <p className="muted">No gate commands.</p>
      ) : (
        <ul className="gates" aria-label={`Gates of step ${step.index}`}>
          {step.gates.map((gate, i) => {
            const evidence = gateEvidence(gate.lastRun);
            return (
              // A step's gates are fixed when the task is created: the position is their identity.
              <li key={i}>
                <code>{formatArgv(gate.argv)}</code>:{' '}
                <span className={`gate gate-${evidence.tone}`}>{evidence.text}</span>
                {gate.lastRun === null ? null : (
                  <span className="muted">
                    {' '}
                    · <time dateTime={gate.lastRun.at}>{formatTime(gate.lastRun.at)}</time>
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </li>
  );
}
