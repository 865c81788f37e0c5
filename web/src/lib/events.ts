// The events a log shows: each one the viewer was sent, but one line per secret. An engine
// tells a seat its secret right after (at the seq after) the public twin every viewer gets,
// both with the same `seat`; the owner reads the secret, not both (issue 25). The engines
// name the pair in one of two ways, and the pairing is that naming, not a rule:
// - Farkle: `X_own` after `X` (`farkle.item.drawn_own` after `farkle.item.drawn`: "Ann draws
//   a magic item"; dragonlair/games/farkle/events.py, tests/test_farkle_next_roll.py);
// - Fist: `a.b.own` after `a.b.<anything>` (`fist.bid.own` after `fist.bid.sealed`, the
//   Silver tie-break's `fist.tiebreak.own` after `fist.tiebreak.sealed`;
//   dragonlair/games/fist/events.py submit_events).
// A viewer is only ever sent its own secrets, so an event with `to` is the viewer's.
import type { EventModel } from '../gen/protocol';

const addressed = (e: EventModel): boolean => e.to !== undefined && e.to !== null;

/** Whether `twin` is the public twin the secret's code names (the naming above). */
export function isTwinCode(secret: string, twin: string): boolean {
  if (secret.endsWith('_own')) return twin === secret.slice(0, -'_own'.length);
  if (secret.endsWith('.own')) {
    const family = secret.slice(0, -'own'.length); // "fist.bid."
    return twin !== secret && twin.startsWith(family) && !twin.slice(family.length).includes('.');
  }
  return false;
}

/** The events less the public twin of each secret the viewer was sent. */
export function oneLinePerSecret(events: readonly EventModel[]): EventModel[] {
  const twins = new Set<number>();
  const bySeq = new Map(events.map((e) => [e.seq, e]));
  for (const e of events) {
    if (!addressed(e)) continue;
    const twin = bySeq.get(e.seq - 1);
    if (twin && !addressed(twin) && isTwinCode(e.code, twin.code) && twin.params.seat === e.params.seat) twins.add(twin.seq);
  }
  return twins.size ? events.filter((e) => !twins.has(e.seq)) : [...events];
}

/** Whether an event is the viewer's own: addressed to them, or about their seat
 * (`params.seat`). A spectator (seat null) has none. */
export function isMine(e: EventModel, seat: number | null | undefined): boolean {
  if (seat === null || seat === undefined) return false;
  return (addressed(e) && e.to === seat) || e.params.seat === seat;
}
