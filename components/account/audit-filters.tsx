import Link from 'next/link';

/**
 * The audit log's filters as a plain GET form: the filter is the query string, so a filtered view
 * is a link to share, and the form works before any script has loaded.
 */
export function AuditFilters({
  taskId,
  person,
}: {
  readonly taskId: string;
  readonly person: string;
}) {
  return (
    <form method="get" action="/coding/audit" className="filters" role="search">
      <div className="field">
        <label htmlFor="audit-task">Task id</label>
        <input id="audit-task" name="taskId" defaultValue={taskId} autoComplete="off" />
      </div>
      <div className="field">
        <label htmlFor="audit-person">Person</label>
        <input
          id="audit-person"
          name="person"
          defaultValue={person}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
      </div>
      <div className="actions">
        <button type="submit" className="primary">
          Filter
        </button>
        {taskId === '' && person === '' ? null : <Link href="/coding/audit">Show everything</Link>}
      </div>
    </form>
  );
}
