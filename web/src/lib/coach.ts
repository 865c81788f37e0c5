// Hints and post-game analysis on the client (issue 16): the server computes them
// (dragonlair/server/coach.py, from a seat's view only); this formats what it sends.

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
