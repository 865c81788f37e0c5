// Fist of Dragonstones as a table: where the seats sit around it, the fists opened at a
// reveal (each seat's coins, from the `fist.bid.revealed` / `fist.tiebreak.revealed` events,
// docs/events-fist.md) and how the reveal is told in words for a screen reader. Pure: tested
// in table.test.ts with the real catalogues.
import type { Revealed } from './bid';
import { gainWords, type Render } from './decisions';

export type CoinKind = 'fairy' | 'common' | 'silver' | 'black' | 'amulet';
export const COIN_KINDS: readonly CoinKind[] = ['fairy', 'common', 'silver', 'black', 'amulet'];

/** The seats around the table as a player sees them: the others in playing order starting
 * after the viewer (across the table), the viewer at the bottom; a spectator sees them all
 * across, in seat order. */
export function seatsAround(players: number, me: number | null): { across: number[]; me: number | null } {
  const all = Array.from({ length: Math.max(0, players) }, (_, i) => i);
  if (me === null || me < 0 || me >= players) return { across: all, me: null };
  return { across: all.slice(me + 1).concat(all.slice(0, me)), me };
}

export interface OpenFist {
  seq: number;
  seat: number;
  /** a sealed bid of gold (an auction) or of Silver (a tie-break) */
  round: 'bid' | 'silver';
  /** the coins in the hand, by kind (only those bid) */
  coins: { kind: CoinKind; n: number }[];
  /** the bid's value, as the engine counted it */
  value: number;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** The fists opened together (the last reveal, lastReveal of bid.ts): each seat's coins. */
export function openFists(reveal: readonly Revealed[]): OpenFist[] {
  return reveal.map((r) => {
    const round = r.code === 'fist.tiebreak.revealed' ? 'silver' : 'bid';
    const kinds: readonly CoinKind[] = round === 'silver' ? ['silver', 'amulet'] : ['fairy', 'common', 'black', 'amulet'];
    return {
      seq: r.seq,
      seat: num(r.params.seat),
      round,
      coins: kinds.map((kind) => ({ kind, n: num(r.params[kind]) })).filter((c) => c.n > 0),
      value: num(r.params.value),
    };
  });
}

/** Where an opened coin goes, as the table shows it moving: bid Fairy Gold stays with its
 * owner, spent until the turn ends (F5.3, F4.4), every other coin bid goes to the bank (F5.3,
 * F5.7). The picture of the rule, not the rule: the counts on screen are the view's. */
export const goesToBank = (kind: CoinKind): boolean => kind !== 'fairy';

/** One opened fist in words: "Ada: 3 Fairy Gold and 1 Common Gold, worth 4", the empty fist
 * said as such. */
export function fistWords(f: OpenFist, render: Render, names: readonly string[]): string {
  const gain = Object.fromEntries(f.coins.map((c) => [c.kind, c.n]));
  const coins = gainWords(gain, render) || render(f.round === 'silver' ? 'fist.ui.silver_zero' : 'fist.ui.bid_empty');
  return render('fist.ui.fist_open', { seat: f.seat, coins, value: f.value }, names);
}

/** How many coins of a stack are drawn (the count is written beside it). */
export const drawnCoins = (n: number, most = 5): number => Math.max(0, Math.min(Math.trunc(n), most));

export type ChoiceArt = { gem: 'red' | 'blue' | 'yellow'; n: number } | { coin: CoinKind; n: number } | { card: string };

const STONE_KEYS = ['red', 'blue', 'yellow'] as const;
const isCoin = (k: unknown): k is CoinKind => typeof k === 'string' && (COIN_KINDS as readonly string[]).includes(k);
const isStone = (k: unknown): k is (typeof STONE_KEYS)[number] => typeof k === 'string' && (STONE_KEYS as readonly string[]).includes(k);

/** What a power decision's choice is drawn with beside its words, from the choice's own
 * params (the view's `legal.choices`): the stones paid, the reward taken, the coin and the
 * stone of a purchase, the colour named or stolen, the card picked. */
export function choiceArt(code: string, params: Readonly<Record<string, unknown>> | undefined): ChoiceArt[] {
  const p = params ?? {};
  const counts = (from: Readonly<Record<string, unknown>>): ChoiceArt[] => [
    ...COIN_KINDS.filter((k) => num(from[k]) > 0).map((k) => ({ coin: k, n: num(from[k]) })),
    ...STONE_KEYS.filter((c) => num(from[c]) > 0).map((c) => ({ gem: c, n: num(from[c]) })),
  ];
  switch (code) {
    case 'fist.choice.pay': return counts(p);
    case 'fist.choice.take': return p.gain && typeof p.gain === 'object' ? counts(p.gain as Record<string, unknown>) : [];
    case 'fist.choice.buy': return [...(isCoin(p.coin) ? [{ coin: p.coin, n: 1 }] : []), ...(isStone(p.colour) ? [{ gem: p.colour, n: 1 }] : [])];
    case 'fist.choice.colour': case 'fist.choice.steal_stone': return isStone(p.colour) ? [{ gem: p.colour, n: 1 }] : [];
    case 'fist.choice.pick': case 'fist.choice.double': return typeof p.card === 'string' ? [{ card: p.card }] : [];
    default: return [];
  }
}
