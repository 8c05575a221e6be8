// What `go test -json` encodes, as the plain text `go test` would have printed: Shadowbox adds
// `-json` to read go's results test by test, and shows people the text, not the events. Lines
// that are not go's events (go ≤ 1.23 prints build errors as plain text) pass through unchanged.
import { parseGoEvent } from './go-json';

/** The text one line of `go test -json` output stands for: null when it stands for none. */
export function goJsonLineText(line: string): string | null {
  const event = parseGoEvent(line);
  if (event === null) return line;
  if (event.Action !== 'output' && event.Action !== 'build-output') return null;
  return typeof event.Output === 'string' ? event.Output.replace(/\r?\n$/, '') : null;
}

/** A whole output (or its tail) of `go test -json`, as text. */
export function goJsonText(output: string): string {
  return (
    output
      .split('\n')
      // A tail may begin inside an event: that piece stands for nothing either.
      .map((line, index) =>
        index === 0 &&
        parseGoEvent(line) === null &&
        /"(?:Action|Output|Package|Test|Time)":/.test(line)
          ? null
          : goJsonLineText(line),
      )
      .filter((line): line is string => line !== null)
      .join('\n')
  );
}
