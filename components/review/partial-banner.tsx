import { plural } from '../format';

/**
 * A fix that leaves some of the baseline's failures failing: it fixed others and broke nothing,
 * but the reviewer approves a partial fix, and must know it.
 */
export function PartialBanner({ stillFailing }: { readonly stillFailing: readonly string[] }) {
  const n = stillFailing.length;
  return (
    <section className="partial-fix" aria-labelledby="partial-heading">
      <h3 id="partial-heading">
        {n === 0
          ? 'Partial fix: some tests that failed at the baseline still fail'
          : `Partial fix: ${plural(n, 'test')} that failed at the baseline still ${n === 1 ? 'fails' : 'fail'}`}
      </h3>
      {n === 0 ? null : (
        <ul aria-label="Still failing">
          {stillFailing.map((id) => (
            <li key={id}>
              <code>{id}</code>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
