import { describe, expect, it } from 'vitest';
import { customCharacters, customNames } from './custom';

// the shape the server lists (dragonlair/games/fist/custom.py, the shipped example)
const moneylender = {
  id: 'moneylender',
  count: 1,
  name: { en: 'Moneylender', de: 'Geldverleiher' },
  text: { en: 'Pay any 2 stones for 1 point.', de: 'Zahle 2 beliebige Steine für 1 Punkt.' },
  power: [{ gain: { common: 2 } }],
};

describe('customCharacters', () => {
  it('names and describes each character in the reader language', () => {
    expect(customCharacters({ players: 4, custom: [moneylender] }, 'de')).toEqual([
      { id: 'moneylender', name: 'Geldverleiher', count: 1, text: 'Zahle 2 beliebige Steine für 1 Punkt.', power: moneylender.power },
    ]);
    expect(customCharacters({ custom: [moneylender] }, 'en')[0]!.name).toBe('Moneylender');
  });

  it('falls back to English where a character has no text in the language (F9: only en is required)', () => {
    const only = { ...moneylender, id: 'x', count: 3, name: { en: 'Only' }, text: { en: 'English' } };
    expect(customCharacters({ custom: [only] }, 'de')).toEqual([{ id: 'x', name: 'Only', count: 3, text: 'English', power: moneylender.power }]);
  });

  it('gives nothing for a table without custom characters', () => {
    expect(customCharacters({ players: 4, custom: [] }, 'en')).toEqual([]);
    expect(customCharacters({ players: 2 }, 'en')).toEqual([]);
    expect(customCharacters(null, 'en')).toEqual([]);
    expect(customCharacters({ custom: 'moneylender' }, 'en')).toEqual([]);
  });

  it('leaves out what is not shaped like a character instead of showing it half', () => {
    const list = [null, 7, [], { id: 5, name: { en: 'a' }, text: { en: 'b' } }, { id: 'n', name: 'plain', text: { en: 'b' } },
      { id: 't', name: { de: 'nur' }, text: { en: 'b' } }, { ...moneylender, count: -2 }];
    expect(customCharacters({ custom: list }, 'de')).toEqual([
      { id: 'moneylender', name: 'Geldverleiher', count: 1, text: 'Zahle 2 beliebige Steine für 1 Punkt.', power: moneylender.power },
    ]);
  });

  it('shows a character without a text (the server describes it, F9) with an empty one, and names custom cards by id', () => {
    const bare = { id: 'bare', count: 2, name: { en: 'Bare', de: 'Nackt' }, power: [{ steal_from_second: true }] };
    expect(customCharacters({ custom: [bare] }, 'de')).toEqual([{ id: 'bare', name: 'Nackt', count: 2, text: '', power: bare.power }]);
    expect(customNames({ custom: [bare, moneylender] }, 'de')).toEqual({ bare: 'Nackt', moneylender: 'Geldverleiher' });
    expect(customNames(null, 'en')).toEqual({});
  });
});
