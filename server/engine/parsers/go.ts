import { parseGoEvent, parseGoJson } from './go-json';
import { parseGoText } from './go-text';
import type { TestCounts } from './types';
import { toLines } from './text';

/** go test, either format: `-json` when the output holds test2json events, `-v`/plain text otherwise. */
export function parseGo(output: string): TestCounts {
  const json = toLines(output).some((line) => parseGoEvent(line) !== null);
  return json ? parseGoJson(output) : parseGoText(output);
}
