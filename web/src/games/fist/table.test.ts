// The table (table.ts): the seats around it as each viewer sees them, and the fists opened at
// a reveal, drawn from the reveal events (docs/events-fist.md: fist.bid.revealed, one per seat;
// fist.tiebreak.revealed, one per tied seat) and told in words, English and German (F5.3, F5.7);
// a power decision's choices drawn from their own params (real views, fixtures/).
import { describe, expect, it } from 'vitest';
import type { DragonlairViewFistSchemaVersion1 as FistView, FistLegal } from '../../gen/view-fist';
import { render, type Catalogue } from '../../lib/format';
import { catalogue, fixtures } from '../testkit';
import { lastReveal } from './bid';
import type { Render } from './decisions';
import { choiceArt, drawnCoins, fistWords, goesToBank, openFists, seatsAround } from './table';

const en = catalogue('en');
const de = catalogue('de');
const renderer = (cat: Catalogue): Render => (code, params = {}, names) => {
  if (!(code in cat.messages)) throw new Error(`${cat.lang}: no message ${code}`);
  return render(cat, code, params, { names });
};
const names = ['Ada', 'Bo', 'Cy'];
const events = [
  { seq: 1, code: 'fist.auction.card', params: { card: 'witch' } },
  { seq: 2, code: 'fist.bid.revealed', params: { seat: 0, fairy: 3, common: 1, black: 0, amulet: 0, value: 4 } },
  { seq: 3, code: 'fist.bid.revealed', params: { seat: 1, fairy: 0, common: 0, black: 0, amulet: 0, value: 0 } },
  { seq: 4, code: 'fist.bid.revealed', params: { seat: 2, fairy: 2, common: 0, black: 1, amulet: 1, value: 4 } },
  { seq: 5, code: 'fist.auction.tie', params: { seats: [0, 2], value: 4 } },
];

describe('seats around the table', () => {
  it('puts the others across in playing order after the viewer, the viewer at the bottom', () => {
    expect(seatsAround(4, 1)).toEqual({ across: [2, 3, 0], me: 1 });
    expect(seatsAround(3, 0)).toEqual({ across: [1, 2], me: 0 });
    expect(seatsAround(6, 5)).toEqual({ across: [0, 1, 2, 3, 4], me: 5 });
  });
  it('shows a spectator every seat across', () => {
    expect(seatsAround(3, null)).toEqual({ across: [0, 1, 2], me: null });
  });
});

describe('the fists open', () => {
  it('opens every bid of the auction at once, each seat with the coins it bid', () => {
    const fists = openFists(lastReveal(events));
    expect(fists.map((f) => f.seat)).toEqual([0, 1, 2]);
    expect(fists[0]).toEqual({ seq: 2, seat: 0, round: 'bid', coins: [{ kind: 'fairy', n: 3 }, { kind: 'common', n: 1 }], value: 4 });
    expect(fists[1]!.coins).toEqual([]);
    expect(fists[2]!.coins).toEqual([{ kind: 'fairy', n: 2 }, { kind: 'black', n: 1 }, { kind: 'amulet', n: 1 }]);
  });

  it('opens the Silver of a tie-break (F5.7), the last reveal only', () => {
    const more = [...events,
      { seq: 6, code: 'fist.tiebreak.revealed', params: { seat: 0, silver: 2, amulet: 1, value: 4 } },
      { seq: 7, code: 'fist.tiebreak.revealed', params: { seat: 2, silver: 0, amulet: 0, value: 0 } }];
    const fists = openFists(lastReveal(more));
    expect(fists).toEqual([
      { seq: 6, seat: 0, round: 'silver', coins: [{ kind: 'silver', n: 2 }, { kind: 'amulet', n: 1 }], value: 4 },
      { seq: 7, seat: 2, round: 'silver', coins: [], value: 0 },
    ]);
  });

  it('tells each fist as a player reads it, not as a form', () => {
    const fists = openFists(lastReveal(events));
    const say = renderer(en);
    expect(fistWords(fists[0]!, say, names)).toBe('Ada: 3 Fairy Gold and 1 Common Gold, worth 4');
    expect(fistWords(fists[1]!, say, names)).toBe('Bo: nothing (the empty fist), worth 0');
    expect(fistWords(fists[2]!, say, names)).toBe('Cy: 2 Fairy Gold, 1 Red Amulet and 1 Black Magic coin, worth 4');
    const sagt = renderer(de);
    expect(fistWords(fists[0]!, sagt, names)).toBe('Ada: 3 Feengold und 1 Gemeingold, Wert 4');
    expect(fistWords(fists[1]!, sagt, names)).toBe('Bo: nichts (die leere Faust), Wert 0');
    for (const f of fists) expect(fistWords(f, sagt, names)).not.toMatch(/yes|no\b|ja|nein|\{|fist\./);
  });

  it('shows bid Fairy Gold staying with its owner and every other coin going to the bank (F5.3)', () => {
    expect(goesToBank('fairy')).toBe(false);
    for (const k of ['common', 'silver', 'black', 'amulet'] as const) expect(goesToBank(k)).toBe(true);
  });

  it('draws at most a few coins of a stack', () => {
    expect([0, 1, 5, 9, -1].map((n) => drawnCoins(n))).toEqual([0, 1, 5, 5, 0]);
    expect(drawnCoins(9, 4)).toBe(4);
  });
});

describe('the art of a power decision', () => {
  const all = fixtures<FistView>('fist');
  const choicesOf = (stage: string) => (all.find((f) => f.stage === stage)!.view.legal as unknown as FistLegal).choices!;

  it('draws each choice from its own params, in real views', () => {
    const [pay, take] = choicesOf('choice');
    expect(choiceArt(pay!.code, pay!.params)).toEqual([{ gem: 'blue', n: 3 }, { gem: 'yellow', n: 1 }]);
    expect(choiceArt(take!.code, take!.params)).toEqual([{ coin: 'silver', n: 3 }]);
    const [buy] = choicesOf('buy');
    expect(choiceArt(buy!.code, buy!.params)).toEqual([{ coin: 'fairy', n: 1 }, { gem: 'red', n: 1 }]);
    const [steal] = choicesOf('steal');
    expect(choiceArt(steal!.code, steal!.params)).toEqual([{ gem: 'red', n: 1 }]);
    for (const stage of ['colour_gain', 'colour_troll', 'colour_rainbow']) expect(choiceArt(choicesOf(stage)[0]!.code, choicesOf(stage)[0]!.params)).toEqual([{ gem: 'red', n: 1 }]);
    const [pick] = choicesOf('pick_ghost');
    expect(choiceArt(pick!.code, pick!.params)).toEqual([{ card: 'witch' }]);
    const [double, single] = choicesOf('double');
    expect(choiceArt(double!.code, double!.params)).toEqual([{ card: 'wizard' }]);
    expect(choiceArt(single!.code, single!.params)).toEqual([]);
    for (const stage of ['necro', 'rainbow_more', 'target']) for (const c of choicesOf(stage)) expect(choiceArt(c.code, c.params)).toEqual([]);
  });
});
