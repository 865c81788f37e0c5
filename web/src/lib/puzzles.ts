// Puzzles (issue 27; dragonlair/server/puzzles, docs/puzzles.md "On the server"): the calls to
// /api/puzzles and the pure helpers of the puzzle page (tested in puzzles.test.ts). The
// server never sends the answer before the solver answers: the page draws the position with
// the game's own screen from the seat's view, takes the action that screen would send, and
// posts it as the answer; the answer brings the proof (every option's value).
import type { components } from '../gen/openapi';
import type { View } from '../gen/protocol';
import { call } from './api';
import { formatValue } from './coach';
import { initialState, type TableState } from './protocol';

type Schemas = components['schemas'];
export type PuzzleQuestion = Schemas['PuzzleOut'];
export type PuzzleAnswer = Schemas['PuzzleAnswerOut'];
export type PuzzleThemes = Schemas['PuzzleThemesOut'];
export type PuzzleOption = Schemas['PuzzleOptionOut'];

const path = (id: string) => `/api/puzzles/${encodeURIComponent(id)}`;

/** the query of GET /api/puzzles (only what is set) */
export function nextQuery(game: string | null, theme: string | null): string {
  const q = new URLSearchParams();
  if (game) q.set('game', game);
  if (theme) q.set('theme', theme);
  const text = q.toString();
  return text ? `?${text}` : '';
}

/** the page's address for a choice of game and theme */
export function pageHref(game: string | null, theme: string | null): string {
  return `/puzzles${nextQuery(game, theme)}`;
}

export const puzzles = {
  next: (game: string | null, theme: string | null) => call<PuzzleQuestion>('GET', `/api/puzzles${nextQuery(game, theme)}`),
  daily: () => call<PuzzleQuestion>('GET', '/api/puzzles/daily'),
  show: (id: string) => call<PuzzleQuestion>('GET', path(id)),
  themes: () => call<PuzzleThemes>('GET', '/api/puzzles/themes'),
  answer: (id: string, action: string) => call<PuzzleAnswer>('POST', `${path(id)}/answer`, { action }),
};

/** What a puzzle's view leaves out of a game's public part (dragonlair/games/<game>/
 * puzzles.py strips what differs between games but not between positions) and its screen
 * still reads: put back empty. */
const PUBLIC_DEFAULTS: Record<string, Record<string, unknown>> = {
  farkle: { history: [] },
};

/** The table state a game screen draws: a live table holding the puzzle's view (no events:
 * the position is all a puzzle shows). */
export function puzzleTable(p: PuzzleQuestion): TableState {
  const raw = p.view as { public?: Record<string, unknown> };
  const pub = { ...(PUBLIC_DEFAULTS[p.game] ?? {}), ...(raw.public ?? {}) };
  const view = { events: [], events_since: 0, events_total: 0, result: null, ...p.view, public: pub } as unknown as View;
  return { ...initialState(), phase: 'live', seat: p.seat, seq: 0, status: 'running', view, events: [] };
}

/** Seat names for the screen, by number ("Player 2"); the screen marks the solver's own. */
export function seatNames(p: PuzzleQuestion, other: (n: number) => string): string[] {
  const sizes = (p.view as { public?: { hand_sizes?: unknown[] } }).public?.hand_sizes;
  const players = Array.isArray(sizes) && sizes.length > 1 ? sizes.length : Math.max(2, p.seat + 1);
  return Array.from({ length: players }, (_, i) => other(i + 1));
}

/** The answer as the server knows it: the legal option the screen's text names (the screens
 * send record notation; blanks are collapsed), or null when it is none of them. */
export function matchLegal(legal: readonly string[], sent: string): string | null {
  const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();
  const want = norm(sent);
  return legal.find((a) => norm(a) === want) ?? null;
}

/** One row of the proof: the option, its value as the unit reads, what it loses to the best,
 * and whether it was the best and the one chosen. */
export interface ProofRow {
  action: string;
  value: string;
  loss: string;
  best: boolean;
  chosen: boolean;
}

export function proofRows(a: PuzzleAnswer, lang: string): ProofRow[] {
  const top = Math.max(...a.options.map((o) => o.value));
  return [...a.options]
    .sort((x, y) => Number(y.best) - Number(x.best) || y.value - x.value)
    .map((o) => ({
      action: o.action, value: formatValue(o.value, a.unit, lang),
      loss: o.best ? '' : formatValue(top - o.value, a.unit, lang), best: o.best, chosen: o.action === a.answer,
    }));
}

/** A rating change as "+12" / "−8" (a real minus sign); "±0" for none. */
export function signed(delta: number): string {
  if (delta === 0) return '±0';
  return delta > 0 ? `+${delta}` : `−${Math.abs(delta)}`;
}
