import { describe, expect, it } from 'vitest';
import { farkleRisk, faces, moveLabel } from './dice';

const table = { single_one: 100, single_five: 50, triple: [1000, 200, 300, 400, 500, 600] as [number, number, number, number, number, number], four: 1000, five: 2000, six: 3000, three_pairs: 1500, straight: 1500 };

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
  it('computes the farkle risk of k dice', () => {
    expect(farkleRisk(1, table)).toBeCloseTo(4 / 6);
    expect(farkleRisk(2, table)).toBeCloseTo(16 / 36);
    // the classic figures: 3 dice 27.8 %, 6 dice 2.3 %
    expect(farkleRisk(3, table)).toBeCloseTo(60 / 216);
    expect(farkleRisk(6, table)).toBeCloseTo(0.0231, 3);
    expect(farkleRisk(0, table)).toBe(0);
  });
});
