'use client';

import { useEffect, useRef, useState, type KeyboardEvent, type SubmitEvent } from 'react';
import { isTaskStatus, taskStatuses } from '@/server/engine/lifecycle';
import { type ListFilters, noFilters, searchOf } from './list-filters';

type TextFilter = 'owner' | 'team' | 'source' | 'q';

/** How long typing pauses before the list follows a text filter. */
const typingPauseMs = 300;

/**
 * The list's filters, each a labelled control. Choices (status, sort) apply at once; words apply
 * when typing pauses, or at once on Enter. `filters` is what the address holds; `onChange` gets
 * the new filters to put there.
 */
export function TaskListFilters({
  filters,
  sources,
  onChange,
}: {
  readonly filters: ListFilters;
  /** Sources seen in the list, offered as suggestions. */
  readonly sources: readonly string[];
  readonly onChange: (filters: ListFilters) => void;
}) {
  const [draft, setDraft] = useState(filters);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const applied = searchOf(filters);
  // What the address held when last seen, and what this form last put there.
  const [seen, setSeen] = useState(applied);
  const [ours, setOurs] = useState(applied);
  if (seen !== applied) {
    setSeen(applied);
    // Changed by something else (back, a link): the controls show it. Not after our own change,
    // which would trim what is still being typed.
    if (applied !== ours) setDraft(filters);
  }
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  function apply(next: ListFilters): void {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    const search = searchOf(next);
    if (search === applied) return;
    setOurs(search);
    onChange(next);
  }

  function type(name: TextFilter, value: string): void {
    const next = { ...draft, [name]: value };
    setDraft(next);
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => apply(next), typingPauseMs);
  }

  function choose(next: ListFilters): void {
    setDraft(next);
    apply(next);
  }

  function submit(event: SubmitEvent<HTMLFormElement>): void {
    event.preventDefault();
    apply(draft);
  }

  // Enter applies the words now (a form of several fields and no button does not submit).
  const enter = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'Enter') apply(draft);
  };

  const statusValue = draft.status.join(',');
  const text = (name: TextFilter, label: string, extra: Record<string, unknown> = {}) => (
    <div className="list-filter">
      <label htmlFor={`list-${name}`}>{label}</label>
      <input
        id={`list-${name}`}
        autoComplete="off"
        spellCheck={false}
        value={draft[name]}
        onChange={(event) => type(name, event.target.value)}
        onKeyDown={enter}
        {...extra}
      />
    </div>
  );

  return (
    <form className="list-filters" role="search" aria-label="Filter tasks" onSubmit={submit}>
      <div className="list-filter list-search">
        <label htmlFor="list-q">Search</label>
        <input
          id="list-q"
          type="search"
          autoComplete="off"
          placeholder="Words of the title or problem"
          maxLength={200}
          value={draft.q}
          onChange={(event) => type('q', event.target.value)}
          onKeyDown={enter}
        />
      </div>
      <div className="list-filter">
        <label htmlFor="list-status">Status</label>
        <select
          id="list-status"
          value={statusValue}
          onChange={(event) =>
            choose({
              ...draft,
              status: event.target.value.split(',').filter(isTaskStatus),
            })
          }
        >
          <option value="">Any</option>
          {/* Several statuses come from a link (`status=a,b`): shown as they are. */}
          {draft.status.length > 1 ? (
            <option value={statusValue}>{draft.status.join(', ')}</option>
          ) : null}
          {taskStatuses.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </div>
      {text('owner', 'Owner', { placeholder: 'username', maxLength: 100 })}
      {text('team', 'Team', { placeholder: 'team name', maxLength: 100 })}
      {text('source', 'Source', {
        placeholder: 'Git URL or archive name',
        list: 'list-source-options',
        maxLength: 2048,
      })}
      <datalist id="list-source-options">
        {sources.map((source) => (
          <option key={source} value={source} />
        ))}
      </datalist>
      <div className="list-filter">
        <label htmlFor="list-sort">Sort</label>
        <select
          id="list-sort"
          value={draft.sort}
          onChange={(event) =>
            choose({ ...draft, sort: event.target.value === 'updated' ? 'updated' : 'created' })
          }
        >
          <option value="created">Newest created</option>
          <option value="updated">Latest activity</option>
        </select>
      </div>
      <div className="list-filter-actions">
        {applied === '' ? null : (
          <button type="button" onClick={() => choose(noFilters)}>
            Clear filters
          </button>
        )}
      </div>
    </form>
  );
}
