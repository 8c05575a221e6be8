import { describe, expect, it } from 'vitest';
import { safeHref } from './comment-links';

describe('safeHref', () => {
  it('keeps http and https links', () => {
    expect(safeHref('https://example.com/a?b=c#d')).toBe('https://example.com/a?b=c#d');
    expect(safeHref('http://example.com')).toBe('http://example.com/');
  });

  it('refuses every other scheme and relative links', () => {
    for (const href of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox',
      'file:///etc/passwd',
      'mailto:someone@example.com',
      '/coding/audit',
      '//evil.example.com',
      '',
      null,
      undefined,
    ]) {
      expect(safeHref(href)).toBeNull();
    }
  });
});
