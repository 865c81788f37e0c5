// The sealed-bid builder against real views (fixtures/bids/, web/scripts/game_fixtures.py):
// it steps the coins within the view's limits and sends the text the view's form writes for
// them, one of the engine's legal actions; it composes no text of its own.
import { describe, expect, it } from 'vitest';
import type { DragonlairViewFistSchemaVersion1 as FistView, FistLegal } from '../../gen/view-fist';
import { formTexts } from '../../lib/forms';
import { fixtures } from '../testkit';
import { bidAction, clampBid, EMPTY_BID, lastReveal, silverAction, step, type BidDraft } from './bid';

const all = fixtures<FistView>('fist', 'bids');
const stage = (name: string) => {
  const fx = all.find((f) => f.stage === name)!;
  return { fx, legal: fx.view.legal as unknown as FistLegal };
};

describe('bid builder', () => {
  it('has real views of a sealed bid (with a Black Magic coin, and with the Red Amulet) and a tie-break bid', () => {
    expect(all.map((f) => f.stage).sort()).toEqual(['amulet', 'bid', 'silver']);
  });

  it('keeps counts within the legal limits', () => {
    const { legal } = stage('bid');
    const limits = legal.bid!;
    let d = EMPTY_BID;
    for (let i = 0; i < limits.fairy + 3; i++) d = step(d, limits, 'fairy', 1);
    expect(d.fairy).toBe(limits.fairy);
    d = step(d, limits, 'common', -1);
    expect(d.common).toBe(0);
    expect(clampBid({ fairy: 99, common: 99, black: true, amulet: true }, limits)).toEqual({ fairy: limits.fairy, common: limits.common, black: limits.black, amulet: limits.amulet });
  });

  it('sends the engine\'s text for every draft, and can reach every legal bid', () => {
    for (const name of ['bid', 'amulet']) {
      const { fx, legal } = stage(name);
      const limits = legal.bid!;
      const sent = new Set<string>();
      for (let fairy = 0; fairy <= limits.fairy; fairy++)
        for (let common = 0; common <= limits.common; common++)
          for (const black of [false, true])
            for (const amulet of [false, true]) {
              const text = bidAction({ fairy, common, black, amulet }, legal);
              expect(fx.legal_actions, `${name}: ${text}`).toContain(text);
              sent.add(text!);
            }
      expect([...sent].sort()).toEqual([...fx.legal_actions].sort());
      expect(formTexts(legal.form!)).toEqual(fx.legal_actions);
    }
  });

  it('picks the text by the coins, whatever words the engine writes', () => {
    const { legal } = stage('amulet');
    // the same structure in other words: the builder only looks the texts up
    const other: FistLegal = {
      ...legal,
      form: { parts: [{ slot: 'amulet', texts: ['', 'A+'] }, { slot: null, texts: ['gebot'] }, { slot: 'black', texts: ['', '/schwarz'] }, { slot: 'fairy', texts: [':0'] }, { slot: 'common', texts: [':0'] }] },
    };
    const draft: BidDraft = { fairy: 0, common: 0, black: true, amulet: true };
    expect(bidAction(draft, legal)).toBe('bid f0 c0 black amulet');
    expect(bidAction(draft, other)).toBe('A+gebot/schwarz:0:0');
    expect(bidAction({ ...draft, black: false }, other)).toBe('A+gebot:0:0');
  });

  it('drops a coin the view does not offer, and sends no bid where none is asked', () => {
    const { fx, legal } = stage('bid');
    expect(legal.bid!.amulet).toBe(false);
    const withAmulet = bidAction({ fairy: 1, common: 0, black: false, amulet: true }, legal);
    expect(withAmulet).toBe(bidAction({ fairy: 1, common: 0, black: false, amulet: false }, legal));
    expect(fx.legal_actions).toContain(withAmulet);
    expect(bidAction(EMPTY_BID, stage('silver').legal)).toBeNull();
    expect(bidAction(EMPTY_BID, null)).toBeNull();
    expect(silverAction(1, false, legal)).toBeNull();
  });

  it('sends the engine\'s text for a tie-break bid, within the limits', () => {
    const { fx, legal } = stage('silver');
    const lim = legal.silver!;
    const sent = new Set<string>();
    for (let n = 0; n <= lim.silver + 2; n++)
      for (const amulet of [false, true]) {
        const text = silverAction(n, amulet, legal);
        expect(fx.legal_actions).toContain(text);
        sent.add(text!);
      }
    expect([...sent].sort()).toEqual([...fx.legal_actions].sort());
    expect(silverAction(lim.silver + 5, false, legal)).toBe(silverAction(lim.silver, false, legal));
  });

  it('finds the last batch of revealed fists', () => {
    const ev = (seq: number, code: string, seat = 0) => ({ seq, code, params: { seat } });
    expect(lastReveal([ev(1, 'fist.bid.sealed')])).toEqual([]);
    const events = [ev(1, 'fist.bid.revealed', 0), ev(2, 'fist.bid.revealed', 1), ev(3, 'fist.auction.won'), ev(4, 'fist.bid.revealed', 0), ev(5, 'fist.bid.revealed', 1), ev(6, 'fist.bid.revealed', 2), ev(7, 'fist.auction.tie'), ev(8, 'fist.tiebreak.revealed', 1), ev(9, 'fist.tiebreak.revealed', 2), ev(10, 'fist.auction.won')];
    expect(lastReveal(events).map((e) => e.seq)).toEqual([8, 9]);
    expect(lastReveal(events.slice(0, 7)).map((e) => e.seq)).toEqual([4, 5, 6]);
  });
});
