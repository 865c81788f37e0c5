import { describe, expect, it } from 'vitest';
import { deckCards, kindOption, listParams, parseTags, scoringRows, starText, valueText } from './workshop';

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

  it('names the option of each kind and writes values', () => {
    expect(kindOption('characters', 'custom')).toBe('custom');
    expect(kindOption('deck', null)).toBe('decks');
    expect(kindOption('variant', 'custom')).toBeNull();
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
