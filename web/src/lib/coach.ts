// Hints and post-game analysis on the client (issue 16): the server computes them
// (dragonlair/server/coach.py, from a seat's view only); this formats what it sends, and
// puts each option in words as the game's own screen does.
import type { FarkleLegal } from '../gen/view-farkle';
import type { FistLegal } from '../gen/view-fist';
import { farkleChoices } from '../games/farkle/choices';
import { decisionPrompt } from '../games/fist/decisions';

export interface HintOption {
  action: string;
  value: number | null;
  best: boolean;
  loss: number | null;
  visits?: number;
}

export interface HintData {
  unit: string;
  exact: boolean;
  win_chance: number | null;
  options: HintOption[];
}

export interface AnalysedDecision extends HintData {
  index: number;
  turn: number;
  played: string;
  best: string;
  loss: number | null;
}

export interface AnalysisData {
  game: string;
  seat: number;
  complete: boolean;
  decisions_total: number;
  loss_totals: Record<string, number>;
  mistakes: number[];
  win_chance: { index: number; value: number }[];
  decisions: AnalysedDecision[];
}

/** A value in its unit: soldiers with no decimals below 100 and none above, a win chance in
 * percent; ``—`` where the bot gave the option no value. */
export function formatValue(value: number | null, unit: string): string {
  if (value === null || Number.isNaN(value)) return '—';
  if (unit === 'win_chance') return `${(value * 100).toFixed(1)} %`;
  return Math.abs(value) < 100 ? value.toFixed(1) : value.toFixed(0);
}

/** The options best first, then by value (unvalued last), each once. */
export function ranked(options: readonly HintOption[]): HintOption[] {
  return [...options].sort((a, b) => Number(b.best) - Number(a.best) || (b.value ?? -Infinity) - (a.value ?? -Infinity));
}

/** The decisions the analysis names as the biggest mistakes, in its order, with a loss. */
export function mistakes(data: AnalysisData): AnalysedDecision[] {
  const byIndex = new Map(data.decisions.map((d) => [d.index, d]));
  return data.mistakes.map((i) => byIndex.get(i)).filter((d): d is AnalysedDecision => d !== undefined && (d.loss ?? 0) > 1e-9);
}

/** renders a catalogue code with params (t of i18n.svelte.ts, or format.render in tests) */
export type Render = (code: string, params?: Record<string, unknown>, names?: readonly string[]) => string;

/** An option's words: how the game's own screen labels that action (Farkle's choices and
 * keeps, Fist's power decisions from the view, a bid by its coins, a Master card and cell);
 * null where the view gives no words for it (the notation is shown alone). */
export type Labeller = (action: string) => string | null;

const FIST_BID = /^bid f(\d+) c(\d+)((?: (?:black|amulet))*)$/;
const FIST_SILVER = /^silver (\d+)( amulet)?$/;
const MASTER_PLACE = /^place ([a-z]+) ([a-z]\d+)$/;

/** The labeller of one seat's options at one decision, from its view (the view's `legal`,
 * which the game screens label the same way). */
export function labeller(game: string, view: unknown, render: Render, names: readonly string[]): Labeller {
  const legal = (view as { legal?: unknown } | null)?.legal ?? null;
  if (game === 'farkle') {
    const byAction = new Map(farkleChoices(legal as FarkleLegal | null, render, names).map((c) => [c.action, c.label]));
    return (action) => byAction.get(action) ?? null;
  }
  if (game === 'fist') {
    const prompt = decisionPrompt(legal as FistLegal | null, render, names);
    const byAction = new Map((prompt?.choices ?? []).map((c) => [c.action, c.label]));
    const coin = (c: string) => render(`fist.coin.${c}`);
    return (action) => {
      const chosen = byAction.get(action);
      if (chosen !== undefined) return chosen;
      let m = FIST_BID.exec(action);
      if (m) {
        const [fairy, common] = [Number(m[1]), Number(m[2])];
        const extras = (m[3] ?? '').trim().split(' ').filter(Boolean);
        let label = fairy + common === 0 && extras.length ? render('web.hint.fist.no_gold') :
          fairy + common === 0 ? render('web.hint.fist.empty') : render('web.hint.fist.bid', { fairy, common });
        for (const x of extras) label = render('web.hint.fist.plus', { label, coin: coin(x) });
        return label;
      }
      m = FIST_SILVER.exec(action);
      if (m) {
        const label = render('web.hint.fist.silver', { n: Number(m[1]) });
        return m[2] ? render('web.hint.fist.plus', { label, coin: coin('amulet') }) : label;
      }
      return null;
    };
  }
  if (game === 'master') {
    return (action) => {
      const m = MASTER_PLACE.exec(action);
      return m ? render('web.hint.master.place', { card: render(`master.card.${m[1]}`), cell: m[2] }) : null;
    };
  }
  return () => null;
}

/** How many moves of the table (log entries) lie between the position a hint was computed
 * for (`hintSeq`, the server's answer) and the one shown now (`seq`): 0 while it is the
 * same position (or the update for it has not arrived yet). A hint answered after bots moved
 * is shown for its own position, marked with this number, never dropped. */
export function hintAge(hintSeq: number, seq: number): number {
  return Math.max(0, seq - hintSeq);
}

/** The views a hint may be labelled from, by seq: the newest `keep` (a hint's words come from
 * the view of the position it answers, whose legal list the current view may no longer have). */
export function rememberView<V>(views: ReadonlyMap<number, V>, seq: number, view: V, keep = 32): Map<number, V> {
  const out = new Map(views);
  out.set(seq, view);
  const seqs = [...out.keys()].sort((a, b) => a - b);
  for (const s of seqs.slice(0, Math.max(0, seqs.length - keep))) out.delete(s);
  return out;
}
