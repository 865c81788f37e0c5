// The character workshop's pure helpers (lib/characters.ts; custom Fist characters, rule F9),
// and custom cards named by their own names in rendered messages (format.ts, F9).
import { describe, expect, it } from 'vitest';
import { catalogue } from '../games/testkit';
import {
  draftData, draftOf, emptyDraft, handToTable, loadCharacters, newStep, rank, saveCharacters, slug, STORAGE_KEY, stepData,
  takeForTable, toDraft, upsert, verdict, type CardRow, type PrimitiveSpec, fromFile
} from './characters';
import { customNames } from './custom';
import { render } from './format';

// the primitives as GET /api/games/fist/characters/examples lists them (dragonlair/server/characters.py)
const coins = ['fairy', 'common', 'silver', 'amulet', 'black', 'red', 'blue', 'yellow'].map((name) => ({ name, kind: 'int', min: 0, max: 12, default: 0 }));
const pay = [
  { name: 'count', kind: 'int', min: 1, max: 12, default: 2 },
  { name: 'pattern', kind: 'choice', choices: ['any', 'same', 'each'], default: 'any' },
  { name: 'points', kind: 'int', min: 1, max: 3, default: 1 },
];
const SPECS: PrimitiveSpec[] = [
  { name: 'gain', fields: coins },
  { name: 'gain_stone_choice', fields: [{ name: 'value', kind: 'int', min: 1, max: 6, default: 1 }] },
  { name: 'pay_stones', fields: pay },
  { name: 'either', groups: { pay_stones: pay, gain: coins } },
  { name: 'steal_from_second', fields: [] },
  { name: 'take_all_from', fields: [{ name: 'kinds', kind: 'multi', choices: ['common', 'silver'], default: ['common'] }] },
  { name: 'play_unauctioned', fields: [{ name: 'how', kind: 'choice', choices: ['random', 'choose'], default: 'random' }] },
  { name: 'buy_stones', fields: ['common', 'fairy', 'silver'].map((name) => ({ name, kind: 'int', min: 0, max: 9, default: 0 })) },
  { name: 'necromancer', fields: [{ name: 'value', kind: 'int', min: 1, max: 3, default: 1 }] },
  { name: 'bag_draw', fields: [{ name: 'per_colour', kind: 'int', min: 1, max: 12, default: 2 }, { name: 'draws', kind: 'int', min: 1, max: 12, default: 2 }] },
];
const spec = (name: string) => SPECS.find((s) => s.name === name)!;

class MemoryStorage {
  data = new Map<string, string>();
  getItem(k: string) {
    return this.data.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.data.set(k, v);
  }
  removeItem(k: string) {
    this.data.delete(k);
  }
}

describe('slug: the id of a character file (F9: lower-case letters, digits and -)', () => {
  it('follows the English name', () => {
    expect(slug('Moneylender')).toBe('moneylender');
    expect(slug('The Silver Baron')).toBe('the-silver-baron');
    expect(slug('  Ärger & Öl   ')).toBe('arger-ol');
    expect(slug('Straße')).toBe('strasse');
  });
  it('starts with a letter, is at most 31 characters long, and is never empty', () => {
    expect(slug('3 wise men')).toBe('wise-men');
    expect(slug('x'.repeat(50))).toHaveLength(31);
    expect(slug('a' + ' b'.repeat(20))).toMatch(/^[a-z][a-z0-9-]{0,30}$/);
    expect(slug('a' + ' b'.repeat(20)).endsWith('-')).toBe(false);
    expect(slug('!!!')).toBe('character');
    expect(slug('')).toBe('character');
  });
});

