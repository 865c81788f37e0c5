import { describe, expect, it } from 'vitest';
import { customCharacters, customNames, tableCardNames, tableDeck } from './custom';

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

// a Farkle deck file (D8.5), as a table's options hold it (dragonlair/games/farkle/examples/decks.toml)
const decks = {
  companions: [{ id: 'old-hound', name: { en: 'Old Hound', de: 'Alter Hund' }, text: { en: 'Barks.' }, effect: 'gain', amount: 100, count: 5 }],
  items: [{ id: 'war-chest', name: { en: 'War Chest', de: 'Kriegskasse' }, text: { en: '500 soldiers join.', de: '500 Soldaten kommen dazu.' }, effect: 'gain', amount: 500, count: 5 }],
};
const farkle = { characters_option: null, workshop_options: { deck: 'decks', scoring: 'table' } };
const fist = { characters_option: 'custom', workshop_options: {} };

describe('a table\'s own cards', () => {
  it('a deck file\'s cards by id, in the reader\'s language (English where it has no other)', () => {
    expect(tableDeck({ decks }, 'de', farkle)).toEqual({
      'old-hound': { name: 'Alter Hund', text: 'Barks.' },
      'war-chest': { name: 'Kriegskasse', text: '500 Soldaten kommen dazu.' },
    });
    expect(tableCardNames({ decks }, 'en', farkle)).toEqual({ 'old-hound': 'Old Hound', 'war-chest': 'War Chest' });
  });
  it('none where the table plays the game\'s own decks, or the game has none', () => {
    expect(tableDeck({ decks: null }, 'en', farkle)).toEqual({});
    expect(tableCardNames({ decks: null }, 'en', farkle)).toEqual({});
    expect(tableDeck({ decks }, 'en', fist)).toEqual({});
    expect(tableCardNames({ decks }, 'en', { characters_option: null, workshop_options: {} })).toBeUndefined();
    expect(tableCardNames({ decks }, 'en', null)).toBeUndefined();
  });
  it('custom characters by their names', () => {
    expect(tableCardNames({ custom: [moneylender] }, 'de', fist)).toEqual({ moneylender: 'Geldverleiher' });
  });
});
