import { describe, expect, it } from 'vitest';
import { faces, moveLabel, percent } from './dice';

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
