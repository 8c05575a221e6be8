import { describe, expect, it } from 'vitest';
import { summarize, type RunFile } from '../run/run-file';
import { escapeHtml, renderRunsHtml } from './report-html';
import { renderComparisonText, renderRunText } from './report-text';

function run(model: string, resolved: Record<string, boolean[]>): RunFile {
  const instances = Object.entries(resolved).map(([id, attempts]) => ({
    instance_id: id,
    attempts: attempts.map((ok, attempt) => ({
      attempt,
      state: 'done' as const,
      resolved: ok,
      taskId: `t-${id}-${attempt}`,
      tokens: 100,
      costUsd: 0.01,
      durationMs: 1000,
      iterations: 1,
      why: ok ? 'resolved' : 'FAIL_TO_PASS still failing: t::x',
    })),
  }));
  const base = {
    runId: 'r',
    set: 'set.jsonl',
    fixer: 'llm',
    model,
    k: 2,
    maxIterations: 3,
    startedAt: '2026-12-06T00:00:00Z',
    updatedAt: '2026-12-06T00:00:00Z',
    instances,
  };
  return { ...base, summary: summarize(base) };
}

const hostile = '<script>alert(1)</script>';

describe('the HTML report', () => {
  it('escapes every string of the run: a <script> instance id stays text', () => {
    const page = renderRunsHtml([
      run('"><img src=x onerror=alert(2)>', { [hostile]: [false, true], plain: [true, true] }),
    ]);
    expect(page).not.toContain('<script');
    expect(page).not.toContain('<img');
    expect(page).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(page).toContain('&#34;&#62;&#60;img src=x onerror=alert(2)&#62;');
    // Self-contained: no script, no external request.
    expect(page).not.toMatch(/<script|<link|src="http|href="http|@import|url\(/i);
    expect(page).toContain("default-src 'none'");
    expect(page).toContain('<svg');
  });

  it('escapes the five characters HTML gives meaning to', () => {
    expect(escapeHtml(`<a href="x" title='y'>&\``)).toBe(
      '&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#96;',
    );
  });

  it('charts one point per run and lists what one run resolves and the other does not', () => {
    const page = renderRunsHtml([
      run('small', { a: [true, false], b: [false, false] }),
      run('large', { a: [true, true], b: [true, false] }),
    ]);
    // A point per run (with its title), beside the legend's marker per model.
    expect(page.match(/r="5" fill="#[0-9a-f]+"><title>/g)).toHaveLength(2);
    expect(page).toMatch(/Resolved by large only<\/h3><ul><li>b<\/li><\/ul>/);
    expect(page).toMatch(/Resolved by small only<\/h3><p>none<\/p>/);
  });
});

describe('the text report', () => {
  it('shows each instance and the total, with the rates and their intervals', () => {
    const text = renderRunText(run('m', { a: [true, false], b: [false, false] }));
    expect(text).toMatch(/^a\s+1\/2\s+100\.0%\s+200\s+\$0\.0200/m);
    expect(text).toMatch(/^TOTAL\s+1\/4\s+50\.0%/m);
    expect(text).toContain('pass@1 25.0% [');
    expect(text).toContain('pass^2 0.0%');
  });

  it('never writes a terminal escape from the run', () => {
    const text = renderRunText(run('m\u001b]0;owned\u0007', { 'x\u001b[2J': [true, true] }));
    expect(text).not.toContain('\u001b');
    expect(text).toContain('x?[2J');
  });

  it('puts two runs side by side', () => {
    const text = renderComparisonText(
      run('m', { a: [true, true], b: [false, false] }),
      run('m', { a: [false, false], b: [true, false] }),
    );
    expect(text).toContain('m (run 1)');
    expect(text).toMatch(
      /Resolved by m \(run 1\) only:\n {2}a\nResolved by m \(run 2\) only:\n {2}b/,
    );
  });
});
