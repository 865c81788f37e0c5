// The pictures of the cards (kinds.ts): every character of the game (its catalogue, F2) has an
// emblem of its power's kind, with a word for the kind in English and German; the dragons show
// their stone; a custom character (F9) is drawn from its power's steps, as the shipped examples
// (dragonlair/games/fist/examples/*.toml) declare them.
import { describe, expect, it } from 'vitest';
import type { DragonlairViewFistSchemaVersion1 as FistView } from '../../../gen/view-fist';
import { catalogue, fixtures } from '../../testkit';
import { BUILTIN_IDS, cardLook, customPowers, KINDS, kindOfPower, stonesOfPower } from './kinds';

const en = catalogue('en');
const de = catalogue('de');
const catalogueIds = Object.keys(en.messages).map((k) => /^fist\.card\.([a-z0-9-]+)\.name$/.exec(k)?.[1]).filter((x): x is string => !!x);

describe('card pictures', () => {
  it('draws every character of the catalogue with a kind of its own (F2)', () => {
    expect(catalogueIds.length).toBe(28); // 8 standard + 20 special ids (33 cards with the copies)
    expect([...BUILTIN_IDS].sort()).toEqual([...catalogueIds].sort());
    for (const id of catalogueIds) expect(cardLook(id).kind, id).not.toBe('custom');
  });

  it('names every kind in English and German', () => {
    for (const k of KINDS) {
      for (const cat of [en, de]) expect(cat.messages[`fist.ui.kind.${k}`], `${cat.lang} ${k}`).toBeTruthy();
    }
    expect(new Set(KINDS).size).toBe(KINDS.length);
  });

  it('groups the cards by what their power does (F6, F7)', () => {
    expect(cardLook('red-dragon')).toEqual({ kind: 'stones', stones: ['red'] });
    expect(cardLook('blue-dragon').stones).toEqual(['blue']);
    expect(cardLook('yellow-dragon').stones).toEqual(['yellow']);
    expect(cardLook('ancient-dragon')).toEqual({ kind: 'stones', stones: [] });
    expect(cardLook('witch').kind).toBe('curse');
    expect(cardLook('thief').kind).toBe('steal');
    expect(cardLook('brigand').kind).toBe('steal');
    expect(cardLook('troll').kind).toBe('lose');
    expect(cardLook('merchant').kind).toBe('buy');
    expect(cardLook('rainbow-dragon').kind).toBe('luck');
    for (const id of ['magician', 'sorcerer', 'wizard', 'enchantress', 'sorcerers-apprentice', 'quack-wizard', 'necromancer']) expect(cardLook(id).kind, id).toBe('points');
    for (const id of ['ghost', 'imp', 'goblin', 'doppelganger']) expect(cardLook(id).kind, id).toBe('copy');
    for (const id of ['alchemist', 'dwarf-4', 'dwarf-5', 'gnome', 'fairy', 'goldsmith']) expect(cardLook(id).kind, id).toBe('coins');
  });

  it('draws every card a real view shows', () => {
    for (const fx of [...fixtures<FistView>('fist'), ...fixtures<FistView>('fist', 'bids')]) {
      const p = fx.view.public;
      for (const id of [...p.pile, ...p.auctioned, ...p.turn_specials, ...p.special_discard, ...(p.card ? [p.card] : [])]) {
        expect(cardLook(id).kind, `${fx.stage}: ${id}`).not.toBe('custom');
      }
    }
  });

  it('draws a custom character from its power (F9)', () => {
    // the shipped examples: moneylender, stormcaller, highwayman
    expect(kindOfPower([{ either: { pay_stones: { count: 2, pattern: 'any', points: 1 } }, or: { gain: { common: 2, silver: 1 } } }])).toBe('points');
    expect(kindOfPower([{ lose_colour: true }, { gain_stone_choice: 1 }])).toBe('lose');
    expect(kindOfPower([{ steal_from_second: true }, { gain: { silver: 1 } }])).toBe('steal');
    expect(kindOfPower([{ gain: { red: 1, yellow: 2 } }])).toBe('stones');
    expect(stonesOfPower([{ gain: { red: 1, yellow: 2 } }])).toEqual(['red', 'yellow']);
    expect(kindOfPower([{ gain: { silver: 2 } }, { pay_stones: { count: 2, pattern: 'same', points: 1 } }])).toBe('coins');
    expect(kindOfPower([{ gain: { black: 1 } }])).toBe('curse');
    expect(kindOfPower([{ buy_stones: { common: 1 } }])).toBe('buy');
    expect(kindOfPower([{ bag_draw: { per_colour: 2, draws: 2 } }])).toBe('luck');
    expect(kindOfPower([{ play_unauctioned: 'choose' }])).toBe('copy');
    expect(kindOfPower(undefined)).toBe('custom');
    expect(kindOfPower([{ nonsense: 1 }])).toBe('custom');
    const powers = customPowers({ custom: [{ id: 'silver-baron', power: [{ gain: { silver: 2 } }] }, { name: 'no id' }] });
    expect(Object.keys(powers)).toEqual(['silver-baron']);
    expect(cardLook('silver-baron', powers)).toEqual({ kind: 'coins', stones: [] });
    // a custom card named like a built-in one is drawn by its own power
    expect(cardLook('witch', customPowers({ custom: [{ id: 'witch', power: [{ gain: { blue: 1 } }] }] }))).toEqual({ kind: 'stones', stones: ['blue'] });
  });
});
