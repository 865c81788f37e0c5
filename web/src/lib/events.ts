// The events a log shows: each one the viewer was sent, but one line per secret. An engine
// tells a seat its secret (a Farkle item drawn, kept or discarded: `farkle.item.drawn_own`,
// addressed `to` that seat) right after the public twin every viewer gets
// (`farkle.item.drawn`: "Ann draws a magic item"): the owner reads the secret, not both
// (issue 25). The pairing is the engines' naming, not a rule: the twin is the event at the
// seq before, with the secret's code less `_own` and the same `seat`
// (dragonlair/games/farkle/events.py; tests/test_farkle_next_roll.py holds it). A viewer is
// only ever sent its own secrets, so an event with `to` is the viewer's.
import type { EventModel } from '../gen/protocol';

/** The events less the public twin of each secret the viewer was sent. */
export function oneLinePerSecret(events: readonly EventModel[]): EventModel[] {
  const twins = new Set<number>();
  const bySeq = new Map(events.map((e) => [e.seq, e]));
  for (const e of events) {
    if (e.to === undefined || e.to === null || !e.code.endsWith('_own')) continue;
    const twin = bySeq.get(e.seq - 1);
    if (twin && (twin.to === undefined || twin.to === null) && twin.code === e.code.slice(0, -'_own'.length) && twin.params.seat === e.params.seat) twins.add(twin.seq);
  }
  return twins.size ? events.filter((e) => !twins.has(e.seq)) : [...events];
}
