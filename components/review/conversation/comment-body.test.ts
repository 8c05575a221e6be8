import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CommentBody } from './comment-body';

// A comment is anyone's text (an agent's reply may quote hostile code): rendered as Markdown, it
// must never become markup, a script, a fetch of a URL, or a link to anything but a web page.
const render = (body: string): string => renderToStaticMarkup(createElement(CommentBody, { body }));

describe('a comment body (Markdown, never HTML)', () => {
  it('shows raw HTML as text: no element, no handler', () => {
    const html = render('<script>alert(1)</script> <img src=x onerror="alert(2)"> <b>bold</b>');
    expect(html).not.toMatch(/<script|<img|<b>|<[^>]*onerror/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('keeps only http(s) links, opened apart, and loads no image', () => {
    const html = render(
      '[ok](https://example.com/a) [js](javascript:alert(1)) [data](data:text/html,x) ![t](http://127.0.0.1/track.png)',
    );
    expect(html).toContain(
      '<a href="https://example.com/a" target="_blank" rel="noopener noreferrer nofollow ugc">ok</a>',
    );
    expect(html).not.toMatch(/javascript:|data:text|<img|track\.png/);
    expect(html).toContain('[image: t]');
  });

  it('renders the Markdown a reviewer writes', () => {
    expect(render('Use a **guard** clause: `if not xs:`')).toBe(
      '<div class="comment-body"><p>Use a <strong>guard</strong> clause: <code>if not xs:</code></p></div>',
    );
  });
});
