// One log line per secret (issue 25): the owner of a Farkle item reads the secret ("You draw
// the Lucky Clover"), not also its public twin ("Ann draws a magic item"); every other viewer
// reads the twin. Real engine events (games/farkle/fixtures/log/, web/scripts/game_fixtures.py).
import { describe, expect, it } from 'vitest';
import type { EventModel } from '../gen/protocol';
import { catalogue, fixtures } from '../games/testkit';
import { oneLinePerSecret } from './events';
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
