// Dragon Farkle helpers: the label of each legal action (by the kind and what it names, as the
// view's `legal.moves` give them: the engine's, docs/views.md), the faces of a dice text, and
// a farkle risk as a percentage. How many dice the next roll has and its risk are the view's
// (`public.next_roll`, each keep's `next_dice` and `risk`): a defender's hot dice are 5
// (D5.2), which the client would otherwise have to know.
import type { Move } from '../../gen/view-farkle';

/** "1155" -> [1, 1, 5, 5] */
export function faces(dice: string): number[] {
  return [...dice].map(Number).filter((n) => n >= 1 && n <= 6);
}

export interface Label {
  code: string;
  /** params: `target` a seat number, `card` a card id, `face` a die face */
  params: Record<string, unknown>;
}

/** The catalogue code and params of a legal action (an entry of the view's `legal.moves`);
 * null for a keep (shown as dice). */
export function moveLabel(move: Move): Label | null {
  if (move.kind === 'keep') return null;
  const params: Record<string, unknown> = {};
  if (typeof move.seat === 'number') params.target = move.seat;
  if (typeof move.card === 'string') params.card = move.card;
  if (typeof move.face === 'number') params.face = move.face;
  return { code: `web.farkle.act.${move.kind}`, params };
}

/** A probability (0..1, as the view gives a risk) as a percentage with one decimal, written
 * the reader's way: 0.0772 -> "7.7" (German "7,7"). */
export function percent(p: number, lang: string): string {
  return (Math.round(p * 1000) / 10).toLocaleString(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** An event as the table holds it (lib/protocol.ts `events`): its code and params. */
export interface EventLike {
  code: string;
  params: Record<string, unknown>;
}

/** A die set aside this hand: its face, whether the dragon ate it (D4.3, the event
 * `farkle.roll.eaten`), and whether it came from the roll still on the table (it moves aside). */
export interface AsideDie {
  face: number;
  eaten: boolean;
  fresh: boolean;
}

/** The dice on the table as a player sees them. */
export interface TableDice {
  /** a roll of the action under way lies on the table (none between turns: the last
   * player's roll is theirs, not this turn's) */
  shown: boolean;
  /** the dice are being rolled (a chance node: the view's roll is the one before) */
  rolling: boolean;
  /** the roll's dice still in hand: the view's `roll` less those set aside from it since */
  roll: number[];
  /** the dice set aside since the roller's hand was last full, oldest first */
  aside: AsideDie[];
}

/** Events that start a fresh hand of dice: a turn, an action, the defender's side of a
 * Skirmish, hot dice (the engine says so by these events; nothing is worked out here). */
const FRESH_HAND = new Set(['farkle.turn.start', 'farkle.choose.recruit', 'farkle.choose.skirmish', 'farkle.choose.battle', 'farkle.skirmish.defends', 'farkle.roll.hot']);
const ROLLED = new Set(['farkle.roll.rolled', 'farkle.roll.die']);
const SET_ASIDE = new Set(['farkle.keep.soldiers', 'farkle.keep.attack', 'farkle.keep.defence', 'farkle.roll.eaten']);

/** The dice of the table now, from the view and the events this viewer was sent: the roll of
 * the action under way (none between actions, D3), less what was set aside from it, and what
 * was set aside before in this hand, read back from the events (`farkle.keep.*` and
 * `farkle.roll.eaten` name the dice) to the last event that starts a fresh hand. */
export function tableDice(pub: { mode: string; roller: number | null; roll: string }, phase: string, events: readonly EventLike[]): TableDice {
  const none: TableDice = { shown: false, rolling: false, roll: [], aside: [] };
  if (pub.mode === 'none' || pub.roller === null) return none;
  const rolling = phase === 'roll' || phase === 'die';
  const fromRoll: AsideDie[] = [];
  const before: AsideDie[] = [];
  let seenRoll = rolling; // while rolling, every set-aside die is from earlier rolls
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (ROLLED.has(e.code)) {
      seenRoll = true;
      continue;
    }
    if (SET_ASIDE.has(e.code)) {
      const eaten = e.code === 'farkle.roll.eaten';
      const dice = faces(String(e.params.dice ?? ''));
      const out = seenRoll ? before : fromRoll;
      out.unshift(...dice.map((face) => ({ face, eaten, fresh: !seenRoll })));
      continue;
    }
    if (FRESH_HAND.has(e.code)) break;
  }
  if (rolling) return { shown: false, rolling: true, roll: [], aside: before };
  const roll = faces(pub.roll);
  for (const d of fromRoll) {
    const at = roll.indexOf(d.face);
    if (at >= 0) roll.splice(at, 1);
  }
  return { shown: roll.length > 0 || fromRoll.length > 0, rolling: false, roll, aside: [...before, ...fromRoll] };
}

/** What a scoring selection gives the roller, as the view says who rolls: attack for a
 * Skirmish's attacker, defence for its defender, soldiers otherwise (the engine's
 * `farkle.keep.*` events say the same). */
export type KeepRole = 'soldiers' | 'attack' | 'defence';

export function keepRole(pub: { roller: number | null; skirmish: { attacker: number; defender: number } | null } | null | undefined): KeepRole {
  if (!pub?.skirmish) return 'soldiers';
  return pub.roller === pub.skirmish.defender ? 'defence' : 'attack';
}
