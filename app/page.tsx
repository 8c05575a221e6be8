import Link from 'next/link';

const example = `npx shadowbox shadow-run spec.json --workspace ./my-crate -- cargo test
$ cargo test   (4 hypothesis(es), overlay mode, on ./my-crate)
  plus      exit 0     in    0.4s  2 passed, 0 failed  ~2 changed line(s)  <- winner
  baseline  exit 101   in    0.3s  1 passed, 1 failed  ~0 changed line(s)`;

export default function HomePage() {
  return (
    <main>
      <h1>Shadowbox</h1>
      <p>
        Candidate fixes run side by side, each in a copy-on-write shadow mounted at the
        workspace&apos;s own path, so warm build caches stay valid and the workspace itself is never
        written. Results are parsed from the test runner&apos;s output and ranked; only the
        winner&apos;s diff reaches a reviewer.
      </p>
      <p>
        <Link href="/coding">Open the tasks</Link> to create one from a Git URL or an archive,
        follow its runs live, write hypotheses in the browser and review the winning diff.
      </p>
      <h2>From the command line</h2>
      <pre aria-label="Example shadow run">{example}</pre>
      <p className="muted">
        <code>npx shadowbox --help</code> lists the commands: <code>shadow-run</code>,{' '}
        <code>parse</code> and <code>ingest</code>.
      </p>
    </main>
  );
}
