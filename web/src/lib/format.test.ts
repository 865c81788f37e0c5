import { describe, expect, it } from 'vitest';
import { decimal, distinctNames, pickLanguage, pluralIndex, render, renderError, type Catalogue } from './format';

const en: Catalogue = {
  lang: 'en',
  plural: '(n != 1)',
  messages: {
    'core.turn.not_your_move': "it is not {seat:seat}'s move",
    'core.nothing': 'nothing',
    'core.rule_suffix': ' (rule {rule})',
    'core.seat.chance_name': 'chance',
    'core.seat.numbered': 'Player {n}',
    'master.card.ruby': 'Ruby Dragon',
    'master.deal.hand': 'You were dealt: {cards:list-card}',
    'master.round.won': 'Round {round}: {seat:seat} wins — decided by the {at:which} lines',
    'master.which.0': 'lowest',
    'cli.points': ['{n} point', '{n} points'],
    'x.repr': 'got {text!r} {{literal}}',
    'server.table.seats_open': 'seats are still open: {seats:list}',
  },
};
const de: Catalogue = { lang: 'de', plural: '(n != 1)', messages: { 'cli.points': ['{n} Punkt', '{n} Punkte'] } };

describe('render', () => {
  it('fills seats with names, cards by catalogue, lists and kinds', () => {
    expect(render(en, 'core.turn.not_your_move', { seat: 1 }, { names: ['Ann', 'Bob'] })).toBe("it is not Bob's move");
    expect(render(en, 'core.turn.not_your_move', { seat: 2 })).toBe("it is not Player 3's move");
    expect(render(en, 'core.turn.not_your_move', { seat: -1 })).toBe("it is not chance's move");
    expect(render(en, 'master.deal.hand', { cards: ['ruby', 'egg'] })).toBe('You were dealt: Ruby Dragon, egg');
    expect(render(en, 'master.round.won', { round: 1, seat: 0, at: 0 })).toBe('Round 1: Player 1 wins — decided by the lowest lines');
    expect(render(en, 'server.table.seats_open', { seats: [] })).toBe('seats are still open: nothing');
    expect(render(en, 'x.repr', { text: "it's" })).toBe("got 'it\\'s' {literal}");
  });
  it('chooses plural forms by n and falls back to English', () => {
    expect(render(de, 'cli.points', { n: 1 })).toBe('1 Punkt');
    expect(render(de, 'cli.points', { n: 3 })).toBe('3 Punkte');
    expect(render(de, 'master.card.ruby', {}, { fallback: en })).toBe('Ruby Dragon');
  });
  it('shows the code and params where no catalogue has the message', () => {
    expect(render(en, 'nope.code', { b: 2, a: 1 })).toBe('nope.code(a=1, b=2)');
    expect(render(en, 'nope.code')).toBe('nope.code');
  });
  it('renders an error with its rule', () => {
    expect(renderError(en, { code: 'core.turn.not_your_move', params: { seat: 0 }, rule: 'F5.1' })).toBe("it is not Player 1's move (rule F5.1)");
  });
});

describe('pluralIndex', () => {
  it('maps Intl.PluralRules categories to the gettext forms of en and de: one -> 0, other -> 1', () => {
    const ns = [0, 1, 2, 5, 11, 21, 100, 1.5];
    // the catalogues' Plural-Forms for both languages: (n != 1)
    for (const lang of ['en', 'de']) expect(ns.map((n) => pluralIndex(lang, n))).toEqual(ns.map((n) => (n !== 1 ? 1 : 0)));
  });
  it('numbers the categories in CLDR order, as Babel writes Plural-Forms', () => {
    // Polish: one, few, many, other (other for fractions)
    expect([1, 2, 5, 22, 25, 1.5].map((n) => pluralIndex('pl', n))).toEqual([0, 1, 2, 1, 2, 3]);
    expect(pluralIndex('ja', 7)).toBe(0);
  });
});

describe('pickLanguage', () => {
  it('keeps a stored choice, else follows the browser, else English', () => {
    expect(pickLanguage('de', ['en-US'], ['en', 'de'])).toBe('de');
    expect(pickLanguage(null, ['de-AT', 'en'], ['en', 'de'])).toBe('de');
    expect(pickLanguage('fr', ['fr-FR'], ['en', 'de'])).toBe('en');
  });
});

describe('seat names', () => {
  it('tells apart only the names two seats share', () => {
    expect(distinctNames(['Ann', 'Random bot', 'Random bot', 'Bob'])).toEqual(['Ann', 'Random bot (2)', 'Random bot (3)', 'Bob']);
    expect(distinctNames(['Ann', 'Bob'])).toEqual(['Ann', 'Bob']);
    expect(distinctNames([])).toEqual([]);
  });
});

describe('decimals in the reader\'s language', () => {
  it('writes a German decimal with a comma, an English one with a point', () => {
    expect(decimal(7.7, 1, 'en')).toBe('7.7');
    expect(decimal(7.7, 1, 'de')).toBe('7,7');
    expect(decimal(0.04, 1, 'de')).toBe('0,0');
    expect(decimal(-12.345, 1, 'de')).toBe('-12,3');
    expect(decimal(1234.5, 0, 'de')).toBe('1235'); // no thousands separator: 1.235 would read as a decimal
    expect(decimal(1234.56, 1, 'en')).toBe('1234.6');
    expect(decimal(3, 1, 'en')).toBe('3.0');
  });
});
