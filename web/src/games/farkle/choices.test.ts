// The Final Battle (D6), the dragon's damage (D6.2, D6.4) and the Lair (D7) in real views
// (fixtures/, web/scripts/game_fixtures.py): each legal action is one labelled choice and each
// stage has its note, in English and German, with no raw code or id on screen.
import { describe, expect, it } from 'vitest';
import type { DragonlairViewFarkleSchemaVersion1 as FarkleView, FarkleLegal, FarklePublic } from '../../gen/view-farkle';
import { render, type Catalogue } from '../../lib/format';
import { catalogue, fixtures } from '../testkit';
import { dragonLine, farkleChoices, keepLabel, riskNote, stageNotes, type Render } from './choices';
import { keepRole } from './dice';

const en = catalogue('en');
const de = catalogue('de');
const renderer = (cat: Catalogue): Render => (code, params = {}, names) => {
  if (!(code in cat.messages)) throw new Error(`${cat.lang}: no message ${code}`);
  return render(cat, code, params, { names });
};
const every = fixtures<FarkleView>('farkle');
const ENDGAME = ['battle', 'damage', 'lair'];
const all = every.filter((f) => ENDGAME.includes(f.stage));

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
  it('names a card by the table\'s own words where it has them (a deck file, D8.5)', () => {
    const hot = every.find((f) => f.stage === 'defender_hot')!;
    const legal = hot.view.legal as unknown as FarkleLegal;
    const use = (cardName?: (id: string) => string) =>
      farkleChoices(legal, renderer(en), hot.names, 'soldiers', cardName).find((c) => c.action === 'use second-wind')!.label;
    expect(use()).toContain(render(en, 'farkle.card.second-wind.name'));
    expect(use((id) => (id === 'second-wind' ? 'Deep Breath' : id))).toContain('Deep Breath');
  });
  it('names the attacked seat', () => {
    const lair = all.find((f) => f.stage === 'lair')!;
    const choices = farkleChoices(lair.view.legal as unknown as FarkleLegal, renderer(de), lair.names);
    const sk = choices.find((c) => c.action === 'skirmish p1')!;
    expect(sk.label).toContain(lair.names[1]);
  });
});

// Issue 25: the dice of the next roll and its risk are the view's, so a Skirmish's defender
// facing hot dice reads the risk of 5 dice (D5.2), 7.7 %, not the 2.3 % of 6.
describe('Farkle next roll', () => {
  const hot = every.find((f) => f.stage === 'defender_hot')!;
  const keepAll = every.find((f) => f.stage === 'defender_keep_all')!;
  it('has real views of a defender with hot dice', () => {
    const pub = hot.view.public as unknown as FarklePublic;
    expect(pub.skirmish?.defender).toBe(hot.seat);
    expect(pub.dice_in_hand).toBe(0);
    expect(pub.next_roll).toEqual({ dice: 5, risk: 0.0772 });
    expect(hot.legal_actions).toContain('roll');
  });
  it('tells the defender the 5-dice risk of rolling on, in both languages', () => {
    const pub = hot.view.public as unknown as FarklePublic;
    expect(riskNote(pub.next_roll, renderer(en), 'en')).toBe('Farkle risk with 5 dice: 7.7 %');
    expect(riskNote(pub.next_roll, renderer(de), 'de')).toBe('Farkle-Risiko mit 5 Würfeln: 7,7 %');
    expect(riskNote(null, renderer(en), 'en')).toBeNull();
  });
  it('says what setting every die aside leads to: all 5 again, and their risk', () => {
    const legal = keepAll.view.legal as unknown as FarkleLegal;
    const k = legal.keeps.find((c) => c.dice_left === 0)!;
    expect(k.next_dice).toBe(5);
    expect(keepLabel(k, renderer(en))).toMatch(/hot dice: all 5 dice again$/);
    expect(keepLabel(k, renderer(de))).toMatch(/heiße Würfel: wieder alle 5 Würfel$/);
    expect(riskNote({ dice: k.next_dice, risk: k.risk }, renderer(en), 'en')).toBe('Farkle risk with 5 dice: 7.7 %');
    const labels = farkleChoices(legal, renderer(en), keepAll.names).map((c) => c.label);
    for (const text of labels) expect(text).not.toMatch(/[{}]|farkle\.|web\.|\bp\d\b/);
  });
  it('counts one die as one', () => {
    const one = { action: 'keep 11155', dice: '11155', soldiers: 1100, dice_left: 1, next_dice: 1, risk: 0.6667 };
    expect(keepLabel(one, renderer(en))).toBe('Set aside 11155: 1100 soldiers, 1 die left');
    expect(riskNote({ dice: 1, risk: 0.6667 }, renderer(en), 'en')).toBe('Farkle risk with 1 die: 66.7 %');
    expect(riskNote({ dice: 1, risk: 0.6667 }, renderer(de), 'de')).toBe('Farkle-Risiko mit 1 Würfel: 66,7 %');
  });
});

