// The log's icons and groups (logmap.ts) on real engine events of each game
// (fixtures/log-<game>.json): every icon says what moved, from the event's params alone.
import { describe, expect, it } from 'vitest';
import type { EventModel } from '../gen/protocol';
import { catalogue } from '../games/testkit';
import { render } from './format';
import { oneLinePerSecret } from './events';
import { logFixture } from './logfixtures';
import { groupLog, iconsOf, type IconName, type LogGroup } from './logmap';

const en = catalogue('en');
const de = catalogue('de');
const ev = (code: string, params: Record<string, unknown>): EventModel => ({ seq: 1, code, params });
const names = (e: EventModel) => iconsOf(e).map((i) => i.icon);

describe('icons of what moved', () => {
  it('a Fist bid: the fist and each coin bid, with how many', () => {
    expect(iconsOf(ev('fist.bid.revealed', { seat: 0, fairy: 4, common: 2, black: 1, amulet: 0, value: 9 }))).toEqual([
      { icon: 'hand' }, { icon: 'fairy', n: 4 }, { icon: 'common', n: 2 }, { icon: 'black', n: 1 }]);
    expect(iconsOf(ev('fist.tiebreak.own', { seat: 0, silver: 3, amulet: 1 }))).toEqual([
      { icon: 'hand' }, { icon: 'silver', n: 3 }, { icon: 'amulet', n: 1 }]);
    expect(names(ev('fist.auction.won', { seat: 2, card: 'witch' }))).toEqual(['crown', 'card']);
    expect(names(ev('fist.gain.stones', { seat: 0, colour: 'blue', n: 1 }))).toEqual(['stone-blue']);
    expect(iconsOf(ev('fist.power.paid_stones', { seat: 1, red: 1, blue: 3, yellow: 0 }))).toEqual([
      { icon: 'stone-red', n: 1 }, { icon: 'stone-blue', n: 3 }]);
  });
  it('a Farkle roll: one die a face; a keep: the dice and what they became', () => {
    expect(iconsOf(ev('farkle.roll.rolled', { seat: 0, dice: '124446', event: 'dragon' })).map((i) => i.face)).toEqual([1, 2, 4, 4, 4, 6]);
    expect(names(ev('farkle.keep.attack', { seat: 1, dice: '15', n: 150 }))).toEqual(['die', 'die', 'sword']);
    expect(names(ev('farkle.keep.soldiers', { seat: 1, dice: '5', n: 50 }))).toEqual(['die', 'soldier']);
    expect(names(ev('farkle.roll.eaten', { seat: 0, dice: '1', n: 100 }))).toEqual(['dragon', 'die']);
    expect(names(ev('farkle.end.dragon_slain', { seat: 0 }))).toEqual(['crown', 'dragon']);
  });
  it('Master: a placed dragon card, a hand of cards, a round won', () => {
    expect(names(ev('master.move.placed', { seat: 0, card: 'egg', cell: 'd4' }))).toEqual(['dragon']);
    expect(iconsOf(ev('master.deal.hand', { seat: 0, cards: ['egg', 'ruby', 'ruby'] }))).toEqual([{ icon: 'card', n: 3 }]);
    expect(names(ev('master.round.won', { round: 1, seat: 1 }))).toEqual(['crown']);
  });
  it('nothing for what moves nothing, or a game without a mapping', () => {
    expect(iconsOf(ev('fist.turn.end', { turn: 1 }))).toEqual([]);
    expect(iconsOf(ev('chess.move', { seat: 0 }))).toEqual([]);
    expect(iconsOf(ev('farkle.roll.rolled', { seat: 0, dice: 42 }))).toEqual([]);
  });
  it('every real event gets known icons only', () => {
    const known = new Set<IconName>(['hand', 'fairy', 'common', 'silver', 'black', 'amulet', 'stone-red', 'stone-blue', 'stone-yellow', 'die', 'card', 'soldier', 'sword', 'dragon', 'crown']);
    for (const game of ['fist', 'farkle', 'master'] as const) {
      const events = logFixture(game).events['0'];
      const icons = events.flatMap(iconsOf);
      expect(icons.length).toBeGreaterThan(events.length / 3);
      for (const i of icons) {
        expect(known.has(i.icon)).toBe(true);
        if (i.icon === 'die') expect(i.face).toBeGreaterThanOrEqual(1);
      }
    }
  });
});

/** A group's events as the engine sent them: its opener (shown as the heading), then its lines. */
const lines = (g: LogGroup): EventModel[] => (g.opener ? [g.opener, ...g.events] : g.events);

describe('groups with a heading', () => {
  it('Fist: one group an auction, numbered, named by its card; a turn its own', () => {
    const fist = logFixture('fist');
    const groups = groupLog(oneLinePerSecret(fist.events['0']));
    const auctions = groups.filter((g) => g.heading.code === 'web.log.group.auction');
    expect(auctions.length).toBe(fist.events['0'].filter((e) => e.code === 'fist.auction.card').length);
    auctions.forEach((g, i) => {
      expect(g.heading.params.n).toBe(i + 1);
      // the card's line is the heading, not a line of its own
      expect(g.opener!.code).toBe('fist.auction.card');
      expect(g.events.some((e) => e.code === 'fist.auction.card')).toBe(false);
      expect(g.heading.card).toEqual({ game: 'fist', id: g.opener!.params.card });
    });
    expect(groups[0]!.heading.code).toBe('web.log.group.setup');
    expect(groups.some((g) => g.heading.code === 'web.log.group.turn')).toBe(true);
    // nothing lost, nothing doubled, order kept
    expect(groups.flatMap(lines)).toEqual(oneLinePerSecret(fist.events['0']));
    expect(render(en, 'web.log.group.auction', { n: 3, card: 'the Wizard' })).toBe('Auction 3: the Wizard');
  });
  it('Farkle: one group a player\'s turn, headed by whose turn it is', () => {
    const farkle = logFixture('farkle');
    const groups = groupLog(farkle.events['1']);
    const turns = groups.filter((g) => g.heading.code === 'web.log.group.turn_of');
    expect(turns.length).toBe(7);
    for (const g of turns) {
      expect(g.opener!.code).toBe('farkle.turn.start');
      expect(g.heading.params).toEqual(g.opener!.params);
    }
    const h = turns[1]!.heading;
    expect(render(en, h.code, h.params, { names: farkle.names })).toMatch(/^Turn 2: (Ann|Bob) \(army 500\)$/);
    expect(render(de, h.code, h.params, { names: farkle.names })).toMatch(/^Zug 2: (Ann|Bob) \(Armee 500\)$/);
    expect(groups.flatMap(lines)).toEqual(farkle.events['1']);
  });
  it('Master: one group a round', () => {
    const master = logFixture('master');
    const groups = groupLog(master.events.spectator);
    expect(groups.map((g) => g.heading.params.round)).toEqual([1, 2, 3]);
    expect(render(de, 'web.log.group.round', { round: 2 })).toBe('Runde 2');
    expect(groups.flatMap(lines)).toEqual(master.events.spectator);
    expect(groups.every((g) => g.opener!.code === 'master.round.begin')).toBe(true);
  });
});
