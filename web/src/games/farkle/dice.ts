// Dragon Farkle helpers: the label of each legal action (by the kind and what it names, as the
// view's `legal.moves` give them: the engine's, docs/views.md), the faces of a dice text, and
// the farkle risk of rolling k dice with the table's scoring table. The risk is information
// shown next to each keep; what is legal, scored or kept always comes from the view.
import type { Move, ScoringTableModel } from '../../gen/view-farkle';

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

type Counts = [number, number, number, number, number, number];

// every entry of the table is a combination whatever its value (as the engine's Scorer)
function combos(): Counts[] {
  const out: Counts[] = [];
  const c = (pairs: Record<number, number>): Counts => {
    const v: Counts = [0, 0, 0, 0, 0, 0];
    for (const [f, n] of Object.entries(pairs)) v[Number(f) - 1]! += n;
    return v;
  };
  out.push(c({ 1: 1 }), c({ 5: 1 }));
  for (let f = 1; f <= 6; f++) out.push(c({ [f]: 3 }));
  out.push([1, 1, 1, 1, 1, 1]);
  for (let a = 1; a <= 6; a++)
    for (let b = a; b <= 6; b++)
      for (let d = b; d <= 6; d++) {
        const v: Counts = [0, 0, 0, 0, 0, 0];
        for (const f of [a, b, d]) v[f - 1]! += 2;
        if (Math.max(...v) <= 4) out.push(v);
      }
  return out;
}

const riskCache = new Map<string, number>();

/** The chance that k dice show no scoring combination (a farkle), 0..1. */
export function farkleRisk(k: number, table: ScoringTableModel): number {
  if (k <= 0) return 0;
  const key = `${k}:${JSON.stringify(table)}`;
  const hit = riskCache.get(key);
  if (hit !== undefined) return hit;
  const cs = combos();
  let farkles = 0;
  const total = 6 ** k;
  const counts: Counts = [0, 0, 0, 0, 0, 0];
  for (let i = 0; i < total; i++) {
    counts.fill(0);
    let x = i;
    for (let d = 0; d < k; d++) {
      counts[x % 6]! += 1;
      x = Math.floor(x / 6);
    }
    if (!cs.some((c) => c.every((n, f) => n <= counts[f]!))) farkles++;
  }
  const r = farkles / total;
  riskCache.set(key, r);
  return r;
}
