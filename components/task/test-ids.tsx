/** Up to this many ids are shown in line; more are folded away under their count. */
const shownInline = 3;

/**
 * Test ids under a label ("Fixed: a, b"), folded when there are many. Runners that print counts
 * only name no tests: then the count is all there is to show.
 */
export function TestIds({
  label,
  ids,
  count = ids.length,
}: {
  readonly label: string;
  readonly ids: readonly string[];
  readonly count?: number;
}) {
  if (count === 0) return null;
  if (ids.length === 0) {
    return (
      <p className="test-ids">
        {label}: {count} <span className="muted">(counted; the runner names no tests)</span>
      </p>
    );
  }
  if (ids.length <= shownInline) {
    return (
      <p className="test-ids">
        {label}:{' '}
        {ids.map((id, i) => (
          <span key={id}>
            {i === 0 ? null : ', '}
            <code>{id}</code>
          </span>
        ))}
      </p>
    );
  }
  return (
    <details className="test-ids">
      <summary>
        {label}: {count}
      </summary>
      <ul>
        {ids.map((id) => (
          <li key={id}>
            <code>{id}</code>
          </li>
        ))}
      </ul>
    </details>
  );
}
