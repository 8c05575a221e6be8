import type { ShadowRunReport } from './shadow-report';

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

/** The human-readable report: a ranked table, the winner's diff, then the failing runs' tails. */
export function formatReport(
  report: ShadowRunReport,
  context: { readonly command: readonly string[]; readonly workspace: string },
): string {
  const { hypotheses } = report;
  const nameWidth = Math.max(4, ...hypotheses.map((h) => h.name.length));
  const lines = [
    `$ ${context.command.join(' ')}   (${hypotheses.length} hypothesis(es), ${report.mode} mode, on ${context.workspace})`,
  ];
  for (const h of hypotheses) {
    const exit = h.timedOut
      ? 'timeout'
      : h.exitCode === null
        ? `signal ${h.signal ?? '?'}`
        : `exit ${h.exitCode}`;
    const counts = h.parsed ? `${h.passed} passed, ${h.failed} failed` : 'results not parsed';
    const mark =
      (h.sameTreeAs === undefined ? '' : `  (same tree as ${h.sameTreeAs}: ran once)`) +
      (h.name === report.winner ? '  <- winner' : '');
    lines.push(
      `  ${h.name.padEnd(nameWidth)}  ${exit.padEnd(10)} in ${seconds(h.durationMs).padStart(7)}  ${counts}  ~${h.changedLines} changed line(s)${mark}`,
    );
    if (h.error !== null) lines.push(`  ${' '.repeat(nameWidth)}  ! ${h.error}`);
    // A forgery is named in the table itself: its counts above are what it claimed.
    if (h.tampered !== undefined)
      lines.push(`  ${' '.repeat(nameWidth)}  ! tampered: ${h.tampered}`);
  }
  lines.push(
    report.winner === null
      ? 'no winner: no hypothesis passed'
      : `winner: ${report.winner}${report.applied ? ' (applied)' : ''}`,
  );
  let text = `${lines.join('\n')}\n`;
  if (report.winnerDiff !== null) text += report.winnerDiff;
  for (const h of hypotheses) {
    const clean = h.exitCode === 0 && h.error === null && !h.timedOut && h.tampered === undefined;
    if (h.name === report.winner || clean) continue;
    if (h.sameTreeAs !== undefined) continue; // its tail is its twin's, printed once
    text += `\n--- output of ${h.name} (tail) ---\n${h.outputTail}\n`;
  }
  return text;
}
