// Hints and post-game analysis on the client (issue 16): the server computes them
// (dragonlair/server/coach.py, from a seat's view only); this formats what it sends, and
// puts each option in words as the game's own screen does.
import type { AnalysedDecision, Analysis, Hint, HintOption } from './api';
import { decimal } from './format';

// the shapes the server sends (generated from its OpenAPI document: src/gen/openapi.ts)
export type { AnalysedDecision, HintOption };
export type HintData = Hint;
export type AnalysisData = Analysis;

/** A value in its unit: soldiers with one decimal below 100 and none above, a win chance in
 * percent; ``—`` where the bot gave the option no value. Decimals as the reader's language
 * writes them (format.ts decimal: "45.7 %", German "45,7 %"). */
export function formatValue(value: number | null, unit: string, lang = 'en'): string {
  if (value === null || Number.isNaN(value)) return '—';
  if (unit === 'win_chance') return `${decimal(value * 100, 1, lang)} %`;
  return decimal(value, Math.abs(value) < 100 ? 1 : 0, lang);
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
 * keeps, Fist's power decisions from the view, a bid by its coins, a Master card and cell),
 * from what the view says the action is (its `legal` lists and action forms, lib/forms.ts),
 * never by reading the action's text; null where the view gives no words for it (the
 * notation is shown alone). */
export type Labeller = (action: string) => string | null;

/** A game's labeller of options from the view's `legal` (and its `public` part, where the
 * words depend on it: a Farkle keep is attack or defence in a Skirmish): `labels.ts` in the game's folder
 * (web/src/games/<game>/labels.ts) exports it as `labeller`; a game without one shows the
 * notation alone. Found the way the game screens are, so that no list of games is kept here. */
export type GameLabeller = (legal: unknown, render: Render, names: readonly string[], pub?: unknown) => Labeller;

const labellers: Record<string, GameLabeller> = Object.fromEntries(
  Object.entries(import.meta.glob<{ labeller: GameLabeller }>('../games/*/labels.ts', { eager: true }))
    .map(([path, mod]) => [path.split('/').at(-2) ?? '', mod.labeller]),
);

/** The labeller of one seat's options at one decision, from its view (the view's `legal`,
 * which the game screens label the same way). */
export function labeller(game: string, view: unknown, render: Render, names: readonly string[]): Labeller {
  const legal = (view as { legal?: unknown } | null)?.legal ?? null;
  const pub = (view as { public?: unknown } | null)?.public ?? null;
  const own = Object.hasOwn(labellers, game) ? labellers[game] : undefined;
  return own ? own(legal, render, names, pub) : () => null;
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

/** One line of the analysis summary per unit, as a catalogue code and params. Expected
 * soldiers add up ("1240 expected soldiers lost in all"); win chances do not (each is a
 * share of the same game: three decisions that each cost 90 % cannot lose 270 %), so for
 * them the line counts the decisions that cost some and names the costliest (issue 25). */
export function lossLines(data: AnalysisData, render: Render, lang = 'en'): string[] {
  const out: string[] = [];
  for (const [unit, total] of Object.entries(data.loss_totals)) {
    const unitWords = render(`web.hint.unit.${unit}`);
    if (unit !== 'win_chance') {
      out.push(render('web.analysis.lost', { loss: formatValue(total, unit, lang), unit: unitWords }));
      continue;
    }
    const costly = data.decisions.filter((d) => d.unit === unit && (d.loss ?? 0) > 1e-9);
    if (!costly.length) continue;
    const most = Math.max(...costly.map((d) => d.loss ?? 0));
    out.push(render('web.analysis.lost_chance', { n: costly.length, loss: formatValue(most, unit, lang) }));
  }
  return out;
}

/** A win-chance chart's geometry: the plot area inside the axes, the line's points on a fixed
 * scale of 0 to 100 % (not stretched to the values: 48 % to 52 % stays a flat line), the
 * scale's ticks, and the first and last step of the x axis. */
export interface ChanceChart {
  points: string;
  /** left, top, right, bottom of the plot area */
  box: { left: number; top: number; right: number; bottom: number };
  /** y ticks: the value (0..1) and its height */
  ticks: { value: number; y: number }[];
  first: number;
  last: number;
}

export function chanceChart(series: readonly { index: number; value: number }[], width: number, height: number): ChanceChart {
  const box = { left: 40, top: 8, right: width - 8, bottom: height - 22 };
  const first = series.length ? series[0]!.index : 0;
  const last = series.length ? series[series.length - 1]!.index : 0;
  const span = last - first;
  const x = (i: number) => (span === 0 ? (box.left + box.right) / 2 : box.left + ((i - first) * (box.right - box.left)) / span);
  const y = (v: number) => box.bottom - Math.min(1, Math.max(0, v)) * (box.bottom - box.top);
  return {
    points: series.map((p) => `${x(p.index).toFixed(1)},${y(p.value).toFixed(1)}`).join(' '),
    box,
    ticks: [0, 0.5, 1].map((value) => ({ value, y: y(value) })),
    first,
    last,
  };
}
