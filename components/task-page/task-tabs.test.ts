import { describe, expect, it } from 'vitest';
import { initialTab, tabAfterKey } from './task-tabs';

describe('initialTab', () => {
  it('takes the tab the address names', () => {
    expect(initialTab('compare', '', true)).toBe('compare');
    expect(initialTab('conversation', '#review-file-0', true)).toBe('conversation');
  });

  it('opens the files for a link into the review', () => {
    expect(initialTab(null, '#review-file-3', false)).toBe('files');
    expect(initialTab(undefined, '#thread-cm123', false)).toBe('files');
  });

  it('opens the files when a diff is up for review, else the conversation', () => {
    expect(initialTab(null, '', true)).toBe('files');
    expect(initialTab('nonsense', '#timeline-heading', false)).toBe('conversation');
  });
});

describe('tabAfterKey', () => {
  it('moves with the arrows, wrapping, and jumps with Home and End', () => {
    expect(tabAfterKey('conversation', 'ArrowRight')).toBe('compare');
    expect(tabAfterKey('files', 'ArrowRight')).toBe('conversation');
    expect(tabAfterKey('conversation', 'ArrowLeft')).toBe('files');
    expect(tabAfterKey('compare', 'Home')).toBe('conversation');
    expect(tabAfterKey('compare', 'End')).toBe('files');
    expect(tabAfterKey('compare', 'Enter')).toBeNull();
  });
});
