import { describe, expect, it } from 'vitest';
import { catalogue } from '../games/testkit';
import { deckCards, deckName, kindOption, kindOptions, listParams, parseTags, scoringRows, starText, valueText, variantLines } from './workshop';

describe('workshop helpers', () => {
  it('builds list queries without empty values or the default sort', () => {
    expect(listParams({})).toBe('');
    expect(listParams({ game: 'fist', tag: null, q: '', sort: 'newest' })).toBe('?game=fist');
    expect(listParams({ q: 'big dragon', sort: 'rated', offset: 24 })).toBe('?q=big+dragon&sort=rated&offset=24');
  });

  it('tidies tags as the server stores them', () => {
    expect(parseTags('Economy, cheap  fast,economy')).toEqual(['economy', 'cheap', 'fast']);
    expect(parseTags('  ')).toEqual([]);
  });

  it('draws ratings as stars rounded to a half', () => {
    expect(starText(null)).toBe('');
    expect(starText(5)).toBe('★★★★★');
    expect(starText(3.3)).toBe('★★★½☆');
    expect(starText(1)).toBe('★☆☆☆☆');
  });

  it('reads scoring tables and decks', () => {
    expect(scoringRows({ single_one: 100, triple: [1000, 200] })).toEqual([
      { name: 'single_one', points: '100' }, { name: 'triple 1', points: '1000' }, { name: 'triple 2', points: '200' }]);
    expect(scoringRows([1, 2])).toEqual([]);
    const cards = deckCards({ items: [{ id: 'war-chest', name: { en: 'War Chest', de: 'Kriegskasse' }, text: { en: 'Gain' }, count: 5 }] }, 'de');
    expect(cards).toEqual([{ deck: 'items', id: 'war-chest', name: 'Kriegskasse', text: 'Gain', count: 5 }]);
    expect(deckCards(null, 'en')).toEqual([]);
  });

  it('names a deck in the reader\'s words (the game\'s catalogue), else by its key', () => {
    for (const [lang, companions, items] of [['en', 'Companions', 'Magic items'], ['de', 'Gefährten', 'Zaubergegenstände']] as const) {
      const cat = catalogue(lang);
      const words = (code: string, fallback: string) => (typeof cat.messages[code] === 'string' ? (cat.messages[code] as string) : fallback);
      expect(deckName('farkle', 'companions', words)).toBe(companions);
      expect(deckName('farkle', 'items', words)).toBe(items);
      expect(deckName('farkle', 'dragons', words)).toBe('dragons');
    }
  });

  it('names the option of each kind and writes values', () => {
    const fist = { characters_option: 'custom', workshop_options: {} };
    const farkle = { characters_option: null, workshop_options: { deck: 'decks', scoring: 'table' } };
    expect(kindOption('characters', fist)).toBe('custom');
    expect(kindOption('deck', fist)).toBeNull();
    expect(kindOption('deck', farkle)).toBe('decks');
    expect(kindOption('scoring', farkle)).toBe('table');
    expect(kindOption('characters', farkle)).toBeNull();
    expect(kindOption('variant', fist)).toBeNull();
    expect(kindOptions(farkle)).toEqual(['decks', 'table']);
    expect(kindOptions(fist)).toEqual(['custom']);
    expect(valueText({ a: 1 })).toBe('{"a":1}');
    expect(valueText(null)).toBe('—');
  });
});

describe('errorField', () => {
  it('puts each refusal next to its field', async () => {
    const { errorField } = await import('./workshop');
    expect(errorField('server.workshop.too_long', { field: 'title', max: 80 })).toBe('title');
    expect(errorField('server.workshop.bad_tag', {})).toBe('tags');
    expect(errorField('fist.custom.bad_power', {})).toBe('content');
    expect(errorField('server.workshop.too_long', { field: 'content' })).toBe('content');
    expect(errorField('server.workshop.daily_entries', { limit: 10 })).toBe('form');
  });
});

describe('variantLines', () => {
  it('names the options a variant sets apart from their defaults, in the game\'s order', () => {
    const specs = [{ name: 'players', default: 2 }, { name: 'dragon', default: 3 }, { name: 'max_turns', default: null }, { name: 'table', default: null }];
    const lines = variantLines(specs, { players: 4, dragon: 4, max_turns: null, table: null }, (n) => n.toUpperCase());
    expect(lines).toEqual(['DRAGON: 4']);
    expect(variantLines(specs, null, (n) => n)).toEqual([]);
    expect(variantLines(specs, { max_turns: 30 }, (n) => n)).toEqual(['max_turns: 30']);
  });
});
