// Every power decision the engine can ask (pending.Dec: Thief, Merchant shop, Rainbow Dragon,
// Troll, Imp, Ghost, Doppelganger, Necromancer, pay-or-take...), in real views (fixtures/,
// web/scripts/game_fixtures.py), becomes a question and one labelled choice per legal action,
// in English and German, with no raw code or id on screen (F6, F7).
import { describe, expect, it } from 'vitest';
import type { DragonlairViewFistSchemaVersion1 as FistView, FistLegal } from '../../gen/view-fist';
import { render, type Catalogue } from '../../lib/format';
import { catalogue, fixtures } from '../testkit';
import { decisionPrompt, gainWords, type Render } from './decisions';

const en = catalogue('en');
const de = catalogue('de');
const renderer = (cat: Catalogue): Render => (code, params = {}, names) => {
  // a code missing from this language would fall back to English: refuse it here
  if (!(code in cat.messages)) throw new Error(`${cat.lang}: no message ${code}`);
  return render(cat, code, params, { names });
};
const all = fixtures<FistView>('fist');
const KINDS = ['double', 'choice', 'pay', 'colour_gain', 'colour_troll', 'colour_rainbow', 'steal', 'target', 'pick_ghost', 'pick_imp', 'buy', 'necro', 'rainbow_more'];

describe('Fist power decisions', () => {
  it('has a real view for every decision kind of the engine', () => {
    expect(all.map((f) => f.stage).sort()).toEqual([...KINDS].sort());
  });
  for (const fx of all) {
    for (const cat of [en, de]) {
      it(`${fx.stage} (${cat.lang}): one labelled choice per legal action`, () => {
        const legal = fx.view.legal as unknown as FistLegal;
        const p = decisionPrompt(legal, renderer(cat), fx.names);
        expect(p).not.toBeNull();
        expect(p!.kind).toBe(fx.stage);
        expect(p!.choices.map((c) => c.action)).toEqual(fx.legal_actions);
        const labels = p!.choices.map((c) => c.label);
        expect(new Set(labels).size).toBe(labels.length);
        for (const text of [p!.question, ...labels]) {
          expect(text).not.toMatch(/[{}]|fist\.|web\.|\bp\d\b/);
          expect(text).not.toContain(p!.card);
        }
        expect(p!.question).toContain(render(cat, `fist.card.${p!.card}.name`));
      });
    }
  }
  it('names the seats robbed and the stones in the reader\'s language', () => {
    const steal = all.find((f) => f.stage === 'steal')!;
    const p = decisionPrompt(steal.view.legal as unknown as FistLegal, renderer(de), steal.names)!;
    const first = (steal.view.legal as unknown as FistLegal).choices![0]!;
    const victim = steal.names[first.params.victim as number]!;
    expect(p.choices[0]!.label).toContain(victim);
    expect(p.choices[0]!.label).toContain(render(de, `fist.colour.${String(first.params.colour)}`));
  });
  it('asks nothing when the view is a bid or no move', () => {
    expect(decisionPrompt(null, renderer(en), [])).toBeNull();
    const bid = { kind: 'bid', bid: { fairy: 1, common: 0, black: false, amulet: false }, silver: null, decision: null, card: 'thief', choices: null } as unknown as FistLegal;
    expect(decisionPrompt(bid, renderer(en), [])).toBeNull();
  });
  it('names the other reward of a pay-or-take card (issue 25: "3 Silver", not "the other reward")', () => {
    const choice = all.find((f) => f.stage === 'choice')!;
    const legal = choice.view.legal as unknown as FistLegal;
    const take = legal.choices!.find((c) => c.code === 'fist.choice.take')!;
    expect(take.params.gain).toEqual({ silver: 3 }); // the Magician's (rules: or take 3 Silver)
    const labelOf = (cat: Catalogue) => decisionPrompt(legal, renderer(cat), choice.names)!.choices.find((c) => c.action === take.action)!.label;
    expect(labelOf(en)).toBe('Take 3 Silver instead');
    expect(labelOf(de)).toBe('Stattdessen 3 Silber nehmen');
    expect(gainWords({ common: 2, silver: 1 }, renderer(en))).toBe('2 Common Gold and 1 Silver');
    expect(gainWords({ fairy: 1, red: 1, blue: 2 }, renderer(de))).toBe('1 Feengold, 1 roten Stein und 2 blaue Steine');
  });
});
