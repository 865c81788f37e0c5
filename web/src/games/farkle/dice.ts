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
