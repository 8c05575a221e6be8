import { splitTestId } from './test-id-parts';

/** Up to this many ids are shown in line; more are folded away under their count. */
const shownInline = 3;

/** What a list of counted tests says once: the runner printed how many, not which. */
export const countedNote = '(counted; the runner names no tests)';

/**
 * Test ids under a label ("Fixed: a, b"), folded when there are many. Where the room is narrow
 * (the hypotheses table) a long id loses the middle of its path, never the test's own name.
 * Runners that print counts only name no tests: then the count is all there is to show (with
 * the note saying so, unless the caller says it once for several lists).
 */
export function TestIds({
  label,
  ids,
  count = ids.length,
  none = false,
  note = true,
}: {
  readonly label: string;
  readonly ids: readonly string[];
  readonly count?: number;
  /** Say "none" rather than nothing when there are no such tests. */
  readonly none?: boolean;
  /** Whether a count without ids says it is only a count. */
  readonly note?: boolean;
}) {
  if (count === 0) return none ? <p className="test-ids">{label}: none</p> : null;
  if (ids.length === 0) {
    return (
      <p className="test-ids">
        {label}: {count}
        {note ? <span className="muted"> {countedNote}</span> : null}
      </p>
    );
  }
  const list = (inline: boolean) => (
    <ul className={inline ? 'test-id-list inline' : 'test-id-list'}>
      {ids.map((id) => (
        <li key={id}>
          <TestId id={id} />
        </li>
      ))}
    </ul>
  );
  if (ids.length <= shownInline) {
    return (
      <div className="test-ids">
        <span className="test-ids-label">{label}:</span> {list(true)}
      </div>
    );
  }
  return (
    <details className="test-ids">
      <summary>
        {label}: {count}
      </summary>
      {list(false)}
    </details>
  );
}

/**
 * One test id, whole: where it does not fit, the middle of its path is elided (CSS: the head
 * shrinks with an ellipsis, the test's own name never does). The full id is its title, and
 * copying any part of it copies all of it, so a cut id is never what lands in a bug report.
 */
export function TestId({ id }: { readonly id: string }) {
  const { head, name } = splitTestId(id);
  return (
    <code
      className="test-id"
      title={id}
      onCopy={(event) => {
        event.clipboardData.setData('text/plain', id);
        event.preventDefault();
      }}
    >
      {head === '' ? null : <span className="test-id-head">{head}</span>}
      <span className="test-id-name">{name}</span>
    </code>
  );
}
