// What a log line shows besides its words (issue 25): small icons of what moved, and the
// groups the log is read in. Both come from the event's code and params alone, per game; no
// rule is decided here (which coins a bid held is in its params; which event opens an
// auction, a turn or a round is its code). Tested in logmap.test.ts with real engine events.
import type { EventModel } from '../gen/protocol';
import { gameOf } from './format';

export type IconName =
  | 'hand' | 'fairy' | 'common' | 'silver' | 'black' | 'amulet'
  | 'stone-red' | 'stone-blue' | 'stone-yellow'
  | 'die' | 'card' | 'soldier' | 'sword' | 'dragon' | 'crown';

/** One icon of a line: what moved, with how many (n, shown beside it when over 1) or a die's
 * face (shown on the die). */
export interface LogIcon {
  icon: IconName;
  n?: number;
  face?: number;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const counted = (icon: IconName, n: unknown): LogIcon[] => (num(n) > 0 ? [{ icon, n: num(n) }] : []);
const stone = (colour: unknown): LogIcon[] =>
  colour === 'red' || colour === 'blue' || colour === 'yellow' ? [{ icon: `stone-${colour}` }] : [];
const stones = (p: Record<string, unknown>): LogIcon[] => [
  ...counted('stone-red', p.red), ...counted('stone-blue', p.blue), ...counted('stone-yellow', p.yellow)];
/** Dice as the engines write them ("124446": one digit a die), at most six. */
const dice = (v: unknown): LogIcon[] =>
  typeof v === 'string' ? [...v].filter((c) => c >= '1' && c <= '6').slice(0, 6).map((c) => ({ icon: 'die', face: Number(c) })) : [];

function fist(code: string, p: Record<string, unknown>): LogIcon[] {
  switch (code) {
    case 'fist.setup.stone': case 'fist.gain.stones': case 'fist.thief.stone': return stone(p.colour);
    case 'fist.turn.special': case 'fist.auction.card': case 'fist.auction.skipped':
    case 'fist.auction.cursed': case 'fist.auction.passed': return [{ icon: 'card' }];
    case 'fist.bid.sealed': case 'fist.tiebreak.sealed': case 'fist.auction.tie': return [{ icon: 'hand' }];
    case 'fist.bid.own': case 'fist.bid.revealed':
      return [{ icon: 'hand' }, ...counted('fairy', p.fairy), ...counted('common', p.common), ...counted('black', p.black), ...counted('amulet', p.amulet)];
    case 'fist.tiebreak.own': case 'fist.tiebreak.revealed':
      return [{ icon: 'hand' }, ...counted('silver', p.silver), ...counted('amulet', p.amulet)];
    case 'fist.auction.won': return [{ icon: 'crown' }, { icon: 'card' }];
    case 'fist.gain.fairy': return counted('fairy', p.n);
    case 'fist.gain.common': return counted('common', p.n);
    case 'fist.gain.silver': return counted('silver', p.n);
    case 'fist.gain.black': return [{ icon: 'black' }];
    case 'fist.gain.amulet': return [{ icon: 'amulet' }];
    case 'fist.power.paid_stones': case 'fist.quack.paid': return stones(p);
    case 'fist.thief.coin_taken':
      return p.coin === 'common' ? [{ icon: 'common' }] : p.coin === 'fairy' || p.coin === 'fairy_spent' ? [{ icon: 'fairy' }] : [];
    case 'fist.necromancer.paid': return counted('fairy', p.fairy);
    case 'fist.score.points': case 'fist.end.points_reached': case 'fist.end.turn_limit': case 'fist.end.stopped': return [{ icon: 'crown' }];
    default: return [];
  }
}

function master(code: string, p: Record<string, unknown>): LogIcon[] {
  const cards = Array.isArray(p.cards) ? p.cards.length : 0;
  if (code === 'master.deal.hand' || code === 'master.round.set_aside') return [{ icon: 'card', n: cards }];
  if (code === 'master.move.placed') return [{ icon: 'dragon' }];
  if (code === 'master.round.won' || code.startsWith('master.end.')) return [{ icon: 'crown' }];
  return [];
}

function farkle(code: string, p: Record<string, unknown>): LogIcon[] {
  if (code === 'farkle.roll.rolled') return dice(p.dice);
  if (code === 'farkle.roll.die' || code === 'farkle.power.reroll') return num(p.face) ? [{ icon: 'die', face: num(p.face) }] : [];
  if (code === 'farkle.roll.eaten') return [{ icon: 'dragon' }, ...dice(p.dice)];
  if (code === 'farkle.keep.attack') return [...dice(p.dice), { icon: 'sword' }];
  if (code.startsWith('farkle.keep.')) return [...dice(p.dice), { icon: 'soldier' }];
  if (code === 'farkle.end.dragon_slain') return [{ icon: 'crown' }, { icon: 'dragon' }];
  if (code.startsWith('farkle.end.')) return [{ icon: 'crown' }];
  if (code === 'farkle.skirmish.won') return [{ icon: 'crown' }, { icon: 'sword' }];
  if (code === 'farkle.choose.skirmish' || code.startsWith('farkle.skirmish.')) return [{ icon: 'sword' }];
  if (code === 'farkle.choose.battle' || code.startsWith('farkle.battle.') || code === 'farkle.power.tabby') return [{ icon: 'dragon' }];
  if (code.startsWith('farkle.setup.companion') || code === 'farkle.companion.new' || code.startsWith('farkle.setup.item')
    || code.startsWith('farkle.item.') || code === 'farkle.alliance.item') return [{ icon: 'card' }];
  if (code.startsWith('farkle.recruit.') || code === 'farkle.alliance.double' || code === 'farkle.power.scare' || code === 'farkle.choose.recruit') return [{ icon: 'soldier' }];
  return [];
}

const BY_GAME: Record<string, (code: string, p: Record<string, unknown>) => LogIcon[]> = { fist, master, farkle };

/** The icons of an event's line (none for a game or an event without a mapping). */
export function iconsOf(e: EventModel): LogIcon[] {
  const game = gameOf(e.code);
  return BY_GAME[game]?.(e.code, e.params) ?? [];
}

/** A group's heading: a catalogue code and its params; `card` names a card (by id, of the
 * game `game`) that the screen renders into the params' `card`. */
export interface LogHeading {
  code: string;
  params: Record<string, unknown>;
  card?: { game: string; id: string };
}

export interface LogGroup {
  /** the seq of its first event (a stable key) */
  key: number;
  heading: LogHeading;
  /** the event that opened the group ("Turn 3 begins", "Up for auction: the Wizard"): the
   * heading says what it says, so it is not a line of its own (not in `events`) */
  opener?: EventModel;
  events: EventModel[];
}

/** The heading an event opens a group with (null: it goes into the group before). */
function opens(e: EventModel, auctions: number): LogHeading | null {
  const p = e.params;
  switch (e.code) {
    case 'fist.auction.card': return { code: 'web.log.group.auction', params: { n: auctions + 1 }, card: { game: gameOf(e.code), id: String(p.card) } };
    case 'fist.turn.start': return { code: 'web.log.group.turn', params: { turn: p.turn } };
    case 'farkle.turn.start': return { code: 'web.log.group.turn_of', params: { seat: p.seat, turn: p.turn, army: p.army } };
    case 'master.round.begin': return { code: 'web.log.group.round', params: { round: p.round } };
    default: return null;
  }
}

/** The events in groups, in order: a Fist auction ("Auction 3: the Wizard", numbered from the
 * game's first), a Fist turn, a Farkle player's turn, a Master round, each headed by what its
 * opening event says (that event is the group's `opener`, not one of its lines); what comes
 * before the first is the setup. */
export function groupLog(events: readonly EventModel[]): LogGroup[] {
  const out: LogGroup[] = [];
  let auctions = 0;
  for (const e of events) {
    const heading = opens(e, auctions);
    if (heading) {
      if (e.code === 'fist.auction.card') auctions++;
      out.push({ key: e.seq, heading, opener: e, events: [] });
      continue;
    }
    const last = out[out.length - 1];
    if (last) last.events.push(e);
    else out.push({ key: e.seq, heading: { code: 'web.log.group.setup', params: {} }, events: [e] });
  }
  return out;
}
