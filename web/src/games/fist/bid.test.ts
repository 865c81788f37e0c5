import { describe, expect, it } from 'vitest';
import { bidAction, clampBid, EMPTY_BID, lastReveal, silverAction, step } from './bid';

const limits = { fairy: 2, common: 3, black: false, amulet: true };

describe('bid builder', () => {
  it('keeps counts within the legal limits', () => {
    let d = EMPTY_BID;
    for (let i = 0; i < 5; i++) d = step(d, limits, 'fairy', 1);
    expect(d.fairy).toBe(2);
    d = step(d, limits, 'common', -1);
    expect(d.common).toBe(0);
    expect(clampBid({ fairy: 9, common: 9, black: true, amulet: true }, limits)).toEqual({ fairy: 2, common: 3, black: false, amulet: true });
  });
  it('writes the action text the engine parses', () => {
    expect(bidAction(EMPTY_BID, limits)).toBe('bid f0 c0');
    expect(bidAction({ fairy: 1, common: 3, black: true, amulet: true }, limits)).toBe('bid f1 c3 amulet');
    expect(bidAction({ fairy: 1, common: 0, black: true, amulet: false }, { ...limits, black: true })).toBe('bid f1 c0 black');
    expect(silverAction(5, true, { silver: 3, amulet: false })).toBe('silver 3');
    expect(silverAction(2, true, { silver: 3, amulet: true })).toBe('silver 2 amulet');
  });
  it('finds the last batch of revealed fists', () => {
    const ev = (seq: number, code: string, seat = 0) => ({ seq, code, params: { seat } });
    expect(lastReveal([ev(1, 'fist.bid.sealed')])).toEqual([]);
    const events = [ev(1, 'fist.bid.revealed', 0), ev(2, 'fist.bid.revealed', 1), ev(3, 'fist.auction.won'), ev(4, 'fist.bid.revealed', 0), ev(5, 'fist.bid.revealed', 1), ev(6, 'fist.bid.revealed', 2), ev(7, 'fist.auction.tie'), ev(8, 'fist.tiebreak.revealed', 1), ev(9, 'fist.tiebreak.revealed', 2), ev(10, 'fist.auction.won')];
    expect(lastReveal(events).map((e) => e.seq)).toEqual([8, 9]);
    expect(lastReveal(events.slice(0, 7)).map((e) => e.seq)).toEqual([4, 5, 6]);
  });
});
