import type { SetupResult } from './timeline-state';

type Egress = SetupResult['egress'][number];

const target = (e: Egress): string => `${e.host}:${e.port}`;
const times = (e: Egress): string => (e.count > 1 ? ` (×${e.count})` : '');

/**
 * Where the setup asked to connect, through the egress proxy. Refused hosts come first and
 * stand out: a refusal is the usual reason an install fails.
 */
export function EgressLog({ egress }: { readonly egress: readonly Egress[] }) {
  if (egress.length === 0) return <p className="muted">No network access was asked for.</p>;
  const refused = egress.filter((e) => !e.allowed);
  const allowed = egress.filter((e) => e.allowed);
  return (
    <div className="egress">
      {refused.length === 0 ? null : (
        <ul className="egress-refused" aria-label="Refused hosts">
          {refused.map((e) => (
            <li key={target(e)}>
              <strong>
                refused: <span className="mono">{target(e)}</span>
              </strong>
              {times(e)}
              {e.reason === undefined ? null : ` — ${e.reason}`}
            </li>
          ))}
        </ul>
      )}
      {allowed.length === 0 ? null : (
        <p>
          Allowed:{' '}
          {allowed.map((e, i) => (
            <span key={target(e)}>
              {i === 0 ? null : ', '}
              <span className="mono">{target(e)}</span>
              {times(e)}
            </span>
          ))}
        </p>
      )}
    </div>
  );
}
