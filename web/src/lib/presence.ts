// Presence on screen (display only: the server decides when a bot takes a seat). A presence
// message gives each person's seat (connected, since when not, when the table's takeover bot
// takes it) at the server's `now`; between messages a countdown runs locally from when the
// message arrived (docs/protocol.md, "Presence").
import type { PresenceInfo } from '../gen/protocol';

export interface PresenceRow {
  seat: number;
  connected: boolean;
  /** server time (seconds since the epoch) the person was last connected; null: connected */
  since: number | null;
  /** seconds until the takeover bot takes the seat (never below 0); null: it will not */
  left: number | null;
}

/** Each person's seat, `elapsedMs` after the presence message arrived (a screen's clock that
 * last ticked before the message came gives a negative time: none has passed). */
export function presenceRows(presence: PresenceInfo, elapsedMs: number): PresenceRow[] {
  const elapsed = Math.max(0, elapsedMs);
  return presence.seats.map((s) => ({
    seat: s.seat,
    connected: s.connected,
    since: s.since ?? null,
    left: s.takeover_at === null || s.takeover_at === undefined
      ? null : Math.max(0, s.takeover_at - presence.now - elapsed / 1000),
  }));
}

/** A time of day (server time in seconds since the epoch) in the reader's language. */
export function formatSince(at: number, lang: string, timeZone?: string): string {
  return new Date(at * 1000).toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit', timeZone });
}
