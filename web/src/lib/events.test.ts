// One log line per secret (issue 25): the owner of a Farkle item reads the secret ("You draw
// the Lucky Clover"), not also its public twin ("Ann draws a magic item"); every other viewer
// reads the twin. Real engine events (games/farkle/fixtures/log/, web/scripts/game_fixtures.py).
import { describe, expect, it } from 'vitest';
import type { EventModel } from '../gen/protocol';
import { catalogue, fixtures } from '../games/testkit';
import { isMine, isTwinCode, oneLinePerSecret } from './events';
import { logFixture } from './logfixtures';
import { render } from './format';

interface LogFixture {
  names: string[];
  events: Record<string, EventModel[]>;
}
const log = fixtures<unknown>('farkle', 'log')[0] as unknown as LogFixture;
const en = catalogue('en');

describe('one log line per secret', () => {
  it('drops the public twin of each of the owner\'s secrets, and nothing else', () => {
    for (const seat of ['0', '1']) {
      const events = log.events[seat]!;
      const own = events.filter((e) => e.to !== undefined);
      expect(own.length).toBeGreaterThan(0);
      const shown = oneLinePerSecret(events);
      expect(shown.length).toBe(events.length - own.length);
      for (const e of own) {
        expect(shown).toContainEqual(e);
        expect(shown.find((x) => x.seq === e.seq - 1)).toBeUndefined();
      }
      // the other seat's public twins stay: that seat's items are not this viewer's
      const other = log.events[seat === '0' ? '1' : '0']!.filter((e) => e.to !== undefined);
      for (const e of other) expect(shown.some((x) => x.seq === e.seq - 1)).toBe(true);
    }
  });
  it('leaves a spectator\'s log alone: the twins are all it has', () => {
    expect(oneLinePerSecret(log.events.spectator!)).toEqual(log.events.spectator);
  });
  it('reads one line for the owner\'s draw in words', () => {
    const events = log.events['1']!;
    const lines = oneLinePerSecret(events).map((e) => render(en, e.code, e.params, { names: log.names }));
    const drawn = events.find((e) => e.code === 'farkle.item.drawn_own')!;
    const twin = events.find((e) => e.seq === drawn.seq - 1)!;
    expect(lines).toContain(render(en, drawn.code, drawn.params, { names: log.names }));
    expect(lines).not.toContain(render(en, twin.code, twin.params, { names: log.names }));
    expect(lines.filter((l) => l.includes(log.names[1]!) || /\byou\b/i.test(l)).length).toBeGreaterThan(0);
  });
  it('keeps a secret without its twin, and an event addressed to nobody', () => {
    const e = (seq: number, code: string, params: Record<string, unknown>, to?: number): EventModel => ({ seq, code, params, ...(to === undefined ? {} : { to }) });
    const alone = [e(1, 'farkle.turn.start', { turn: 1, seat: 0, army: 0 }), e(2, 'farkle.item.drawn_own', { seat: 0, card: 'lucky-clover' }, 0)];
    expect(oneLinePerSecret(alone)).toEqual(alone);
    const other = [e(4, 'farkle.item.drawn', { seat: 1 }), e(5, 'farkle.item.drawn_own', { seat: 0, card: 'lucky-clover' }, 0)];
    expect(oneLinePerSecret(other)).toEqual(other); // another seat's twin: not this secret's
  });
});

// Fist names the pair "a.b.own" after "a.b.<anything>": the owner of a sealed bid reads
// "You bid 4 Fairy Gold…", not also "Ann has bid" (dragonlair/games/fist/events.py
// submit_events). Real events of a seeded 3-player game with a Silver tie-break.
describe('one log line per Fist secret', () => {
  const fist = logFixture('fist');
  it('pairs the secret with its public twin by the naming', () => {
    expect(isTwinCode('fist.bid.own', 'fist.bid.sealed')).toBe(true);
    expect(isTwinCode('fist.tiebreak.own', 'fist.tiebreak.sealed')).toBe(true);
    expect(isTwinCode('fist.bid.own', 'fist.tiebreak.sealed')).toBe(false);
    expect(isTwinCode('fist.bid.own', 'fist.bid.own')).toBe(false);
    expect(isTwinCode('fist.bid.own', 'fist.bid.sealed.x')).toBe(false);
    expect(isTwinCode('farkle.item.drawn_own', 'farkle.item.drawn')).toBe(true);
    expect(isTwinCode('farkle.item.drawn_own', 'farkle.item.discarded')).toBe(false);
    expect(isTwinCode('master.deal.hand', 'master.round.begin')).toBe(false);
  });
  it('drops the twin of each of the owner\'s bids and tie-breaks, and nothing else', () => {
    for (const seat of ['0', '1'] as const) {
      const events = fist.events[seat];
      const own = events.filter((e) => e.to !== undefined);
      expect(own.map((e) => e.code)).toContain('fist.bid.own');
      if (seat === '0') expect(own.map((e) => e.code)).toContain('fist.tiebreak.own');
      const shown = oneLinePerSecret(events);
      expect(shown.length).toBe(events.length - own.length);
      for (const e of own) {
        expect(shown).toContainEqual(e);
        const twin = events.find((x) => x.seq === e.seq - 1)!;
        expect(twin.code.replace(/\.[a-z]+$/, '')).toBe(e.code.replace(/\.own$/, ''));
        expect(shown).not.toContainEqual(twin);
      }
      // the other seats' sealed bids stay: "Bob has bid"
      expect(shown.filter((e) => e.code === 'fist.bid.sealed' && e.params.seat !== Number(seat)).length).toBeGreaterThan(0);
      expect(shown.filter((e) => e.code === 'fist.bid.sealed' && e.params.seat === Number(seat))).toEqual([]);
    }
    expect(oneLinePerSecret(fist.events.spectator)).toEqual(fist.events.spectator);
  });
  it('reads the owner\'s bid once, in words', () => {
    const lines = oneLinePerSecret(fist.events['0']).map((e) => render(en, e.code, e.params, { names: fist.names }));
    expect(lines.filter((l) => l.startsWith('You bid')).length).toBeGreaterThan(0);
    expect(lines.filter((l) => l === 'Ann has bid')).toEqual([]);
    expect(lines.filter((l) => l === 'Bob has bid').length).toBeGreaterThan(0);
  });
});

describe('the viewer\'s own events', () => {
  it('are those of their seat and those addressed to them; a spectator has none', () => {
    const events = logFixture('farkle').events['0'];
    const mine = events.filter((e) => isMine(e, 0));
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => e.params.seat === 0 || e.to === 0)).toBe(true);
    expect(events.filter((e) => isMine(e, 1)).every((e) => e.params.seat === 1)).toBe(true);
    expect(events.some((e) => e.to === 0 && isMine(e, 0))).toBe(true);
    expect(events.filter((e) => isMine(e, null))).toEqual([]);
  });
});
