import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TaskProblem } from './task-problem';

// A task's problem is whoever created it's text (often pasted from an issue tracker): it goes
// through the conversation's Markdown renderer, so it never becomes markup or a fetch.
const render = (problem: string, issueUrl: string | null = null): string =>
  renderToStaticMarkup(createElement(TaskProblem, { problem, issueUrl }));

describe('a task problem', () => {
  it('is nothing when there is neither a problem nor an issue', () => {
    expect(render('')).toBe('');
  });

  it('renders Markdown but shows raw HTML as text, in a paragraph or on its own', () => {
    const html = render('The **wrong** answer <b>inline</b>\n\n<script>alert(1)</script>');
    expect(html).toContain('<strong>wrong</strong>');
    expect(html).not.toMatch(/<script|<b>/);
    expect(html).toContain('&lt;b&gt;inline&lt;/b&gt;');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('links the issue apart from this page, without a referrer', () => {
    const html = render('', 'https://example.com/issues/7');
    expect(html).toContain(
      '<a href="https://example.com/issues/7" target="_blank" rel="noopener noreferrer nofollow">',
    );
  });

  it('folds a long problem behind "Show all" and leaves a short one open', () => {
    const long = render(Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n\n'));
    expect(long).toContain('task-problem-text folded');
    expect(long).toContain('Show all');
    const short = render('One line.');
    expect(short).not.toContain('folded');
    expect(short).not.toContain('Show all');
  });
});
