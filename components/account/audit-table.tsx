import Link from 'next/link';
import { formatTime } from '../format';
import type { AuditEntry } from '../trpc/router-types';

/** A short, readable line for an entry's details (JSON: whatever the action recorded). */
export function describeDetails(details: unknown): string {
  if (details === null || details === undefined) return '';
  if (typeof details === 'string') return details;
  const text = JSON.stringify(details);
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

const taskIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** A task's id links to its page; anything else (`user:alice`, a token id) is text. */
function Target({ action, target }: { readonly action: string; readonly target: string | null }) {
  if (target === null) return '—';
  const onTask =
    /^(?:task|hypotheses|milestone|review)\./.test(action) && taskIdPattern.test(target);
  return onTask ? <Link href={`/coding/${target}`}>{target}</Link> : target;
}

/** Audit entries as given (the server sends them newest first). */
export function AuditTable({
  entries,
  filtered,
}: {
  readonly entries: readonly AuditEntry[];
  readonly filtered: boolean;
}) {
  if (entries.length === 0) {
    return <p>{filtered ? 'No entry matches these filters.' : 'Nothing has been recorded yet.'}</p>;
  }
  return (
    <div className="table-scroll">
      <table className="audit">
        <caption className="visually-hidden">Audit log, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>
                <time dateTime={entry.createdAt}>{formatTime(entry.createdAt)}</time>
              </td>
              {/* The ids hold across renames; the names are what they were at the time. */}
              <td title={entry.actorUserId === null ? undefined : `person ${entry.actorUserId}`}>
                {entry.actor}
              </td>
              <td className="mono">{entry.action}</td>
              <td
                className="mono"
                title={entry.subjectUserId === null ? undefined : `person ${entry.subjectUserId}`}
              >
                <Target action={entry.action} target={entry.target} />
              </td>
              <td className="mono audit-details">{describeDetails(entry.details)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
