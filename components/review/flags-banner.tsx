import { plural } from '../format';
import type { DiffFlags } from '../trpc/router-types';

type TestEditKind = NonNullable<DiffFlags['testEdits']>[number]['kind'];

const testEditKinds: Readonly<Record<TestEditKind, string>> = {
  'test-file': 'test file',
  'test-config': 'test configuration',
  'test-in-source': 'test in a source file',
  'test-framework': 'reaches into the test framework',
};

interface Check {
  readonly label: string;
  /** What was found; empty when nothing was. */
  readonly findings: readonly string[];
}

function checksOf(flags: DiffFlags): Check[] {
  return [
    { label: 'Test files touched', findings: flags.testFiles },
    {
      label: 'Tests edited (files, configuration, tests in source, the test framework)',
      findings: flags.testEdits.map((e) => `${testEditKinds[e.kind]}: ${e.what}`),
    },
    {
      label: 'Tests deleted',
      findings: flags.deletedTests.map((t) => `${t.path}: ${t.what}`),
    },
    {
      label: 'Tests disabled',
      findings: flags.disabledTests.map((t) => `${t.path}:${t.line}: ${t.what}`),
    },
    { label: 'Binary files', findings: flags.binaryFiles },
    {
      label: 'Mode changes',
      findings: flags.modeChanges.map((m) => `${m.path}: ${m.from} → ${m.to}`),
    },
    { label: 'Symbolic links', findings: flags.symlinks },
    {
      label: 'Bidirectional or invisible characters',
      findings: flags.hiddenCharacters.map(
        (h) =>
          `${h.path}${h.line === 0 ? ' (in the path)' : `:${h.line}`}: ${h.codePoints.join(' ')}`,
      ),
    },
  ];
}

/**
 * The structural checks of the diff, above it: what a reviewer must not miss. Each check says
 * what it found in words, with a sign in front; colour only repeats it.
 */
export function FlagsBanner({ flags }: { readonly flags: DiffFlags }) {
  const checks = checksOf(flags);
  const raised = checks.filter((check) => check.findings.length > 0).length;
  return (
    <section className={`flags${raised > 0 ? ' raised' : ''}`} aria-labelledby="flags-heading">
      <h3 id="flags-heading">
        Structural checks: {raised === 0 ? 'nothing flagged' : `${plural(raised, 'check')} flagged`}
      </h3>
      <p>
        {plural(flags.files, 'file')} changed, {flags.additions} added and {flags.deletions} removed
        lines{flags.large ? ' — a large diff: take your time' : ''}.
      </p>
      <ul>
        {checks.map((check) => (
          <li
            key={check.label}
            className={check.findings.length > 0 ? 'flag-raised' : 'flag-clear'}
          >
            <strong>
              {check.label}: {check.findings.length > 0 ? 'yes' : 'none'}
            </strong>
            {check.findings.length > 0 ? (
              <ul>
                {check.findings.map((finding) => (
                  <li key={finding} className="mono">
                    {finding}
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
