// The sealed-bid builder's logic (F5.1, F5.7): the counts a bid may hold come from the view's
// `legal` limits (the engine's), never from the client's own reading of the rules; the action
// text is the one the view's `legal.form` writes for those counts (lib/forms.ts): the client
// picks the options, the engine's words and their order are the view's.
import type { BidLimits, FistLegal } from '../../gen/view-fist';
import { formText } from '../../lib/forms';

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

/** The text of the draft bid (clamped to the limits), as the view's form writes it; null when
 * the view asks no bid. */
export function bidAction(d: BidDraft, legal: FistLegal | null | undefined): string | null {
  if (legal?.kind !== 'bid' || !legal.bid || !legal.form) return null;
  const b = clampBid(d, legal.bid);
  return formText(legal.form, { fairy: b.fairy, common: b.common, black: b.black, amulet: b.amulet });
}

/** The text of a tie-break bid of `silver` (clamped to the limits), with the Red Amulet if
 * chosen and held, as the view's form writes it; null when the view asks none. */
export function silverAction(silver: number, amulet: boolean, legal: FistLegal | null | undefined): string | null {
  if (legal?.kind !== 'silver' || !legal.silver || !legal.form) return null;
  const lim = legal.silver;
  return formText(legal.form, { silver: clampInt(silver, lim.silver), amulet: amulet && lim.amulet });
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
