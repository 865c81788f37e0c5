import { describe, expect, it } from 'vitest';
import { faces, moveLabel, percent, tableDice, type EventLike } from './dice';

describe('farkle dice', () => {
  it('reads dice texts', () => {
    expect(faces('1155')).toEqual([1, 1, 5, 5]);
    expect(faces('')).toEqual([]);
  });
  it('labels every kind of action by what the view says it is, not by its text', () => {
    expect(moveLabel({ action: 'keep 155', kind: 'keep', dice: '155' })).toBeNull();
    expect(moveLabel({ action: 'skirmish p2', kind: 'skirmish', seat: 2 })).toEqual({ code: 'web.farkle.act.skirmish', params: { target: 2 } });
    expect(moveLabel({ action: 'ignore dragon', kind: 'tabby' })).toEqual({ code: 'web.farkle.act.tabby', params: {} });
    expect(moveLabel({ action: 'reroll 4', kind: 'reroll', face: 4 })).toEqual({ code: 'web.farkle.act.reroll', params: { face: 4 } });
    expect(moveLabel({ action: 'keep-item gold-purse', kind: 'keep_item', card: 'gold-purse' })).toEqual({ code: 'web.farkle.act.keep_item', params: { card: 'gold-purse' } });
    expect(moveLabel({ action: 'bank', kind: 'bank' })).toEqual({ code: 'web.farkle.act.bank', params: {} });
    // the words are the engine's: another text of the same move is labelled the same
    expect(moveLabel({ action: 'angriff 3', kind: 'skirmish', seat: 2 })).toEqual(moveLabel({ action: 'skirmish p2', kind: 'skirmish', seat: 2 }));
  });
  it('writes a risk as a percentage the way the reader writes numbers', () => {
    expect(percent(0.0772, 'en')).toBe('7.7');
    expect(percent(0.0772, 'de')).toBe('7,7');
    expect(percent(0.0231, 'en')).toBe('2.3');
    expect(percent(0, 'en')).toBe('0.0');
  });
});

// Issue 25: only the roll of the action under way is on the table (never the last player's at
// the start of a turn), the dice set aside this hand lie beside it, read from the events.
describe('farkle table dice', () => {
  const ev = (code: string, params: Record<string, unknown> = {}): EventLike => ({ code, params });
  const recruit = { mode: 'recruit', roller: 0, roll: '123556' };
  it('shows no roll between actions: the roll of the turn before is not this turn\'s', () => {
    const events = [ev('farkle.roll.rolled', { seat: 1, dice: '155', event: 'blank' }), ev('farkle.recruit.bank', { seat: 1, n: 200, army: 200 }), ev('farkle.turn.start', { turn: 2, seat: 0, army: 0 })];
    expect(tableDice({ mode: 'none', roller: null, roll: '155' }, 'choose', events)).toEqual({ shown: false, rolling: false, roll: [], aside: [] });
  });
  it('puts the dice set aside from the roll beside it, with those of earlier rolls of the hand', () => {
    const events = [
      ev('farkle.turn.start', { turn: 1, seat: 1, army: 0 }), ev('farkle.keep.soldiers', { seat: 1, dice: '1', n: 100 }), ev('farkle.turn.start', { turn: 2, seat: 0, army: 0 }),
      ev('farkle.choose.recruit', { seat: 0 }), ev('farkle.roll.rolled', { seat: 0, dice: '114456', event: 'blank' }), ev('farkle.keep.soldiers', { seat: 0, dice: '11', n: 200 }),
      ev('farkle.roll.rolled', { seat: 0, dice: '123556', event: 'blank' }),
    ];
    const rolled = tableDice(recruit, 'decide', events);
    expect(rolled.shown).toBe(true);
    expect(rolled.roll).toEqual([1, 2, 3, 5, 5, 6]);
    expect(rolled.aside).toEqual([{ face: 1, eaten: false, fresh: false }, { face: 1, eaten: false, fresh: false }]);
    const kept = tableDice(recruit, 'decide', [...events, ev('farkle.keep.soldiers', { seat: 0, dice: '155', n: 200 })]);
    expect(kept.roll).toEqual([2, 3, 6]);
    expect(kept.aside.map((d) => [d.face, d.fresh])).toEqual([[1, false], [1, false], [1, true], [5, true], [5, true]]);
  });
  it('starts a fresh hand after hot dice and at the defender\'s side; marks what the dragon ate', () => {
    const hot = [ev('farkle.keep.attack', { seat: 0, dice: '111', n: 1000 }), ev('farkle.roll.hot', { seat: 0, n: 6 }), ev('farkle.roll.rolled', { seat: 0, dice: '15', event: 'dragon' }), ev('farkle.roll.eaten', { seat: 0, dice: '15', n: 150 })];
    const got = tableDice({ mode: 'skirmish', roller: 0, roll: '15' }, 'decide', hot);
    expect(got.roll).toEqual([]);
    expect(got.shown).toBe(true);
    expect(got.aside).toEqual([{ face: 1, eaten: true, fresh: true }, { face: 5, eaten: true, fresh: true }]);
    const defends = [ev('farkle.keep.attack', { seat: 0, dice: '5', n: 50 }), ev('farkle.skirmish.stop', { seat: 0, n: 50 }), ev('farkle.skirmish.defends', { seat: 1, n: 50 }), ev('farkle.roll.rolled', { seat: 1, dice: '22346', event: 'blank' })];
    expect(tableDice({ mode: 'skirmish', roller: 1, roll: '22346' }, 'decide', defends).aside).toEqual([]);
  });
  it('shows no stale roll while the dice are being rolled', () => {
    const events = [ev('farkle.roll.rolled', { seat: 0, dice: '11', event: 'blank' }), ev('farkle.keep.soldiers', { seat: 0, dice: '1', n: 100 })];
    const got = tableDice({ mode: 'recruit', roller: 0, roll: '11' }, 'roll', events);
    expect(got).toEqual({ shown: false, rolling: true, roll: [], aside: [{ face: 1, eaten: false, fresh: false }] });
  });
});
