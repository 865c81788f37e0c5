// The sealed-bid builder's logic (F5.1, F5.7): the counts a bid may hold come from the view's
// `legal` limits (the engine's), never from the client's own reading of the rules; the action
// text is the one the engine parses (`bid fF cC [black] [amulet]`, `silver N [amulet]`).
import type { BidLimits, SilverLimits } from '../../gen/view-fist';

export interface BidDraft {
  fairy: number;
  common: number;
  black: boolean;
  amulet: boolean;
}

export const EMPTY_BID: BidDraft = { fairy: 0, common: 0, black: false, amulet: false };

const clampInt = (n: number, max: number): number => Math.max(0, Math.min(Math.trunc(Number.isFinite(n) ? n : 0), Math.max(0, max)));

/** The draft within the limits: counts clamped, a coin the limits do not offer dropped. */
export function clampBid(d: BidDraft, limits: BidLimits): BidDraft {
  return {
    fairy: clampInt(d.fairy, limits.fairy),
    common: clampInt(d.common, limits.common),
    black: d.black && limits.black,
    amulet: d.amulet && limits.amulet,
  };
}

/** One coin kind up or down by step, within the limits. */
export function step(d: BidDraft, limits: BidLimits, coin: 'fairy' | 'common', by: number): BidDraft {
  return clampBid({ ...d, [coin]: d[coin] + by }, limits);
}

export function bidAction(d: BidDraft, limits: BidLimits): string {
  const b = clampBid(d, limits);
  return `bid f${b.fairy} c${b.common}${b.black ? ' black' : ''}${b.amulet ? ' amulet' : ''}`;
}

export function silverAction(silver: number, amulet: boolean, limits: SilverLimits): string {
  return `silver ${clampInt(silver, limits.silver)}${amulet && limits.amulet ? ' amulet' : ''}`;
}

export interface Revealed {
  seq: number;
  code: string;
  params: Record<string, unknown>;
}

/** The last batch of revealed fists (all bids of an auction, or of a tie-break, opened at
 * once): the run of `fist.bid.revealed` / `fist.tiebreak.revealed` events ending at the last
 * one, as the server sent them. */
export function lastReveal(events: readonly { seq: number; code: string; params: Record<string, unknown> }[]): Revealed[] {
  const isReveal = (c: string) => c === 'fist.bid.revealed' || c === 'fist.tiebreak.revealed';
  let end = events.length - 1;
  while (end >= 0 && !isReveal(events[end]!.code)) end--;
  if (end < 0) return [];
  const code = events[end]!.code;
  let start = end;
  while (start > 0 && events[start - 1]!.code === code) start--;
  return events.slice(start, end + 1).map((e) => ({ seq: e.seq, code: e.code, params: e.params }));
}
