import type { ReactNode } from 'react';

/** One step of the timeline: its title, its state as a word, and what it has to say. */
export function Step({
  title,
  state,
  children,
}: {
  readonly title: string;
  readonly state: string;
  readonly children?: ReactNode;
}) {
  return (
    <li className={`step step-${state.replace(/\s+/g, '-')}`}>
      <h3>
        {title} <span className="step-state">{state}</span>
      </h3>
      {children}
    </li>
  );
}