describe('a step from the form values, for every kind of field the spec has (F9 primitives)', () => {
  it('int fields: a gain keeps only what it gives', () => {
    const d = newStep(spec('gain'));
    d.values.common = 2;
    d.values.silver = 1;
    expect(stepData(spec('gain'), d)).toEqual({ gain: { common: 2, silver: 1 } });
  });
  it('choice and int fields: pay stones', () => {
    const d = newStep(spec('pay_stones'));
    expect(stepData(spec('pay_stones'), d)).toEqual({ pay_stones: { count: 2, pattern: 'any', points: 1 } });
    d.values.pattern = 'each';
    d.values.count = 3;
    expect(stepData(spec('pay_stones'), d)).toEqual({ pay_stones: { count: 3, pattern: 'each', points: 1 } });
  });
  it('one field: the value itself (number, choice or list)', () => {
    expect(stepData(spec('gain_stone_choice'), { ...newStep(spec('gain_stone_choice')), values: { value: 2 } })).toEqual({ gain_stone_choice: 2 });
    expect(stepData(spec('necromancer'), newStep(spec('necromancer')))).toEqual({ necromancer: 1 });
    expect(stepData(spec('play_unauctioned'), { ...newStep(spec('play_unauctioned')), values: { how: 'choose' } })).toEqual({ play_unauctioned: 'choose' });
    expect(stepData(spec('take_all_from'), newStep(spec('take_all_from')))).toEqual({ take_all_from: ['common'] });
    expect(stepData(spec('take_all_from'), { ...newStep(spec('take_all_from')), values: { kinds: ['common', 'silver'] } })).toEqual({ take_all_from: ['common', 'silver'] });
  });
  it('no fields: a flag', () => {
    expect(stepData(spec('steal_from_second'), newStep(spec('steal_from_second')))).toEqual({ steal_from_second: true });
  });
  it('several int fields with a minimum of 1 stay whole; prices of 0 are left out', () => {
    expect(stepData(spec('bag_draw'), newStep(spec('bag_draw')))).toEqual({ bag_draw: { per_colour: 2, draws: 2 } });
    const buy = newStep(spec('buy_stones'));
    buy.values.silver = 3;
    expect(stepData(spec('buy_stones'), buy)).toEqual({ buy_stones: { silver: 3 } });
    // nothing given at all: every field, so that the server can say what is wrong
    expect(stepData(spec('buy_stones'), newStep(spec('buy_stones')))).toEqual({ buy_stones: { common: 0, fairy: 0, silver: 0 } });
  });
  it('either/or: the two groups', () => {
    const d = newStep(spec('either'));
    d.groups.gain = { ...d.groups.gain, common: 2, silver: 1 };
    expect(stepData(spec('either'), d)).toEqual({
      either: { pay_stones: { count: 2, pattern: 'any', points: 1 } },
      or: { gain: { common: 2, silver: 1 } },
    });
  });
  it('reads every shipped kind of step back into the form, unchanged', () => {
    const steps = [
      { gain: { common: 1, silver: 1 } },
      { pay_stones: { count: 3, pattern: 'each', points: 2 } },
      { either: { pay_stones: { count: 2, pattern: 'any', points: 1 } }, or: { gain: { common: 2, silver: 1 } } },
      { steal_from_second: true }, { take_all_from: ['silver'] }, { play_unauctioned: 'random' },
      { gain_stone_choice: 1 }, { necromancer: 2 }, { buy_stones: { common: 1, fairy: 1, silver: 3 } }, { bag_draw: { per_colour: 3, draws: 1 } },
    ];
    for (const s of steps) {
      const d = draftOf(SPECS, s);
      expect(d.raw, JSON.stringify(s)).toBeUndefined();
      expect(stepData(spec(d.primitive), d)).toEqual(s);
    }
  });
  it('keeps a step it cannot show as it is', () => {
    for (const s of [{ push_your_luck: true }, { gain: 3 }, 'gain', { a: 1, b: 2 }]) {
      const d = draftOf(SPECS, s);
      expect(d.raw).toEqual(s);
      expect(draftData(SPECS, { ...emptyDraft(), name: { en: 'X', de: '' }, steps: [d] }).power).toEqual([s]);
    }
  });
});

describe('the editor draft as a character', () => {
  it('derives the id from the English name until it is typed, and leaves out what was not written', () => {
    const d = emptyDraft();
    d.name.en = 'Silver Baron';
    d.steps.push({ ...newStep(spec('gain')), values: { ...newStep(spec('gain')).values, silver: 1 } });
    expect(draftData(SPECS, d)).toEqual({ id: 'silver-baron', count: 1, name: { en: 'Silver Baron' }, power: [{ gain: { silver: 1 } }] });
    d.idEdited = true;
    d.id = 'baron';
    d.name.de = 'Silberbaron';
    d.text.de = 'Nimm 1 Silber.';
    expect(draftData(SPECS, d)).toMatchObject({ id: 'baron', name: { en: 'Silver Baron', de: 'Silberbaron' }, text: { de: 'Nimm 1 Silber.' } });
  });
  it('round-trips a character through the draft', () => {
    const c = { id: 'moneylender', count: 2, name: { en: 'Moneylender', de: 'Geldverleiher' }, text: { en: 'E', de: 'D' },
      power: [{ either: { pay_stones: { count: 2, pattern: 'any', points: 1 } }, or: { gain: { common: 2, silver: 1 } } }] };
    const d = toDraft(SPECS, c);
    expect(d.idEdited).toBe(false);
    expect(draftData(SPECS, d)).toEqual(c);
    expect(toDraft(SPECS, { ...c, id: 'lender' }).idEdited).toBe(true);
  });
});