// Issue 25: a Skirmish's scoring dice give attack or defence, not soldiers (D5.1, D5.2); the
// dragon's hits read as hits so far and the hits that slay it, never "4 of 3" (D6.2, D6.4).
describe('Farkle words of a Skirmish and the dragon', () => {
  const keepAll = every.find((f) => f.stage === 'defender_keep_all')!;
  it('labels a defender\'s scoring dice as defence, an attacker\'s as attack', () => {
    const pub = keepAll.view.public as unknown as FarklePublic;
    expect(keepRole(pub)).toBe('defence');
    expect(keepRole({ ...pub, roller: pub.skirmish!.attacker })).toBe('attack');
    expect(keepRole({ ...pub, skirmish: null })).toBe('soldiers');
    const legal = keepAll.view.legal as unknown as FarkleLegal;
    const en1 = farkleChoices(legal, renderer(en), keepAll.names, keepRole(pub)).filter((c) => c.keep).map((c) => c.label);
    expect(en1.length).toBeGreaterThan(0);
    for (const label of en1) expect(label).toMatch(/ defence, /);
    for (const label of en1) expect(label).not.toMatch(/soldiers/);
    const de1 = farkleChoices(legal, renderer(de), keepAll.names, keepRole(pub)).filter((c) => c.keep).map((c) => c.label);
    for (const label of de1) expect(label).toMatch(/ Verteidigung, /);
    const one = { action: 'keep 5', dice: '5', soldiers: 50, dice_left: 3, next_dice: 3, risk: 0.2778 };
    expect(keepLabel(one, renderer(en), 'attack')).toBe('Set aside 5: 50 attack, 3 dice left');
    const alliance = { ...legal, decision: 'alliance' as const, actions: ['double', 'item'] as [string, ...string[]], moves: [{ action: 'double', kind: 'double' as const }, { action: 'item', kind: 'item' as const }] as FarkleLegal['moves'], keeps: [] };
    expect(farkleChoices(alliance, renderer(en), keepAll.names, 'defence')[0]!.label).toBe('Double the defence set aside');
    expect(farkleChoices(alliance, renderer(de), keepAll.names, 'attack')[0]!.label).toBe('Beiseitegelegten Angriff verdoppeln');
    expect(farkleChoices(alliance, renderer(en), keepAll.names)[0]!.label).toBe('Double the soldiers set aside');
    expect(keepLabel(one, renderer(de), 'attack')).toBe('5 beiseitelegen: 50 Angriff, 3 Würfel übrig');
  });
  it('says the dragon was slain when the hits reach its strength, else how many slay it', () => {
    expect(dragonLine({ damage: 1, strength: 3 }, renderer(en))).toBe('Hits: 1, 3 slay it');
    expect(dragonLine({ damage: 1, strength: 3 }, renderer(en), 'farkle.screen.stage.damage')).toBe('The dragon is wounded: 1 hit so far, 3 slay it');
    expect(dragonLine({ damage: 4, strength: 3 }, renderer(en))).toBe('Slain with 4 hits (3 were needed)');
    expect(dragonLine({ damage: 4, strength: 3 }, renderer(de))).toBe('Mit 4 Treffern erschlagen (3 waren nötig)');
    const dmg = every.find((f) => f.stage === 'damage')!;
    const pub = dmg.view.public as unknown as FarklePublic;
    const note = stageNotes(pub, dmg.seat, renderer(en)).find((n) => n.stage === 'damage')!;
    expect(note.text).toBe(`The dragon is wounded: ${pub.dragon.damage} ${pub.dragon.damage === 1 ? 'hit' : 'hits'} so far, ${pub.dragon.strength} slay it`);
    const slain = stageNotes({ ...pub, dragon: { damage: 4, strength: 3 } }, dmg.seat, renderer(en)).find((n) => n.stage === 'damage')!;
    expect(slain.text).not.toMatch(/4 of 3/);
  });
});
