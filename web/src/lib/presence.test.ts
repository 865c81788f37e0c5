import { describe, expect, it } from 'vitest';
import type { PresenceInfo } from '../gen/protocol';
import { formatSince, presenceRows } from './presence';
import { initialState, reduce } from './protocol';

const info: PresenceInfo = {
  now: 1000, away: { kind: 'bot', seconds: 180 },
  seats: [
    { seat: 0, connected: true, since: null, takeover_at: null },
    { seat: 1, connected: false, since: 990, takeover_at: 1170 },
  ],
};

describe('presence', () => {
  it('counts down to the takeover from when the message arrived', () => {
    expect(presenceRows(info, 0)).toEqual([
      { seat: 0, connected: true, since: null, left: null },
      { seat: 1, connected: false, since: 990, left: 170 },
    ]);
    expect(presenceRows(info, 9000)[1]?.left).toBe(161);
    expect(presenceRows(info, 10_000_000)[1]?.left).toBe(0); // never below zero
    expect(presenceRows(info, -200)[1]?.left).toBe(170); // a tick older than the message
  });

  it('a seat without a countdown has none (the table waits)', () => {
    const waiting: PresenceInfo = { ...info, away: { kind: 'wait' },
      seats: [{ seat: 1, connected: false, since: 990, takeover_at: null }] };
    expect(presenceRows(waiting, 5000)).toEqual([{ seat: 1, connected: false, since: 990, left: null }]);
  });

  it('shows the time of day in the reader’s language', () => {
    expect(formatSince(0, 'en-GB', 'UTC')).toBe('00:00');
    expect(formatSince(12 * 3600 + 3 * 60, 'de', 'UTC')).toBe('12:03');
  });

  it('the reducer keeps the newest presence and when it came', () => {
    const s = reduce(initialState(), { type: 'presence', ...info }, 42);
    expect(s.presence).toEqual(info);
    expect(s.presenceAt).toBe(42);
    const back = reduce(s, { type: 'presence', ...info, seats: info.seats.slice(0, 1) }, 50);
    expect(back.presence?.seats).toHaveLength(1);
  });
});
