import { describe, expect, it } from 'vitest';
import { hasOwnScreen, screenFor, screens } from './registry';

describe('the game screens are discovered from their folders', () => {
  it('finds the three built-in screens by folder name', () => {
    expect(Object.keys(screens).sort()).toEqual(['farkle', 'fist', 'master']);
    expect(hasOwnScreen('master')).toBe(true);
  });
  it('gives a game without a screen the generic one', () => {
    expect(hasOwnScreen('hoard')).toBe(false);
    expect(hasOwnScreen('constructor')).toBe(false); // an own property, not Object's
    expect(screenFor('master')).toBe(screens.master);
    expect(Object.values(screens)).not.toContain(screenFor('hoard'));
  });
});
