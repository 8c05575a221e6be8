/** Past either of these a problem starts folded, so the page's status and actions stay in view. */
const foldChars = 1200;
const foldLines = 16;

/** Whether a task's problem (Markdown) is long enough to start folded behind "Show all". */
export function problemIsLong(problem: string): boolean {
  return problem.length > foldChars || problem.split('\n').length > foldLines;
}
