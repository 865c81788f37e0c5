// The Final Battle (D6), the dragon's damage (D6.2, D6.4) and the Lair (D7) in real views
// (fixtures/, web/scripts/game_fixtures.py): each legal action is one labelled choice and each
// stage has its note, in English and German, with no raw code or id on screen.
import { describe, expect, it } from 'vitest';
import type { DragonlairViewFarkleSchemaVersion1 as FarkleView, FarkleLegal, FarklePublic } from '../../gen/view-farkle';
import { render, type Catalogue } from '../../lib/format';
import { catalogue, fixtures } from '../testkit';
import { farkleChoices, stageNotes, type Render } from './choices';

const en = catalogue('en');
const de = catalogue('de');
const renderer = (cat: Catalogue): Render => (code, params = {}, names) => {
  if (!(code in cat.messages)) throw new Error(`${cat.lang}: no message ${code}`);
  return render(cat, code, params, { names });
};
const all = fixtures<FarkleView>('farkle');

describe('Farkle endgame stages', () => {
  it('has real views of the Final Battle, a wounded dragon and the Lair', () => {
    expect(all.map((f) => f.stage).sort()).toEqual(['battle', 'damage', 'lair']);
  });
  for (const fx of all) {
    for (const cat of [en, de]) {
      it(`${fx.stage} (${cat.lang}): one choice per legal action, and the stage's note`, () => {
        const legal = fx.view.legal as unknown as FarkleLegal;
        const pub = fx.view.public as unknown as FarklePublic;
        const choices = farkleChoices(legal, renderer(cat), fx.names);
        expect(choices.map((c) => c.action)).toEqual(fx.legal_actions);
        expect(choices.map((c) => c.kind)).toEqual(legal.moves.map((m) => m.kind));
        const labels = choices.map((c) => c.label);
        expect(new Set(labels).size).toBe(labels.length);
        const notes = stageNotes(pub, fx.seat, renderer(cat));
        expect(notes.map((n) => n.stage)).toContain(fx.stage);
        for (const text of [...labels, ...notes.map((n) => n.text)]) expect(text).not.toMatch(/[{}]|farkle\.|web\.|\bp\d\b/);
        if (fx.stage === 'damage') expect(notes.find((n) => n.stage === 'damage')!.text).toContain(String(pub.dragon.damage));
        if (fx.stage === 'lair') expect(legal.actions).toContain('battle');
      });
    }
  }
  it('names the attacked seat', () => {
    const lair = all.find((f) => f.stage === 'lair')!;
    const choices = farkleChoices(lair.view.legal as unknown as FarkleLegal, renderer(de), lair.names);
    const sk = choices.find((c) => c.action === 'skirmish p1')!;
    expect(sk.label).toContain(lair.names[1]);
  });
});
