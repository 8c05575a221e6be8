'use client';

import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { tabAfterKey, tabLabels, taskTabs, type TaskTab } from './task-tabs';

export const tabId = (tab: TaskTab): string => `task-tab-${tab}`;
export const panelId = (tab: TaskTab): string => `task-panel-${tab}`;

/**
 * The task page's tabs (WAI-ARIA tabs with automatic activation: the arrows move and select).
 * `notes` adds a short count or state after a tab's name ("3", "up for review").
 */
export function TaskTabList({
  selected,
  onSelect,
  notes,
}: {
  readonly selected: TaskTab;
  readonly onSelect: (tab: TaskTab) => void;
  readonly notes: Partial<Record<TaskTab, ReactNode>>;
}) {
  const refs = useRef(new Map<TaskTab, HTMLButtonElement>());
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const next = tabAfterKey(selected, event.key);
    if (next === null) return;
    event.preventDefault();
    onSelect(next);
    refs.current.get(next)?.focus();
  };
  return (
    <div role="tablist" aria-label="Task" className="task-tabs" onKeyDown={onKeyDown}>
      {taskTabs.map((tab) => (
        <button
          key={tab}
          ref={(element) => {
            if (element === null) refs.current.delete(tab);
            else refs.current.set(tab, element);
          }}
          type="button"
          role="tab"
          id={tabId(tab)}
          aria-selected={tab === selected}
          aria-controls={tab === selected ? panelId(tab) : undefined}
          tabIndex={tab === selected ? 0 : -1}
          onClick={() => onSelect(tab)}
        >
          {tabLabels[tab]}
          {notes[tab] === undefined ? null : (
            <>
              {' '}
              <span className="tab-note">{notes[tab]}</span>
            </>
          )}
        </button>
      ))}
    </div>
  );
}

/** The pane of one tab; only the selected one is rendered (the data stays in the query cache). */
export function TaskTabPanel({
  tab,
  selected,
  children,
}: {
  readonly tab: TaskTab;
  readonly selected: TaskTab;
  readonly children: ReactNode;
}) {
  if (tab !== selected) return null;
  return (
    <section role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)} className="task-panel">
      {children}
    </section>
  );
}
