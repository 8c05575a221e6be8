import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PartialBanner } from '../review/partial-banner';
import { SetupStep } from './setup-step';
import { TestChanges } from './test-changes';
import { initialTimeline, type SetupResult, type SetupState } from './timeline-state';

/** The text a reader gets, tags dropped and blanks folded. */
// A test id's head and name are spans of one <code>: they join without a space.
const text = (html: string): string =>
  html
    .replace(/<\/?span[^>]*>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')
    .trim();

const result = (change: Partial<SetupResult> = {}): SetupResult => ({
  type: 'setup.finished',
  ok: true,
  cached: false,
  durationMs: 5300,
  egress: [],
  failedCommand: null,
  exitCode: 0,
  timedOut: false,
  outputTail: 'added 68 packages',
  error: null,
  ...change,
});

const finished = (change: Partial<SetupResult> = {}): SetupState => ({
  state: 'finished',
  commands: [['npm', 'ci']],
  detected: true,
  reasons: ['package-lock.json → npm ci'],
  liveOutput: [],
  result: result(change),
});

const setupText = (setup: SetupState): string =>
  text(renderToStaticMarkup(createElement(SetupStep, { setup, record: null })));

describe('SetupStep', () => {
  it('shows nothing before the setup starts', () => {
    expect(setupText(initialTimeline.setup)).toBe('');
  });

  it('shows the commands, why they were detected, the install time and the egress log', () => {
    const shown = setupText(
      finished({
        egress: [
          { host: 'registry.npmjs.org', port: 443, allowed: true, count: 68 },
          {
            host: 'downloads.example.com',
            port: 443,
            allowed: false,
            reason: 'not on the allowlist',
            count: 1,
          },
        ],
      }),
    );
    expect(shown).toContain('Setup done');
    expect(shown).toContain('npm ci');
    expect(shown).toContain('Detected from the tree: package-lock.json → npm ci');
    expect(shown).toContain('setup: installed in 5.3 s');
    expect(shown).toContain('refused: downloads.example.com:443 — not on the allowlist');
    expect(shown).toContain('Allowed: registry.npmjs.org:443 (×68)');
  });

  it('says when the setup came from the cache', () => {
    expect(setupText(finished({ cached: true, durationMs: 800 }))).toContain(
      'setup: cached (restored in 800 ms)',
    );
  });

  it('names the command that failed, how, and keeps its output', () => {
    const shown = setupText(
      finished({ ok: false, failedCommand: ['npm', 'ci'], exitCode: 1, outputTail: 'E404' }),
    );
    expect(shown).toContain('Setup failed');
    expect(shown).toContain('npm ci exited with 1 after 5.3 s');
    expect(shown).toContain('E404');
    expect(shown).not.toContain('installed in');
  });

  it("names the failed command once when the server's message already does", () => {
    const shown = setupText(
      finished({
        ok: false,
        failedCommand: ['npm', 'ci'],
        exitCode: 1,
        error: 'setup command `npm ci` exited with code 1',
      }),
    );
    expect(shown).toContain('Setup command npm ci exited with code 1, after 5.3 s');
    expect(shown.match(/npm ci/g)).toHaveLength(2); // the reason, and the failure
  });

  it('shows only that there is nothing to install when no command ran', () => {
    const shown = setupText({ ...finished({ durationMs: 14 }), commands: [], reasons: [] });
    expect(shown).toBe('Setup none No setup commands: nothing to install.');
  });
});

describe('PartialBanner', () => {
  it('says how many tests still fail and lists them', () => {
    const html = renderToStaticMarkup(
      createElement(PartialBanner, { stillFailing: ['t::a', 't::b'] }),
    );
    expect(text(html)).toBe(
      'Partial fix: 2 tests that failed at the baseline still fail t::a t::b',
    );
  });
});

describe('TestChanges', () => {
  it('lists what a run fixed, broke, left failing and lost, folding long lists', () => {
    const many = Array.from({ length: 5 }, (_, i) => `t::s${i}`);
    const html = renderToStaticMarkup(
      createElement(TestChanges, {
        tests: {
          fixed: ['t::a'],
          broken: ['t::b'],
          stillFailing: many,
          missing: ['t::c'],
          added: [],
          byId: true,
          counts: { fixed: 1, broken: 1, stillFailing: 5, missing: 1, added: 0 },
        },
      }),
    );
    expect(text(html)).toBe(
      `Fixed: t::a Broke: t::b Still failing: 5 ${many.join(' ')} Missing: t::c`,
    );
    expect(html).toContain('<details');
  });
});