describe('my characters in localStorage', () => {
  const c = { id: 'a', count: 1, name: { en: 'A' }, power: [{ steal_from_second: true }] };
  it('round-trips', () => {
    const s = new MemoryStorage();
    saveCharacters([c, { ...c, id: 'b' }], s);
    expect(loadCharacters(s)).toEqual([c, { ...c, id: 'b' }]);
  });
  it('ignores corrupted storage: not JSON, not a list, entries not shaped like characters, repeated ids', () => {
    const s = new MemoryStorage();
    expect(loadCharacters(s)).toEqual([]);
    for (const bad of ['{', 'null', '"x"', '{"id":"a"}', '42']) {
      s.setItem(STORAGE_KEY, bad);
      expect(loadCharacters(s), bad).toEqual([]);
    }
    s.setItem(STORAGE_KEY, JSON.stringify([null, 1, { id: 3, name: { en: 'x' }, power: [] }, { id: 'n', name: 'plain', power: [] },
      { id: 'p', name: { en: 'P' }, power: 'gain' }, { id: 't', name: { en: 'T' }, text: 'x', power: [] }, c, { ...c, name: { en: 'again' } }]));
    expect(loadCharacters(s)).toEqual([c]);
  });
  it('an import replaces the character with the same id', () => {
    const one = upsert([c], { ...c, name: { en: 'New' } });
    expect(one).toEqual({ list: [{ ...c, name: { en: 'New' } }], replaced: true });
    expect(upsert([c], { ...c, id: 'z' }).replaced).toBe(false);
  });
  it('hands characters to the table form once', () => {
    const s = new MemoryStorage();
    expect(takeForTable(s)).toBeNull();
    handToTable([c], s);
    expect(takeForTable(s)).toEqual([c]);
    expect(takeForTable(s)).toBeNull();
  });
});

describe('the verdict from the balance numbers (presentation only)', () => {
  const row = (ci95: [number, number] | null, holders = 20): Pick<CardRow, 'ci95' | 'holders'> => ({ ci95, holders });
  it('compares the 95% interval with the base rate', () => {
    expect(verdict(row([0.3, 0.6]), 0.25)).toBe('strong');
    expect(verdict(row([0.05, 0.2]), 0.25)).toBe('weak');
    expect(verdict(row([0.1, 0.4]), 0.25)).toBe('noise');
    expect(verdict(row([0.25, 0.4]), 0.25)).toBe('noise');
    expect(verdict(row(null, 0), 0.25)).toBe('unseen');
  });
  it('ranks a card among the cards someone got', () => {
    const mk = (id: string, win_rate: number | null) => ({ id, win_rate }) as CardRow;
    const cards = [mk('a', 0.5), mk('b', 0.4), mk('mine', 0.4), mk('c', 0.1), mk('d', null)];
    expect(rank(cards, 'mine')).toEqual({ rank: 2, of: 4 });
    expect(rank(cards, 'a')).toEqual({ rank: 1, of: 4 });
    expect(rank(cards, 'd')).toBeNull();
  });
});

describe('custom cards by their own names in messages (format.ts RenderOptions.cards, F9)', () => {
  const en = catalogue('en');
  const de = catalogue('de');
  const options = { custom: [{ id: 'baron', count: 1, name: { en: 'Silver Baron', de: 'Silberbaron' }, text: { en: 'Take 1 Silver.' }, power: [] }] };
  it('names a custom card where a message has a card field, in the reader language; built-in cards stay', () => {
    const code = 'fist.auction.card';
    expect(en.messages[code]).toBeDefined();
    expect(render(en, code, { card: 'baron' }, { cards: customNames(options, 'en') })).toContain('Silver Baron');
    expect(render(de, code, { card: 'baron' }, { fallback: en, cards: customNames(options, 'de') })).toContain('Silberbaron');
    expect(render(de, code, { card: 'baron' }, { fallback: en })).toContain('baron');
    expect(render(en, code, { card: 'thief' }, { cards: customNames(options, 'en') })).toContain(render(en, 'fist.card.thief.name'));
  });
  it('a list of cards too', () => {
    const cat = { lang: 'en', plural: '(n != 1)', messages: { 'fist.x.list': 'Cards: {cards:list-card}', 'fist.card.thief.name': 'Thief' } };
    expect(render(cat, 'fist.x.list', { cards: ['thief', 'baron'] }, { cards: { baron: 'Silver Baron' } })).toBe('Cards: Thief, Silver Baron');
  });
});

describe('a character read from a file', () => {
  const base = { id: 'banker', count: 1, name: { en: 'Banker', de: 'Bankier' }, power: [{ gain: { common: 2 } }] };
  it('keeps only its own texts, so the card keeps describing the power', () => {
    expect(fromFile({ ...base, text: { de: 'Eigener Text' } })).toEqual({ ...base, text: { de: 'Eigener Text' } });
    expect(fromFile({ ...base, text: { en: null, de: null } })).toEqual(base);
    expect(fromFile({ ...base })).toEqual(base);
  });
});
