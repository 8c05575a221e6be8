import { describe, expect, it } from 'vitest';
import {
  isSubmitShortcut,
  isTyping,
  nextStop,
  reviewKeyAction,
  type KeyPress,
} from './review-keys';

const press = (key: string, extra: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  target: { tagName: 'BUTTON' },
  ...extra,
});

describe('reviewKeyAction', () => {
  it('maps j, k, c and Escape outside fields', () => {
    expect(reviewKeyAction(press('j'))).toBe('next');
    expect(reviewKeyAction(press('k'))).toBe('previous');
    expect(reviewKeyAction(press('c'))).toBe('comment');
    expect(reviewKeyAction(press('Escape'))).toBe('escape');
    expect(reviewKeyAction(press('x'))).toBeNull();
    expect(reviewKeyAction(press('J'))).toBeNull();
    expect(reviewKeyAction(press('j', { target: null }))).toBe('next');
  });

  it('never takes a key typed into a field, or a shortcut with a modifier', () => {
    for (const tagName of ['INPUT', 'TEXTAREA', 'SELECT', 'textarea']) {
      expect(reviewKeyAction(press('j', { target: { tagName } }))).toBeNull();
      expect(reviewKeyAction(press('c', { target: { tagName } }))).toBeNull();
    }
    expect(
      reviewKeyAction(press('c', { target: { tagName: 'DIV', isContentEditable: true } })),
    ).toBeNull();
    expect(reviewKeyAction(press('c', { ctrlKey: true }))).toBeNull();
    expect(reviewKeyAction(press('j', { metaKey: true }))).toBeNull();
    expect(reviewKeyAction(press('k', { altKey: true }))).toBeNull();
  });

  it('knows typing targets and the submit shortcut', () => {
    expect(isTyping({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTyping({ tagName: 'A' })).toBe(false);
    expect(isTyping(null)).toBe(false);
    expect(isSubmitShortcut(press('Enter', { ctrlKey: true }))).toBe(true);
    expect(isSubmitShortcut(press('Enter', { metaKey: true }))).toBe(true);
    expect(isSubmitShortcut(press('Enter'))).toBe(false);
    expect(isSubmitShortcut(press('c', { ctrlKey: true }))).toBe(false);
  });
});

describe('nextStop', () => {
  // Rows 0 (a file), 9 and 14 (threads), 22 (the next file).
  const stops = [0, 9, 14, 22];

  it('moves to the next or previous file or thread', () => {
    expect(nextStop(stops, 0, 1)).toBe(9);
    expect(nextStop(stops, 9, 1)).toBe(14);
    expect(nextStop(stops, 14, -1)).toBe(9);
    // From a row between stops (the top of the screen).
    expect(nextStop(stops, 10, 1)).toBe(14);
    expect(nextStop(stops, 10, -1)).toBe(9);
    expect(nextStop(stops, -1, 1)).toBe(0);
  });

  it('starts at either end, and stays at the ends', () => {
    expect(nextStop(stops, null, 1)).toBe(0);
    expect(nextStop(stops, null, -1)).toBe(22);
    expect(nextStop(stops, 22, 1)).toBeNull();
    expect(nextStop(stops, 0, -1)).toBeNull();
    expect(nextStop([], null, 1)).toBeNull();
  });
});
